"""Basic SVG shapes with the attributes the games' pictures use: circles, lines, polylines,
polygons, and labelled tokens (a pawn, a piece, a numbered badge).

Each shape takes its geometry and its main paint as arguments; any further SVG attribute is a
keyword (``stroke_linecap="round"``, ``opacity="0.8"``), written after the main ones in the order
given. A board graph is drawn with :func:`line` for its edges and :func:`token` for its nodes and
pieces; a tile grid's pawns are tokens too.

>>> line(0.0, 0.0, 10.0, 5.0, stroke="#333", stroke_width=0.5, class_="edge")
'<line class="edge" x1="0" y1="0" x2="10" y2="5" stroke="#333" stroke-width="0.5"/>'
>>> for part in token(5.0, 5.0, 2.0, "3", fill="#fff", stroke="#c00", label_fill="#c00"):
...     print(part)
<circle cx="5" cy="5" r="2" fill="#fff" stroke="#c00" stroke-width="0.3"/>
<text x="5" y="6" font-size="2.7" text-anchor="middle" font-weight="bold" fill="#c00">3</text>
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from solver.render.svg import INK, element, points, text

__all__ = ["arrow", "circle", "line", "polygon", "polyline", "token"]


def _shape(
    tag: str,
    class_: str | None,
    geometry: Mapping[str, object],
    paint: Mapping[str, object],
    extra: Mapping[str, object],
) -> str:
    """One shape, its attributes in the order every shape here writes them: the class, the
    geometry, the main paint, then the caller's further attributes in the order given."""
    return element(tag, {"class_": class_, **geometry, **paint, **extra})


def circle(
    cx: float,
    cy: float,
    r: float,
    *,
    fill: str,
    stroke: str | None = None,
    stroke_width: float | None = None,
    class_: str | None = None,
    **extra: object,
) -> str:
    """A circle of radius ``r`` centred on (cx, cy)."""
    paint = {"fill": fill, "stroke": stroke, "stroke_width": stroke_width}
    return _shape("circle", class_, {"cx": cx, "cy": cy, "r": r}, paint, extra)


def line(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    *,
    stroke: str = INK,
    stroke_width: float = 0.3,
    class_: str | None = None,
    **extra: object,
) -> str:
    """A straight line from (x1, y1) to (x2, y2): an edge, an arrow's shaft, a rule."""
    geometry = {"x1": x1, "y1": y1, "x2": x2, "y2": y2}
    return _shape("line", class_, geometry, {"stroke": stroke, "stroke_width": stroke_width}, extra)


def polygon(
    coords: Iterable[tuple[float, float]], *, fill: str, class_: str | None = None, **extra: object
) -> str:
    """A closed, filled shape through ``coords`` (an arrowhead, a hexagon, a tile outline)."""
    return _shape("polygon", class_, {"points": points(coords)}, {"fill": fill}, extra)


def polyline(
    coords: Iterable[tuple[float, float]],
    *,
    stroke: str = INK,
    stroke_width: float = 0.3,
    class_: str | None = None,
    **extra: object,
) -> str:
    """An open path through ``coords``, unfilled (a trail, a route)."""
    paint = {"fill": "none", "stroke": stroke, "stroke_width": stroke_width}
    return _shape("polyline", class_, {"points": points(coords)}, paint, extra)


def token(
    cx: float,
    cy: float,
    r: float,
    label: str | None = None,
    *,
    fill: str,
    stroke: str = INK,
    stroke_width: float = 0.3,
    label_fill: str = INK,
    weight: str | None = "bold",
    class_: str | None = None,
    label_class: str | None = None,
) -> list[str]:
    """A disc with an optional centred label: a pawn, a piece, a numbered badge.

    The label's font size is 1.35 ``r`` and its baseline ``r / 2`` below the centre, which
    centres one or two digits or capitals in the disc.
    """
    out = [circle(cx, cy, r, fill=fill, stroke=stroke, stroke_width=stroke_width, class_=class_)]
    if label is not None:
        out.append(
            text(
                cx,
                cy + r * 0.5,
                label,
                r * 1.35,
                anchor="middle",
                weight=weight,
                fill=label_fill,
                class_=label_class,
            )
        )
    return out


def arrow(
    coords: Sequence[tuple[float, float]],
    *,
    stroke: str = INK,
    stroke_width: float = 0.6,
    head: float = 2.0,
    class_: str | None = None,
    **extra: object,
) -> list[str]:
    """A path through ``coords`` ending in a filled arrowhead of length ``head`` (a route, a
    walk, a hinted move): the shaft stops at the head's base so the tip stays sharp.

    >>> for part in arrow([(0.0, 0.0), (10.0, 0.0)], stroke="#c00", head=2.0):
    ...     print(part)
    <polyline points="0,0 8,0" fill="none" stroke="#c00" stroke-width="0.6"/>
    <polygon points="10,0 8,1 8,-1" fill="#c00"/>
    """
    if len(coords) < 2:
        return []
    (x1, y1), (x2, y2) = coords[-2], coords[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * head, y2 - uy * head
    wing = head / 2
    shaft = polyline([*coords[:-1], (bx, by)], stroke=stroke, stroke_width=stroke_width,
                     class_=class_, **extra)  # fmt: skip
    tip = polygon([(x2, y2), (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)],
                  fill=stroke, class_=class_)  # fmt: skip
    return [shaft, tip]
