"""``forest guardians order --seconds S`` counts from the process's start (found measuring: at
``--seconds 0.2`` the command ended 1.1 s after exec on a loaded machine, Python's start-up and
the imports outside the budget). :mod:`solver.command_clock` reads the start; no assertion here
reads the wall clock: the start is injected (a ``/proc/self/stat`` text, a start long past)."""

from __future__ import annotations

import json
import sys
import time

import pytest

from solver import command_clock
from solver.cli import main

STAT = "4242 (forest (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 1 0 0 20 0 1 0 {ticks} 1 2"
"""A ``/proc/self/stat`` line: the command's name may hold spaces and parentheses; field 22 is
the start time in clock ticks since boot."""


def _ticks_per_second() -> int:
    import os

    return os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(sys.platform != "linux", reason="/proc/self/stat is Linux's")
def test_the_start_is_read_from_the_process_s_stat() -> None:
    hz = _ticks_per_second()
    before = time.monotonic()
    begun = command_clock.process_started(STAT.format(ticks=5 * hz), now_boot=7.5)
    after = time.monotonic()
    assert begun is not None and before - 2.5 <= begun <= after - 2.5  # 2.5 s old


@pytest.mark.parametrize(
    "stat", ["", "4242 (forest) S 1", STAT.format(ticks="x"), STAT.format(ticks=10**12)]
)
def test_an_unreadable_or_future_start_is_none(stat: str) -> None:
    assert command_clock.process_started(stat, now_boot=7.5) is None


@pytest.mark.skipif(sys.platform != "linux", reason="/proc/self/stat is Linux's")
def _main_module(monkeypatch: pytest.MonkeyPatch, entry: str | None) -> None:
    """This process's ``__main__`` as one whose file is ``entry``."""
    import types

    module = types.ModuleType("__main__")
    if entry is not None:
        module.__file__ = entry
    monkeypatch.setitem(sys.modules, "__main__", module)


def test_this_process_started_before_now(monkeypatch: pytest.MonkeyPatch) -> None:
    _main_module(monkeypatch, "/venv/bin/forest")  # as the command's own process
    begun = command_clock.process_started()
    assert begun is not None and begun <= time.monotonic()
    assert command_clock.mark(from_process_start=True) == pytest.approx(begun, abs=0.05)


@pytest.mark.parametrize("entry", ["/home/me/notebook.py", "/usr/bin/ipython", None])
def test_main_called_by_another_python_starts_its_clock_when_called(
    monkeypatch: pytest.MonkeyPatch, entry: str | None
) -> None:
    """Defect (found by attack): ``main()`` without its words, called by a Python that had
    run a while (``sys.argv`` set), started the command's clock at that process's start: a
    review of ``--total-seconds 5`` in a Python that had waited 6 s reviewed nothing. The
    process's start counts only where ``__main__`` is the command (``python -c``: no file)."""
    _main_module(monkeypatch, entry)
    begun = command_clock.process_started()
    before = time.monotonic()
    assert begun is not None and begun < before and not command_clock.is_the_command()
    assert before <= command_clock.mark(from_process_start=True) <= time.monotonic()
    for command in ("/venv/bin/forest", "/repo/solver/cli.py"):
        _main_module(monkeypatch, command)
        assert command_clock.is_the_command(), command


def test_a_command_given_its_words_starts_its_clock_when_called() -> None:
    before = time.monotonic()
    main(["--version"])
    assert before <= command_clock.started() <= time.monotonic()


def _order(capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["guardians", "order", "guardians/chain", "--seconds", "30", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_order_spends_its_seconds_from_the_command_s_start(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = _order(capsys)
    assert fresh["exact"] and fresh["stopped"] == []
    monkeypatch.setattr(command_clock, "started", lambda: time.monotonic() - 60.0)
    late = _order(capsys)  # the start-up took 60 s of the 30
    assert not late["exact"] and late["stopped"] and late["method"] == "first-legal"
    assert late["count"] <= fresh["count"]
