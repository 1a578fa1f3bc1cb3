"""The dog sheet's pictures of cells: a glyph per terrain and role, and the cell colours.

Each glyph draws inside the square (x, y, s) of its cell, in millimetres: a fir tree, grass tufts
for undergrowth, blue waves for a puddle, a squirrel, a dotted wavy arrow for a scent trail, a
dog's face, a stick; a paw print for the start, a figure for the human, a grey figure with sound
waves for a shouter. :func:`draw_cell` picks the glyph (and the short word under it);
:func:`fill_of` gives the cell's background colour.

>>> from solver.games.dog.forest import Terrain
>>> fill_of(Terrain.PUDDLE), fill_of(Terrain.SQUIRREL)
('#dcf0fb', '#fff6dc')
>>> draw_cell(0.0, 0.0, 10.0, Terrain.STICK)[-1]
'<text x="5" y="9" font-size="1.4" text-anchor="middle" fill="#333333">stick</text>'
"""

from __future__ import annotations

import math

from solver.games.dog.forest import Shouter, Terrain
from solver.render.pencil import round_stroke
from solver.render.svg import INK, element, fmt, points, text

__all__ = ["ARROW", "DISTRACTION_FILL", "FILLS", "draw_cell", "fill_of"]

#: The shouters' red: their arrows, the numbers under them, the human's frame waves.
ARROW = "#d0453a"
#: Background colours of the plain terrains; every distraction shares ``DISTRACTION_FILL``.
FILLS = {
    Terrain.OPEN: "#ffffff",
    Terrain.UNDERGROWTH: "#eef5e4",
    Terrain.PUDDLE: "#dcf0fb",
    Terrain.TREE: "#f3f8ee",
}
DISTRACTION_FILL = "#fff6dc"


def _glyph_undergrowth(x: float, y: float, s: float) -> list[str]:
    out = []
    a = s * 0.055
    spots = [
        (0.2, 0.3),
        (0.55, 0.22),
        (0.82, 0.38),
        (0.35, 0.62),
        (0.7, 0.7),
        (0.15, 0.85),
        (0.5, 0.9),
        (0.88, 0.9),
    ]
    d = ""
    for fx, fy in spots:
        bx, by = x + fx * s, y + fy * s
        d += (
            f"M{fmt(bx)} {fmt(by)}l{fmt(-a)} {fmt(-1.6 * a)}"
            f"M{fmt(bx)} {fmt(by)}l0 {fmt(-2 * a)}"
            f"M{fmt(bx)} {fmt(by)}l{fmt(a)} {fmt(-1.6 * a)}"
        )
    out.append(round_stroke(d, "#5f8a4a", max(0.2, s * 0.022)))
    return out


def _glyph_puddle(x: float, y: float, s: float) -> list[str]:
    out = []
    amp = s * 0.05
    for fy in (0.32, 0.52, 0.72):
        x0 = x + s * 0.16
        step = s * 0.17
        d = f"M{fmt(x0)} {fmt(y + fy * s)}"
        for i in range(4):
            d += f"q{fmt(step / 2)} {fmt(-amp if i % 2 == 0 else amp)} {fmt(step)} 0"
        out.append(round_stroke(d, "#3a86c0", max(0.25, s * 0.03)))
    return out


_TREE_TIERS = ((0.3, 0.18, 0.16, "#9ccb85"), (0.23, 0.0, 0.34, "#b5dba0"))
"""The tree's two green triangles, lower first: half width, base below and apex above the
centre (in cell sizes), fill."""


def _glyph_tree(x: float, y: float, s: float) -> list[str]:
    cx, cy = x + s / 2, y + s * 0.5
    w = max(0.2, s * 0.025)
    stroke = {"stroke": "#2d5a27", "stroke-width": w, "stroke-linejoin": "round"}
    trunk = {"x": cx - s * 0.045, "y": cy + s * 0.16, "width": s * 0.09, "height": s * 0.17}
    out = [element("rect", {**trunk, "fill": "#8b5e3c", "stroke": "#5a3b22", "stroke-width": w})]
    for half, base, apex, fill in _TREE_TIERS:
        corners = [
            (cx - s * half, cy + s * base),
            (cx + s * half, cy + s * base),
            (cx, cy - s * apex),
        ]
        out.append(element("polygon", {"points": points(corners), "fill": fill, **stroke}))
    return out


