"""Exact where it fits: one place decides whether a position is solved or estimated.

The hint engine, the review and the command line's ``best-move`` and ``solve`` all value a
position through :func:`search_position`, whose ``exact`` is three-valued:

- ``None`` (the default): the exact expectimax is tried where it is offered (the caller says so:
  the game declares it, the position has no hidden information), within the memory cap and at
  most :data:`EXACT_SHARE` of ``seconds`` (:data:`UNTIMED_EXACT_SECONDS` when the budget names
  iterations only); if it does not finish in that, MCTS estimates with the time that is left.
- ``True``: exact, with :data:`INSISTED_SHARE` of ``seconds`` (no time bound without
  ``seconds``); if it cannot finish, an MCTS fallback with the rest, and a note saying so.
- ``False``: never exact: MCTS.

:func:`plan_exact` is the decision alone. Every estimate honours its budget: MCTS stops at the
deadline, but never before every legal move (or chance outcome of a die) at the root has a value
(:func:`floor_simulations`: one simulation per move at most), so a tiny ``seconds`` still gives
every move a value, and a value is never invented. ``Valued.method`` says what produced the
numbers (``"exact"``, ``"mcts"``); ``Valued.notes`` says, in words for a user, why a fallback
happened.

>>> import solver
>>> game = solver.load_game("dog", forest="dog/another-dog")
>>> state = game.new_initial_state()
>>> state.apply_action(10)                              # roll: 1 step
>>> found = search_position(state, limit=Limit(seconds=5))
>>> found.method, [m.label for m in found.result.moves][:2], round(found.value, 6)
('exact', ['W', 'N'], 0.888889)
>>> search_position(state, exact=False, limit=Limit(iterations=300)).method
'mcts'
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from solver.errors import OptionError, SearchBudgetError, SearchTimeoutError
from solver.game import CHANCE, State, require_state
from solver.render.ascii import count
from solver.search.coverage import ChanceCoverage, chance_coverage
from solver.search.limit import Limit, refuse_iterations_past
from solver.search.mcts import (
    DEFAULT_ITERATIONS,
    MAX_VISITS,
    MCTSTree,
    Resumed,
    _root_value,
    has_heuristic,
)
from solver.search.options import MCTSOptions
from solver.search.result import SearchResult
from solver.search.watch import Watch, run_sliced

__all__ = [
    "EXACT_SHARE",
    "INSISTED_SHARE",
    "UNTIMED_EXACT_SECONDS",
    "ExactPlan",
    "Valued",
    "estimate_options",
    "exact_attempt",
    "floor_simulations",
    "plan_exact",
    "search_position",
    "stop_cause",
]

EXACT_SHARE = 0.5
"""``exact`` omitted: the exact attempt may take at most this share of ``seconds``."""

INSISTED_SHARE = 0.75
"""``exact=True``: the exact search may take this share of ``seconds``; the rest is kept for a
fallback estimate, so that an answer that cannot be exact is still an estimate."""

UNTIMED_EXACT_SECONDS = 1.0
"""``exact`` omitted and a budget of iterations only: the exact attempt's seconds."""

LINES_GRACE = 0.05
"""Seconds past an estimate's deadline for reading its moves' lines: the best move's line is
always read, the others while this lasts (each one after it is the move alone, noted): a root of
hundreds of moves spent 0.2 s and more past a hint's seconds on them."""


@dataclass(frozen=True)
class ExactPlan:
    """Whether to try the exact search, and with which budget.

    ``attempt``: try it; ``seconds``: its time (None: memory only); ``memory_mb``: its table
    cap (None: expectimax's default); ``insisted``: the caller asked for exact (``True``).
    """

    attempt: bool
    seconds: float | None
    memory_mb: float | None
    insisted: bool


