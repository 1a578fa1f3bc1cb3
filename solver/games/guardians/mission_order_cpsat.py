"""Mission ordering as a CP-SAT model: the most missions this turn, then the most points.

The model is time-expanded over steps 1..T, one mission per step at most:

- *candidate walks*: every walk that could ever be taken this turn, from a cell that a pawn can
  reach by a chain (its starting cell, or the end of a candidate walk), computed on the forest at
  the start of the mission step. Walkability only shrinks during a turn (tiles leave, tiles flip
  to their mission side), so no other walk can appear. T is the number of such start cells (each
  cell is the start of one mission at most: it then leaves the forest).
- ``x[s, w]``: walk ``w`` is step ``s``. Whether a cell still holds a tile, is forest side up, or
  holds a pawn before step ``s`` are linear expressions of the earlier ``x``.
- a walk needs a pawn on its start cell and its path's tiles present and forest side up;
- *connectivity*: after every step the remaining tiles are connected — a single-commodity flow
  from a root tile (one that never leaves, when there is one) to every remaining tile along
  shared sides;
- objective: ``(missions) * BIG + (mission points)``, steps used without gaps.

The plan is replayed through the reference rules before it is returned, so an answer is always
a legal order. :func:`cpsat_order` agrees with the exhaustive
:func:`~.mission_order_search.best_order` on count and points (the tests check hundreds of
positions). Under a :func:`~solver.search.limit.search_deadline` the model's construction stops
there and the solve gets the wall-clock seconds left (``OrderAnswer.stopped``).

>>> import solver
>>> game = solver.load_game("guardians", position="guardians/order-matters", engine="reference")
>>> state = game.new_initial_state()
>>> answer = cpsat_order(state)
>>> answer.plan.count, answer.plan.points, answer.optimal
(2, 6, True)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.games.guardians.board import Cell, Face, neighbours
from solver.games.guardians.mission_order_search import Plan, _check, _step
from solver.games.guardians.walks import path_code, walks_from

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from solver.games.guardians.rules import GuardiansState

__all__ = ["CandidateWalk", "OrderAnswer", "candidate_walks", "cpsat_order", "model_size"]

DEFAULT_TIME_LIMIT = 10.0
_CP_MODEL = "ortools.sat.python.cp_model"


@dataclass(frozen=True)
class CandidateWalk:
    """A walk that may be taken this turn: its start cell, path and the start tile's points."""

    start: Cell
    path: tuple[Cell, ...]
    points: int

    @property
    def end(self) -> Cell:
        return self.path[-1]


@dataclass(frozen=True)
class OrderAnswer:
    """The model's plan, whether it is proven optimal, and the model's size."""

    plan: Plan
    optimal: bool
    candidates: int
    steps: int
    stopped: bool = False
    """A :func:`~solver.search.limit.search_deadline` in force cut the construction or the solve
    short (the plan is then the best found by then, never less than the first legal order)."""
    solved: bool = True
    """The plan is the solver's; ``False``: it is the first legal order (the model was cut
    before it ran, found no solution in time, or found one worth less)."""


def candidate_walks(state: GuardiansState) -> list[CandidateWalk]:
    """Every walk reachable by a chain from the pawns, on the forest at the mission step."""
    out = list(_chain_walks(state))
    out.sort(key=lambda w: (w.start, path_code(w.start, w.path)))
    return out


def model_size(state: GuardiansState, cap: int | None = None) -> tuple[int, int]:
    """The CP-SAT model's size: ``(candidate walks, walks x their start cells)``, the second
    what ``mission_order.MODEL_CAP`` bounds. With ``cap``, counting stops once the size is past
    it (both numbers then only lower bounds): a 16x16 forest of 50,090 candidate walks is
    known too large after a few cells, in milliseconds, not after listing them all (a second
    or two, which a small ``--seconds`` budget does not have)."""
    walks = 0
    starts: set[Cell] = set()
    for walk in _chain_walks(state):
        walks += 1
        starts.add(walk.start)
        if cap is not None and walks * len(starts) > cap:
            break
    return walks, walks * len(starts)


def _chain_walks(state: GuardiansState) -> Iterator[CandidateWalk]:
    """The candidate walks as the chain search meets them, cell by cell (unsorted)."""
    me = state.people[state.current]
    tiles = state.catalogue
    seen: set[Cell] = set()
    todo = [cell for cell in me.pawns if cell is not None]
    while todo:
        cell = todo.pop()
        if cell in seen:
            continue
        seen.add(cell)
        forest = dict(me.forest)
        forest[cell] = Face(forest[cell].tile, True)  # a forest tile reached by a chain flips
        points = tiles[forest[cell].tile].points
        for path in walks_from(forest, tiles, cell):
            yield CandidateWalk(cell, path, points)
            todo.append(path[-1])


