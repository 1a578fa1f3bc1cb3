"""The command line never shows a user a traceback: any argument vector either runs or gets one
line of error and exit status 2.

Two ways in: every command with malformed values for each of its options (a walk), and
hypothesis-generated argument vectors over the real commands, options and a pool of good and bad
values (40 in the default suite, 600 in the slow one), run in-process with tiny budgets and a
time limit per example.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cli import build_parser, main

BAD_VALUES = ["", "-1", "0", "nan", "inf", "1e400", "x", "9x", "0x0", "-3x4", "{", "[]", "dog/"]
GOOD_VALUES = ["1", "2", "3x3", "dog/tiny-2x2", "dog/corridor", "mcts", "random", "greedy"]
SKIP = {"-h", "--help", "--version"}


def _commands() -> list[tuple[list[str], list[str]]]:
    """Every leaf command as (path, its option strings)."""
    out: list[tuple[list[str], list[str]]] = []

    def walk(parser, path: list[str]) -> None:
        subparsers = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
        if not subparsers:
            options = [s for a in parser._actions for s in a.option_strings if s not in SKIP]
            out.append((path, options))
            return
        for name, child in subparsers[0].choices.items():
            walk(child, [*path, name])

    walk(build_parser(), [])
    return out


# `forest serve` runs until it is stopped: tests/hint/test_server.py drives it as a process
COMMANDS = [command for command in _commands() if command[0] != ["serve"]]


@contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    """TimeoutError after ``seconds``. The test's own limit (pytest-timeout's SIGALRM timer) is
    put back afterwards with the time it had left, at once if that ran out meanwhile."""

    def stop(signum, frame):
        raise TimeoutError(f"no answer within {seconds} s")

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, stop)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer > 0:
            left = outer - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))


def _run(argv: list[str], capsys) -> tuple[int, str]:
    try:
        with _time_limit(60):
            code = main(argv)
    except SystemExit as exc:  # argparse: usage errors (2), --help/--version (0)
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    return code, err


def _check(argv: list[str], code: int, err: str) -> None:
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.count("\n") == 1 and ": error: " in err, (argv, err)


def test_every_command_is_walked():
    paths = {" ".join(path) for path, _ in COMMANDS}
    assert {"games", "analyse", "dog show", "dog play", "dog best-move", "dog route"} <= paths


@pytest.mark.parametrize(("path", "options"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_malformed_values_for_every_option(path, options, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = [*path]
    if path and path[0] == "dog" and path[-1] not in ("list", "generate"):
        base.append("dog/tiny-2x2")
    for option in options:
        # tiny budgets on the other options, so that a command that runs finishes quickly
        budget = [
            flag_value
            for flag, value in (("--games", "1"), ("--iterations", "2"), ("--agent", "random"))
            if flag in options and option not in (flag, "--agents")
            for flag_value in (flag, value)
        ]
        for value in ("-1", "nan", "x", ""):
            argv = [*base, option, *([value] if value else []), *budget]  # "" leaves it out
            code, err = _run(argv, capsys)
            _check(argv, code, err)


def _fuzzed(examples: int):
    """Hypothesis' settings for the random argument vectors: ``examples`` of them."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@_fuzzed(40)
@given(data=st.data())
def test_random_argument_vectors(data, capsys, tmp_path, monkeypatch):
    _random_argument_vector(data, capsys, tmp_path, monkeypatch)


@pytest.mark.slow
@_fuzzed(600)
@given(data=st.data())
def test_many_random_argument_vectors(data, capsys, tmp_path, monkeypatch):
    _random_argument_vector(data, capsys, tmp_path, monkeypatch)


def _random_argument_vector(data, capsys, tmp_path, monkeypatch) -> None:
    """A random command line (a command, up to 4 options and values, good or bad) exits 0 or 2
    with one line of error, never a traceback."""
    monkeypatch.chdir(tmp_path)
    path, options = data.draw(st.sampled_from(COMMANDS))
    argv = list(path)
    for _ in range(data.draw(st.integers(0, 4))):
        argv.append(data.draw(st.sampled_from([*options, *GOOD_VALUES, *BAD_VALUES] or ["x"])))
        if data.draw(st.booleans()):
            argv.append(data.draw(st.sampled_from(GOOD_VALUES + BAD_VALUES)))
    # tiny budgets, so that a command that runs finishes quickly
    argv += ["--games", "1"] if "--games" in options else []
    argv += ["--iterations", "2"] if "--iterations" in options else []
    argv += ["--count", "1", "--size", "3x3"] if path == ["analyse"] else []
    code, err = _run(argv, capsys)
    _check(argv, code, err)
