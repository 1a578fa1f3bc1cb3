"""``serve_lines`` stopping in-process: a stop signal while reading waits for a free slot, and the
output closing under it (``solver.hint.stdio``)."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import threading

import pytest

from solver.errors import OptionError
from solver.hint import stdio
from solver.hint.limits import Caps

from .conftest import UNREACHED

SLOW = {"game": "dog", "options": {"forest": "dog/another-dog"}, "actions": [10], "exact": False,
        "limit": {"seconds": UNREACHED}}  # fmt: skip
"""A search that runs its whole budget unless stopped: an hour, under caps that allow it (no
assertion reads the clock: a stop that waited for the budget fails as a timeout)."""
CAPS = Caps(max_seconds=UNREACHED)


def _lines(*requests: object) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n"
                    for r in requests)  # fmt: skip


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers are the main thread's")  # fmt: skip
def test_a_stop_while_reading_waits_for_a_slot_answers_at_once(monkeypatch):
    """More requests than MAX_PENDING: reading waits for a slot; SIGTERM then stops every request
    at once (it used to wait for the first search's whole budget)."""
    monkeypatch.setattr(stdio, "MAX_PENDING", 2)
    read, write = os.pipe()
    os.write(write, _lines(*({"id": f"r{n}", **SLOW} for n in range(3))))
    out = io.StringIO()
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    try:
        with open(read, "rb") as source:
            assert stdio.serve_lines(source, out, workers=1, caps=CAPS, stop_on_signals=True) == 0
    finally:
        timer.cancel()
        os.close(write)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert sorted(a["id"] for a in answers) == ["r0", "r1", "r2"]
    assert all(a["terminated"] is True for a in answers)


class _Closed(io.StringIO):
    """An output whose reader has gone."""

    def write(self, _text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_the_output_closing_stops_the_searches_in_flight():
    """A write on the reading thread finds the output gone: the engine gives up at once, its
    searches stopped (they used to run their whole budgets first)."""
    source = io.BytesIO(_lines({"id": "r0", **SLOW}, b"not json"))
    with pytest.raises(BrokenPipeError):  # not after the search's hour
        stdio.serve_lines(source, _Closed(), workers=1, caps=CAPS)


class _Full(io.StringIO):
    """An output on a full disk (``/dev/full``): every write fails with ENOSPC."""

    def write(self, _text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("first", [{"id": "q", "game": "dog", "options": {"forest":
                                    "dog/another-dog"}, "exact": True}, b"not json"])  # fmt: skip
def test_an_output_that_cannot_be_written_stops_the_engine_with_its_reason(first):
    """An answer that cannot be written (a full disk) stops the engine, its searches stopped,
    and says why as a solver error: written on the pool's threads (a search's answer) the
    failure went unseen, the engine read on and searched for nobody, then exited 0; written on
    the reading thread (a malformed line's answer) it raised the OSError, a traceback in
    ``forest hint --stdio`` (found by helper 91, stdout on /dev/full)."""
    source = io.BytesIO(_lines(first, {"id": "r0", **SLOW}, {"id": "r1", **SLOW}))
    with pytest.raises(OptionError, match="cannot write the answers: No space left on device"):
        stdio.serve_lines(source, _Full(), workers=1, caps=CAPS)  # not after the searches' hours


def test_forest_hint_on_a_full_disk_says_so_in_one_line():
    """The command line: one line, exit 2, no traceback (``forest hint --stdio > /dev/full``)."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "solver.cli", "hint", "--stdio"], input=b"not json\n",
            stdout=full, stderr=subprocess.PIPE, timeout=300,
        )  # fmt: skip
    err = done.stderr.decode()
    assert (done.returncode, err) == (
        2,
        "forest: error: cannot write the answers: No space left on device\n",
    )


def test_a_read_is_interrupted_once_however_many_signals_come():
    """A second signal while the first one's interruption is being handled must not raise out of
    the read's ``except`` (it would end the engine with a traceback): the handler raises once a
    read. The real race is a few bytecodes wide; the handler is called here as Python would."""
    signals = stdio._StopSignals()
    raised = []

    def lines():
        signals._reading = True  # as next_line has it while the read runs
        for _ in range(2):
            try:
                signals._handle(signal.SIGTERM, None)
            except stdio._Stop:
                raised.append(True)
        yield b"read"

    assert signals.next_line(lines()) == b"read"
    assert raised == [True] and signals.stopped
    assert isinstance(signals.next_line(iter([b"more"])), stdio._Stop)  # nothing read after


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers are the main thread's")  # fmt: skip
def test_a_stop_during_the_warm_up_reads_no_line_and_exits_0(monkeypatch, capsys):
    """``forest hint --stdio`` opens every game before reading (seconds under load): a SIGTERM or
    Ctrl-C then is a stop like any other, exit 0 with no line read. The warm-up ran before the
    handlers were in force, so a SIGTERM 2.5 s after the start at load 11 killed the engine (exit
    -15, found by attack); Ctrl-C, here, said 'interrupted' (130)."""
    from solver import cli
    from solver.hint import jobs

    monkeypatch.setattr(jobs, "warm_games", lambda: os.kill(os.getpid(), signal.SIGINT))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(_lines({"id": "r0", **SLOW}))))
    assert cli.main(["hint", "--stdio"]) == 0
    assert capsys.readouterr().out == ""  # the request was not read: no answer, not even later
