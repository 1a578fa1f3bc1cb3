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
from typing import TYPE_CHECKING, Any

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


def pv_actions(state: State, labels: Sequence[str]) -> tuple[list[int], list[str]]:
    """A principal variation's labels replayed from ``state`` as action ids, with the labels
    kept (it stops where a label does not name a legal action, e.g. past a hidden draw)."""
    ids: list[int] = []
    kept: list[str] = []
    walker = state.clone()
    for label in labels:
        try:
            action = walker.string_to_action(label)
            walker.apply_action(action)
        except (ValueError, KeyError):
            break
        ids.append(int(action))
        kept.append(label)
    return ids, kept


def chance_steps(state: State, ids: Sequence[int]) -> list[bool]:
    """For each step of a line of play from ``state`` (action ids, replayed by
    :func:`pv_actions`, or the move alone), whether it is a chance outcome: where a line goes
    through a draw, a roll or a reveal, the search followed one outcome (its most visited, or
    the likeliest), an assumption and not a prediction."""
    walker = state.clone()
    steps: list[bool] = []
    for i, action in enumerate(ids):
        steps.append(bool(walker.is_chance_node()))
        if i + 1 < len(ids):  # a line's last step is not played: a move listed from another
            walker.apply_action(action)  # seat's view may not be legal here (the line is it)
    return steps


def move_row(state: State, move: MoveInfo, order: int) -> dict[str, Any]:
    """One move in the vocabulary every surface shares (hints, ``best-move --json``, reviews):
    ``action`` (id), ``label``, ``order`` (0 the best), ``visits``, ``value``, ``pvActions``
    (ids), ``pvLabels`` (labels), the move first, and ``pvChance`` (which of them are chance
    outcomes: :func:`chance_steps`)."""
    ids, kept = pv_actions(state, move.pv) if move.pv else ([move.action], [move.label])
    ids, kept = ids or [move.action], kept or [move.label]
    return {
        "action": move.action,
        "label": move.label,
        "order": order,
        "visits": move.visits,
        "value": float(move.value),
        "pvActions": ids,
        "pvLabels": kept,
        "pvChance": chance_steps(state, ids),
    }
