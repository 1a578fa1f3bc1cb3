"""What the two exact tables share: their options, what a search reports, the tie tolerances.

``solver.search.expectimax`` drives a table through one interface; the plain table (the compiled
``ExpectimaxTable`` or the Python ``PyTable``) and the pruning one
(:mod:`solver.search.pruning`) both take a :class:`TableOptions` and answer with
:class:`Entry` and :class:`RootReport`. This module is below both, so neither imports the other
(the layers run one way: ``expectimax`` -> ``pruning`` -> ``solver._ext``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from solver.game import Game, State

__all__ = [
    "MAX_PLIES",
    "MB",
    "PLIES_EPS",
    "UNLIMITED_DEPTH",
    "VALUE_EPS",
    "Entry",
    "ExactTable",
    "RootReport",
    "TableOptions",
]

VALUE_EPS = 1e-12
"""Two values closer than this are equal for the tie-break."""
PLIES_EPS = 1e-9
"""Two win-weighted lengths closer than this are equal for the tie-break."""
UNLIMITED_DEPTH = 2**31 - 1
"""The remaining depth stored with exact entries (never decremented in exact mode)."""
MAX_PLIES = 65536
"""Depth guard: a search deeper than this many plies stops with an error (the game never ends?)."""
MB = 1 << 20


# -- options -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableOptions:
    """A search's checked options, as the tables read them (built by ``expectimax``)."""

    exact: bool
    depth: int | None
    adversarial: bool
    memory_bytes: int
    min_probability: float
    prune: bool | None = None
    threads: int = 1
    seconds: float | None = None

    @property
    def limited(self) -> bool:
        """Leaves can be valued by the heuristic (depth limit or probability pruning)."""
        return not self.exact

    @property
    def depth_left(self) -> int:
        if self.exact or self.depth is None:
            return UNLIMITED_DEPTH
        return self.depth

    @property
    def mode(self) -> str:
        if self.adversarial:
            return "adversarial" if self.exact else "adversarial depth-limited"
        return "exact" if self.exact else "depth-limited"


# -- what a search reports -----------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One table entry: the node's player, its chosen action, values and win-weighted lengths.

    ``best_action`` is the best action at a decision node; at a chance node it is the outcome the
    principal variation follows (the most likely one, or the worst one in adversarial mode).
    """

    player: int
    best_action: int
    values: tuple[float, ...]
    plies: tuple[float, ...]
    depth_left: int
    path_probability: float


@dataclass(frozen=True)
class RootReport:
    """The root of one search: its entry and the value of each of its children."""

    entry: Entry
    children: tuple[tuple[int, tuple[float, ...], tuple[float, ...]], ...]
    expanded: int
    leaves: int


# -- the interface -------------------------------------------------------------------------------
class ExactTable(Protocol):
    """What ``solver.search.expectimax`` asks of a table: the plain ones (``PyTable``,
    ``KernelTable``) and the pruning one answer the same calls."""

    engine: str
    """``"python"`` or ``"kernel"``: which loop searches."""

    @property
    def game(self) -> Game:
        """The game whose positions the table holds."""

    @property
    def target(self) -> int:
        """The player whose value adversarial chance minimises (and a chance root reports)."""

    @property
    def entries(self) -> int:
        """Positions stored."""

    @property
    def bytes(self) -> int:
        """Memory the entries take."""

    def lookup(self, state: State) -> Entry | None:
        """The stored entry of ``state``, if any."""

    def search(self, root: State, depth_left: int) -> RootReport:
        """Search ``root`` (``depth_left`` plies, or :data:`UNLIMITED_DEPTH`), filling the table."""

    def set_deadline(self, deadline: float | None) -> None:
        """Stop later searches at ``deadline`` (``time.monotonic()``; None: never)."""

    def stop(self) -> None:
        """Make the running search (another thread) and later ones stop soon."""
