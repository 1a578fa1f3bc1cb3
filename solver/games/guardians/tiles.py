"""Colours, tiles and tile sets of forest guardians (docs/rules/guardians.md, "Tiles").

A tile has two faces: its forest side (one colour and a preview of its points) and its mission
side (a sequence of 2 to 5 colours worth those points). The tile set is public, but which tile
of a face carries which mission lies face down until the tile is flipped (the default rule,
"hidden backs"): a tile whose back is not known is a :class:`Tile` with ``hidden`` set and an
empty ``sequence``. Tile ids of a tile set run 1..N; id 0 is the start tile (one per player, all
alike), whose mission is the special A-B-C-D-E-A walk.

A tile set is data (``puzzles/guardians/tiles.json`` is the default); :func:`tile_set_from_dict`
validates one completely before anything is built, so a bad file never half-loads.

>>> tiles = default_tile_set()
>>> len(tiles.tiles), tiles.start_points
(72, 12)
>>> tiles.tile(17).id
17
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from solver.errors import FormatError, OptionError
from solver.fields import field_error
from solver.files import read_json_file

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "DEFAULT_POINTS",
    "MAX_SEQUENCE",
    "MIN_SEQUENCE",
    "START_ID",
    "Tile",
    "TileSet",
    "default_tile_set",
    "load_tile_set",
    "start_tile",
    "tile_set_from_dict",
    "tile_set_to_dict",
]

#: The six forest colours by their one-letter codes, in the project's fixed order.
COLOURS = "BGREPY"
COLOUR_NAMES: dict[str, str] = {
    "B": "blue",
    "G": "green",
    "R": "red",
    "E": "grey",
    "P": "purple",
    "Y": "yellow",
}
MIN_SEQUENCE, MAX_SEQUENCE = 2, 5
#: Mission points by sequence length, and the start tile's points (the default table).
DEFAULT_POINTS: dict[str, int] = {"2": 3, "3": 5, "4": 8, "5": 12, "start": 12}
#: The id of the start tile in every tile catalogue.
START_ID = 0
#: The start tile's walk visits this many forest tiles (A B C D E A).
START_WALK = 6
_MAX_TILES = 4096


def start_walk_fits(fixed: list[str], colour: str, depth: int) -> bool:
    """Whether the start tile's walk, with colours ``fixed`` so far, may take ``colour`` at
    ``depth``: the middle colours differ from the first and from each other, the last is the
    first again (the planner's and the evaluation's prospect searches share this rule)."""
    if depth == 0:
        return True
    if depth < START_WALK - 1:
        return colour != fixed[0] and colour not in fixed[1:]
    first = fixed[0]
    return (colour == first if first else True) and colour not in fixed[1:]


@dataclass(frozen=True)
class Tile:
    """One tile: ``colour`` of its forest side (``None`` when unknown or for the start tile),
    ``sequence`` of its mission side (colour codes; empty for the start tile and for a tile whose
    back is not known, ``hidden``), its ``points`` (the forest side's preview)."""

    id: int
    colour: str | None
    sequence: str
    points: int
    start: bool = False
    hidden: bool = False

    @property
    def face(self) -> str:
        """The forest side as a player sees it: colour and points preview, ``"B5"``."""
        return f"{self.colour}{self.points}"

    def face_only(self) -> Tile:
        """This tile as it lies forest side up with its back unknown."""
        return Tile(self.id, self.colour, "", self.points, hidden=True)

    def showing(self, sequence: str) -> Tile:
        """This tile with the mission ``sequence`` on its back (revealed)."""
        return Tile(self.id, self.colour, sequence, self.points)

    @property
    def walk_length(self) -> int:
        """How many forest tiles the mission's walk visits."""
        return START_WALK if self.start else len(self.sequence)

    def mission_text(self) -> str:
        """The mission as text: ``G-R-E``, ``A-B-C-D-E-A`` for the start tile, ``?`` unknown."""
        if self.hidden:
            return "?"
        return "A-B-C-D-E-A" if self.start else "-".join(self.sequence)


def start_tile(points: int = 12) -> Tile:
    """The start tile (id 0) worth ``points``."""
    return Tile(START_ID, None, "", points, start=True)


@dataclass(frozen=True)
class TileSet:
    """A bag's worth of tiles with ids 1..N, and the start tile's points."""

    name: str
    tiles: tuple[Tile, ...]
    start_points: int = 12

    def tile(self, tile_id: int) -> Tile:
        """Tile ``tile_id`` (1..N), or the start tile for 0."""
        if tile_id == START_ID:
            return start_tile(self.start_points)
        if not 1 <= tile_id <= len(self.tiles):
            raise OptionError(f"tile {tile_id} is not in tile set {self.name!r} (1..{len(self)})")
        return self.tiles[tile_id - 1]

    def __len__(self) -> int:
        return len(self.tiles)


def _bad(field: str, expected: str, found: Any) -> FormatError:
    return field_error(f"tile set field {field}", expected, found)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def tile_set_from_dict(data: Any) -> TileSet:
    """A validated :class:`TileSet` from its JSON form; :class:`FormatError` naming the field.

    >>> tile_set_from_dict({"name": "x", "tiles": [{"id": 1, "colour": "B",
    ...     "sequence": "GR", "points": 3}]}).tiles[0].sequence
    'GR'
    >>> try:
    ...     tile_set_from_dict({"name": "x", "tiles": [{"id": 1, "colour": "Q",
    ...         "sequence": "GR", "points": 3}]})
    ... except FormatError as err:
    ...     print(err.expected)
    tile set field tiles[0].colour to be one of B G R E P Y
    """
    if not isinstance(data, Mapping):
        raise _bad("(top level)", "a JSON object", data)
    unknown = sorted(set(data) - {"name", "tiles", "start_points"})
    if unknown:
        raise _bad(unknown[0], "absent (known fields: name, tiles, start_points)", unknown[0])
    name = data.get("name", "")
    if not isinstance(name, str):
        raise _bad("name", "a string", name)
    start_points = data.get("start_points", DEFAULT_POINTS["start"])
    if not _is_int(start_points) or not 0 <= start_points <= 1000:
        raise _bad("start_points", "a whole number 0..1000", start_points)
    raw = data.get("tiles")
    if not isinstance(raw, list) or not 1 <= len(raw) <= _MAX_TILES:
        raise _bad("tiles", f"a list of 1..{_MAX_TILES} tiles", raw)
    tiles = [_tile_from_dict(index, item) for index, item in enumerate(raw)]
    return TileSet(name, tuple(tiles), start_points)


def _tile_from_dict(index: int, item: Any) -> Tile:
    """Tile ``index`` of a tile set's ``tiles`` list, validated (its id is ``index + 1``)."""
    where = f"tiles[{index}]"
    if not isinstance(item, Mapping):
        raise _bad(where, "a JSON object", item)
    extra = sorted(set(item) - {"id", "colour", "sequence", "points"})
    if extra:
        raise _bad(f"{where}.{extra[0]}", "absent (known: id, colour, sequence, points)",
                   extra[0])  # fmt: skip
    for key in ("id", "colour", "sequence", "points"):
        if key not in item:
            raise _bad(f"{where}.{key}", "present", None)
    if item["id"] != index + 1 or not _is_int(item["id"]):
        raise _bad(f"{where}.id", f"{index + 1} (ids run 1..N in order)", item["id"])
    colour = item["colour"]
    if not isinstance(colour, str) or len(colour) != 1 or colour not in COLOURS:
        raise _bad(f"{where}.colour", "one of B G R E P Y", colour)
    sequence = item["sequence"]
    if (
        not isinstance(sequence, str)
        or not MIN_SEQUENCE <= len(sequence) <= MAX_SEQUENCE
        or any(c not in COLOURS for c in sequence)
    ):
        raise _bad(
            f"{where}.sequence",
            f"{MIN_SEQUENCE}..{MAX_SEQUENCE} colour codes from BGREPY",
            sequence,
        )
    points = item["points"]
    if not _is_int(points) or not 0 <= points <= 1000:
        raise _bad(f"{where}.points", "a whole number 0..1000", points)
    return Tile(index + 1, colour, sequence, points)


def tile_set_to_dict(tiles: TileSet) -> dict[str, Any]:
    """The JSON form of a tile set (the inverse of :func:`tile_set_from_dict`)."""
    return {
        "name": tiles.name,
        "start_points": tiles.start_points,
        "tiles": [
            {"id": t.id, "colour": t.colour, "sequence": t.sequence, "points": t.points}
            for t in tiles.tiles
        ],
    }


def load_tile_set(path: str | os.PathLike[str]) -> TileSet:
    """Read and validate a tile set file (JSON); a file that is not JSON is named, its start
    never quoted (:func:`solver.files.read_json_file`)."""
    return read_json_file(path, "tile set", "a JSON tile set", tile_set_from_dict)


@lru_cache(maxsize=1)
def default_tile_set() -> TileSet:
    """The default 72-tile set shipped as ``puzzles/guardians/tiles.json``."""
    from solver.games.guardians.data import data_file

    return load_tile_set(data_file("tiles.json"))
