"""A picture legend in SVG: swatches with a bold label and a few lines of explanation each.

Entries are laid out column by column (``per_column`` entries in a column, then the next
column to the right), which reads top-to-bottom like a printed key. The swatch is drawn by a
callable, so each game draws its own tile, glyph or pawn.

>>> swatch = lambda key, x, y, s: [f'<rect x="{x:g}" y="{y:g}" width="{s:g}" height="{s:g}"/>']
>>> for line in legend_entries([LegendEntry("t", "tree", ("blocks",))], 0.0, 0.0,
...                            per_column=3, column_width=40.0, row_height=10.0, swatch=swatch):
...     print(line)
<rect x="0" y="0" width="9" height="9"/>
<text x="10.8" y="2.8" font-size="2.8" font-weight="bold" fill="#222222">tree</text>
<text x="10.8" y="6" font-size="2.4" fill="#444444">blocks</text>
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from solver.render.svg import text

__all__ = ["LegendEntry", "Swatch", "legend_entries", "titled_legend"]

#: Draws the swatch of legend entry ``key`` in the square (x, y, size); returns SVG lines.
Swatch = Callable[[str, float, float, float], list[str]]


class LegendEntry(NamedTuple):
    """One legend entry: the swatch's key, a bold label, and explanation lines under it."""

    key: str
    label: str
    lines: tuple[str, ...] = ()


def legend_entries(
    entries: Sequence[LegendEntry],
    x: float,
    y: float,
    *,
    per_column: int,
    column_width: float,
    row_height: float,
    swatch: Swatch,
    swatch_size: float = 9.0,
    label_size: float = 2.8,
    line_size: float = 2.4,
    line_step: float = 3.0,
    line_fill: str = "#444444",
) -> list[str]:
    """The entries from (x, y) down and right: swatch, label beside it, lines under the label."""
    out: list[str] = []
    for i, entry in enumerate(entries):
        col, row = divmod(i, per_column)
        lx, ly = x + col * column_width, y + row * row_height
        tx = lx + swatch_size + 1.8
        out += swatch(entry.key, lx, ly, swatch_size)
        out.append(text(tx, ly + 2.8, entry.label, label_size, weight="bold"))
        for k, line in enumerate(entry.lines):
            out.append(text(tx, ly + 6.0 + k * line_step, line, line_size, fill=line_fill))
    return out


def titled_legend(
    entries: Sequence[LegendEntry],
    x: float,
    y: float,
    width: float,
    *,
    per_column: int,
    row_height: float,
    swatch: Swatch,
    swatch_size: float,
) -> list[str]:
    """A bold "Legend" title at (x, y) and the entries under it, in as many columns of
    ``per_column`` as they need, spread across ``width``."""
    columns = -(-len(entries) // per_column)
    out = [text(x, y + 3.0, "Legend", 3.4, weight="bold")]
    out += legend_entries(entries, x, y + 6.0, per_column=per_column,
                          column_width=width / columns, row_height=row_height, swatch=swatch,
                          swatch_size=swatch_size)  # fmt: skip
    return out
