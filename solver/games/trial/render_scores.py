"""The Trial's scoreboard and legend in SVG, drawn under the board.

The scoreboard has a row per adventurer: the pawn, fame (the public total: face-up story cards,
items, artifacts, flags, morality, legendary tokens, the first-player token), morality on its
-5 (good) .. +5 (evil) track, food by kind, paws left (``+S``: the strong paw), tents left,
cards in hand (a count), the story (face up and face down), the backpack and the expedition
flags. All of it is what every player sees.
"""

from __future__ import annotations

from typing import Any

from solver.games.trial.render_board import (
    DISC,
    KIND_FILL,
    PLAYER_COLOURS,
    SPACE_H,
    SPACE_W,
    TUNNEL,
)
from solver.render import LegendEntry, box, circle, line, polygon, text, titled_legend, token

__all__ = ["FOOD_FILL", "ROW", "legend", "scoreboard"]

FOOD_FILL = {"raspberry": "#c2185b", "acorn": "#8d6e63", "mushroom": "#d9b38c", "tea": "#558b2f"}
ROW = 8.0
"""A scoreboard row's height."""
_COLUMNS = (("player", 0.0), ("fame", 24.0), ("morality", 36.0), ("food", 52.0),
            ("paws", 88.0), ("tents", 100.0), ("hand", 112.0), ("story", 124.0),
            ("backpack", 146.0), ("flags", 204.0))  # fmt: skip
_AREA = {"swamps": "S", "frosty": "F", "caverns": "C"}
_TO_MOVE = " \u25c0"


def _fame(state: Any, p: int) -> int:
    from solver.games.trial.scoring import fame

    return int(fame(state, p)["total"])


def _row(state: Any, p: int, x: float, y: float) -> list[str]:
    me = state.data["players"][p]
    col = dict(_COLUMNS)
    mid = y + ROW / 2 + 1.1
    to_move = state.current_player() == p
    out = token(x + 3.0, y + ROW / 2, 2.4, str(p), fill=PLAYER_COLOURS[p % 4], stroke="#ffffff",
                label_fill="#ffffff")  # fmt: skip
    out.append(text(x + 7.0, mid, f"player {p}{_TO_MOVE if to_move else ''}", 3.0,
                    weight="bold" if to_move else None))  # fmt: skip
    out.append(text(x + col["fame"] + 8.0, mid, str(_fame(state, p)), 3.6, anchor="end",
                    weight="bold", class_="fame"))  # fmt: skip
    morality = int(me["morality"])
    out.append(text(x + col["morality"] + 2.0, mid, f"{morality:+d}", 3.0))
    out.append(text(x + col["morality"] + 9.0, mid, "good" if morality < 0 else
                    "evil" if morality > 0 else "", 2.2, fill="#666666"))  # fmt: skip
    for k, (kind, count) in enumerate(me["food"].items()):
        fx = x + col["food"] + 2.0 + k * 9.0
        out += token(fx, y + ROW / 2, 2.0, kind[:1].upper(), fill=FOOD_FILL.get(kind, "#999999"),
                     stroke="#ffffff", label_fill="#ffffff")  # fmt: skip
        out.append(text(fx + 2.6, mid, str(count), 2.8))
    tents = me["tents"] if isinstance(me["tents"], int) else len(me["tents"])
    hand = me["hand"] if isinstance(me["hand"], int) else len(me["hand"])
    up = sum(1 for _, face_up, _ in me["story"] if face_up)
    cells = {
        "paws": f"{me['paws']}{' +S' if me['strong_paw'] else ''}",
        "tents": str(tents),
        "hand": str(hand),
        "story": f"{up} up, {len(me['story']) - up} down",
        "backpack": ", ".join(me["backpack"]) or "-",
        "flags": " ".join(_AREA.get(a, a) for a, s in me["flags"].items() if s is not None) or "-",
    }
    for name, shown in cells.items():
        out.append(text(x + col[name], mid, shown, 2.8))
    return out