def _glyph_squirrel(cx: float, cy: float, s: float) -> list[str]:
    w = max(0.2, s * 0.022)
    line = {"stroke": "#6b3a12", "stroke-width": w, "stroke-linejoin": "round"}
    tail = (
        f"M{fmt(cx - s * 0.08)} {fmt(cy + s * 0.14)}"
        f"C{fmt(cx - s * 0.36)} {fmt(cy + s * 0.12)} {fmt(cx - s * 0.34)} {fmt(cy - s * 0.26)}"
        f" {fmt(cx - s * 0.14)} {fmt(cy - s * 0.22)}"
        f"C{fmt(cx - s * 0.2)} {fmt(cy - s * 0.1)} {fmt(cx - s * 0.18)} {fmt(cy + s * 0.02)}"
        f" {fmt(cx - s * 0.06)} {fmt(cy + s * 0.06)}Z"
    )
    ear = points(
        [
            (cx + s * 0.08, cy - s * 0.1),
            (cx + s * 0.1, cy - s * 0.19),
            (cx + s * 0.14, cy - s * 0.1),
        ]
    )
    return [
        element("path", {"d": tail, "fill": "#d98e45", **line}),
        element(
            "ellipse",
            {
                "cx": cx + s * 0.02,
                "cy": cy + s * 0.08,
                "rx": s * 0.11,
                "ry": s * 0.1,
                "fill": "#e9a862",
                **line,
            },
        ),
        element("polygon", {"points": ear, "fill": "#e9a862", **line}),
        element(
            "circle",
            {"cx": cx + s * 0.12, "cy": cy - s * 0.04, "r": s * 0.075, "fill": "#e9a862", **line},
        ),
        element("circle", {"cx": cx + s * 0.14, "cy": cy - s * 0.055, "r": s * 0.014, "fill": INK}),
    ]


def _arrow_path(cx: float, cy: float, s: float, direction: str) -> str:
    """A wavy arrow through (cx, cy) pointing ``direction`` (drawn east, then rotated)."""
    angle = {"E": 0, "S": 90, "W": 180, "N": 270}[direction]
    d = f"M{fmt(cx - s * 0.3)} {fmt(cy)}"
    step = s * 0.1
    for i in range(4):
        d += f"q{fmt(step / 2)} {fmt(s * (-0.07 if i % 2 == 0 else 0.07))} {fmt(step)} 0"
    d += f"L{fmt(cx + s * 0.18)} {fmt(cy)}"
    head = (
        f"M{fmt(cx + s * 0.1)} {fmt(cy - s * 0.1)}L{fmt(cx + s * 0.25)} {fmt(cy)}"
        f"L{fmt(cx + s * 0.1)} {fmt(cy + s * 0.1)}"
    )
    return element(
        "path",
        {
            "d": d + head,
            "stroke": "#7a4fa6",
            "stroke-width": max(0.3, s * 0.045),
            "stroke-linecap": "round",
            "stroke-linejoin": "round",
            "fill": "none",
            "transform": f"rotate({angle} {fmt(cx)} {fmt(cy)})" if angle else None,
        },
    )


def _glyph_scent(cx: float, cy: float, s: float, direction: str) -> list[str]:
    dots = []
    for fx, fy in ((-0.2, -0.2), (0.22, 0.2), (-0.05, 0.22), (0.1, -0.22)):
        dots.append(
            element(
                "circle", {"cx": cx + fx * s, "cy": cy + fy * s, "r": s * 0.02, "fill": "#b497d1"}
            )
        )
    return [*dots, _arrow_path(cx, cy, s, direction)]


