"""Shared CP-SAT helpers for the games' exact models.

Each game keeps its own models in its package (the dog's routes are
:mod:`solver.games.dog.routes`); what they share lives here: one way to build a deterministic
solver, so that the same model gives the same answer on every run and machine (one worker, a fixed
seed, a *deterministic* time limit rather than wall-clock seconds). Parallelism goes across
instances, never inside one solve.

>>> solver = deterministic_solver(2.5)
>>> solver.parameters.num_workers, solver.parameters.random_seed
(1, 0)
>>> deterministic_solver(float("nan"))
Traceback (most recent call last):
...
solver.errors.OptionError: time limit must be a positive number of seconds, not nan

Solve with :func:`solve`, not ``solver.solve``: CP-SAT leaves Ctrl-C to the program then (left
to itself it caught it and answered as if a limit had been reached).
"""

from __future__ import annotations

import threading
import time

from ortools.sat.python import cp_model

from solver.errors import OptionError
from solver.fields import is_positive_number

__all__ = ["deterministic_solver", "solve", "wall_limit"]

MIN_DETERMINISTIC_TIME = 0.01
"""The smallest deterministic time limit handed to CP-SAT (it rejects 0)."""


def wall_limit(solver: cp_model.CpSolver, deadline: float | None) -> None:
    """Bound ``solver``'s next solve by the wall clock as well: what is left until ``deadline``
    (``time.monotonic()``; ``None``: no bound). Its deterministic limit stays what keeps its
    answers repeatable; this only ends a solve the caller's own budget has no time left for."""
    if deadline is not None:
        left = max(deadline - time.monotonic(), MIN_DETERMINISTIC_TIME)
        solver.parameters.max_time_in_seconds = left


def deterministic_solver(time_limit: float) -> cp_model.CpSolver:
    """A CP-SAT solver with one worker, ``random_seed = 0`` and a deterministic time limit.

    ``time_limit`` is in CP-SAT's deterministic seconds (roughly wall-clock seconds on one core,
    but repeatable); it must be a positive finite number.
    """
    if not is_positive_number(time_limit):
        raise OptionError(f"time limit must be a positive number of seconds, not {time_limit!r}")
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_deterministic_time = max(float(time_limit), MIN_DETERMINISTIC_TIME)
    solver.parameters.catch_sigint_signal = False
    return solver


def solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> int:
    """The status of ``solver.solve(model)``, a solve that Ctrl-C stops as it stops the rest.

    Left to itself CP-SAT catches SIGINT during a solve, stops the search and returns its best as
    if a limit had been reached: Ctrl-C was swallowed (``forest guardians order`` said "stopped
    at the budget", ``forest dog route`` "not proven (time limit)", both went on and exited 0).
    Here CP-SAT leaves the signal alone, and on the main thread the solve runs on a helper thread
    while this one waits, so Python's handler runs at once: the search is stopped and the
    handler's exception (``KeyboardInterrupt``) goes on up. Off the main thread (where no signal
    handler runs) it solves in place. The search is the same either way.
    """
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        return int(solver.solve(model))
    status: list[int] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            status.append(int(solver.solve(model)))
        except BaseException as exc:  # pragma: no cover - handed to the caller below
            failure.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name="cp-sat", daemon=True).start()
    try:
        while not done.wait(0.05):
            pass
    except BaseException:
        solver.stop_search()
        _wait_out(done)
        raise
    if failure:
        raise failure[0]
    return status[0]


def _wait_out(done: threading.Event) -> None:
    """Wait for a stopped solve to return (soon), whatever other signals come meanwhile: a
    process that exits while CP-SAT's thread runs aborts."""
    while True:
        try:
            if done.wait(0.05):
                return
        except KeyboardInterrupt:
            continue
