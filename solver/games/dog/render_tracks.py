"""The lower block of the dog sheet: the turn, stamina and curiosity tracks, the legend and the
rules reminder, laid out on an A4 page in millimetres.

The turn track has one box per turn of the forest (20 to a row; 27 smaller ones to a row when
the track is longer than 40 turns), the last one bold. Stamina has boxes 0..6 and curiosity 0..9
(the last reads ``9+``); the start values (6 and 2) are bold. A played state crosses off the spent
turns and circles the current turn, stamina and curiosity; a curiosity above 9 is written beside
its track. The legend draws one swatch per entry of
:data:`~solver.games.dog.sheet_legend.LEGEND`, three to a column.
"""

from __future__ import annotations

import math

from solver.games.dog.forest import Forest, Shouter, Terrain
from solver.games.dog.glyphs import draw_cell, fill_of
from solver.games.dog.sheet_legend import LEGEND, LEGEND_TERRAIN, REMINDER
from solver.render.legend import legend_entries
from solver.render.pencil import PENCIL, pencil_ring, pencil_x
from solver.render.svg import INK, box, element, text

__all__ = ["MARGIN", "PAGE_H", "PAGE_W", "lower_block"]

PAGE_W = 210.0
PAGE_H = 297.0
MARGIN = 12.0

TURN_BOX = 8.2
TRACK_LABEL = 22.0
VALUE_BOX = 7.6
SMALL_TURN_BOX = 6.0
TURNS_PER_ROW = 20  # 20 x 8.2 mm fill the width beside the label
SMALL_TURNS_PER_ROW = 27  # 27 x 6 mm, for tracks of more than 40 turns
LEGEND_ROW = 12.5
LINE = 4.3


def _box(x: float, y: float, w: float, h: float, class_: str, strong: bool = False) -> str:
    """A box to pencil in; ``strong`` (a start value, the last turn) draws it bold."""
    return box(
        x,
        y,
        w,
        h,
        class_=class_,
        stroke=INK if strong else "#777777",
        stroke_width=0.6 if strong else 0.3,
    )


def _legend_swatch(key: str, x: float, y: float, s: float) -> list[str]:
    terrain = LEGEND_TERRAIN.get(key, Terrain.OPEN)
    out = [
        element(
            "rect",
            {
                "class_": "swatch",
                "x": x,
                "y": y,
                "width": s,
                "height": s,
                "fill": fill_of(terrain),
                "stroke": "#888888",
                "stroke-width": 0.25,
            },
        )
    ]
    role = key if key in ("start", "human", "shouter") else None
    shouter = Shouter(0, 0, "E", 1) if key == "shouter" else None
    if key == "pencil":
        out.append(pencil_x(x + s / 2, y + s / 2, s * 0.8, class_="legend-mark"))
    else:
        out += draw_cell(x, y, s, terrain, role, shouter, words=False)
    return out


def lower_block(
    forest: Forest, y: float, turn: int | None, stamina: int | None, curiosity: int | None
) -> tuple[list[str], float]:
    """The tracks, the legend and the reminder from ``y`` down; returns them and their end."""
    out: list[str] = ['<g class="tracks">']
    y = _turn_track(out, forest, y, turn)
    y = _value_tracks(out, y, stamina, curiosity)
    out.append("</g>")
    y = _legend(out, y + 8.0)
    y = _reminder(out, y)
    return out, y


