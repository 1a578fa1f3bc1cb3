"""Mission ordering by exhaustive search: the most missions this turn, then the most points.

At the mission step the player may complete missions in any order, chains included; each
completion removes a tile (changing which tiles are cut vertices) and flips the walk's last tile
(taking it out of later walks), so the order matters. :func:`best_order` tries every order (with
memoisation on the forest and pawns) and returns the best plan: most missions, then most mission
points (combo cards not counted), then the first in action order. It is exact and fine for the
positions players copy from a table; the CP-SAT model answers the same question for large ones.

With hidden backs a walk can end on a tile whose mission nobody has seen (a ``.grove`` position's
``B:?5``, or a tile of the set in play): the tile is flipped there, a chance node. The plan of
:func:`best_order` does not depend on an unseen back: the pawn that lands on one counts as done
for the turn (whatever the back, the tile is then mission side up, so the rest of the plan holds
for every reveal). :func:`expected_order` plays the reveals out: the best policy over them, its
expected missions and points (``Plan.reaches_unseen`` says whether there is any to play out).

:func:`first_legal_order` is the naive baseline: complete the first legal walk, again and again.

>>> import solver
>>> game = solver.load_game("guardians", position="guardians/order-matters", engine="reference")
>>> state = game.new_initial_state()
>>> plan = best_order(state)
>>> plan.count, plan.points, [step.label for step in plan.steps]
(2, 6, ['walk green pawn: (1,2) -> (0,2) (0,3)', 'walk blue pawn: (0,0) -> (0,1) (0,2)'])
>>> first_legal_order(state).count
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.errors import OptionError
from solver.games.guardians.actions import END_TURN
from solver.games.guardians.board import Cell
from solver.games.guardians.solo import PAWN_COLOURS

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = [
    "FIRST_LEGAL_SLACK",
    "Expected",
    "Plan",
    "Step",
    "best_order",
    "bounded_best_order",
    "expected_order",
    "first_legal_order",
    "plan_to_dict",
]


FIRST_LEGAL_SLACK = 0.25
"""The seconds past the deadline a timed :func:`first_legal_order` still gets: the least answer
comes after the searches that used the budget and usually takes milliseconds (the whole first
legal order of the crafted 16x16 forest of 64 missions and 909 candidate walks: 0.06 s at load
8), so a budget the exhaustive search used up still gets it whole; only a forest of tens of
thousands of walks (1-2.5 s) is cut."""


@dataclass(frozen=True)
class Step:
    """One mission of a plan: the pawn, its mission tile, the walk, the tile removed, the label."""

    action: int
    pawn: int
    mission: Cell
    walk: tuple[Cell, ...]
    points: int
    label: str

    @property
    def removed(self) -> Cell:
        """The tile that goes to the points pile (the mission tile)."""
        return self.mission


@dataclass(frozen=True)
class Plan:
    """An order of missions for the rest of the turn; ``reaches_unseen``: some walk the search
    met ends on a tile whose back is not known (a chain could go on through it)."""

    steps: tuple[Step, ...]
    reaches_unseen: bool = False
    cut: bool = False
    """A passed deadline ended the plan before the turn's last walk (a timed
    :func:`first_legal_order`: its first walks, every one legal; more may be possible)."""

    @property
    def count(self) -> int:
        return len(self.steps)

    @property
    def points(self) -> int:
        return sum(step.points for step in self.steps)


def _check(state: GuardiansState) -> None:
    from solver.games.guardians.rules import Phase

    if state.phase != Phase.MISSIONS:
        raise OptionError(
            f"mission ordering needs a state at the mission step, not {state.phase.name.lower()}"
        )


def _step(state: GuardiansState, action: int) -> Step:
    from solver.games.guardians.walks import path_from_code

    pawn, code = state.game.codec.decode_walk(action)
    me = state.people[state.current]
    cell = me.pawns[pawn]
    assert cell is not None
    points = state.tile(me.forest[cell].tile).points
    walk = path_from_code(cell, code)
    return Step(action, pawn, cell, walk, points, state.action_to_string(action))


def _key(state: GuardiansState, blind: frozenset[int] = frozenset()) -> tuple[Any, ...]:
    me = state.people[state.current]
    return (tuple(sorted(me.forest.items())), tuple(me.pawns), blind)


class _Reading:
    """What the exhaustive search reads of a state: its memo key and, for a walk, the pawn and
    the points of its mission. Read from the reference state's fields, or, on the kernel engine,
    through the compiled state's own accessors (the same values, without building the players)."""

    def __init__(self, state: GuardiansState) -> None:
        self.fast = hasattr(state, "_mission_key")
        self.codec = state.game.codec
        self.points: dict[int, int] = {}

    def key(self, s: GuardiansState, blind: frozenset[int]) -> Any:
        return (s._mission_key(), blind) if self.fast else _key(s, blind)  # type: ignore[attr-defined]

    def walk(self, s: GuardiansState, action: int) -> tuple[int, int]:
        """``(pawn, mission points)`` of the walk ``action`` from ``s``."""
        pawn = self.codec.decode_walk(action)[0]
        if not self.fast:
            me = s.people[s.current]
            cell = me.pawns[pawn]
            assert cell is not None
            return pawn, s.tile(me.forest[cell].tile).points
        tile = s._pawn_tiles()[pawn]  # type: ignore[attr-defined]
        points = self.points.get(tile)
        if points is None:
            points = self.points[tile] = s.tile(tile).points
        return pawn, points


