"""The ``.grove`` position as an object: one player's forest as a user copies it from the table.

The text format lives in :mod:`solver.games.guardians.grove_format`; this module is only the
data, so the rules can build a game from a position without importing the parser.

>>> g = Grove(name="x", mode="solo", points=DEFAULT_TABLE,
...           grid=((GroveCell("B", "GR"), GroveCell(None, "", True, True, "b")),))
>>> g.width, g.height, g.tile_count()
(2, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_TABLE", "MAX_GROVE_SIZE", "Grove", "GroveCell", "PointsTable"]

#: Points by sequence length 2..5, then the start tile's (the default ``points:`` table).
PointsTable = tuple[int, int, int, int, int]
DEFAULT_TABLE: PointsTable = (3, 5, 8, 12, 12)
#: The largest grid a ``.grove`` file may have (rows and columns).
MAX_GROVE_SIZE = 16


@dataclass(frozen=True)
class GroveCell:
    """A tile of a position: forest side (``colour`` known, ``sequence`` on its back, or
    ``preview`` points and an empty ``sequence`` when the back is not known: ``B:?5``) or
    mission side up (``mission``; ``colour`` unknown), the start tile (``start``), and a pawn
    letter on it (``b g y r`` solo, ``p`` with 2-4 players) or ``None``."""

    colour: str | None
    sequence: str
    mission: bool = False
    start: bool = False
    pawn: str | None = None
    preview: int | None = None

    @property
    def hidden(self) -> bool:
        """Whether the tile's back is not known (``B:?5``)."""
        return self.preview is not None


@dataclass(frozen=True)
class Grove:
    """A position: its name, mode (``"solo"`` or ``"multi"``), points table and grid (rows of
    cells, ``None`` where there is no tile)."""

    name: str
    mode: str
    points: PointsTable
    grid: tuple[tuple[GroveCell | None, ...], ...]

    @property
    def height(self) -> int:
        return len(self.grid)

    @property
    def width(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def tiles(self) -> list[tuple[tuple[int, int], GroveCell]]:
        """Every tile with its (row, column), in reading order."""
        return [
            ((r, c), cell)
            for r, row in enumerate(self.grid)
            for c, cell in enumerate(row)
            if cell is not None
        ]

    def tile_count(self) -> int:
        return len(self.tiles())

    def points_for(self, cell: GroveCell) -> int:
        """The mission points of a tile by the position's points table."""
        if cell.start:
            return self.points[4]
        if cell.preview is not None:
            return cell.preview
        return self.points[len(cell.sequence) - 2]

    def unknown_backs(self) -> int:
        """How many tiles of the position lie forest side up with their back not known."""
        return sum(1 for _, cell in self.tiles() if cell.hidden)
