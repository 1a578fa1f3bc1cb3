"""When the running ``forest`` command started, on ``time.monotonic()``'s clock.

A budget a user gives a command (``forest guardians order --seconds 0.2``) is timed by the user
from pressing Enter: Python's start-up and the imports come out of it too. :func:`mark` is
called at the top of :func:`solver.cli.main`: for the real command line (``argv`` not given) the
clock starts at the process's own start, read from ``/proc/self/stat`` (Linux: its start time
in clock ticks since boot, against ``CLOCK_BOOTTIME``), else, or where that cannot be read, at
the mark; a call with an explicit ``argv`` (a test, a caller in a longer-lived process) starts
it at the mark, as does a call without ``argv`` from a process that is not the command's own
(:func:`is_the_command`: a longer-lived Python calling ``main()`` with ``sys.argv`` set, whose
start long before would have spent the command's budget). :func:`started` reads it (the mark's
moment if none was made).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

__all__ = ["is_the_command", "mark", "process_started", "started"]

_STARTED: list[float] = []
"""The command's start, once marked (a list: set in place, no ``global``)."""


def process_started(stat: str | None = None, now_boot: float | None = None) -> float | None:
    """This process's start on ``time.monotonic()``'s clock, or ``None`` where the system does
    not say (not Linux, ``/proc`` unreadable, a start time later than now). ``stat`` and
    ``now_boot``: ``/proc/self/stat``'s text and ``CLOCK_BOOTTIME`` now, for tests."""
    monotonic_now = time.monotonic()
    try:
        if stat is None:
            with open("/proc/self/stat", encoding="ascii") as file:
                stat = file.read()
        if now_boot is None:
            now_boot = time.clock_gettime(time.CLOCK_BOOTTIME)
        ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, after the command's name
        age = now_boot - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, AttributeError, IndexError, ValueError):
        return None
    if age < 0:
        return None
    return monotonic_now - age


def is_the_command() -> bool:
    """Whether this process runs as the ``forest`` command: its ``__main__`` is the console
    script ``forest`` or ``python -m solver.cli``. Else (a notebook, a script, ``python -c``) it
    may have run a while before calling ``main()``: found by attack, a Python that waited 6 s,
    then called ``main()`` for a review of ``--total-seconds 5``, reviewed nothing."""
    entry = getattr(sys.modules.get("__main__"), "__file__", None)
    if not isinstance(entry, str):
        return False
    path = Path(entry)
    return path.stem == "forest" or path.parts[-2:] == ("solver", "cli.py")


def mark(from_process_start: bool) -> float:
    """Start the command's clock now, or (``from_process_start``, in the command's own process:
    :func:`is_the_command`) at the process's start where it is known; the start."""
    now = time.monotonic()
    begun = process_started() if from_process_start and is_the_command() else None
    _STARTED[:] = [now if begun is None else min(begun, now)]
    return _STARTED[0]


def started() -> float:
    """The running command's start (now, if no command marked one)."""
    return _STARTED[0] if _STARTED else time.monotonic()
