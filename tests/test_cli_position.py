"""Opening the position a command names (:mod:`solver.cli_position`): FILE, ``--players``,
``--state``. A saved state sets the player count and refuses another; a bad saved state, named as
FILE or given with ``--state``, is one line of error (exit status 2), never a traceback.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from solver.cli import main
from solver.registry import load_game
from solver.testing import one_line_error
from solver.testing import run_forest as forest


def cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return int(code or 0), out.getvalue(), err.getvalue()


def test_a_saved_state_for_another_player_count_is_refused(tmp_path):
    # Defect: `forest trial show STATE.json --players 2` showed a 3-player state, the option
    # silently ignored.
    state = load_game("trial", engine="reference", players=3).new_initial_state()
    path = tmp_path / "three.json"
    path.write_text(state.to_json(), encoding="utf-8")
    code, out, err = cli(["trial", "show", str(path), "--players", "2"])
    assert code == 2 and out == ""
    assert err.startswith("forest: error: ") and err.count("\n") == 1 and "3" in err, err


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe\x00garbage", b'{"game": "trial", "state": ' + b"[" * 100_000],
    ids=["binary", "deep"],
)
def test_a_bad_saved_state_named_as_file_is_one_line(tmp_path, content):
    # Defect: `forest trial show bad.json` (a binary file, or one nested too deeply) ended in a
    # UnicodeDecodeError or RecursionError traceback (the --state option already refused them).
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for command in (["show"], ["best-move", "--iterations", "2"]):
        code, out, err = cli(["trial", *command, str(path)])
        assert code == 2 and out == "", err
        assert err.startswith("forest: error: ") and err.count("\n") == 1, err
        assert "bad.json" in err, err


def test_a_deeply_nested_state_file_is_a_format_error(tmp_path):
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    run = forest("dog", "best-move", "dog/tiny-2x2", "--state", "deep.json", cwd=tmp_path)
    one_line_error(run, "nested too deeply")


def test_a_saved_state_sets_the_player_count(tmp_path):
    # A 2-player Trial state given with --state opens a 2-player game (the default is 4).
    from solver.registry import game_spec

    opened = game_spec("trial").open(None, players=2)
    (tmp_path / "two.json").write_text(opened.state.to_json(), encoding="utf-8")
    run = forest("trial", "show", "--state", "two.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    run = forest("trial", "show", "--state", "two.json", "--players", "3", cwd=tmp_path)
    one_line_error(run, "3 players")
