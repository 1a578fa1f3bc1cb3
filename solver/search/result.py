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

from dataclasses import asdict, dataclass, field
from typing import Any


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
