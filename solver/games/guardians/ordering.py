"""Mission ordering by exhaustive search: the most missions this turn, then the most points.

At the mission step the player may complete missions in any order, chains included; each
completion removes a tile (changing which tiles are cut vertices) and flips the walk's last tile
(taking it out of later walks), so the order matters. :func:`best_order` tries every order (with
memoisation on the forest and pawns) and returns the best plan: most missions, then most mission
points (combo cards not counted), then the first in action order. It is exact and fine for the
positions players copy from a table; the CP-SAT model answers the same question for large ones.

:func:`first_legal_order` is the naive baseline: complete the first legal walk, again and again.

>>> from solver.games.guardians.grove import parse_grove
>>> from solver.games.guardians.rules import GuardiansGame
>>> state = GuardiansGame(position=parse_grove(
...     "grid:\\n[GR]b G:BB R:BB Y:BB\\n. . [YR]g .\\n")).new_initial_state()
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
    "Plan",
    "Step",
    "best_order",
    "bounded_best_order",
    "first_legal_order",
    "plan_to_dict",
]


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
    """An order of missions for the rest of the turn."""

    steps: tuple[Step, ...]

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
    points = state.game.tile(me.forest[cell].tile).points
    walk = path_from_code(cell, code)
    return Step(action, pawn, cell, walk, points, state.action_to_string(action))


def _key(state: GuardiansState) -> tuple[Any, ...]:
    me = state.people[state.current]
    return (tuple(sorted(me.forest.items())), tuple(me.pawns))


class _OutOfStates(Exception):
    """The exhaustive search met more positions than it was allowed."""


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
    """:func:`best_order`, or ``None`` when more than ``max_states`` positions would be searched."""
    _check(state)
    memo: dict[tuple[Any, ...], tuple[int, int, tuple[Step, ...]]] = {}

    def search(s: GuardiansState) -> tuple[int, int, tuple[Step, ...]]:
        key = _key(s)
        if key in memo:
            return memo[key]
        if max_states is not None and len(memo) >= max_states:
            raise _OutOfStates
        best: tuple[int, int, tuple[Step, ...]] = (0, 0, ())
        for action in s.legal_actions():
            if action == END_TURN:
                continue
            step = _step(s, action)
            child = s.clone()
            child.apply_action(action)
            count, points, rest = search(child)
            if (count + 1, points + step.points) > best[:2]:
                best = (count + 1, points + step.points, (step, *rest))
        memo[key] = best
        return best

    try:
        return Plan(search(state.clone())[2])
    except _OutOfStates:
        return None


def first_legal_order(state: GuardiansState) -> Plan:
    """The naive plan: the first legal walk (in action order), again and again."""
    _check(state)
    s = state.clone()
    steps = []
    while len(s.legal_actions()) > 1:
        action = s.legal_actions()[1]
        steps.append(_step(s, action))
        s.apply_action(action)
    return Plan(tuple(steps))


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
