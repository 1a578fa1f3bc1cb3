"""Pictures of a dog-game forest (RULES.md §1): a text grid and a printable SVG paper sheet.

Both functions are pure: they read a :class:`~solver.games.dog.forest.Forest` and, optionally, a
pencilled play state (the trail walked so far, the marked cells, the resolved distractions, the
dog's position), and return a string. They hold no game logic: the caller says what is marked,
resolved or where the dog is; nothing is derived from the rules. Cells are ``(row, col)`` tuples;
a cell outside the grid raises :class:`~solver.errors.OptionError`.

Conventions shared by both pictures:

- The trail is a sequence of cells in the order walked; every trail cell counts as marked.
- The dog's position defaults to the last trail cell when ``position`` is not given.
- The human's cell is never shown as marked (RULES.md §1.6: it is never marked).

Text (:func:`render_ascii`): the ``.forest`` symbols of RULES.md §1.7 under a column header and
beside row numbers, then one line per shouter listing the cells under its arrow with their printed
numbers (the shouter's own cell first, number 1). Pencil overlays, strongest first: ``d`` the
dog's position, ``H`` the human, ``x`` a marked cell, ``.`` a resolved (crossed-off) distraction.
When any overlay is given, a last line sums it up. No line has trailing spaces.

Sheet (:func:`render_svg`): an A4 portrait page in millimetres (it grows taller only when a very
long turn track needs more room): the forest name, the grid with a glyph per terrain (a fir tree,
grass tufts for undergrowth, blue waves for a puddle, a squirrel, a dotted wavy arrow for a scent
trail, a dog's face, a stick; a paw print for the start, a figure in a red frame for the human, a
grey figure for a shouter), each shouter's red arrow with its printed numbers in small circles, the
turn track (``forest.turns`` boxes), stamina boxes 0..6 and curiosity boxes 0..9 (the last one
reads ``9+``; the start values are bold), a legend and a short rules reminder. A played state is
pencilled in grey: a polyline through the trail, an ``X`` in every marked cell, a dashed frame
around the dog's cell, a faded glyph struck through for every resolved distraction, spent turns
crossed off and the current turn, stamina and curiosity circled.

Elements carry classes for tools and tests: ``cell`` (one ``rect`` per grid cell, with
``data-row`` and ``data-col``), ``name``, ``turn-box``, ``stamina-box``, ``curiosity-box``,
``arrow-number``, ``trail``, ``mark``, ``dog``, ``resolved``, ``tick``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from solver.errors import OptionError
from solver.games.dog.forest import DELTAS, Forest, Shouter, Terrain

__all__ = ["render_ascii", "render_svg"]

Cell = tuple[int, int]

# The ``.forest`` symbol of every terrain (RULES.md §1.7).
_SYMBOL: dict[Terrain, str] = {
    Terrain.OPEN: ".",
    Terrain.UNDERGROWTH: ",",
    Terrain.PUDDLE: "~",
    Terrain.TREE: "T",
    Terrain.SQUIRREL: "S",
    Terrain.SCENT_N: "^",
    Terrain.SCENT_E: ">",
    Terrain.SCENT_S: "v",
    Terrain.SCENT_W: "<",
    Terrain.DOG: "D",
    Terrain.STICK: "I",
}


# -- shared helpers --------------------------------------------------------------------------------
def _cell(forest: Forest, cell: Iterable[int], what: str) -> Cell:
    try:
        r, c = (int(v) for v in cell)
    except (TypeError, ValueError):
        raise OptionError(f"{what} must be a (row, col) pair, not {cell!r}") from None
    if not forest.inside((r, c)):
        raise OptionError(
            f"{what} cell ({r}, {c}) lies outside the {forest.width}x{forest.height} grid"
        )
    return (r, c)


def _cells(forest: Forest, cells: Iterable[Iterable[int]], what: str) -> list[Cell]:
    return [_cell(forest, cell, what) for cell in cells]


def _overlays(
    forest: Forest,
    trail: Iterable[Iterable[int]],
    position: Iterable[int] | None,
    marked: Iterable[Iterable[int]],
    resolved: Iterable[Iterable[int]],
) -> tuple[list[Cell], Cell | None, set[Cell], set[Cell]]:
    """Validated overlays: trail, position (defaulting to the trail's end), marks, resolved."""
    path = _cells(forest, trail, "trail")
    marks = set(_cells(forest, marked, "marked")) | set(path)
    marks.discard(forest.human)
    done = set(_cells(forest, resolved, "resolved"))
    if position is not None:
        pos: Cell | None = _cell(forest, position, "position")
    else:
        pos = path[-1] if path else None
    return path, pos, marks, done


def _one_line(text: str) -> str:
    """``text`` on one line: control characters become spaces."""
    return "".join(ch if ch.isprintable() else " " for ch in text).strip()


def _cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


# -- text ------------------------------------------------------------------------------------------
def render_ascii(
    forest: Forest,
    trail: Sequence[tuple[int, int]] = (),
    position: tuple[int, int] | None = None,
    marked: Iterable[tuple[int, int]] = (),
    resolved: Iterable[tuple[int, int]] = (),
) -> str:
    """The forest as text: the ``.forest`` symbols with row and column numbers, and the arrows.

    Marked (and trail) cells print ``x``, the dog's position ``d``, a resolved distraction that is
    not marked prints ``.``; the human stays ``H``. See the module docstring for the conventions.

    >>> from solver.games.dog.forest import Forest, Shouter, Terrain
    >>> O, U, T, S = Terrain.OPEN, Terrain.UNDERGROWTH, Terrain.TREE, Terrain.SQUIRREL
    >>> forest = Forest(width=4, height=3, name="little wood", turns=12,
    ...                 cells=[[O, O, T, O], [O, U, O, O], [S, O, O, O]],
    ...                 start=(2, 2), human=(0, 3), shouters=[Shouter(1, 3, "W", 2)])
    >>> print(render_ascii(forest))
    little wood: 4x3, 12 turns
       0 1 2 3
    0  . . T H
    1  . , . Y
    2  S . @ .
    shouter (1,3) W 2: (1,3)=1 (1,2)=1 (1,1)=2
    >>> print(render_ascii(forest, trail=[(2, 2), (2, 1), (1, 1)]))
    little wood: 4x3, 12 turns
       0 1 2 3
    0  . . T H
    1  . d . Y
    2  S x x .
    shouter (1,3) W 2: (1,3)=1 (1,2)=1 (1,1)=2
    dog at (1,1); 3 cells marked
    """
    _, pos, marks, done = _overlays(forest, trail, position, marked, resolved)
    shouters = {shouter.cell for shouter in forest.shouters}
    cw = len(str(forest.width - 1))
    rw = len(str(forest.height - 1))
    name = _one_line(forest.name) or "forest"
    lines = [f"{name}: {forest.width}x{forest.height}, {forest.turns} turns"]
    lines.append(" " * (rw + 2) + " ".join(str(c).rjust(cw) for c in range(forest.width)))
    for r in range(forest.height):
        symbols = []
        for c in range(forest.width):
            cell = (r, c)
            terrain = forest.terrain(cell)
            if cell == pos:
                symbol = "d"
            elif cell == forest.human:
                symbol = "H"
            elif cell in marks:
                symbol = "x"
            elif cell in done and terrain.is_distraction:
                symbol = "."
            elif cell == forest.start:
                symbol = "@"
            elif cell in shouters:
                symbol = "Y"
            else:
                symbol = _SYMBOL[terrain]
            symbols.append(symbol.rjust(cw))
        lines.append(str(r).rjust(rw) + "  " + " ".join(symbols))
    for shouter in forest.shouters:
        covered = " ".join(
            f"{_cell_text(cell)}={number}"
            for cell, number in shouter.covered(forest.width, forest.height)
        )
        lines.append(
            f"shouter {_cell_text(shouter.cell)} {shouter.direction} {shouter.length}: {covered}"
        )
    summary = []
    if pos is not None:
        summary.append(f"dog at {_cell_text(pos)}")
    if marks:
        summary.append(f"{len(marks)} cell{'s' if len(marks) != 1 else ''} marked")
    if done:
        summary.append("resolved " + " ".join(_cell_text(cell) for cell in sorted(done)))
    if summary:
        lines.append("; ".join(summary))
    return "\n".join(lines)


# -- SVG building blocks ---------------------------------------------------------------------------
PAGE_W = 210.0
PAGE_H = 297.0
MARGIN = 12.0
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

INK = "#222222"
PENCIL = "#555555"
ARROW = "#d0453a"
FILLS = {
    Terrain.OPEN: "#ffffff",
    Terrain.UNDERGROWTH: "#eef5e4",
    Terrain.PUDDLE: "#dcf0fb",
    Terrain.TREE: "#f3f8ee",
}
DISTRACTION_FILL = "#fff6dc"


def _f(x: float) -> str:
    """A number for SVG: at most two decimals, no trailing zeros, never ``-0``."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _xml_char(code: int) -> bool:
    """Whether XML 1.0 allows the character (tab and line feed are handled by the caller)."""
    return 0x20 <= code < 0xD800 or 0xE000 <= code < 0xFFFE or code >= 0x10000


def _esc(text: str) -> str:
    """``text`` escaped for XML content or a double-quoted attribute (control chars dropped)."""
    text = "".join(ch for ch in text if ch in "\t\n" or _xml_char(ord(ch)))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;")


def _el(tag: str, attrs: dict[str, object], text: str | None = None) -> str:
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        shown = _f(value) if isinstance(value, float) else _esc(str(value))
        parts.append(f'{name}="{shown}"')
    head = " ".join(parts)
    if text is None:
        return f"<{head}/>"
    return f"<{head}>{_esc(text)}</{tag}>"


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    anchor: str = "start",
    weight: str | None = None,
    fill: str = INK,
    class_: str | None = None,
    style: str | None = None,
) -> str:
    return _el(
        "text",
        {
            "class_": class_,
            "x": x,
            "y": y,
            "font-size": size,
            "text-anchor": None if anchor == "start" else anchor,
            "font-weight": weight,
            "font-style": style,
            "fill": fill,
        },
        text,
    )


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _pencil_x(cx: float, cy: float, s: float, class_: str = "mark") -> str:
    a = s * 0.3
    d = (
        f"M{_f(cx - a)} {_f(cy - a)}L{_f(cx + a)} {_f(cy + a)}"
        f"M{_f(cx + a)} {_f(cy - a)}L{_f(cx - a)} {_f(cy + a)}"
    )
    return _el(
        "path",
        {
            "class_": class_,
            "d": d,
            "stroke": PENCIL,
            "stroke-width": max(0.3, s * 0.05),
            "stroke-linecap": "round",
            "fill": "none",
            "opacity": "0.8",
        },
    )


def _pencil_ring(cx: float, cy: float, r: float, width: float, class_: str = "tick") -> str:
    return _el(
        "circle",
        {
            "class_": class_,
            "cx": cx,
            "cy": cy,
            "r": r,
            "fill": "none",
            "stroke": PENCIL,
            "stroke-width": width,
            "opacity": "0.85",
        },
    )


# -- glyphs: each draws inside the square (x, y, s) ------------------------------------------------
def _round_stroke(d: str, colour: str, width: float) -> str:
    """An unfilled path with round line caps (the hand-drawn strokes of the glyphs)."""
    return _el(
        "path",
        {
            "d": d,
            "stroke": colour,
            "stroke-width": width,
            "stroke-linecap": "round",
            "fill": "none",
        },
    )


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
            f"M{_f(bx)} {_f(by)}l{_f(-a)} {_f(-1.6 * a)}"
            f"M{_f(bx)} {_f(by)}l0 {_f(-2 * a)}"
            f"M{_f(bx)} {_f(by)}l{_f(a)} {_f(-1.6 * a)}"
        )
    out.append(_round_stroke(d, "#5f8a4a", max(0.2, s * 0.022)))
    return out


def _glyph_puddle(x: float, y: float, s: float) -> list[str]:
    out = []
    amp = s * 0.05
    for fy in (0.32, 0.52, 0.72):
        x0 = x + s * 0.16
        step = s * 0.17
        d = f"M{_f(x0)} {_f(y + fy * s)}"
        for i in range(4):
            d += f"q{_f(step / 2)} {_f(-amp if i % 2 == 0 else amp)} {_f(step)} 0"
        out.append(_round_stroke(d, "#3a86c0", max(0.25, s * 0.03)))
    return out


def _glyph_tree(x: float, y: float, s: float) -> list[str]:
    cx, cy = x + s / 2, y + s * 0.5
    w = max(0.2, s * 0.025)
    stroke = {"stroke": "#2d5a27", "stroke-width": w, "stroke-linejoin": "round"}
    return [
        _el(
            "rect",
            {
                "x": cx - s * 0.045,
                "y": cy + s * 0.16,
                "width": s * 0.09,
                "height": s * 0.17,
                "fill": "#8b5e3c",
                "stroke": "#5a3b22",
                "stroke-width": w,
            },
        ),
        _el(
            "polygon",
            {
                "points": _points(
                    [
                        (cx - s * 0.3, cy + s * 0.18),
                        (cx + s * 0.3, cy + s * 0.18),
                        (cx, cy - s * 0.16),
                    ]
                ),
                "fill": "#9ccb85",
                **stroke,
            },
        ),
        _el(
            "polygon",
            {
                "points": _points(
                    [
                        (cx - s * 0.23, cy + s * 0.0),
                        (cx + s * 0.23, cy + s * 0.0),
                        (cx, cy - s * 0.34),
                    ]
                ),
                "fill": "#b5dba0",
                **stroke,
            },
        ),
    ]


def _glyph_squirrel(cx: float, cy: float, s: float) -> list[str]:
    w = max(0.2, s * 0.022)
    line = {"stroke": "#6b3a12", "stroke-width": w, "stroke-linejoin": "round"}
    tail = (
        f"M{_f(cx - s * 0.08)} {_f(cy + s * 0.14)}"
        f"C{_f(cx - s * 0.36)} {_f(cy + s * 0.12)} {_f(cx - s * 0.34)} {_f(cy - s * 0.26)}"
        f" {_f(cx - s * 0.14)} {_f(cy - s * 0.22)}"
        f"C{_f(cx - s * 0.2)} {_f(cy - s * 0.1)} {_f(cx - s * 0.18)} {_f(cy + s * 0.02)}"
        f" {_f(cx - s * 0.06)} {_f(cy + s * 0.06)}Z"
    )
    ear = _points(
        [
            (cx + s * 0.08, cy - s * 0.1),
            (cx + s * 0.1, cy - s * 0.19),
            (cx + s * 0.14, cy - s * 0.1),
        ]
    )
    return [
        _el("path", {"d": tail, "fill": "#d98e45", **line}),
        _el(
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
        _el("polygon", {"points": ear, "fill": "#e9a862", **line}),
        _el(
            "circle",
            {"cx": cx + s * 0.12, "cy": cy - s * 0.04, "r": s * 0.075, "fill": "#e9a862", **line},
        ),
        _el("circle", {"cx": cx + s * 0.14, "cy": cy - s * 0.055, "r": s * 0.014, "fill": INK}),
    ]


def _arrow_path(cx: float, cy: float, s: float, direction: str) -> str:
    """A wavy arrow through (cx, cy) pointing ``direction`` (drawn east, then rotated)."""
    angle = {"E": 0, "S": 90, "W": 180, "N": 270}[direction]
    d = f"M{_f(cx - s * 0.3)} {_f(cy)}"
    step = s * 0.1
    for i in range(4):
        d += f"q{_f(step / 2)} {_f(s * (-0.07 if i % 2 == 0 else 0.07))} {_f(step)} 0"
    d += f"L{_f(cx + s * 0.18)} {_f(cy)}"
    head = (
        f"M{_f(cx + s * 0.1)} {_f(cy - s * 0.1)}L{_f(cx + s * 0.25)} {_f(cy)}"
        f"L{_f(cx + s * 0.1)} {_f(cy + s * 0.1)}"
    )
    return _el(
        "path",
        {
            "d": d + head,
            "stroke": "#7a4fa6",
            "stroke-width": max(0.3, s * 0.045),
            "stroke-linecap": "round",
            "stroke-linejoin": "round",
            "fill": "none",
            "transform": f"rotate({angle} {_f(cx)} {_f(cy)})" if angle else None,
        },
    )


def _glyph_scent(cx: float, cy: float, s: float, direction: str) -> list[str]:
    dots = []
    for fx, fy in ((-0.2, -0.2), (0.22, 0.2), (-0.05, 0.22), (0.1, -0.22)):
        dots.append(
            _el("circle", {"cx": cx + fx * s, "cy": cy + fy * s, "r": s * 0.02, "fill": "#b497d1"})
        )
    return [*dots, _arrow_path(cx, cy, s, direction)]


def _glyph_other_dog(cx: float, cy: float, s: float) -> list[str]:
    w = max(0.2, s * 0.022)
    line = {"stroke": "#5a3b22", "stroke-width": w}
    out = [
        _el(
            "circle",
            {"cx": cx, "cy": cy, "r": s * 0.18, "fill": "#f2dcb8", **line},
        )
    ]
    for side in (-1, 1):
        out.append(
            _el(
                "ellipse",
                {
                    "cx": cx + side * s * 0.18,
                    "cy": cy + s * 0.02,
                    "rx": s * 0.065,
                    "ry": s * 0.14,
                    "fill": "#9a6a3e",
                    "transform": f"rotate({-side * 18} {_f(cx + side * s * 0.18)} "
                    f"{_f(cy + s * 0.02)})",
                    **line,
                },
            )
        )
        out.append(
            _el(
                "circle",
                {"cx": cx + side * s * 0.07, "cy": cy - s * 0.04, "r": s * 0.022, "fill": INK},
            )
        )
    out.append(
        _el(
            "ellipse",
            {"cx": cx, "cy": cy + s * 0.06, "rx": s * 0.045, "ry": s * 0.032, "fill": INK},
        )
    )
    mouth = (
        f"M{_f(cx - s * 0.05)} {_f(cy + s * 0.11)}q{_f(s * 0.05)} {_f(s * 0.04)} {_f(s * 0.1)} 0"
    )
    out.append(_el("path", {"d": mouth, "fill": "none", "stroke": INK, "stroke-width": w}))
    return out


def _glyph_stick(cx: float, cy: float, s: float) -> list[str]:
    d = (
        f"M{_f(cx - s * 0.28)} {_f(cy + s * 0.14)}L{_f(cx + s * 0.28)} {_f(cy - s * 0.12)}"
        f"M{_f(cx + s * 0.02)} {_f(cy + s * 0.02)}l{_f(s * 0.05)} {_f(s * 0.13)}"
        f"M{_f(cx - s * 0.12)} {_f(cy + s * 0.08)}l{_f(-s * 0.03)} {_f(-s * 0.12)}"
    )
    leaf = (
        f"M{_f(cx + s * 0.07)} {_f(cy + s * 0.15)}"
        f"q{_f(s * 0.1)} {_f(-s * 0.02)} {_f(s * 0.1)} {_f(s * 0.08)}"
        f"q{_f(-s * 0.1)} {_f(s * 0.02)} {_f(-s * 0.1)} {_f(-s * 0.08)}Z"
    )
    return [
        _round_stroke(d, "#7a5230", max(0.4, s * 0.055)),
        _el(
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
        _el(
            "ellipse",
            {"cx": cx, "cy": cy + s * 0.07, "rx": s * 0.12, "ry": s * 0.1, "fill": fill},
        )
    ]
    for fx, fy in ((-0.15, -0.06), (-0.055, -0.15), (0.055, -0.15), (0.15, -0.06)):
        out.append(
            _el(
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
        f"M{_f(cx - s * 0.15)} {_f(cy + s * 0.24)}"
        f"L{_f(cx - s * 0.15)} {_f(cy + s * 0.08)}"
        f"Q{_f(cx - s * 0.15)} {_f(cy - s * 0.04)} {_f(cx)} {_f(cy - s * 0.04)}"
        f"Q{_f(cx + s * 0.15)} {_f(cy - s * 0.04)} {_f(cx + s * 0.15)} {_f(cy + s * 0.08)}"
        f"L{_f(cx + s * 0.15)} {_f(cy + s * 0.24)}Z"
    )
    out = [
        _el("path", {"d": body, "fill": fill, "stroke": stroke, "stroke-width": w}),
        _el(
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
                f"M{_f(cx + dx)} {_f(hy - dy)}A{_f(rr)} {_f(rr)} 0 0 1 {_f(cx + dx)} {_f(hy + dy)}"
                f"M{_f(cx - dx)} {_f(hy - dy)}A{_f(rr)} {_f(rr)} 0 0 0 {_f(cx - dx)} {_f(hy + dy)}"
            )
        out.append(
            _el(
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


def _fill_of(terrain: Terrain) -> str:
    return DISTRACTION_FILL if terrain.is_distraction else FILLS[terrain]


def _draw_cell(
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
    elif terrain == Terrain.UNDERGROWTH:
        out += _glyph_undergrowth(x, y, s)
    elif terrain == Terrain.PUDDLE:
        out += _glyph_puddle(x, y, s)
    elif terrain == Terrain.TREE:
        out += _glyph_tree(x, y, s)
    elif terrain == Terrain.SQUIRREL:
        out += _glyph_squirrel(cx, cy, glyph_s)
    elif terrain.scent_direction is not None:
        out += _glyph_scent(cx, cy, glyph_s, terrain.scent_direction)
    elif terrain == Terrain.DOG:
        out += _glyph_other_dog(cx, cy, glyph_s)
    elif terrain == Terrain.STICK:
        out += _glyph_stick(cx, cy, glyph_s)
    word = word or _WORDS.get(terrain)
    if words and word:
        out.append(_text(cx, y + s * 0.9, word, s * 0.14, anchor="middle", fill="#333333"))
    return out


# -- the sheet -------------------------------------------------------------------------------------
_LEGEND: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("open", "open trail", ("1 step",)),
    ("undergrowth", "undergrowth", ("−1 stamina",)),
    ("puddle", "puddle", ("−2 stamina, every time",)),
    ("tree", "tree", ("blocks the way",)),
    ("squirrel", "squirrel", ("run 3 to the nearest edge,", "−1 stamina, skip a turn")),
    ("scent", "scent trail", ("run 2 along the arrow",)),
    ("dog", "another dog", ("skip a turn,", "+2 curiosity instead of 1")),
    ("stick", "interesting stick", ("−1 step per roll (min 1);", "curiosity never drops")),
    ("start", "dog start", ("the trail begins here",)),
    ("human", "your human", ("step in to win",)),
    ("shouter", "shouter", ("on its arrow roll 1d6: under", "the number, or −3 stamina")),
    ("pencil", "pencil", ("X every cell you enter;", "re-entering one −1 curiosity")),
)

_REMINDER = (
    "Each turn roll 1d6 for steps: 1–2 → 1, 3–4 → 2, 5–6 → 3. Step to a side neighbour, never",
    "straight back (unless no full move exists), and use the whole roll. Next to a distraction:",
    "pay 1 curiosity to ignore it, or investigate it (+1 curiosity, cross it off; the move ends).",
    "At 0 stamina rest a whole turn to get 3 back. Reach your human before the turn track ends.",
)


def _legend_swatch(key: str, x: float, y: float, s: float) -> list[str]:
    terrain = {
        "open": Terrain.OPEN,
        "undergrowth": Terrain.UNDERGROWTH,
        "puddle": Terrain.PUDDLE,
        "tree": Terrain.TREE,
        "squirrel": Terrain.SQUIRREL,
        "scent": Terrain.SCENT_E,
        "dog": Terrain.DOG,
        "stick": Terrain.STICK,
    }.get(key, Terrain.OPEN)
    out = [
        _el(
            "rect",
            {
                "class_": "swatch",
                "x": x,
                "y": y,
                "width": s,
                "height": s,
                "fill": _fill_of(terrain),
                "stroke": "#888888",
                "stroke-width": 0.25,
            },
        )
    ]
    role = key if key in ("start", "human", "shouter") else None
    shouter = Shouter(0, 0, "E", 1) if key == "shouter" else None
    if key == "pencil":
        out.append(_pencil_x(x + s / 2, y + s / 2, s * 0.8, class_="legend-mark"))
    else:
        out += _draw_cell(x, y, s, terrain, role, shouter, words=False)
    return out


def _number_badge(cx: float, cy: float, s: float, number: int) -> list[str]:
    r = s * 0.09
    return [
        _el(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": r,
                "fill": "#ffffff",
                "stroke": ARROW,
                "stroke-width": max(0.25, s * 0.022),
            },
        ),
        _text(
            cx,
            cy + r * 0.5,
            str(number),
            r * 1.35,
            anchor="middle",
            weight="bold",
            fill=ARROW,
            class_="arrow-number",
        ),
    ]


def _draw_arrows(forest: Forest, gx: float, gy: float, s: float) -> list[str]:
    out: list[str] = []
    badges: list[str] = []
    used: dict[tuple[Cell, str], int] = {}
    for shouter in forest.shouters:
        covered = shouter.covered(forest.width, forest.height)
        horizontal = shouter.direction in ("E", "W")
        dr, dc = DELTAS[shouter.direction]

        def anchor(cell: Cell, horizontal: bool = horizontal) -> tuple[float, float]:
            r, c = cell
            if horizontal:
                return gx + (c + 0.5) * s, gy + (r + 0.13) * s
            return gx + (c + 0.86) * s, gy + (r + 0.5) * s

        x0, y0 = anchor(covered[0][0])
        x1, y1 = anchor(covered[-1][0])
        x1 += dc * s * 0.34
        y1 += dr * s * 0.34
        width = max(0.35, s * 0.035)
        out.append(
            _el(
                "line",
                {
                    "class_": "arrow",
                    "x1": x0,
                    "y1": y0,
                    "x2": x1,
                    "y2": y1,
                    "stroke": ARROW,
                    "stroke-width": width,
                    "stroke-linecap": "round",
                    "opacity": "0.85",
                },
            )
        )
        h = s * 0.1
        tip = (x1 + dc * h * 0.6, y1 + dr * h * 0.6)
        wing1 = (x1 - dc * h + dr * h * 0.8, y1 - dr * h + dc * h * 0.8)
        wing2 = (x1 - dc * h - dr * h * 0.8, y1 - dr * h - dc * h * 0.8)
        out.append(
            _el(
                "polygon",
                {
                    "class_": "arrow",
                    "points": _points([tip, wing1, wing2]),
                    "fill": ARROW,
                    "opacity": "0.9",
                },
            )
        )
        for cell, number in covered:
            axis = "h" if horizontal else "v"
            k = used.get((cell, axis), 0)
            used[(cell, axis)] = k + 1
            bx, by = anchor(cell)
            shift = (0.24 * ((k + 1) // 2) * (1 if k % 2 else -1)) * s
            if horizontal:
                bx += shift
            else:
                by += shift
            badges += _number_badge(bx, by, s, number)
    return out + badges


def _box(x: float, y: float, w: float, h: float, class_: str, strong: bool = False) -> str:
    return _el(
        "rect",
        {
            "class_": class_,
            "x": x,
            "y": y,
            "width": w,
            "height": h,
            "rx": 0.8,
            "fill": "#ffffff",
            "stroke": INK if strong else "#777777",
            "stroke-width": 0.6 if strong else 0.3,
        },
    )


TURN_BOX = 8.2
TRACK_LABEL = 22.0
VALUE_BOX = 7.6
SMALL_TURN_BOX = 6.0
TURNS_PER_ROW = 20  # 20 x 8.2 mm fill the width beside the label
SMALL_TURNS_PER_ROW = 27  # 27 x 6 mm, for tracks of more than 40 turns
LEGEND_ROW = 12.5
LINE = 4.3


def _lower_block(
    forest: Forest, y: float, turn: int | None, stamina: int | None, curiosity: int | None
) -> tuple[list[str], float]:
    """The tracks, the legend and the reminder from ``y`` down; returns them and their end."""
    out: list[str] = []
    small = forest.turns > 2 * TURNS_PER_ROW
    tb = SMALL_TURN_BOX if small else TURN_BOX
    per_row = SMALL_TURNS_PER_ROW if small else TURNS_PER_ROW
    x0 = MARGIN + TRACK_LABEL

    out.append('<g class="tracks">')
    out.append(_text(MARGIN, y + tb * 0.65, "Turn", 3.6, weight="bold"))
    number_size = 1.7 if small else 2.1
    spent = 0 if turn is None else max(0, min(turn - 1, forest.turns))
    for t in range(1, forest.turns + 1):
        row, col = divmod(t - 1, per_row)
        bx, by = x0 + col * tb, y + row * (tb + 1.5)
        out.append(_box(bx + 0.4, by, tb - 0.8, tb, "turn-box", t == forest.turns))
        out.append(_text(bx + 1.1, by + number_size + 0.5, str(t), number_size, fill="#777777"))
        if t <= spent:
            out.append(_pencil_x(bx + tb / 2, by + tb / 2, tb * 0.75, "tick"))
        elif turn is not None and t == turn:
            out.append(_pencil_ring(bx + tb / 2, by + tb / 2, tb * 0.45, 0.45))
    y += math.ceil(forest.turns / per_row) * (tb + 1.5) + 3.0
    tb = TURN_BOX

    vb = VALUE_BOX

    def value_track(
        x: float, label: str, label_w: float, count: int, start: int, value: int | None, class_: str
    ) -> float:
        out.append(_text(x, y + tb * 0.65, label, 3.6, weight="bold"))
        bx = x + label_w
        for v in range(count):
            shown = f"{v}+" if v == count - 1 and class_ == "curiosity-box" else str(v)
            out.append(_box(bx + 0.4, y, vb - 0.8, tb, class_, v == start))
            out.append(
                _text(
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
                out.append(_pencil_ring(bx + vb / 2, y + tb / 2, tb * 0.46, 0.45))
            bx += vb
        if value is not None and value > count - 1:
            out.append(
                _text(bx + 1.5, y + tb * 0.66, f"= {value}", 3.4, fill=PENCIL, class_="tick")
            )
        return bx

    end = value_track(MARGIN, "Stamina", TRACK_LABEL, 7, 6, stamina, "stamina-box")
    value_track(end + 6.0, "Curiosity", 19.0, 10, 2, curiosity, "curiosity-box")
    y += tb + 3.4
    out.append(
        _text(
            x0,
            y,
            "Bold boxes: the start values. Cross off each turn; circle stamina and curiosity.",
            2.4,
            fill="#777777",
        )
    )
    out.append("</g>")
    y += 8.0

    out.append('<g class="legend">')
    out.append(_text(MARGIN, y, "Legend", 3.6, weight="bold"))
    y += 3.0
    col_w = (PAGE_W - 2 * MARGIN) / 4
    sw = 9.0
    for i, (key, label_text, lines) in enumerate(_LEGEND):
        col, row = divmod(i, 3)
        lx, ly = MARGIN + col * col_w, y + row * LEGEND_ROW
        out += _legend_swatch(key, lx, ly, sw)
        out.append(_text(lx + sw + 1.8, ly + 2.8, label_text, 2.8, weight="bold"))
        for k, line in enumerate(lines):
            out.append(_text(lx + sw + 1.8, ly + 6.0 + k * 3.0, line, 2.4, fill="#444444"))
    out.append("</g>")
    y += 3 * LEGEND_ROW + 3.0

    out.append('<g class="reminder">')
    for k, line in enumerate(_REMINDER):
        out.append(_text(MARGIN, y + k * LINE, line, 2.9, fill="#333333"))
    out.append("</g>")
    y += (len(_REMINDER) - 1) * LINE + 1.0
    return out, y


def render_svg(
    forest: Forest,
    *,
    trail: Sequence[tuple[int, int]] = (),
    marked: Iterable[tuple[int, int]] = (),
    resolved: Iterable[tuple[int, int]] = (),
    position: tuple[int, int] | None = None,
    turn: int | None = None,
    stamina: int | None = None,
    curiosity: int | None = None,
    title: str | None = None,
) -> str:
    """A printable A4 paper sheet of ``forest`` as an SVG document (a string).

    Without a play state it is a blank sheet to play on with a pencil; with ``trail``, ``marked``,
    ``resolved``, ``position``, ``turn``, ``stamina`` and ``curiosity`` it shows that state as if
    pencilled in (see the module docstring). ``turn`` is the current turn: earlier boxes are
    crossed, its box circled. ``title`` replaces the forest name as the heading (the name then
    moves to the subtitle).

    >>> import xml.etree.ElementTree as ET
    >>> from solver.games.dog.forest import Forest, Terrain
    >>> forest = Forest(width=3, height=2, cells=[[Terrain.OPEN] * 3] * 2, start=(1, 0),
    ...                 human=(0, 2), name="A & B", turns=5)
    >>> root = ET.fromstring(render_svg(forest))
    >>> sum(el.get("class") == "cell" for el in root.iter("{http://www.w3.org/2000/svg}rect"))
    6
    >>> sum(el.get("class") == "turn-box" for el in root.iter())
    5
    """
    path, pos, marks, done = _overlays(forest, trail, position, marked, resolved)
    shouter_at = {shouter.cell: shouter for shouter in forest.shouters}
    name = _one_line(forest.name)
    heading = (_one_line(title) if title is not None else name) or "A forest"

    # Layout in millimetres: heading, grid (as large as fits), then the lower block, which sits
    # on the bottom margin; the page grows only when a long turn track leaves the grid too little.
    _, lower_h = _lower_block(forest, 0.0, turn, stamina, curiosity)
    gap = 9.0
    label = 5.0
    gy = 46.0
    avail_w = PAGE_W - 2 * MARGIN - 2 * label
    avail_h = max(110.0, PAGE_H - MARGIN - lower_h - gap - gy)
    s = min(avail_w / forest.width, avail_h / forest.height, 28.0)
    grid_w, grid_h = s * forest.width, s * forest.height
    gx = (PAGE_W - grid_w) / 2
    page_h = max(PAGE_H, gy + grid_h + gap + lower_h + MARGIN)
    lower_y = page_h - MARGIN - lower_h

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(PAGE_W)}mm" height="{_f(page_h)}mm" '
        f'viewBox="0 0 {_f(PAGE_W)} {_f(page_h)}" font-family="{FONT}">',
        _el("title", {}, f"{heading} - the dog game"),
        _el(
            "rect",
            {
                "class_": "page",
                "x": 0.0,
                "y": 0.0,
                "width": PAGE_W,
                "height": page_h,
                "fill": "#ffffff",
            },
        ),
    ]

    # Heading.
    size = max(5.0, min(9.0, 120.0 / (0.62 * len(heading))))
    fits = int(120.0 / (0.62 * size))
    if len(heading) > fits:
        heading = heading[: fits - 1].rstrip() + "…"
    out.append(_text(MARGIN, MARGIN + 10, heading, size, weight="bold", class_="name"))
    sub = f"The dog game · {forest.width} × {forest.height} forest · {forest.turns} turns"
    if title is not None and name:
        sub = f"{name} · {sub}"
    out.append(_text(MARGIN, MARGIN + 17, sub, 3.6, fill="#444444", class_="subtitle"))
    out.append(
        _text(
            MARGIN,
            MARGIN + 22.5,
            "Get the dog to its human before the turn track runs out. A pencil and one die.",
            3.0,
            fill="#666666",
            style="italic",
        )
    )
    for k, blank in enumerate(("player ________________", "date ____________")):
        out.append(
            _text(PAGE_W - MARGIN, MARGIN + 4 + 7 * k, blank, 3.2, anchor="end", fill="#666666")
        )

    # Grid: backgrounds (one rect per cell), glyphs, the goal frame, the border, the arrows.
    out.append('<g class="grid">')
    for r in range(forest.height):
        for c in range(forest.width):
            out.append(
                _el(
                    "rect",
                    {
                        "class_": "cell",
                        "data-row": r,
                        "data-col": c,
                        "x": gx + c * s,
                        "y": gy + r * s,
                        "width": s,
                        "height": s,
                        "fill": _fill_of(forest.terrain((r, c))),
                        "stroke": "#9a9a9a",
                        "stroke-width": 0.25,
                    },
                )
            )
    for r in range(forest.height):
        for c in range(forest.width):
            cell = (r, c)
            terrain = forest.terrain(cell)
            x, y = gx + c * s, gy + r * s
            role = None
            if cell == forest.start:
                role = "start"
            elif cell == forest.human:
                role = "human"
            elif cell in shouter_at:
                role = "shouter"
            glyph = _draw_cell(x, y, s, terrain, role, shouter_at.get(cell))
            if cell in done and terrain.is_distraction:
                out.append('<g class="resolved-glyph" opacity="0.35">')
                out += glyph
                out.append("</g>")
                strike = (
                    f"M{_f(x + s * 0.12)} {_f(y + s * 0.8)}L{_f(x + s * 0.88)} {_f(y + s * 0.2)}"
                )
                out.append(
                    _el(
                        "path",
                        {
                            "class_": "resolved",
                            "d": strike,
                            "stroke": PENCIL,
                            "stroke-width": max(0.3, s * 0.04),
                            "stroke-linecap": "round",
                            "opacity": "0.8",
                        },
                    )
                )
            else:
                out += glyph
    hx, hy = gx + forest.human[1] * s, gy + forest.human[0] * s
    out.append(
        _el(
            "rect",
            {
                "class_": "goal",
                "x": hx + s * 0.05,
                "y": hy + s * 0.05,
                "width": s * 0.9,
                "height": s * 0.9,
                "rx": s * 0.08,
                "fill": "none",
                "stroke": "#c0392b",
                "stroke-width": max(0.3, s * 0.03),
            },
        )
    )
    out.append(
        _el(
            "rect",
            {
                "class_": "border",
                "x": gx,
                "y": gy,
                "width": grid_w,
                "height": grid_h,
                "fill": "none",
                "stroke": INK,
                "stroke-width": 0.6,
            },
        )
    )
    out += _draw_arrows(forest, gx, gy, s)
    label_size = min(3.2, s * 0.3)
    for c in range(forest.width):
        out.append(
            _text(
                gx + (c + 0.5) * s,
                gy - 1.5,
                str(c),
                label_size,
                anchor="middle",
                fill="#666666",
                class_="col-label",
            )
        )
    for r in range(forest.height):
        out.append(
            _text(
                gx - 1.8,
                gy + (r + 0.5) * s + label_size * 0.35,
                str(r),
                label_size,
                anchor="end",
                fill="#666666",
                class_="row-label",
            )
        )
    out.append("</g>")

    # Pencil: the trail, the marks, the dog.
    if path or marks or pos is not None:
        out.append('<g class="pencil">')
        if path:
            pts = [(gx + (c + 0.5) * s, gy + (r + 0.5) * s) for r, c in path]
            out.append(
                _el(
                    "polyline",
                    {
                        "class_": "trail",
                        "points": _points(pts),
                        "fill": "none",
                        "stroke": "#8a8a8a",
                        "stroke-width": max(0.4, s * 0.06),
                        "stroke-linejoin": "round",
                        "stroke-linecap": "round",
                        "opacity": "0.7",
                    },
                )
            )
        for r, c in sorted(marks):
            out.append(_pencil_x(gx + (c + 0.5) * s, gy + (r + 0.5) * s, s * 0.8))
        if pos is not None:
            r, c = pos
            out.append(
                _el(
                    "rect",
                    {
                        "class_": "dog",
                        "x": gx + (c + 0.06) * s,
                        "y": gy + (r + 0.06) * s,
                        "width": s * 0.88,
                        "height": s * 0.88,
                        "rx": s * 0.12,
                        "fill": "none",
                        "stroke": "#444444",
                        "stroke-width": max(0.35, s * 0.035),
                        "stroke-dasharray": f"{_f(s * 0.09)} {_f(s * 0.06)}",
                    },
                )
            )
        out.append("</g>")

    lower, _ = _lower_block(forest, lower_y, turn, stamina, curiosity)
    out += lower
    out.append("</svg>")
    return "\n".join(out) + "\n"
