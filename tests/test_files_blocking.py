"""Every command that reads a user's file opens it with the one opener (solver.files.read_bytes):
a FIFO, a symlink to one, a kernel pseudo-file (/proc/kmsg waits for data; /proc/self/environ is
the environment) are refused at once, one line, exit 2, never waited on and never quoted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import solver
from solver.errors import FormatError, OptionError
from solver.files import read_bytes, read_head
from solver.testing import one_line_error, run_forest

TIMEOUT = 60  # a hang fails (subprocess.TimeoutExpired), not a wait for ever

COMMANDS = {
    "guardians show": ("guardians", "show", "{}"),
    "guardians order": ("guardians", "order", "{}"),
    "trial show --state": ("trial", "show", "--state", "{}"),
    "trial review": ("trial", "review", "{}"),
    "dog show": ("dog", "show", "{}"),
}


def _argv(template: tuple[str, ...], path: str) -> list[str]:
    return [part.replace("{}", path) for part in template]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    pipe = tmp_path / "game.fifo"
    os.mkfifo(pipe)
    return pipe


@pytest.mark.parametrize("command", ["guardians show", "trial show --state", "trial review"])
def test_a_fifo_and_a_symlink_to_one_are_refused_not_waited_on(tmp_path, fifo, command):
    link = tmp_path / "link.grove"
    link.symlink_to(fifo)
    for path in (fifo, link):
        run = run_forest(*_argv(COMMANDS[command], str(path)), timeout=TIMEOUT)
        one_line_error(run, f"{path}: is a pipe (FIFO)")


@pytest.mark.skipif(not os.path.exists("/proc/kmsg"), reason="no /proc/kmsg")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_kernel_pseudo_file_is_refused_not_read(command):
    run = run_forest(*_argv(COMMANDS[command], "/proc/kmsg"), timeout=TIMEOUT)
    one_line_error(run, "/proc/kmsg: ")


def test_a_parse_error_never_quotes_a_file_that_is_not_a_game_file(tmp_path):
    proc = run_forest(
        "guardians", "show", "/proc/self/environ", timeout=TIMEOUT, env={"SECRET_X": "hunter2"}
    )
    one_line_error(run=proc, needle="/proc/self/environ: ")
    assert "SHELL" not in proc.stderr and "hunter2" not in proc.stderr
    copy = tmp_path / "environ.grove"
    copy.write_bytes(b"SECRET_X=hunter2\x00SHELL=/bin/sh\x00")
    run = run_forest("guardians", "show", str(copy), timeout=TIMEOUT)
    one_line_error(run, f"{copy}: line 1, column 1: expected ")
    assert "hunter2" not in run.stderr and "SHELL" not in run.stderr


SECRET_FILE_COMMANDS = [
    ("guardians", "show", "{}"),
    ("guardians", "show", "--state", "{}"),
    ("guardians", "play", "{}", "--games", "1", "--agent", "random"),
    ("guardians", "show", "--option", "tiles={}"),
    ("trial", "show", "{}"),
    ("trial", "best-move", "--state", "{}"),
    ("dog", "show", "dog/puddles", "--state", "{}"),
    ("dog", "review", "{}"),
]


@pytest.mark.parametrize("template", SECRET_FILE_COMMANDS, ids=" ".join)
def test_a_json_file_that_is_no_json_is_named_never_quoted(tmp_path, template):
    """A saved state, game record, tile set or levels file that is not JSON at all (a copy of
    an environment named .json) is refused naming the file; its first bytes are not repeated
    (as the game files' parsers do: FormatError.in_file). They were: 'found 'SECRET_X=...''."""
    from tests.test_cli_position import cli

    secret = tmp_path / "environ.json"
    secret.write_text("SECRET_X=hunter2\nSHELL=/bin/sh\n")
    code, _, err = cli(_argv(template, str(secret)))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert str(secret) in err and "(the file does not start as one)" in err, err
    assert "hunter2" not in err and "SECRET" not in err, err


def test_a_tile_set_path_over_stdio_is_never_quoted(tmp_path):
    """The hint engine's stdio transport reads a guardians tile set a request names (a path):
    an error names the path and the problem, never the file's content (docs/hint-engine.md)."""
    from solver.hint.engine import answer

    secret = tmp_path / "environ"
    secret.write_text("SECRET_X=hunter2\n")
    request = {"id": "q", "game": "guardians", "options": {"players": 2, "tiles": str(secret)}}
    reply = answer(request, allow_paths=True)
    assert reply["field"] == "options.tiles" and str(secret) in reply["error"], reply
    assert "hunter2" not in reply["error"] and "SECRET" not in reply["error"], reply


def test_the_opener_reads_regular_files_and_names_what_it_refuses(tmp_path, fifo):
    game = tmp_path / "a.forest"
    game.write_bytes(b"x" * 3_000_000)  # more than one read's chunk
    assert read_bytes(game, "forest file") == b"x" * 3_000_000
    with pytest.raises(OptionError, match="is a pipe"):
        read_bytes(fifo, "forest file")
    with pytest.raises(OptionError, match="is a folder"):
        read_bytes(tmp_path, "forest file")
    with pytest.raises(OptionError, match="kernel pseudo-file"):
        read_bytes("/proc/self/status", "forest file")
    with pytest.raises(OptionError, match="larger than 1 MiB,"):
        read_bytes(game, "forest file", limit=1 << 20)


def test_every_size_limit_says_its_size_one_way(tmp_path):
    """A file or ``--state`` text past the 16 MiB limit says "16 MiB" whoever reads it (found by
    attack: the opener and --state said "16 MB" for 16 MiB, the hint engine "16 MiB")."""
    from solver.cmdkit import read_state_text
    from solver.files import MAX_FILE_BYTES, bytes_said
    from solver.hint.errors import HintError
    from solver.hint.position import MAX_PATH_BYTES, read_path

    assert MAX_FILE_BYTES == MAX_PATH_BYTES == 16 * 2**20  # the size the words below name
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    said = "larger than 16 MiB"
    with pytest.raises(OptionError, match=f"{said}, too large for a state file"):
        read_state_text(str(big))
    with pytest.raises(OptionError, match=f"--state is {said}$"):
        read_state_text("{" + " " * MAX_FILE_BYTES)
    with pytest.raises(HintError, match=f"{said}, not a tile set file"):
        read_path(str(big), "options.tiles", "tile set")
    # the words for sizes that are not whole MiB: never "0 MB"; one byte is no "1 bytes" (a
    # 413's X-Max-Body-Said under serve --max-body-bytes 1)
    assert [bytes_said(n) for n in (1 << 30, 3 << 10, 1 << 12, 1000, 0, 1)] == [
        "1 GiB", "3 KiB", "4 KiB", "1000 bytes", "0 bytes", "1 byte"
    ]  # fmt: skip


def test_a_file_error_still_quotes_past_the_first_line():
    err = FormatError("a cell", line=3, column=2, found="'x'").in_file("f")
    assert str(err) == "f: line 3, column 2: expected a cell, found 'x'"
    kept = FormatError("UTF-8 text", line=1, column=1, found="an invalid byte").in_file("f")
    assert str(kept).endswith("found an invalid byte")


def test_a_huge_sheet_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.forest"
    with big.open("wb") as handle:
        handle.truncate(17 * 1024 * 1024)
    run = run_forest("dog", "show", str(big))
    one_line_error(run, "larger than 16 MiB,")


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_an_empty_source_or_a_symlink_loop_is_named_as_such(tmp_path, game):
    """Found by attack: ``forest trial show ''`` named a folder the user never gave (``.: pack:
    ... a folder holding none of the pack's files``), and a symlink loop was 'no such file or
    folder'. Every game now names an empty path and a loop as the others did."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    run = run_forest(game, "show", "", timeout=TIMEOUT)
    one_line_error(run, "an empty path is not a ")
    run = run_forest(game, "show", str(loop), timeout=TIMEOUT)
    one_line_error(run, f"{loop}: cannot read: Too many levels of symbolic links")
    assert "no such" not in run.stderr


@pytest.mark.parametrize(
    ("name", "words"),
    [("a\0b.json", "a path holds no NUL character"), ("\ud800", "not a path this system can name")],
)
def test_a_path_no_file_can_have_is_an_option_error(name, words):
    # Found by attack: solver.load_game("dog", forest="a\0b") raised ValueError ("embedded null
    # byte"), a lone surrogate UnicodeEncodeError (from os.path.realpath), not a library error.
    with pytest.raises(OptionError, match=words):
        read_bytes(name, "saved state")
    with pytest.raises(OptionError, match=f"{words}.*it names no forest file"):
        solver.load_game("dog", forest=name)
    with pytest.raises(OptionError, match=f"{words}.*it names no tile set"):
        solver.load_game("guardians", tiles=name)


def test_a_guess_at_a_file_s_kind_never_blocks(tmp_path):
    # Found by attack: 'forest dog show /proc/kmsg' hung: refused by the forest reader, the file
    # was then read with a plain open() to see whether it was a saved state given as FILE.
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert read_head(fifo, 64) is None
    assert read_head("/proc/kmsg", 64) is None
    assert read_head(tmp_path, 64) is None
    (tmp_path / "s.json").write_text('{"game": "dog"}', encoding="utf-8")
    assert read_head(tmp_path / "s.json", 4) == b'{"ga'