def scoreboard(state: Any, x: float, y: float) -> list[str]:
    """The scoreboard from (x, y): a header line, then a row per adventurer."""
    out = [text(x + at, y + 3.0, name, 2.6, fill="#555555", weight="bold")
           for name, at in _COLUMNS if name != "player"]  # fmt: skip
    out.append(text(x, y + 3.0, "adventurer", 2.6, fill="#555555", weight="bold"))
    out.append(line(x, y + 4.4, x + 236.0, y + 4.4, stroke="#cccccc", stroke_width=0.3))
    for p in range(len(state.data["players"])):
        top = y + 5.0 + p * ROW
        if p % 2:
            out.append(box(x, top, 236.0, ROW, fill="#f6f4ee", stroke="none", rx=0.0))
        out += _row(state, p, x, top)
    return out


_KIND_LABEL = {
    "grove": ("grove", "its food"),
    "ruins": ("ruins", "items; → the side it restores to"),
    "lookout": ("lookout tower", "draw deed cards"),
    "store": ("store", "buy and sell items"),
    "campsite": ("campsite", "camp: a tent goes here"),
    "start": ("start space", ""),
    "path": ("path space", ""),
    "exit": ("expedition exit", ""),
    "expedition": ("expedition space", "bold: the flag's fame"),
}


def _swatch(key: str, x: float, y: float, size: float) -> list[str]:
    c = size / 2
    if key in KIND_FILL:
        if key == "expedition":
            return [circle(x + c, y + c, DISC * size / 10, fill=KIND_FILL[key], stroke="#555555",
                           stroke_width=0.4)]  # fmt: skip
        w, h = SPACE_W * size / 14, SPACE_H * size / 14
        return [box(x + c - w / 2, y + c - h / 2, w, h, fill=KIND_FILL[key], stroke="#555555",
                    stroke_width=0.4, rx=1.0)]  # fmt: skip
    if key == "tunnel":
        return [box(x + 1.0, y + 2.0, size - 2.0, size - 4.0, fill="#e8e8e8", stroke=TUNNEL,
                    stroke_width=1.1, rx=1.0)]  # fmt: skip
    if key == "paw":
        return [circle(x + c - 2.0, y + c, 1.3, fill=PLAYER_COLOURS[0], stroke="#ffffff"),
                circle(x + c + 2.0, y + c, 1.3, fill=PLAYER_COLOURS[1], stroke="#222222",
                       stroke_width=0.6)]  # fmt: skip
    if key == "food":
        discs = []
        for k, kind in enumerate(FOOD_FILL):
            discs += token(x + 1.6 + k * 1.3, y + c, 1.6, None, fill=FOOD_FILL[kind],
                           stroke="#ffffff")  # fmt: skip
        return discs
    if key == "tent":
        return [line(x + c, y + 1.0, x + c, y + size - 1.0, stroke="#333333", stroke_width=0.4),
                polygon([(x + c, y + 1.0), (x + c + 4.0, y + 2.4), (x + c, y + 3.8)],
                        fill=PLAYER_COLOURS[0])]  # fmt: skip
    return token(x + c, y + c, c * 0.6, "0", fill=PLAYER_COLOURS[0], stroke="#ffffff",
                 label_fill="#ffffff")  # fmt: skip


def legend(x: float, y: float, width: float) -> list[str]:
    """The legend from (x, y): the kinds of spaces, then the pieces."""
    entries = [LegendEntry(k, label, (line_,) if line_ else ())
               for k, (label, line_) in _KIND_LABEL.items()]  # fmt: skip
    entries += [
        LegendEntry("pawn", "adventurer", ("a pawn per player",)),
        LegendEntry("paw", "paw tokens", ("placed on a location;", "ringed: the strong paw")),
        LegendEntry("tent", "tent", ("on a campsite, its", "owner's colour")),
        LegendEntry("tunnel", "tunnel", ("brown frame; a brown", "cross: collapsed")),
        LegendEntry("food", "food", ("R raspberry, A acorn,", "M mushroom, T tea")),
    ]  # fmt: skip
    return titled_legend(entries, x, y, width, per_column=4, row_height=9.5, swatch=_swatch,
                         swatch_size=7.0)  # fmt: skip
