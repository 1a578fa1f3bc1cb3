"""A command whose standard output cannot be written says why in one line, exit 2 (found by
helper 91: ``forest games > /dev/full``, and every other command writing to a full disk, printed
a traceback and "this is a bug in forest-solver", exit 1). A reader that has gone (a closed
pipe, ``forest ... | head``) still ends the command quietly."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys

import pytest

from solver.cli import main
from solver.errors import OutputError
from solver.registry import registered_games
from solver.stream_guards import StdoutGuard

COMMANDS = [
    ["games"],
    ["games", "--json"],
    ["hint", "--schema"],
    *[
        [name, "show", *(["dog/another-dog"] if name == "dog" else [])]
        for name in registered_games()
    ],
    ["dog", "best-move", "dog/another-dog", "--json"],
]


class _Failing(io.StringIO):
    """A stream whose every write fails with ``error``."""

    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, _text: str) -> int:
        raise self.error


def test_a_failed_write_is_an_output_error_naming_why():
    full = StdoutGuard(_Failing(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))))
    with pytest.raises(OutputError, match=r"^cannot write the output: No space left on device$"):
        print("an answer", file=full)
    gone = StdoutGuard(_Failing(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    with pytest.raises(BrokenPipeError):  # the reader gone: the command line's quiet end
        print("an answer", file=gone)


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_a_full_disk_is_one_line_and_exit_2(words, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _Failing(OSError(errno.ENOSPC, "No space left on device")))
    assert main(words) == 2
    err = capsys.readouterr().err
    assert err == "forest: error: cannot write the output: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_dev_full_as_stdout_is_one_line_and_exit_2():
    """The real thing: the descriptor's own failure, and nothing more at the interpreter's exit
    (its last flush of what is still buffered would fail again: 'Exception ignored ...')."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "solver.cli", "dog", "show", "dog/another-dog"],
            stdout=full, stderr=subprocess.PIPE, timeout=300, text=True,
        )  # fmt: skip
    assert (done.returncode, done.stderr) == (
        2,
        "forest: error: cannot write the output: No space left on device\n",
    )


def _closed(fd: int, *words: str, cwd: str | None = None) -> subprocess.CompletedProcess[str]:
    """``forest WORDS`` with its descriptor ``fd`` (0 or 1) closed, as ``<&-`` or ``>&-`` leave
    it: Python starts with ``sys.stdin`` or ``sys.stdout`` None."""
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", *words],
        stdin=None if fd == 0 else subprocess.DEVNULL,
        stdout=None if fd == 1 else subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        timeout=300, cwd=cwd, preexec_fn=lambda: os.close(fd),
    )  # fmt: skip


def test_a_closed_stdin_is_an_empty_input():
    """``<&-`` (found by helper 91): ``play --human`` raised 'input(): lost sys.stdin' and
    ``hint --stdio`` an AttributeError, tracebacks and "this is a bug"; an empty input now."""
    human = _closed(0, "dog", "play", "dog/another-dog", "--human")
    assert (human.returncode, human.stderr) == (
        2,
        "forest: error: the input ended before the game did\n",
    )
    engine = _closed(0, "hint", "--stdio")
    assert (engine.returncode, engine.stderr) == (0, "")


def test_a_closed_stdout_discards_the_output_but_not_the_hint_engines(tmp_path):
    """``>&-``: a command's printed answer is discarded as Python's print discards it, its
    files written (``play --record`` tripped on ``sys.stdout.isatty()``: a traceback); the
    stdio engine, whose every answer would go nowhere, refuses in one line (it exited 0)."""
    played = _closed(1, "dog", "play", "dog/another-dog", "--games", "1", "--record", "r.json",
                     cwd=str(tmp_path))  # fmt: skip
    assert (played.returncode, played.stderr) == (0, "")
    assert (tmp_path / "r.json").is_file()
    engine = _closed(1, "hint", "--stdio")
    assert (engine.returncode, engine.stderr) == (
        2,
        "forest: error: cannot write the answers: standard output is closed\n",
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize(
    ("words", "status"),
    [(["dog", "show", "no-such.forest"], 2), (["dog", "shw"], 2),
     (["analyse", "--count", "3", "--size", "5x5", "--jobs", "1", "-o", "r.csv"], 0)],
)  # fmt: skip
def test_a_stderr_that_cannot_be_written_keeps_the_status(tmp_path, words, status):
    """``2>/dev/full`` (found by helper 91): the error line's failed write, or a note's (the
    analysis's 'landed in one class'), raised on: status 1, as for a bug, though the error was
    the user's or the analysis had finished and written its file."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "solver.cli", *words], stdout=subprocess.DEVNULL,
            stderr=full, timeout=300, cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == status
    assert (tmp_path / "r.csv").is_file() == (words[0] == "analyse")


def test_a_gone_reader_of_a_review_ends_it_quietly(tmp_path):
    """``forest dog review r.json | head`` (found by the new-user pass): the review's table is
    printed by rich, whose own handler of a closed pipe exits 1; the command line ends a gone
    reader quietly, exit 0 and nothing on stderr, as every other command does. The pipe's
    reading end is closed before the review writes, so every write fails."""
    pytest.importorskip("rich")
    record = tmp_path / "r.json"
    assert main(["dog", "play", "dog/another-dog", "--agent", "random", "--games", "1",
                 "--no-progress", "--record", str(record)]) == 0  # fmt: skip
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "solver.cli", "dog", "review", str(record)], stdout=write,
            stderr=subprocess.PIPE, text=True, timeout=300,
        )  # fmt: skip
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")
