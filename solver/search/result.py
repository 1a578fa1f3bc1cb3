"""The one result type every searcher returns.

>>> from solver.search.result import MoveInfo, SearchResult
>>> info = MoveInfo(action=1, label="E", visits=10, value=0.5, pv=("E", "roll: 2 steps"))
>>> result = SearchResult(best_action=1, best_label="E", moves=(info,), value=0.5,
...                       iterations=10, nodes=12, elapsed=0.01, exact=False)
>>> result.best_action, result.moves[0].pv
(1, ('E', 'roll: 2 steps'))
>>> result.to_dict()["moves"][0]["label"]
'E'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from solver.game import State


@dataclass(frozen=True)
class MoveInfo:
    """One candidate action at the root.

    ``value`` is the win probability (or expected return) for the player to move after taking
    ``action``; ``visits`` counts MCTS visits (expectimax: 0); ``pv`` is the principal variation
    as labels, starting with this action's label.
    """

    action: int
    label: str
    visits: int
    value: float
    pv: tuple[str, ...] = ()


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the best action, the ranked root moves, the root value.

    ``moves`` are ranked best first. ``exact`` is true when ``value`` is the exact game value
    (exhaustive expectimax), not an estimate. ``iterations`` counts MCTS simulations (expectimax:
    nodes expanded), ``nodes`` the nodes stored, ``elapsed`` wall-clock seconds.
    """

    best_action: int | None
    best_label: str | None
    moves: tuple[MoveInfo, ...]
    value: float
    iterations: int
    nodes: int
    elapsed: float
    exact: bool
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def searcher(self) -> str | None:
        """Which implementation searched: ``"compiled"`` (a compiled loop over a kernel's table),
        ``"python"``, or ``None`` where the result does not say (``extra["compiled"]`` of ISMCTS,
        ``extra["engine"]`` of MCTS and expectimax)."""
        if "compiled" in self.extra:
            return "compiled" if self.extra["compiled"] else "python"
        engine = self.extra.get("engine")
        if engine in ("kernel", "python"):
            return "compiled" if engine == "kernel" else "python"
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        out = asdict(self)
        out["moves"] = [dict(asdict(m), pv=list(m.pv)) for m in self.moves]
        return out

    def same_search(self, other: SearchResult) -> bool:
        """Equal in everything but the elapsed time (for determinism checks)."""
        return (
            self.best_action == other.best_action
            and self.moves == other.moves
            and self.value == other.value
            and self.iterations == other.iterations
            and self.nodes == other.nodes
            and self.exact == other.exact
        )


class Line(NamedTuple):
    """A principal variation replayed from the position it was found at: ``ids`` and
    ``labels`` of its steps, the move first, and ``chance``: which steps are chance outcomes (a
    draw, a roll, a reveal: there the search followed one outcome, its most visited or the
    likeliest, an assumption and not a prediction)."""

    ids: list[int]
    labels: list[str]
    chance: list[bool]


def replay_line(state: State, action: int, label: str, pv: Sequence[str]) -> Line:
    """The line ``pv`` (labels, ``action`` first) replayed from ``state``, once: it stops where a
    label does not name a legal action (past a hidden draw, or a move listed from another
    seat's view); with nothing replayed, the move alone."""
    walker = state.clone()
    line = Line([], [], [])
    for step in pv:
        chance = bool(walker.is_chance_node())
        try:
            played = walker.string_to_action(step)
            walker.apply_action(played)
        except (ValueError, KeyError):
            break
        line.ids.append(int(played))
        line.labels.append(step)
        line.chance.append(chance)
    if not line.ids:
        return Line([action], [label], [bool(state.is_chance_node())])
    return line


def move_row(state: State, move: MoveInfo, order: int) -> dict[str, Any]:
    """One move in the vocabulary every surface shares (hints, ``best-move --json``, reviews):
    ``action`` (id), ``label``, ``order`` (0 the best), ``visits``, ``value``, ``pvActions``
    (ids), ``pvLabels`` (labels), the move first, and ``pvChance`` (which of them are chance
    outcomes: :class:`Line`)."""
    line = replay_line(state, move.action, move.label, move.pv)
    return {
        "action": move.action,
        "label": move.label,
        "order": order,
        "visits": move.visits,
        "value": float(move.value),
        "pvActions": line.ids,
        "pvLabels": line.labels,
        "pvChance": line.chance,
    }
