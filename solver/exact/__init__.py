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
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.errors import OptionError
from solver.fields import is_positive_number

__all__ = ["deterministic_solver"]

MIN_DETERMINISTIC_TIME = 0.01
"""The smallest deterministic time limit handed to CP-SAT (it rejects 0)."""


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
    return solver
