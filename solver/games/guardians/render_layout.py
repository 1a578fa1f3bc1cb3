"""Where each part of the guardians' picture goes (:mod:`.render_svg` draws it, :mod:`.render_line`
draws a hinted line over it, both from the same :class:`Layout`).

The page, top to bottom: the heading, the table row (the pool's six slots, the bag, the combo
cards or, solo, the round track and the level's tasks), every player's forest (a header, the
missions completed, then the grid with its row and column numbers), the legend. A forest's grid
spans its tiles and the empty cells around them (two deep for the player to move, whose next
tiles may go two cells out, one deep for the others), so a hinted placement always lands on
the picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from solver.games.guardians.actions import POOL_SLOTS
from solver.games.guardians.board import Cell

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = ["CELL", "ForestBox", "Layout", "frontier", "layout_of"]

CELL = 16.0
"""A tile's side."""
MARGIN = 8.0
HEADING = 22.0
"""The heading's height (title and subtitle)."""
TABLE_ROW = 34.0
"""The pool row's height (labels, tiles, tile numbers)."""
FOREST_HEAD = 22.0
"""A forest's header: its name and score, its counts, the missions completed."""
LABELS = 6.0
"""Room for the row numbers left of a grid and the column numbers above it."""
GAP = 10.0
"""Between two forests side by side."""
MIN_WIDTH = 250.0
"""The narrowest page (the table row and the legend need it)."""
LEGEND_HEIGHT = 44.0


@dataclass(frozen=True)
class ForestBox:
    """One player's forest on the page: the grid's top-left corner and the cells it spans."""

    player: int
    x: float
    y: float
    row0: int
    col0: int
    rows: int
    cols: int

    def cell_xy(self, cell: Cell) -> tuple[float, float]:
        """The top-left corner of ``cell``'s square."""
        return self.x + (cell[1] - self.col0) * CELL, self.y + (cell[0] - self.row0) * CELL

    def centre(self, cell: Cell) -> tuple[float, float]:
        x, y = self.cell_xy(cell)
        return x + CELL / 2, y + CELL / 2

    @property
    def width(self) -> float:
        return self.cols * CELL


@dataclass(frozen=True)
class Layout:
    """The page's size and where its parts go."""

    width: float
    height: float
    pool: tuple[tuple[float, float], ...]
    """The top-left corner of each pool slot (the pool is kept sorted by tile id)."""
    table_y: float
    forests: tuple[ForestBox, ...]
    legend_y: float

    def pool_slot(self, state: GuardiansState, tile: int) -> tuple[float, float] | None:
        """The corner of the pool slot holding ``tile`` (``None``: not in the pool)."""
        return self.pool[state.pool.index(tile)] if tile in state.pool else None


def frontier(forest: Mapping[Cell, object]) -> list[Cell]:
    """The empty cells sharing a side with a tile of ``forest`` (where a new tile may go),
    sorted."""
    out = set()
    for r, c in forest:
        for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if cell not in forest:
                out.add(cell)
    return sorted(out)


def _span(forest: Mapping[Cell, object], depth: int) -> tuple[int, int, int, int]:
    rows = [r for r, _ in forest]
    cols = [c for _, c in forest]
    return min(rows) - depth, min(cols) - depth, max(rows) + depth, max(cols) + depth


def layout_of(state: GuardiansState) -> Layout:
    """The layout of ``state``'s picture: forests left to right, wrapping to a new line when
    the page would grow wider than the widest of the minimum and two forests."""
    to_move = state.current if not state.is_terminal() else -1
    spans = [_span(who.forest, 2 if p == to_move else 1) for p, who in enumerate(state.people)]
    widths = [(c1 - c0 + 1) * CELL + LABELS for _, c0, _, c1 in spans]
    limit = max(MIN_WIDTH, *(a + b + GAP for a, b in pairwise(widths)), max(widths))
    table_y = MARGIN + HEADING
    top = table_y + TABLE_ROW + 6.0
    boxes: list[ForestBox] = []
    x, line_height = MARGIN, 0.0
    for p, ((r0, c0, r1, c1), width) in enumerate(zip(spans, widths, strict=True)):
        if x > MARGIN and x + width > MARGIN + limit:
            x, top = MARGIN, top + line_height + GAP
            line_height = 0.0
        height = FOREST_HEAD + LABELS + (r1 - r0 + 1) * CELL
        boxes.append(
            ForestBox(p, x + LABELS, top + FOREST_HEAD + LABELS, r0, c0, r1 - r0 + 1, c1 - c0 + 1)
        )
        x += width + GAP
        line_height = max(line_height, height)
    width = max(limit, max(b.x + b.width for b in boxes) - MARGIN) + 2 * MARGIN
    legend_y = top + line_height + 8.0
    pool = tuple((MARGIN + 16.0 + k * (CELL + 4.0), table_y + 7.0) for k in range(POOL_SLOTS))
    return Layout(width, legend_y + LEGEND_HEIGHT, pool, table_y, tuple(boxes), legend_y)