def _glyph_other_dog(cx: float, cy: float, s: float) -> list[str]:
    w = max(0.2, s * 0.022)
    line = {"stroke": "#5a3b22", "stroke-width": w}
    out = [
        element(
            "circle",
            {"cx": cx, "cy": cy, "r": s * 0.18, "fill": "#f2dcb8", **line},
        )
    ]
    for side in (-1, 1):
        out.append(
            element(
                "ellipse",
                {
                    "cx": cx + side * s * 0.18,
                    "cy": cy + s * 0.02,
                    "rx": s * 0.065,
                    "ry": s * 0.14,
                    "fill": "#9a6a3e",
                    "transform": f"rotate({-side * 18} {fmt(cx + side * s * 0.18)} "
                    f"{fmt(cy + s * 0.02)})",
                    **line,
                },
            )
        )
        out.append(
            element(
                "circle",
                {"cx": cx + side * s * 0.07, "cy": cy - s * 0.04, "r": s * 0.022, "fill": INK},
            )
        )
    out.append(
        element(
            "ellipse",
            {"cx": cx, "cy": cy + s * 0.06, "rx": s * 0.045, "ry": s * 0.032, "fill": INK},
        )
    )
    mouth = (
        f"M{fmt(cx - s * 0.05)} {fmt(cy + s * 0.11)}"
        f"q{fmt(s * 0.05)} {fmt(s * 0.04)} {fmt(s * 0.1)} 0"
    )
    out.append(element("path", {"d": mouth, "fill": "none", "stroke": INK, "stroke-width": w}))
    return out


def _glyph_stick(cx: float, cy: float, s: float) -> list[str]:
    d = (
        f"M{fmt(cx - s * 0.28)} {fmt(cy + s * 0.14)}L{fmt(cx + s * 0.28)} {fmt(cy - s * 0.12)}"
        f"M{fmt(cx + s * 0.02)} {fmt(cy + s * 0.02)}l{fmt(s * 0.05)} {fmt(s * 0.13)}"
        f"M{fmt(cx - s * 0.12)} {fmt(cy + s * 0.08)}l{fmt(-s * 0.03)} {fmt(-s * 0.12)}"
    )
    leaf = (
        f"M{fmt(cx + s * 0.07)} {fmt(cy + s * 0.15)}"
        f"q{fmt(s * 0.1)} {fmt(-s * 0.02)} {fmt(s * 0.1)} {fmt(s * 0.08)}"
        f"q{fmt(-s * 0.1)} {fmt(s * 0.02)} {fmt(-s * 0.1)} {fmt(-s * 0.08)}Z"
    )
    return [
        round_stroke(d, "#7a5230", max(0.4, s * 0.055)),
        element(
            "path",
            {
                "d": leaf,
                "fill": "#9ccb85",
                "stroke": "#2d5a27",
                "stroke-width": max(0.15, s * 0.015),
            },
        ),
    ]


def _glyph_paw(cx: float, cy: float, s: float, fill: str = "#4a4a4a") -> list[str]:
    out = [
        element(
            "ellipse",
            {"cx": cx, "cy": cy + s * 0.07, "rx": s * 0.12, "ry": s * 0.1, "fill": fill},
        )
    ]
    for fx, fy in ((-0.15, -0.06), (-0.055, -0.15), (0.055, -0.15), (0.15, -0.06)):
        out.append(
            element(
                "ellipse",
                {
                    "cx": cx + fx * s,
                    "cy": cy + fy * s,
                    "rx": s * 0.045,
                    "ry": s * 0.06,
                    "fill": fill,
                },
            )
        )
    return out


