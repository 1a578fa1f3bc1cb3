"""The guardians' pieces in SVG: a tile (forest side, mission side, the start tile, a face whose
back is unseen), a completed mission's chip, a pawn.

A forest side is a square of its colour with its colour letter and its points preview; where
its back is known (open backs, a ``.grove`` position's ``B:GRE``) its mission runs along the
bottom as small swatches. A mission side is cream with its sequence as large swatches and its
points; the start tile shows ``A-B-C-D-E-A``. A solo pawn is a disc of its colour with its
initial; with 2-4 players the pawns are alike (dark discs).
"""

from __future__ import annotations

from solver.render import box, element, text, token

__all__ = ["COLOUR_NAMES", "FILL", "PAWN_FILL", "chip", "pawn", "tile"]

#: The fill of each forest colour.
FILL: dict[str, str] = {
    "B": "#3f7fd0",
    "G": "#4caf50",
    "R": "#d84a3a",
    "E": "#9e9e9e",
    "P": "#9c5ac8",
    "Y": "#f2c230",
}
#: What each colour stands for (the rules' names).
COLOUR_NAMES: dict[str, str] = {
    "B": "blue: water",
    "G": "green: leaves",
    "R": "red: fruit",
    "E": "grey: minerals",
    "P": "purple: flowers",
    "Y": "yellow: mushrooms",
}
#: Pawn fills by their ``.grove`` letter (``p``: a pawn of a 2-4-player game).
PAWN_FILL = {"b": FILL["B"], "g": FILL["G"], "y": FILL["Y"], "r": FILL["R"], "p": "#3a3a3a"}
CREAM = "#fbf6e6"
_DARK_TEXT = {"Y", "E"}


def _ink(colour: str | None) -> str:
    return "#222222" if colour is None or colour in _DARK_TEXT else "#ffffff"


def _sequence(x: float, y: float, width: float, height: float, sequence: str) -> list[str]:
    """A mission's colours as a row of swatches filling the box (x, y, width, height)."""
    if not sequence:
        return []
    w = width / len(sequence)
    return [box(x + i * w, y, w, height, fill=FILL[c], stroke="#333333", stroke_width=0.25,
                rx=0.4) for i, c in enumerate(sequence)]  # fmt: skip


def tile(
    x: float, y: float, size: float, *, colour: str | None, sequence: str, points: int,
    mission: bool, start: bool = False, hidden: bool = False, **attrs: object,
) -> list[str]:  # fmt: skip
    """One tile at (x, y): its square (class ``tile``, with ``attrs``) and what it shows."""
    fill = CREAM if mission or colour is None else FILL[colour]
    out = [element("rect", {"class_": "tile", "x": x, "y": y, "width": size, "height": size,
                            "rx": 1.2, "fill": fill, "stroke": "#555555", "stroke-width": 0.4,
                            **attrs})]  # fmt: skip
    if start:
        out.append(text(x + size / 2, y + size * 0.62, "A-B-C-D-E-A", size * 0.145,
                        anchor="middle", weight="bold"))  # fmt: skip
        out.append(text(x + size / 2, y + size - 1.6, f"{points} VP", size * 0.17,
                        anchor="middle", fill="#555555"))  # fmt: skip
        return out
    if mission:
        if hidden:
            out.append(text(x + size / 2, y + size * 0.62, "?", size * 0.35, anchor="middle",
                            fill="#777777"))  # fmt: skip
        out += _sequence(x + 1.2, y + size * 0.52, size - 2.4, size * 0.22, sequence)
        out.append(text(x + size - 1.2, y + size - 1.4, f"{points} VP", size * 0.17,
                        anchor="end", weight="bold"))  # fmt: skip
        return out
    ink = _ink(colour)
    out.append(text(x + 1.3, y + size * 0.27, colour or "?", size * 0.2, fill=ink, weight="bold"))
    out.append(text(x + size - 1.3, y + size * 0.36, str(points), size * 0.3, anchor="end",
                    fill=ink, weight="bold"))  # fmt: skip
    if sequence:  # the back is known: its mission along the bottom
        out += _sequence(x + 1.0, y + size - 4.0, size - 2.0, 2.8, sequence)
    return out


def chip(x: float, y: float, sequence: str, points: int, edge: str = "#777777") -> list[str]:
    """A completed mission in a pile: its sequence and its points, framed by ``edge`` (solo:
    the colour of the pawn it is credited to)."""
    out = [box(x, y, 12.0, 8.0, fill=CREAM, stroke=edge, stroke_width=0.6, rx=0.8)]
    out += _sequence(x + 1.0, y + 1.0, 10.0, 2.6, sequence or "")
    if not sequence:
        out.append(text(x + 6.0, y + 3.6, "start", 2.2, anchor="middle"))
    out.append(text(x + 6.0, y + 7.0, str(points), 2.8, anchor="middle", weight="bold"))
    return out


def pawn(cx: float, cy: float, letter: str, r: float = 2.6, class_: str = "pawn") -> list[str]:
    """A pawn (its ``.grove`` letter: ``b g y r`` solo, ``p`` with 2-4 players)."""
    shown = letter.upper() if letter != "p" else None
    return token(cx, cy, r, shown, fill=PAWN_FILL[letter], stroke="#ffffff", stroke_width=0.6,
                 label_fill="#ffffff", class_=class_)  # fmt: skip