class _OutOfStates(Exception):
    """The exhaustive search met more positions than it was allowed."""


def _walk_child(s: GuardiansState, action: int) -> tuple[GuardiansState, bool]:
    """``s`` after the walk ``action`` and whether its last tile's back is unseen (then the
    child sits at the reveal node)."""
    from solver.games.guardians.rules import Phase

    child = s.clone()
    child.apply_action(action)
    return child, child.phase == Phase.REVEAL


def _any_back(s: GuardiansState) -> GuardiansState:
    """The reveal node ``s`` resolved with its first outcome (for a pawn counted as done)."""
    child = s.clone()
    child.apply_action(s.chance_outcomes()[0][0])
    return child


def best_order(state: GuardiansState, *, max_states: int | None = None) -> Plan:
    """The best plan from a state at the mission step (exhaustive search, exact).

    ``max_states`` caps the positions searched: beyond it :class:`OptionError` is raised (use
    :func:`bounded_best_order` to get ``None`` instead).
    """
    plan = bounded_best_order(state, max_states)
    if plan is None:
        raise OptionError(f"the exhaustive mission search needs more than {max_states} positions")
    return plan


def bounded_best_order(state: GuardiansState, max_states: int | None) -> Plan | None:
    """:func:`best_order`, or ``None`` when more than ``max_states`` positions would be searched
    or a :func:`~solver.search.limit.search_deadline` in force has passed (a position can cost a
    millisecond: 20,000 of them took 57 s in the hint engine's analysis, killed at 60)."""
    from solver.search.limit import LEAST_SECONDS, seconds_left

    _check(state)
    memo: dict[Any, tuple[int, int, tuple[int, ...]]] = {}
    read = _Reading(state)
    unseen = False

    def out_of_time() -> bool:
        left = seconds_left()
        return left is not None and left <= LEAST_SECONDS

    def search(s: GuardiansState, blind: frozenset[int]) -> tuple[int, int, tuple[int, ...]]:
        nonlocal unseen
        key = read.key(s, blind)
        if key in memo:
            return memo[key]
        if (max_states is not None and len(memo) >= max_states) or out_of_time():
            raise _OutOfStates
        best: tuple[int, int, tuple[int, ...]] = (0, 0, ())
        for action in s.legal_actions():
            if action == END_TURN:
                continue
            pawn, points = read.walk(s, action)
            if pawn in blind:
                continue
            child, reveal = _walk_child(s, action)
            if reveal:  # the pawn's next mission is face down: done for this plan
                unseen = True
                count, more, rest = search(_any_back(child), blind | {pawn})
            else:
                count, more, rest = search(child, blind)
            if (count + 1, more + points) > best[:2]:
                best = (count + 1, more + points, (action, *rest))
        memo[key] = best
        return best

    try:
        actions = search(state.clone(), frozenset())[2]
    except _OutOfStates:
        return None
    return Plan(_replay(state, actions), unseen)


def _replay(state: GuardiansState, actions: tuple[int, ...]) -> tuple[Step, ...]:
    """The steps of a plan's walks, played from ``state`` as the search played them (a walk
    onto an unseen back resolved with its first outcome)."""
    steps = []
    s = state.clone()
    for action in actions:
        steps.append(_step(s, action))
        child, reveal = _walk_child(s, action)
        s = _any_back(child) if reveal else child
    return tuple(steps)