def _turn_track(out: list[str], forest: Forest, y: float, turn: int | None) -> float:
    """One box per turn, the spent ones crossed off and the current one circled; returns the
    ``y`` below the track."""
    small = forest.turns > 2 * TURNS_PER_ROW
    tb = SMALL_TURN_BOX if small else TURN_BOX
    per_row = SMALL_TURNS_PER_ROW if small else TURNS_PER_ROW
    x0 = MARGIN + TRACK_LABEL
    out.append(text(MARGIN, y + tb * 0.65, "Turn", 3.6, weight="bold"))
    number_size = 1.7 if small else 2.1
    spent = 0 if turn is None else max(0, min(turn - 1, forest.turns))
    for t in range(1, forest.turns + 1):
        row, col = divmod(t - 1, per_row)
        bx, by = x0 + col * tb, y + row * (tb + 1.5)
        out.append(_box(bx + 0.4, by, tb - 0.8, tb, "turn-box", t == forest.turns))
        out.append(text(bx + 1.1, by + number_size + 0.5, str(t), number_size, fill="#777777"))
        if t <= spent:
            out.append(pencil_x(bx + tb / 2, by + tb / 2, tb * 0.75, class_="tick"))
        elif turn is not None and t == turn:
            out.append(pencil_ring(bx + tb / 2, by + tb / 2, tb * 0.45, 0.45, class_="tick"))
    return y + math.ceil(forest.turns / per_row) * (tb + 1.5) + 3.0


def _value_tracks(out: list[str], y: float, stamina: int | None, curiosity: int | None) -> float:
    """The stamina (0..6) and curiosity (0..9+) tracks side by side and the line under them."""
    end = _value_track(out, MARGIN, y, ("Stamina", TRACK_LABEL), 7, 6, stamina, "stamina-box")
    _value_track(out, end + 6.0, y, ("Curiosity", 19.0), 10, 2, curiosity, "curiosity-box")
    y += TURN_BOX + 3.4
    line = "Bold boxes: the start values. Cross off each turn; circle stamina and curiosity."
    out.append(text(MARGIN + TRACK_LABEL, y, line, 2.4, fill="#777777"))
    return y


def _value_track(
    out: list[str],
    x: float,
    y: float,
    label: tuple[str, float],
    count: int,
    start: int,
    value: int | None,
    class_: str,
) -> float:
    """A labelled track of boxes 0..count - 1 (``start`` bold, ``value`` circled, a value past
    the last box written beside it); returns the ``x`` after its last box."""
    tb, vb = TURN_BOX, VALUE_BOX
    out.append(text(x, y + tb * 0.65, label[0], 3.6, weight="bold"))
    bx = x + label[1]
    for v in range(count):
        shown = f"{v}+" if v == count - 1 and class_ == "curiosity-box" else str(v)
        out.append(_box(bx + 0.4, y, vb - 0.8, tb, class_, v == start))
        out.append(
            text(
                bx + vb / 2,
                y + tb * 0.66,
                shown,
                3.2,
                anchor="middle",
                fill=INK if v == start else "#555555",
                weight="bold" if v == start else None,
            )
        )
        if value is not None and min(max(value, 0), count - 1) == v:
            out.append(pencil_ring(bx + vb / 2, y + tb / 2, tb * 0.46, 0.45, class_="tick"))
        bx += vb
    if value is not None and value > count - 1:
        out.append(text(bx + 1.5, y + tb * 0.66, f"= {value}", 3.4, fill=PENCIL, class_="tick"))
    return bx


def _legend(out: list[str], y: float) -> float:
    """The legend: one swatch per entry, three to a column; returns the ``y`` below it."""
    out.append('<g class="legend">')
    out.append(text(MARGIN, y, "Legend", 3.6, weight="bold"))
    y += 3.0
    out += legend_entries(
        LEGEND,
        MARGIN,
        y,
        per_column=3,
        column_width=(PAGE_W - 2 * MARGIN) / 4,
        row_height=LEGEND_ROW,
        swatch=_legend_swatch,
    )
    out.append("</g>")
    return y + 3 * LEGEND_ROW + 3.0


def _reminder(out: list[str], y: float) -> float:
    """The rules reminder, a line of text each; returns the ``y`` of its end."""
    out.append('<g class="reminder">')
    for k, line in enumerate(REMINDER):
        out.append(text(MARGIN, y + k * LINE, line, 2.9, fill="#333333"))
    out.append("</g>")
    return y + (len(REMINDER) - 1) * LINE + 1.0