def _glyph_person(
    cx: float, cy: float, s: float, fill: str, stroke: str, waves: bool = False
) -> list[str]:
    w = max(0.2, s * 0.025)
    body = (
        f"M{fmt(cx - s * 0.15)} {fmt(cy + s * 0.24)}"
        f"L{fmt(cx - s * 0.15)} {fmt(cy + s * 0.08)}"
        f"Q{fmt(cx - s * 0.15)} {fmt(cy - s * 0.04)} {fmt(cx)} {fmt(cy - s * 0.04)}"
        f"Q{fmt(cx + s * 0.15)} {fmt(cy - s * 0.04)} {fmt(cx + s * 0.15)} {fmt(cy + s * 0.08)}"
        f"L{fmt(cx + s * 0.15)} {fmt(cy + s * 0.24)}Z"
    )
    out = [
        element("path", {"d": body, "fill": fill, "stroke": stroke, "stroke-width": w}),
        element(
            "circle",
            {
                "cx": cx,
                "cy": cy - s * 0.15,
                "r": s * 0.085,
                "fill": fill,
                "stroke": stroke,
                "stroke-width": w,
            },
        ),
    ]
    if waves:
        hy = cy - s * 0.15
        d = ""
        for r in (0.14, 0.2):
            rr = s * r
            dx, dy = rr * math.cos(math.radians(40)), rr * math.sin(math.radians(40))
            d += (
                f"M{fmt(cx + dx)} {fmt(hy - dy)}"
                f"A{fmt(rr)} {fmt(rr)} 0 0 1 {fmt(cx + dx)} {fmt(hy + dy)}"
                f"M{fmt(cx - dx)} {fmt(hy - dy)}"
                f"A{fmt(rr)} {fmt(rr)} 0 0 0 {fmt(cx - dx)} {fmt(hy + dy)}"
            )
        out.append(
            element(
                "path",
                {
                    "d": d,
                    "fill": "none",
                    "stroke": ARROW,
                    "stroke-width": max(0.25, s * 0.03),
                    "stroke-linecap": "round",
                },
            )
        )
    return out


_WORDS = {
    Terrain.SQUIRREL: "squirrel",
    Terrain.SCENT_N: "scent",
    Terrain.SCENT_E: "scent",
    Terrain.SCENT_S: "scent",
    Terrain.SCENT_W: "scent",
    Terrain.DOG: "other dog",
    Terrain.STICK: "stick",
}


def fill_of(terrain: Terrain) -> str:
    """The background colour of a cell of ``terrain``."""
    return DISTRACTION_FILL if terrain.is_distraction else FILLS[terrain]


def draw_cell(
    x: float,
    y: float,
    s: float,
    terrain: Terrain,
    role: str | None = None,
    shouter: Shouter | None = None,
    *,
    words: bool = True,
) -> list[str]:
    """The glyph (and short word) of one cell whose square is (x, y, s); no background."""
    cx = x + s / 2
    cy = y + s * (0.44 if words else 0.5)
    glyph_s = s if words else s * 1.1
    out: list[str] = []
    word = None
    person_cy = y + s * (0.5 if words else 0.55)
    if role == "start":
        out += _glyph_paw(cx, cy, glyph_s)
        word = "start"
    elif role == "human":
        out += _glyph_person(cx, person_cy, glyph_s, "#f4c7bd", "#8e2a1f")
        word = "human"
    elif role == "shouter" and shouter is not None:
        out += _glyph_person(cx, person_cy, glyph_s, "#d9d9d9", "#555555", waves=True)
        word = "shouter"
    else:
        out += _terrain_glyph(terrain, x, y, s, (cx, cy, glyph_s))
    word = word or _WORDS.get(terrain)
    if words and word:
        out.append(text(cx, y + s * 0.9, word, s * 0.14, anchor="middle", fill="#333333"))
    return out


def _terrain_glyph(
    terrain: Terrain, x: float, y: float, s: float, centred: tuple[float, float, float]
) -> list[str]:
    """The glyph of ``terrain`` (none for open trail): drawn over the square (x, y, s), or
    about ``centred`` (the centre and the glyph's size)."""
    cx, cy, glyph_s = centred
    if terrain == Terrain.UNDERGROWTH:
        return _glyph_undergrowth(x, y, s)
    if terrain == Terrain.PUDDLE:
        return _glyph_puddle(x, y, s)
    if terrain == Terrain.TREE:
        return _glyph_tree(x, y, s)
    if terrain == Terrain.SQUIRREL:
        return _glyph_squirrel(cx, cy, glyph_s)
    if terrain.scent_direction is not None:
        return _glyph_scent(cx, cy, glyph_s, terrain.scent_direction)
    if terrain == Terrain.DOG:
        return _glyph_other_dog(cx, cy, glyph_s)
    if terrain == Terrain.STICK:
        return _glyph_stick(cx, cy, glyph_s)
    return []
