"""The legend under the guardians' picture: the six colours, the two sides of a tile, the start
tile, a pawn and an empty cell."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.games.guardians.render_tiles import COLOUR_NAMES, CREAM, FILL, pawn, tile
from solver.render import LegendEntry, box, titled_legend

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = ["legend"]


def _entries(solo: bool) -> list[LegendEntry]:
    entries = [LegendEntry(c, name.split(":")[0], (name.split(": ")[1],))
               for c, name in COLOUR_NAMES.items()]  # fmt: skip
    entries += [
        LegendEntry("forest", "forest side", ("colour, points preview;", "mission face down")),
        LegendEntry("mission", "mission side", ("walk these colours", "from it, either way")),
        LegendEntry("start", "start tile", ("a walk of 6 tiles:", "A, four others, A")),
        LegendEntry("pawn", "pawn", ("its colour scores" if solo else "stands on a mission",
                                     "the missions it walks" if solo else "it may walk")),
        LegendEntry("slot", "empty cell", ("a new tile may go", "here")),
    ]  # fmt: skip
    return entries


_SAMPLE_TILES: dict[str, dict[str, Any]] = {
    "forest": {"colour": "G", "sequence": "", "points": 5, "mission": False, "hidden": True},
    "mission": {"colour": "G", "sequence": "RBY", "points": 5, "mission": True},
    "start": {"colour": None, "sequence": "", "points": 12, "mission": True, "start": True},
}
"""The tiles the legend shows as swatches, by entry: the arguments of ``render_tiles.tile``."""


def _swatch(key: str, x: float, y: float, size: float) -> list[str]:
    if key in FILL:
        return [box(x, y, size, size, fill=FILL[key], stroke="#555555", rx=1.0)]
    if key in _SAMPLE_TILES:
        return tile(x, y, size, **_SAMPLE_TILES[key], class_="legend-tile")
    if key == "pawn":
        return pawn(x + size / 2, y + size / 2, "b", r=size * 0.3, class_="legend-pawn")
    return [box(x + 0.4, y + 0.4, size - 0.8, size - 0.8, fill=CREAM, stroke="#c9c0a8")]


def legend(state: GuardiansState, x: float, y: float, width: float) -> list[str]:
    """The legend from (x, y), in columns across ``width``."""
    entries = _entries(state.game.solo)
    return titled_legend(entries, x, y, width, per_column=3, row_height=12.0, swatch=_swatch,
                         swatch_size=9.0)  # fmt: skip