def cpsat_order(
    state: GuardiansState, *, time_limit: float = DEFAULT_TIME_LIMIT, fixed_root: bool = True
) -> OrderAnswer:
    """The best mission order from a state at the mission step, by CP-SAT.

    ``fixed_root=False`` lets the model choose the flow's root at every step even when a tile
    that never leaves could serve (the general form, for tests). Under a
    :func:`~solver.search.limit.search_deadline` it keeps to the seconds left (``stopped``).
    """
    from solver.games.guardians.mission_order_search import first_legal_order

    _check(state)
    walks = candidate_walks(state)
    if not walks:
        return OrderAnswer(Plan(()), True, 0, 0)
    # a hint: the first legal order (always a legal plan), so a time-limited solve starts there
    hint = first_legal_order(state)
    try:
        _in_time(loading=True)
        order = _OrderModel(state, walks)
        order.add_walk_conditions()
        order.add_connectivity(fixed_root)
    except _OutOfTime:
        steps = len({w.start for w in walks})
        return OrderAnswer(hint, False, len(walks), steps, stopped=True, solved=False)
    order.add_hint(hint)
    order.maximise()
    return _solve_model(state, order, hint, time_limit)


def _solve_model(
    state: GuardiansState, order: _OrderModel, hint: Plan, time_limit: float
) -> OrderAnswer:
    """Solve the built model within ``time_limit`` (deterministic) and the wall-clock seconds
    left to a deadline in force; the plan never less than ``hint`` (the first legal order)."""
    from ortools.sat.python import cp_model

    from solver.exact import deterministic_solver, solve
    from solver.search.limit import seconds_left

    walks, steps = order.walks, order.steps
    solver = deterministic_solver(time_limit)
    wall = seconds_left()
    if wall is not None:
        solver.parameters.max_time_in_seconds = wall
    status = solve(solver, order.model)
    # a solve that ended before its deterministic limit without a proof met the wall-clock one
    stopped = status != cp_model.OPTIMAL and (
        solver.deterministic_time < solver.parameters.max_deterministic_time
    )
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # no solution within the time limit (the hint not yet checked): the hint is one
        return OrderAnswer(hint, False, len(walks), steps, stopped, solved=False)
    x = order.x
    chosen = [walks[i] for s in range(steps) for i in range(len(walks)) if solver.Value(x[s, i])]
    plan = _replay(state, chosen, walks)
    if status != cp_model.OPTIMAL and (hint.count, hint.points) > (plan.count, plan.points):
        hinted = Plan(hint.steps, plan.reaches_unseen)  # never less than the first legal order
        return OrderAnswer(hinted, False, len(walks), steps, stopped, solved=False)
    return OrderAnswer(plan, status == cp_model.OPTIMAL, len(walks), steps, stopped)


class _OutOfTime(Exception):
    """The model's construction met a passed :func:`~solver.search.limit.search_deadline`."""


LOAD_SECONDS = 1.0
"""What loading CP-SAT's library costs, about (ortools brings pandas along: 0.6-2 s measured,
by the machine's load): under a deadline with fewer seconds left and the library not loaded
yet, the model is not started (the load cannot be stopped half-way)."""


def _in_time(*, loading: bool = False) -> None:
    """Raise :class:`_OutOfTime` once a deadline in force has passed (read between steps of the
    construction, which grows with the square of the model and no time limit bounds);
    ``loading``: also when the library is still to load with less than :data:`LOAD_SECONDS`
    left."""
    from solver.search.limit import deadline_passed, seconds_left

    if deadline_passed():
        raise _OutOfTime
    left = seconds_left()
    if loading and left is not None and left < LOAD_SECONDS and _CP_MODEL not in sys.modules:
        raise _OutOfTime