@dataclass(frozen=True)
class Expected:
    """The best policy over the reveals: its expected missions and points this turn and its
    first walk (``None``: end the turn)."""

    count: float
    points: float
    first: Step | None


def expected_order(state: GuardiansState, max_states: int | None = None) -> Expected | None:
    """The policy with the most expected missions, then the most expected points, playing
    every reveal out by its exact probabilities (an expectimax, memoised on the forest, pawns
    and backs); ``None`` past ``max_states`` positions or once a
    :func:`~solver.search.limit.search_deadline` in force has passed."""
    from solver.games.guardians.rules import Phase
    from solver.search.limit import deadline_passed

    _check(state)
    memo: dict[tuple[Any, ...], tuple[float, float, Step | None]] = {}

    def value(s: GuardiansState) -> tuple[float, float, Step | None]:
        key = (*_key(s), tuple(sorted(s.backs.items())))
        if key in memo:
            return memo[key]
        if (max_states is not None and len(memo) >= max_states) or deadline_passed():
            raise _OutOfStates
        if s.phase == Phase.REVEAL:
            count = points = 0.0
            for outcome, p in s.chance_outcomes():
                child = s.clone()
                child.apply_action(outcome)
                c, v, _ = value(child)
                count += p * c
                points += p * v
            best: tuple[float, float, Step | None] = (count, points, None)
        else:
            best = (0.0, 0.0, None)
            for action in s.legal_actions():
                if action == END_TURN:
                    continue
                step = _step(s, action)
                child = s.clone()
                child.apply_action(action)
                c, v, _ = value(child)
                if _better(c + 1, v + step.points, best[0], best[1]):
                    best = (c + 1, v + step.points, step)
        memo[key] = best
        return best

    try:
        count, points, first = value(state.clone())
    except _OutOfStates:
        return None
    return Expected(count, points, first)


def _better(count: float, points: float, best_count: float, best_points: float) -> bool:
    """More expected missions, or as many (to rounding) and more expected points."""
    if count > best_count + 1e-9:
        return True
    return abs(count - best_count) <= 1e-9 and points > best_points + 1e-9


def first_legal_order(state: GuardiansState, *, timed: bool = False) -> Plan:
    """The naive plan: the first legal walk (in action order), again and again.

    ``timed``: once a :func:`~solver.search.limit.search_deadline` in force has passed by
    :data:`FIRST_LEGAL_SLACK`, the plan ends after the walks found by then, one at least where
    there is one (``Plan.cut``). Every walk costs the reference engine its legal walks (all of
    every pawn, with the cut-vertex test): on a 16x16 forest of 50,090 candidate walks its 143
    walks took 1.2-2.5 s, which a small ``--seconds`` budget does not have."""
    from solver.games.guardians.rules import Phase
    from solver.search.limit import overdue

    _check(state)
    s = state.clone()
    steps: list[Step] = []
    blind: set[int] = set()
    unseen = cut = False
    read = _Reading(state)
    while True:
        walks = [a for a in s.legal_actions()[1:] if read.walk(s, a)[0] not in blind]
        if not walks:
            break
        if timed and steps and overdue(FIRST_LEGAL_SLACK):
            cut = True
            break
        step = _step(s, walks[0])
        steps.append(step)
        s.apply_action(walks[0])
        if s.phase == Phase.REVEAL:
            unseen = True
            blind.add(step.pawn)
            s = _any_back(s)
    return Plan(tuple(steps), unseen, cut)


def plan_to_dict(state: GuardiansState, plan: Plan) -> dict[str, Any]:
    """The pinned JSON shape: ``{"count", "points", "sequence": [{"pawn", "mission", "walk",
    "removed", "label"}]}``; cells as ``[row, col]``, pawns as their ``.grove`` letters."""
    return {
        "count": plan.count,
        "points": plan.points,
        "sequence": [
            {
                "pawn": PAWN_COLOURS[step.pawn] if state.game.solo else "p",
                "mission": list(step.mission),
                "walk": [list(c) for c in step.walk],
                "removed": list(step.removed),
                "label": step.label,
            }
            for step in plan.steps
        ],
    }
