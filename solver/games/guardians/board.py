"""A player's forest: tiles on an unbounded square grid, faces, pawns and the cells around it.

Cells are ``(row, column)`` pairs; rows grow downwards. A forest maps each occupied cell to a
:class:`Face`: the tile's id and whether its mission side is up. Pawns stand only on mission
tiles, at most one per tile.

>>> forest = {(0, 0): Face(0, True), (0, 1): Face(5, False)}
>>> sorted(frontier(forest))[:3]
[(-1, 0), (-1, 1), (0, -1)]
>>> neighbours((0, 0))
((-1, 0), (0, 1), (1, 0), (0, -1))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

__all__ = ["DELTAS", "DIRECTIONS", "Cell", "Face", "cell_text", "frontier", "neighbours"]

Cell = tuple[int, int]
#: The four directions in the project's fixed order, with their (row, column) steps.
DIRECTIONS = "NESW"
DELTAS: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


class Face(NamedTuple):
    """An occupied cell: the tile's id and whether its mission side is up."""

    tile: int
    mission: bool


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four side-by-side neighbours of ``cell`` in the order N, E, S, W."""
    r, c = cell
    return ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))


def frontier(forest: Mapping[Cell, Face] | Iterable[Cell]) -> set[Cell]:
    """The empty cells sharing a side with a tile of the forest (where a new tile may go)."""
    occupied = set(forest)
    out: set[Cell] = set()
    for cell in occupied:
        for n in neighbours(cell):
            if n not in occupied:
                out.add(n)
    return out


def cell_text(cell: Cell) -> str:
    """``(1,-2)``: a cell as the action labels print it."""
    return f"({cell[0]},{cell[1]})"