def plan_exact(
    exact: bool | None,
    *,
    offered: bool,
    seconds: float | None,
    memory_mb: float | None = None,
    why_not: str = "exact search is not offered here",
) -> ExactPlan:
    """The decision of :func:`search_position`: ``exact`` (None, True, False) against what is
    offered and the budget. ``exact=True`` where it is not offered raises
    :class:`~solver.errors.OptionError` with ``why_not``.

    >>> plan_exact(None, offered=True, seconds=2.0)
    ExactPlan(attempt=True, seconds=1.0, memory_mb=None, insisted=False)
    >>> plan_exact(None, offered=False, seconds=2.0).attempt
    False
    """
    if exact is not None and not isinstance(exact, bool):
        raise OptionError(f"exact must be True, False or None, not {exact!r}")
    if exact is True and not offered:
        raise OptionError(why_not)
    if exact is False or not offered:
        return ExactPlan(False, None, memory_mb, False)
    if exact is True:
        share = None if seconds is None else INSISTED_SHARE * seconds
        return ExactPlan(True, share, memory_mb, True)
    share = UNTIMED_EXACT_SECONDS if seconds is None else EXACT_SHARE * seconds
    return ExactPlan(True, share, memory_mb, False)


def estimate_options(state: State) -> MCTSOptions:
    """The MCTS configuration whose values are reported: the game's heuristic leaves with the
    max backup where it has one (the ``mcts`` agent's own configuration), else random rollouts
    with the max backup. The mean backup of random rollouts converges to the value of play
    that keeps exploring, far below the game's value (0.66 for an exact 0.89 after 50,000
    simulations on ``dog/another-dog``); the max backup follows the best move's subtree."""
    if has_heuristic(state):
        return MCTSOptions(c=0.1, evaluator="heuristic", backup="max")
    return MCTSOptions(c=1.4, evaluator="rollout", backup="max")


CHANCE_FLOOR_MAX = 6
"""A chance root of at most this many outcomes (a die) gets one simulation per outcome whatever
the clock says; a larger one gets one at least and otherwise stops at the deadline."""


def floor_simulations(state: State) -> int:
    """The simulations a time-bounded MCTS runs whatever the clock says: one per legal move at a
    decision root (a value for every move, never an invented one); at a chance root one per
    outcome when they are few (:data:`CHANCE_FLOOR_MAX`), else one: its value is the
    probability-weighted mean over the outcomes its simulations sampled (one full rollout per
    outcome of a 59-outcome Trial draw ran 3.5 s past a 1 s budget).
    :func:`~solver.search.coverage.chance_coverage` says when not every outcome was seen."""
    if state.is_chance_node():
        outcomes = len(state.chance_outcomes())
        return max(1, outcomes) if outcomes <= CHANCE_FLOOR_MAX else 1
    return max(1, len(state.legal_actions()))


def stop_cause(*, max_nodes: bool, terminated: bool, iterations: int | None, total: int) -> str:
    """What ended a search of ``total`` simulations, in a note's words: its ``"memory cap"``
    (the tree's node cap), a ``"stop (a terminate)"``, its ``"iteration budget"`` (all
    ``iterations`` run), else the ``"time"``."""
    if max_nodes:
        return "memory cap"
    if terminated:
        return "stop (a terminate)"
    if iterations is not None and total >= iterations:
        return "iteration budget"
    return "time"


@dataclass(frozen=True)
class Valued:
    """A position searched by :func:`search_position`.

    ``result``: the search's :class:`~solver.search.result.SearchResult` (ranked moves at a
    decision node; none at a chance node); ``values``: every player's value of the position;
    ``player``: whose view ``value`` is (the mover, or at a chance node the ``view`` asked);
    ``method``: ``"exact"`` or ``"mcts"``; ``simulations``: MCTS simulations (0 for exact);
    ``notes``: why the method is not the one asked for, in words; ``terminated``: stopped by
    ``cancel`` (the values are what the search had); ``exact_failure``: why an exact attempt
    gave up (``"memory"``, ``"time"`` or ``"stopped"``; None when none was made or it finished);
    ``coverage``: a chance root's outcomes left unsampled, as numbers (its note is in ``notes``).
    """

    result: SearchResult | None
    values: tuple[float, ...]
    player: int
    method: str
    simulations: int
    notes: tuple[str, ...] = ()
    terminated: bool = False
    exact_failure: str | None = None
    coverage: ChanceCoverage | None = None

    @property
    def value(self) -> float:
        return self.values[self.player]

    @property
    def exact(self) -> bool:
        return self.method == "exact"


