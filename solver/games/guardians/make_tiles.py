"""The seeded procedure that made the default tile set ``puzzles/guardians/tiles.json``.

Run ``python -m solver.games.guardians.make_tiles > puzzles/guardians/tiles.json`` to rebuild
it; the output is the same on every platform (the library's own SplitMix64 generator).

The procedure: 72 tiles, 12 of each forest colour (in the order B G R E P Y); for each colour,
3 tiles of each sequence length 2, 3, 4 and 5; each sequence colour is rolled uniformly from the
six colours, rerolled while it equals the previous colour of the sequence (two equal neighbours
are allowed in play but make dull missions). Points follow the length: 2 -> 3, 3 -> 5, 4 -> 8,
5 -> 12. Tiles are numbered 1..72 in that order.

>>> tiles = make_tiles(2026)
>>> len(tiles["tiles"]), tiles["tiles"][0]["colour"]
(72, 'B')
"""

from __future__ import annotations

import json
import sys
from typing import Any

from solver.games.guardians.tiles import COLOURS, DEFAULT_POINTS
from solver.rng import SplitMix64

__all__ = ["DEFAULT_SEED", "make_tiles"]

DEFAULT_SEED = 2026
PER_LENGTH = 3


def make_tiles(seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """The JSON form of the default tile set rolled with ``seed``."""
    rng = SplitMix64(seed)
    tiles: list[dict[str, Any]] = []
    for colour in COLOURS:
        for length in (2, 3, 4, 5):
            for _ in range(PER_LENGTH):
                sequence = ""
                while len(sequence) < length:
                    c = rng.pick(COLOURS)
                    if sequence and c == sequence[-1]:
                        continue
                    sequence += c
                tiles.append(
                    {
                        "id": len(tiles) + 1,
                        "colour": colour,
                        "sequence": sequence,
                        "points": DEFAULT_POINTS[str(length)],
                    }
                )
    return {"name": "default", "start_points": DEFAULT_POINTS["start"], "tiles": tiles}


def render(data: dict[str, Any]) -> str:
    """The file text: one tile per line, so diffs stay readable."""
    lines = ["{", f'  "name": {json.dumps(data["name"])},']
    lines.append(f'  "start_points": {data["start_points"]},')
    lines.append('  "tiles": [')
    rows = [json.dumps(t, separators=(", ", ": ")) for t in data["tiles"]]
    lines.extend(f"    {row}," for row in rows[:-1])
    lines.append(f"    {rows[-1]}")
    lines.extend(["  ]", "}"])
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - a build script
    sys.stdout.write(render(make_tiles(int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SEED)))
