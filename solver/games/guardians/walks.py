"""Walks: the paths a pawn may take to complete the mission it stands on.

From the mission tile M, a walk is a path of distinct forest-side tiles t1..tk, t1 sharing a
side with M and each next tile sharing a side with the one before, whose colours read the
mission's sequence forwards or backwards (k is the sequence's length). Mission tiles, the start
tile included, are never walked through. The start tile's walk visits 6 tiles: t1 and t6 have the
same colour, and t2..t5 have four different colours, all unlike t1's.

A walk is identified by its *direction code*. Its first step (from M to t1) is a direction
N=0 E=1 S=2 W=3; every later step turns left (0), goes straight (1) or turns right (2) — a path of
distinct tiles never steps back. The code is ``offset(k) + d1 + 4 * (t2 + 3 t3 + 9 t4 + ...)``
with ``offset(k) = 4 (1 + 3 + ... + 3^(k-2))``, so codes of different lengths never collide:
1456 codes for the lengths 1 to 6.

>>> from solver.games.guardians.board import Face
>>> from solver.games.guardians.tiles import Tile
>>> tiles = {0: Tile(0, None, "", 12, True), 1: Tile(1, None, "GR", 3),
...          2: Tile(2, "G", "BB", 3), 3: Tile(3, "R", "BB", 3)}
>>> forest = {(0, 0): Face(1, True), (0, 1): Face(2, False), (0, 2): Face(3, False)}
>>> walks_from(forest, tiles, (0, 0))
[((0, 1), (0, 2))]
>>> path_code((0, 0), ((0, 1), (0, 2))), path_from_code((0, 0), 9)
(9, ((0, 1), (0, 2)))
>>> path_code((0, 0), ((-1, 0), (-1, -1), (0, -1)))
16
"""

from __future__ import annotations

from collections.abc import Mapping

from solver.games.guardians.board import DELTAS, Cell, Face, neighbours
from solver.games.guardians.tiles import START_WALK, Tile

__all__ = [
    "MAX_WALK",
    "WALK_CODES",
    "colour_walks",
    "path_code",
    "path_from_code",
    "start_walk_ok",
    "walks_from",
]

#: The longest walk (the start tile's) and how many direction codes there are (lengths 1..6).
MAX_WALK = START_WALK
_OFFSETS = [0] * (MAX_WALK + 2)
for _k in range(1, MAX_WALK + 1):
    _OFFSETS[_k + 1] = _OFFSETS[_k] + 4 * 3 ** (_k - 1)
WALK_CODES = _OFFSETS[MAX_WALK + 1]
_STEP = {delta: index for index, delta in enumerate(DELTAS)}

Path = tuple[Cell, ...]


def path_code(start: Cell, path: Path) -> int:
    """The direction code of ``path`` walked from ``start`` (see the module docstring)."""
    code = 0
    here = start
    previous = -1
    for i, cell in enumerate(path):
        direction = _STEP[(cell[0] - here[0], cell[1] - here[1])]
        if i == 0:
            code = direction
        else:
            turn = (direction - previous + 1) % 4  # left 0, straight 1, right 2 (back: 3)
            if turn == 3:
                raise ValueError(f"a walk never steps back: {path}")
            code += 4 * turn * 3 ** (i - 1)
        previous = direction
        here = cell
    return _OFFSETS[len(path)] + code


def path_from_code(start: Cell, code: int) -> Path:
    """The path that direction code ``code`` walks from ``start`` (the inverse of path_code)."""
    if not 0 <= code < WALK_CODES:
        raise ValueError(f"walk code {code} is outside 0..{WALK_CODES - 1}")
    k = 1
    while _OFFSETS[k + 1] <= code:
        k += 1
    code -= _OFFSETS[k]
    direction = code % 4
    code //= 4
    r, c = start
    cells = []
    for i in range(k):
        if i:
            direction = (direction + code % 3 + 3) % 4
            code //= 3
        dr, dc = DELTAS[direction]
        r, c = r + dr, c + dc
        cells.append((r, c))
    return tuple(cells)


def _forest_colours(forest: Mapping[Cell, Face], tiles: Mapping[int, Tile]) -> dict[Cell, str]:
    """The colour of every forest-side tile (mission tiles and empty cells have none), read once
    per question instead of once per step of the path search."""
    return {
        cell: tiles[face.tile].colour or ""
        for cell, face in forest.items()
        if not face.mission and tiles[face.tile].colour
    }


def _sequence_walks(colour_of: Mapping[Cell, str], start: Cell, sequence: str) -> set[Path]:
    found: set[Path] = set()
    path: list[Cell] = []
    length = len(sequence)

    def extend(here: Cell) -> None:
        if len(path) == length:
            found.add(tuple(path))
            return
        want = sequence[len(path)]
        for n in neighbours(here):
            if colour_of.get(n) == want and n not in path:
                path.append(n)
                extend(n)
                path.pop()

    extend(start)
    return found


def start_walk_ok(colours: str) -> bool:
    """Whether six colours read A-B-C-D-E-A: equal ends, four different colours unlike them.

    >>> start_walk_ok("BGREPB"), start_walk_ok("BGRGPB"), start_walk_ok("BGREPY")
    (True, False, False)
    """
    return (
        len(colours) == START_WALK
        and colours[0] == colours[-1]
        and len(set(colours[1:-1])) == 4
        and colours[0] not in colours[1:-1]
    )


def _start_walks(colour_of: Mapping[Cell, str], start: Cell) -> set[Path]:
    found: set[Path] = set()
    path: list[Cell] = []
    colours: list[str] = []

    def extend(here: Cell) -> None:
        depth = len(path)
        if depth == START_WALK:
            found.add(tuple(path))
            return
        for n in neighbours(here):
            if n in path:
                continue
            colour = colour_of.get(n, "")
            if not colour:
                continue
            if 1 <= depth <= 4 and colour in colours:  # B..E: new colours, unlike A
                continue
            if depth == 5 and colour != colours[0]:  # the last tile repeats A
                continue
            path.append(n)
            colours.append(colour)
            extend(n)
            path.pop()
            colours.pop()

    extend(start)
    return found


def walks_from(forest: Mapping[Cell, Face], tiles: Mapping[int, Tile], start: Cell) -> list[Path]:
    """Every walk completing the mission on ``start``, sorted by direction code.

    A palindromic sequence's two readings give the same paths once (a walk is a path).
    """
    face = forest.get(start)
    if face is None or not face.mission:
        return []
    tile = tiles[face.tile]
    if tile.hidden:
        return []  # a mission nobody has seen yet (it is being flipped)
    sequence = None if tile.start else tile.sequence
    found = colour_walks(_forest_colours(forest, tiles), start, sequence)
    return sorted(found, key=lambda p: path_code(start, p))


def colour_walks(colour_of: Mapping[Cell, str], start: Cell, sequence: str | None) -> set[Path]:
    """Every walk from the mission tile on ``start`` over the forest-side tiles ``colour_of``
    (cell to colour) reading ``sequence`` either way, or the start tile's walk (``None``): the
    search :func:`walks_from` and the planner's light board share."""
    if sequence is None:
        return _start_walks(colour_of, start)
    found = _sequence_walks(colour_of, start, sequence)
    if sequence[::-1] != sequence:
        found |= _sequence_walks(colour_of, start, sequence[::-1])
    return found