Progress = Callable[["Valued"], None]


def search_position(
    state: State,
    *,
    exact: bool | None = None,
    offered: bool = True,
    limit: Limit | None = None,
    seed: int = 0,
    view: int = 0,
    options: MCTSOptions | None = None,
    cancel: threading.Event | None = None,
    progress: Progress | None = None,
    why_not: str = "exact search is not offered here",
    max_seconds: float | None = None,
) -> Valued:
    """Value ``state`` (a decision or a chance node) exactly where it fits, else estimate it.

    ``exact``: None, True or False (the module docstring); ``offered``: whether the exact search
    applies at all (the game offers it, the position is of perfect information); ``limit``: the
    budget (``iterations`` and/or ``seconds`` for MCTS, ``seconds`` and ``memory_mb`` for the
    exact attempt; neither iterations nor seconds: ``DEFAULT_ITERATIONS``); ``view``: the player
    whose value a chance node reports; ``options``: the MCTS options (default
    :func:`estimate_options`); ``cancel``: set from another thread to stop (the answer is then
    what the search had, ``terminated``); ``progress``: called with the partial answer after
    each MCTS slice (the search then runs in slices); ``max_seconds``: a bound on the whole call
    on top of ``limit.seconds`` (a server's cap: a budget of iterations only still ends by then,
    and the exact attempt takes at most its share of it). The whole call honours both.
    """
    require_state(state)
    if state.is_terminal():
        raise OptionError("the game is over: there is nothing to search")
    limit = limit if limit is not None else Limit()
    refuse_iterations_past(limit.iterations, MAX_VISITS)  # as mcts() refuses it
    started = time.monotonic()
    bound = min(s for s in (limit.seconds, max_seconds, math.inf) if s is not None)
    deadline = None if bound == math.inf else started + bound
    plan = plan_exact(
        exact, offered=offered, seconds=limit.seconds, memory_mb=limit.memory_mb, why_not=why_not
    )
    if plan.attempt and max_seconds is not None:
        share = (INSISTED_SHARE if plan.insisted else EXACT_SHARE) * max_seconds
        plan = dataclasses.replace(plan, seconds=min(plan.seconds or math.inf, share))
    failure: tuple[str, str] | None = None
    if plan.attempt:
        tried = _try_exact(state, plan, view, cancel)
        if isinstance(tried, Valued):
            return tried
        failure = tried
    left = None if deadline is None else deadline - time.monotonic()
    options = options if options is not None else estimate_options(state)
    found = _estimate(state, limit, left, seed, view, options, cancel, progress)
    if failure is None:
        return found
    kind, why = failure
    note = f"{why}: the values are MCTS estimates ({count(found.simulations, 'simulation')})"
    return dataclasses.replace(found, notes=(note, *found.notes), exact_failure=kind)


def _view(state: State, view: int) -> int:
    return view if state.is_chance_node() else int(state.current_player())


def exact_attempt(
    state: State, plan: ExactPlan, *, view: int = 0, cancel: threading.Event | None = None
) -> Valued | str:
    """The exact half of :func:`search_position` alone: the exact answer within ``plan``'s
    budget, or why there is none (a note's start). For a caller whose fallback is not an MCTS
    estimate (``forest GAME solve`` plays the sampled agent's games instead)."""
    tried = _try_exact(state, plan, view, cancel)
    return tried if isinstance(tried, Valued) else tried[1]


def _try_exact(
    state: State, plan: ExactPlan, view: int, cancel: threading.Event | None
) -> Valued | tuple[str, str]:
    """The exact answer, or why there is none: what stopped it (``"stopped"``, ``"time"``,
    ``"memory"``) and a note's start."""
    from solver.search.expectimax import expectimax

    try:
        result = expectimax(state, memory_mb=plan.memory_mb, seconds=plan.seconds, _cancel=cancel)
    except SearchTimeoutError:
        if cancel is not None and cancel.is_set():
            return "stopped", "the exact search was stopped"
        assert plan.seconds is not None
        return "time", f"the exact search did not finish within {plan.seconds:.3g} s"
    except SearchBudgetError as exc:
        cap = (exc.cap_bytes or 0) / (1 << 20)
        return "memory", f"the exact search needs more than its memory cap of {cap:.4g} MB"
    values = tuple(float(v) for v in result.extra["values"])
    return Valued(result, values, _view(state, view), "exact", 0)


