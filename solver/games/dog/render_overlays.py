"""The pencilled play state both dog pictures draw over a forest, validated.

The pictures hold no game logic: the caller says which cells are on the trail, marked or
resolved, and where the dog is. This module checks those cells against the forest (a cell
outside the grid raises :class:`~solver.errors.OptionError` naming the overlay) and applies the
conventions shared by the text and the SVG picture:

- the trail is a sequence of cells in the order walked; every trail cell counts as marked;
- the dog's position defaults to the last trail cell when no position is given;
- the human's cell is never shown as marked (the rules never mark it).

>>> from solver import puzzles
>>> forest = puzzles.load("dog/tiny-example")
>>> marks = overlays(forest, trail=[(4, 2), (3, 2)], marked=[(0, 3)])
>>> marks.position, sorted(marks.marked)
((3, 2), [(3, 2), (4, 2)])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from solver.errors import OptionError
from solver.games.dog.forest import Cell, Forest

__all__ = ["Overlays", "cell_text", "overlays"]


@dataclass(frozen=True)
class Overlays:
    """A validated play state to draw: the trail in order, the dog, the marks, the resolved."""

    trail: list[Cell]
    position: Cell | None
    marked: set[Cell]
    resolved: set[Cell]


def _cell(forest: Forest, cell: Iterable[int], what: str) -> Cell:
    try:
        r, c = (int(v) for v in cell)
    except (TypeError, ValueError):
        raise OptionError(f"{what} must be a (row, col) pair, not {cell!r}") from None
    if not forest.inside((r, c)):
        raise OptionError(
            f"{what} cell ({r}, {c}) lies outside the {forest.width}x{forest.height} grid"
        )
    return (r, c)


def _cells(forest: Forest, cells: Iterable[Iterable[int]], what: str) -> list[Cell]:
    return [_cell(forest, cell, what) for cell in cells]


def overlays(
    forest: Forest,
    trail: Iterable[Iterable[int]] = (),
    position: Iterable[int] | None = None,
    marked: Iterable[Iterable[int]] = (),
    resolved: Iterable[Iterable[int]] = (),
) -> Overlays:
    """The overlays checked against ``forest``, with the conventions of the module docstring."""
    path = _cells(forest, trail, "trail")
    marks = set(_cells(forest, marked, "marked")) | set(path)
    marks.discard(forest.human)
    done = set(_cells(forest, resolved, "resolved"))
    if position is not None:
        pos: Cell | None = _cell(forest, position, "position")
    else:
        pos = path[-1] if path else None
    return Overlays(trail=path, position=pos, marked=marks, resolved=done)


def cell_text(cell: Cell) -> str:
    """A cell as the pictures print it: ``(row,col)`` without a space.

    >>> cell_text((3, 10))
    '(3,10)'
    """
    return f"({cell[0]},{cell[1]})"