class _OrderModel:
    """The CP-SAT model of :func:`cpsat_order` over the candidate ``walks`` (see the module
    docstring), built one section at a time: the steps (``x[s, i]``: walk ``i`` is step ``s``;
    one a step, no gaps), the walks' conditions, connectivity, the hint, the objective."""

    def __init__(self, state: GuardiansState, walks: list[CandidateWalk]) -> None:
        from ortools.sat.python import cp_model

        self.me = me = state.people[state.current]
        self.walks = walks
        self.starts = sorted({w.start for w in walks})
        self.steps = steps = len(self.starts)
        self.cells = cells = sorted(me.forest)
        self.index = {c: i for i, c in enumerate(cells)}
        self.edges = [(a, b) for a in cells for b in neighbours(a) if b in me.forest]
        self.model = model = cp_model.CpModel()
        n = len(walks)
        self.x = x = {(s, i): model.NewBoolVar(f"x{s}_{i}") for s in range(steps) for i in range(n)}
        self.used = used = [sum(x[s, i] for i in range(n)) for s in range(steps)]
        for s in range(steps):
            model.Add(used[s] <= 1)
            if s:
                model.Add(used[s] <= used[s - 1])

    def started(self, c: Cell, s: int) -> cp_model.LinearExpr:
        """The missions from ``c`` before step ``s``."""
        x = self.x
        return sum(x[t, i] for t in range(s) for i, w in enumerate(self.walks) if w.start == c)

    def ended(self, c: Cell, s: int) -> cp_model.LinearExpr:
        """The walks ending on ``c`` before step ``s``."""
        x = self.x
        return sum(x[t, i] for t in range(s) for i, w in enumerate(self.walks) if w.end == c)

    def add_walk_conditions(self) -> None:
        """A walk needs a pawn on its start cell and its path's tiles still forest side up."""
        model, x, me = self.model, self.x, self.me
        pawn0 = {c: 1 for c in me.pawns if c is not None}
        for s in range(self.steps):
            _in_time()
            for i, w in enumerate(self.walks):
                start = w.start
                model.Add(
                    x[s, i] <= pawn0.get(start, 0) - self.started(start, s) + self.ended(start, s)
                )
                for c in w.path:
                    forest_side = 0 if me.forest[c].mission else 1
                    model.Add(x[s, i] <= forest_side - self.ended(c, s))

    def add_connectivity(self, fixed_root: bool) -> None:
        """After every step a flow from the root to every remaining tile; the root a tile that
        never leaves where there is one (and ``fixed_root``), else chosen at every step."""
        starts = set(self.starts)
        fixed_roots = [c for c in self.cells if c not in starts] if fixed_root else []
        for s in range(self.steps):
            _in_time()
            self._flow_after(s, fixed_roots[0] if fixed_roots else None)

    def _flow_after(self, s: int, root: Cell | None) -> None:
        """The flow after step ``s``: along shared sides of present tiles, from ``root``
        (``None``: a root variable per tile, one of them set)."""
        model, cells, total, index = self.model, self.cells, len(self.cells), self.index
        present = {c: 1 - self.started(c, s + 1) for c in cells}
        count = total - sum(self.used[: s + 1])
        flow = {
            (a, b): model.NewIntVar(0, total, f"f{s}_{index[a]}_{index[b]}") for a, b in self.edges
        }
        for a, b in self.edges:
            if a in self.starts:
                model.Add(flow[a, b] <= total * present[a])
            if b in self.starts:
                model.Add(flow[a, b] <= total * present[b])
        forest = self.me.forest
        if root is not None:
            for c in cells:
                out = sum(flow[c, n] for n in neighbours(c) if n in forest)
                into = sum(flow[n, c] for n in neighbours(c) if n in forest)
                if c == root:
                    model.Add(out - into == count - 1)
                else:
                    model.Add(into - out == present[c])
            return
        roots = {c: model.NewBoolVar(f"r{s}_{index[c]}") for c in cells}
        model.AddExactlyOne(roots.values())
        for c in cells:
            model.Add(roots[c] <= present[c])
            out = sum(flow[c, n] for n in neighbours(c) if n in forest)
            into = sum(flow[n, c] for n in neighbours(c) if n in forest)
            supply = model.NewIntVar(0, total, f"g{s}_{index[c]}")
            model.Add(supply == count - 1).OnlyEnforceIf(roots[c])
            model.Add(supply == 0).OnlyEnforceIf(roots[c].Not())
            # the root sends count - 1 units; any other present tile keeps one
            model.Add(out - into == supply - present[c] + roots[c])

    def add_hint(self, hint: Plan) -> None:
        """Start the search from ``hint``'s order."""
        position = {(w.start, w.path): i for i, w in enumerate(self.walks)}
        hinted = {(s, position[(step.mission, step.walk)]) for s, step in enumerate(hint.steps)}
        for key, var in self.x.items():
            self.model.AddHint(var, 1 if key in hinted else 0)

    def maximise(self) -> None:
        """``(missions) * BIG + (mission points)``."""
        walks, x = self.walks, self.x
        big = sum(w.points for w in walks) + 1
        self.model.Maximize(
            sum(x[s, i] * (big + w.points) for s in range(self.steps) for i, w in enumerate(walks))
        )


def _replay(
    state: GuardiansState, chosen: list[CandidateWalk], chosen_all: list[CandidateWalk]
) -> Plan:
    """The chosen walks as a plan, each applied through the reference rules (so it is legal);
    ``chosen_all`` are the candidate walks (does one end on a tile whose back is unseen?)."""
    me0 = state.people[state.current]
    s = state.clone()
    plan = []
    for walk in chosen:
        me = s.people[s.current]
        pawn = me.pawn_at(walk.start)
        if pawn is None:
            raise AssertionError(f"the model's plan has no pawn on {walk.start}")
        action = s.game.codec.walk(pawn, path_code(walk.start, walk.path))
        if action not in s.legal_actions():
            raise AssertionError(f"the model's plan is not legal: {walk}")
        plan.append(_step(s, action))
        s.apply_action(action)
        if s.is_chance_node():  # a tile whose back is unseen: no candidate walk goes on from it
            s.apply_action(s.chance_outcomes()[0][0])
    unseen = any(state.tile(me0.forest[w.end].tile).hidden for w in chosen_all)
    return Plan(tuple(plan), unseen)