def _estimate(
    state: State,
    limit: Limit,
    seconds: float | None,
    seed: int,
    view: int,
    options: MCTSOptions,
    cancel: threading.Event | None,
    progress: Progress | None,
) -> Valued:
    """MCTS on one tree: the floor of simulations first (untimed), then the rest of the budget
    by :func:`~solver.search.watch.run_sliced`: in slices when someone may stop it or wants
    progress, else in one call. The calls go on from one another's random stream
    (:class:`~solver.search.mcts.Resumed`), so with an iteration budget the estimate is the
    search ``mcts`` makes with the same seed in one call, watched or not: a stdio hint and its
    HTTP twin agree."""
    iterations = limit.iterations
    if iterations is None and limit.seconds is None:
        iterations = DEFAULT_ITERATIONS
    options = dataclasses.replace(options, threads=1)  # a chance root reads the tree: one tree
    deadline = None if seconds is None else time.monotonic() + seconds
    lines_by = None if deadline is None else deadline + LINES_GRACE
    moves = not state.is_chance_node()  # a chance root's moves are never shown
    budget = Limit(memory_mb=limit.memory_mb)
    run = Resumed(MCTSTree(), state, budget, options, seed, True, lines_by=lines_by, moves=moves)

    def show(_done: int = 0) -> None:
        if progress is not None:
            progress(_valued(run, view, False))

    floor = floor_simulations(state)
    floor = floor if iterations is None else min(floor, iterations)
    run.search(0, 1, None)  # the floor, any clock: one simulation, then the rest if needed
    if floor > 1 and not _every_move_valued(run):
        run.search(0, floor - 1, None)
    show()
    rest = None if iterations is None else iterations - run.total
    left = None if deadline is None else deadline - time.monotonic()
    terminated = False
    if run.reason != "max_nodes" and (rest is None or rest > 0) and (left is None or left > 0):
        watch = None
        if cancel is not None or progress is not None:
            watch = Watch(cancel, None if progress is None else show)
        terminated = run_sliced(run.search, rest, left, watch, paced=True).terminated
    found = _valued(run, view, terminated)
    cause = stop_cause(max_nodes=run.reason == "max_nodes", terminated=terminated,
                       iterations=iterations, total=run.total)  # fmt: skip
    short = chance_coverage(state, run.total, cause)
    if short is None:
        return found
    return dataclasses.replace(found, notes=(*found.notes, short.note), coverage=short)


def _every_move_valued(run: Resumed) -> bool:
    """Whether every legal move of a decision root has a visit already, so the floor's purpose
    (:func:`floor_simulations`: a value for every move) is met: the max backup's first
    expansion values every child (the heuristic leaves' priming), and the floor's other
    simulations each expanded a child and valued all of its own children, untimed, seconds past
    a small time budget on a position of many moves (figures: docs/search.md). The calls resume
    one random stream, so an iteration budget's search is the same either way."""
    if run.last is None or run.state.is_chance_node():
        return False
    moves = run.last.moves
    return len(moves) == len(run.state.legal_actions()) and all(m.visits > 0 for m in moves)


def _valued(run: Resumed, view: int, terminated: bool) -> Valued:
    """What the estimate's tree says so far."""
    tree, state, result = run.tree, run.state, run.result()
    players = len(state.returns())
    chance = state.current_player() == CHANCE
    values = tuple(_root_value(tree, p, chance) for p in range(players))
    if chance:
        result = dataclasses.replace(result, moves=(), best_action=None, best_label=None)
    if not all(math.isfinite(v) for v in values):
        raise SearchBudgetError("the estimate is not a finite number")
    cut = result.extra.get("pv_cut", 0)
    notes = () if not cut else (
        f"the lines of {cut} moves were not read (the time was up): each is the move alone",
    )  # fmt: skip
    return Valued(result, values, _view(state, view), "mcts", run.total, notes, terminated)
