"""The forest: the static board of the dog game (docs/rules/dog.md §1).

A :class:`Forest` is immutable and validated on construction. Cells are :class:`Terrain` codes;
the dog's start, the human and the shouters stand on open trail and are stored as positions.

>>> from solver.games.dog.forest import Forest, Terrain, Shouter
>>> grid = [[Terrain.OPEN] * 3 for _ in range(2)]
>>> forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 2))
>>> forest.width, forest.height, forest.turns
(3, 2, 20)
>>> Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 2),
...        shouters=[Shouter(1, 2, "W", 2)]).arrow_numbers((1, 0))
(2,)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from solver.errors import ForestError

MIN_SIZE = 2
MAX_SIZE = 16
MAX_ARROW = 6
DEFAULT_TURNS = 20

Cell = tuple[int, int]

# Directions in the order used by action ids: N, E, S, W.
DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")
DELTAS: dict[str, Cell] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


class Terrain(IntEnum):
    """What a cell holds. The integer codes are shared with the compiled kernel."""

    OPEN = 0
    UNDERGROWTH = 1
    PUDDLE = 2
    TREE = 3
    SQUIRREL = 4
    SCENT_N = 5
    SCENT_E = 6
    SCENT_S = 7
    SCENT_W = 8
    DOG = 9
    STICK = 10

    @property
    def is_distraction(self) -> bool:
        return self >= Terrain.SQUIRREL

    @property
    def scent_direction(self) -> str | None:
        if Terrain.SCENT_N <= self <= Terrain.SCENT_W:
            return DIRECTIONS[self - Terrain.SCENT_N]
        return None

    @property
    def label(self) -> str:
        """A player's name for the cell (``"squirrel"``, ``"scent trail"``...)."""
        return _LABELS[self]


_LABELS = {
    Terrain.OPEN: "open trail",
    Terrain.UNDERGROWTH: "undergrowth",
    Terrain.PUDDLE: "puddle",
    Terrain.TREE: "tree",
    Terrain.SQUIRREL: "squirrel",
    Terrain.SCENT_N: "scent trail",
    Terrain.SCENT_E: "scent trail",
    Terrain.SCENT_S: "scent trail",
    Terrain.SCENT_W: "scent trail",
    Terrain.DOG: "another dog",
    Terrain.STICK: "interesting stick",
}


@dataclass(frozen=True)
class Shouter:
    """A shouter at (row, col) shouting along ``direction`` for ``length`` cells (1..6)."""

    row: int
    col: int
    direction: str
    length: int

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)

    def covered(self, width: int, height: int) -> list[tuple[Cell, int]]:
        """The cells under this arrow with their printed numbers, the shouter's own cell first."""
        dr, dc = DELTAS[self.direction]
        out = [((self.row, self.col), 1)]
        for d in range(1, self.length + 1):
            r, c = self.row + dr * d, self.col + dc * d
            if 0 <= r < height and 0 <= c < width:
                out.append(((r, c), d))
        return out


@dataclass(frozen=True)
class Forest:
    """A validated dog-game forest.

    Raises :class:`ForestError` when a rule of docs/rules/dog.md §1 is broken.
    """

    width: int
    height: int
    cells: Sequence[Sequence[Terrain]]
    start: Cell
    human: Cell
    shouters: Sequence[Shouter] = ()
    turns: int = DEFAULT_TURNS
    name: str = ""
    _arrows: dict[Cell, tuple[tuple[int, int], ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if not (MIN_SIZE <= self.width <= MAX_SIZE and MIN_SIZE <= self.height <= MAX_SIZE):
            raise ForestError(
                f"forest size {self.width}x{self.height} is out of range "
                f"({MIN_SIZE}..{MAX_SIZE} columns and rows)"
            )
        cells = tuple(tuple(Terrain(v) for v in row) for row in self.cells)
        if len(cells) != self.height or any(len(row) != self.width for row in cells):
            raise ForestError(f"cells must be {self.height} rows of {self.width} cells")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "start", tuple(self.start))
        object.__setattr__(self, "human", tuple(self.human))
        object.__setattr__(self, "shouters", tuple(self.shouters))
        if not isinstance(self.turns, int) or self.turns < 1 or self.turns > 255:
            raise ForestError(f"turns must be a whole number from 1 to 255, not {self.turns!r}")
        for what, cell in (("start", self.start), ("human", self.human)):
            self._check_open(what, cell)
        if self.start == self.human:
            raise ForestError("the dog's start and the human must be different cells")
        seen: set[Cell] = set()
        for shouter in self.shouters:
            self._check_shouter(shouter, seen)
        arrows: dict[Cell, list[tuple[int, int]]] = {}
        for index, shouter in enumerate(self.shouters):
            for cell, number in shouter.covered(self.width, self.height):
                arrows.setdefault(cell, []).append((index, number))
        object.__setattr__(self, "_arrows", {c: tuple(v) for c, v in arrows.items()})

    def _check_shouter(self, shouter: Shouter, seen: set[Cell]) -> None:
        """A shouter's arrow, on an open cell of its own (``seen``: the shouters' cells so far;
        this one's is added)."""
        if shouter.direction not in DELTAS:
            raise ForestError(f"shouter direction must be N, E, S or W, not {shouter.direction!r}")
        if not (1 <= shouter.length <= MAX_ARROW):
            raise ForestError(f"shouter arrow length must be 1..{MAX_ARROW}, not {shouter.length}")
        self._check_open("shouter", shouter.cell)
        if shouter.cell in (self.start, self.human):
            raise ForestError(f"shouter at {shouter.cell} stands on the start or the human")
        if shouter.cell in seen:
            raise ForestError(f"two shouters stand on {shouter.cell}")
        seen.add(shouter.cell)

    def _check_open(self, what: str, cell: Cell) -> None:
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise ForestError(f"{what} at {cell} lies outside the {self.width}x{self.height} grid")
        if self.cells[r][c] != Terrain.OPEN:
            raise ForestError(f"{what} at {cell} must stand on open trail")

    # -- queries -----------------------------------------------------------------------------
    def terrain(self, cell: Cell) -> Terrain:
        return self.cells[cell[0]][cell[1]]

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def arrows_at(self, cell: Cell) -> tuple[tuple[int, int], ...]:
        """(shouter index, printed number) for every arrow over ``cell``, in header order."""
        return self._arrows.get(cell, ())

    def arrow_numbers(self, cell: Cell) -> tuple[int, ...]:
        """The printed numbers of the arrows over ``cell``, in header order."""
        return tuple(number for _, number in self.arrows_at(cell))

    def distractions(self) -> list[Cell]:
        """Every distraction cell, in row-major order."""
        return [
            (r, c)
            for r in range(self.height)
            for c in range(self.width)
            if self.cells[r][c].is_distraction
        ]

    def replace(self, **changes: object) -> Forest:
        """A copy with some fields changed (validated again)."""
        fields = {
            "width": self.width,
            "height": self.height,
            "cells": self.cells,
            "start": self.start,
            "human": self.human,
            "shouters": self.shouters,
            "turns": self.turns,
            "name": self.name,
        }
        fields.update(changes)
        return Forest(**fields)  # type: ignore[arg-type]


def grid_from_rows(rows: Iterable[Iterable[int]]) -> tuple[tuple[Terrain, ...], ...]:
    """Terrain rows from nested integers (helper for code-built forests)."""
    return tuple(tuple(Terrain(v) for v in row) for row in rows)
