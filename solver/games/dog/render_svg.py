"""The dog forest as a printable SVG paper sheet (an A4 portrait page in millimetres).

The page holds the forest name, the grid with a glyph per terrain (:mod:`.glyphs`), each
shouter's red arrow with its printed numbers (:mod:`.render_arrows`), then the turn track,
stamina and curiosity boxes, a legend and a short rules reminder (:mod:`.render_tracks`). It grows
taller than A4 only when a very long turn track needs more room.

A played state is pencilled in grey: a polyline through the trail, an ``X`` in every marked cell,
a dashed frame around the dog's cell, a faded glyph struck through for every resolved
distraction, spent turns crossed off and the current turn, stamina and curiosity circled.

Elements carry classes for tools and tests: ``cell`` (one ``rect`` per grid cell, with
``data-row`` and ``data-col``), ``name``, ``turn-box``, ``stamina-box``, ``curiosity-box``,
``arrow-number``, ``trail``, ``mark``, ``dog``, ``resolved``, ``tick``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solver.games.dog.forest import Forest
from solver.games.dog.glyphs import draw_cell, fill_of
from solver.games.dog.render_arrows import draw_arrows
from solver.games.dog.render_overlays import Overlays, overlays
from solver.games.dog.render_tracks import MARGIN, PAGE_H, PAGE_W, lower_block
from solver.render.ascii import one_line
from solver.render.grid import cell_centre, cell_rects, grid_labels
from solver.render.pencil import PENCIL, pencil_x
from solver.render.shapes import polyline
from solver.render.svg import INK, document, element, fmt, group, text

__all__ = ["render_forest_svg"]


def _heading(forest: Forest, heading: str, title: str | None) -> list[str]:
    """The title (shrunk, then cut to fit), the subtitle, the tagline and the blanks to fill."""
    name = one_line(forest.name)
    size = max(5.0, min(9.0, 120.0 / (0.62 * len(heading))))
    fits = int(120.0 / (0.62 * size))
    if len(heading) > fits:
        heading = heading[: fits - 1].rstrip() + "…"
    out = [text(MARGIN, MARGIN + 10, heading, size, weight="bold", class_="name")]
    sub = f"The dog game · {forest.width} × {forest.height} forest · {forest.turns} turns"
    if title is not None and name:
        sub = f"{name} · {sub}"
    out.append(text(MARGIN, MARGIN + 17, sub, 3.6, fill="#444444", class_="subtitle"))
    out.append(
        text(
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
            text(PAGE_W - MARGIN, MARGIN + 4 + 7 * k, blank, 3.2, anchor="end", fill="#666666")
        )
    return out


def _resolved_strike(x: float, y: float, s: float) -> str:
    strike = f"M{fmt(x + s * 0.12)} {fmt(y + s * 0.8)}L{fmt(x + s * 0.88)} {fmt(y + s * 0.2)}"
    return element(
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


def _grid(forest: Forest, gx: float, gy: float, s: float, done: set[tuple[int, int]]) -> list[str]:
    """Backgrounds (one rect per cell), glyphs, the goal frame, the border, arrows, labels."""
    out = cell_rects(
        gx, gy, s, forest.height, forest.width, lambda r, c: fill_of(forest.terrain((r, c)))
    )
    shouter_at = {shouter.cell: shouter for shouter in forest.shouters}
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
            glyph = draw_cell(x, y, s, terrain, role, shouter_at.get(cell))
            if cell in done and terrain.is_distraction:
                out += group(glyph, class_="resolved-glyph", opacity="0.35")
                out.append(_resolved_strike(x, y, s))
            else:
                out += glyph
    hx, hy = gx + forest.human[1] * s, gy + forest.human[0] * s
    out.append(
        element(
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
        element(
            "rect",
            {
                "class_": "border",
                "x": gx,
                "y": gy,
                "width": s * forest.width,
                "height": s * forest.height,
                "fill": "none",
                "stroke": INK,
                "stroke-width": 0.6,
            },
        )
    )
    out += draw_arrows(forest, gx, gy, s)
    out += grid_labels(gx, gy, s, forest.height, forest.width, font_size=min(3.2, s * 0.3))
    return group(out, class_="grid")


def _pencil(ov: Overlays, gx: float, gy: float, s: float) -> list[str]:
    """The trail's polyline, an X per marked cell and the dashed frame around the dog."""
    out: list[str] = []
    if ov.trail:
        out.append(
            polyline(
                (cell_centre(gx, gy, s, r, c) for r, c in ov.trail),
                stroke="#8a8a8a",
                stroke_width=max(0.4, s * 0.06),
                class_="trail",
                stroke_linejoin="round",
                stroke_linecap="round",
                opacity="0.7",
            )
        )
    for r, c in sorted(ov.marked):
        out.append(pencil_x(*cell_centre(gx, gy, s, r, c), s * 0.8, class_="mark"))
    if ov.position is not None:
        r, c = ov.position
        out.append(
            element(
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
                    "stroke-dasharray": f"{fmt(s * 0.09)} {fmt(s * 0.06)}",
                },
            )
        )
    return group(out, class_="pencil")


def render_forest_svg(
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
    pencilled in (see the module docstring and :mod:`.render_overlays`). ``turn`` is the current
    turn: earlier boxes are crossed, its box circled. ``title`` replaces the forest name as the
    heading (the name then moves to the subtitle).

    >>> import xml.etree.ElementTree as ET
    >>> from solver.games.dog.forest import Forest, Terrain
    >>> forest = Forest(width=3, height=2, cells=[[Terrain.OPEN] * 3] * 2, start=(1, 0),
    ...                 human=(0, 2), name="A & B", turns=5)
    >>> root = ET.fromstring(render_forest_svg(forest))
    >>> sum(el.get("class") == "cell" for el in root.iter("{http://www.w3.org/2000/svg}rect"))
    6
    >>> sum(el.get("class") == "turn-box" for el in root.iter())
    5
    """
    ov = overlays(forest, trail, position, marked, resolved)
    name = one_line(forest.name)
    heading = (one_line(title) if title is not None else name) or "A forest"

    # Layout in millimetres: heading, grid (as large as fits), then the lower block, which sits
    # on the bottom margin; the page grows only when a long turn track leaves the grid too little.
    _, lower_h = lower_block(forest, 0.0, turn, stamina, curiosity)
    gap = 9.0
    label = 5.0
    gy = 46.0
    avail_w = PAGE_W - 2 * MARGIN - 2 * label
    avail_h = max(110.0, PAGE_H - MARGIN - lower_h - gap - gy)
    s = min(avail_w / forest.width, avail_h / forest.height, 28.0)
    grid_w, grid_h = s * forest.width, s * forest.height
    gx = (PAGE_W - grid_w) / 2
    page_h = max(PAGE_H, gy + grid_h + gap + lower_h + MARGIN)

    out = _heading(forest, heading, title)
    out += _grid(forest, gx, gy, s, ov.resolved)
    if ov.trail or ov.marked or ov.position is not None:
        out += _pencil(ov, gx, gy, s)
    out += lower_block(forest, page_h - MARGIN - lower_h, turn, stamina, curiosity)[0]
    return document(PAGE_W, page_h, out, title=f"{heading} - the dog game")
