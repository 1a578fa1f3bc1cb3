"""Hand-drawn strokes: the pencil marks a player makes on a paper sheet, and round-capped paths.

A game's sheet shows a played state "as if pencilled in": a cross in a visited cell or a spent
box, a ring around the current value of a track. These helpers draw those marks in a soft grey
(``PENCIL``) with round line ends; sizes, colours and classes are arguments.

>>> pencil_ring(5.0, 5.0, 2.0, 0.4, class_="tick")
'<circle class="tick" cx="5" cy="5" r="2" fill="none" stroke="#555555" stroke-width="0.4" \
opacity="0.85"/>'
"""

from __future__ import annotations

from solver.render.svg import element, fmt

__all__ = ["PENCIL", "pencil_ring", "pencil_x", "round_stroke"]

#: The default pencil colour: a mid grey that reads as graphite on white paper.
PENCIL = "#555555"


def pencil_x(
    cx: float,
    cy: float,
    size: float,
    *,
    class_: str | None = None,
    colour: str = PENCIL,
    opacity: str = "0.8",
) -> str:
    """A pencilled cross centred on (cx, cy): two strokes 0.6 x ``size`` long.

    The line width follows the size (5%, at least 0.3) so small and large crosses look alike.

    >>> pencil_x(10.0, 10.0, 10.0, class_="mark")
    '<path class="mark" d="M7 7L13 13M13 7L7 13" stroke="#555555" stroke-width="0.5" \
stroke-linecap="round" fill="none" opacity="0.8"/>'
    """
    a = size * 0.3
    d = (
        f"M{fmt(cx - a)} {fmt(cy - a)}L{fmt(cx + a)} {fmt(cy + a)}"
        f"M{fmt(cx + a)} {fmt(cy - a)}L{fmt(cx - a)} {fmt(cy + a)}"
    )
    return round_stroke(d, colour, max(0.3, size * 0.05), class_=class_, opacity=opacity)


def pencil_ring(
    cx: float,
    cy: float,
    r: float,
    width: float,
    *,
    class_: str | None = None,
    colour: str = PENCIL,
    opacity: str = "0.85",
) -> str:
    """A pencilled circle of radius ``r`` and line width ``width`` (a value circled on a track)."""
    return element(
        "circle",
        {
            "class_": class_,
            "cx": cx,
            "cy": cy,
            "r": r,
            "fill": "none",
            "stroke": colour,
            "stroke-width": width,
            "opacity": opacity,
        },
    )


def round_stroke(
    d: str, colour: str, width: float, *, class_: str | None = None, opacity: str | None = None
) -> str:
    """An unfilled path ``d`` with round line caps (the hand-drawn strokes of small pictures;
    ``opacity``: a pencil's, where given).

    >>> round_stroke("M0 0L1 1", "#3a86c0", 0.25)
    '<path d="M0 0L1 1" stroke="#3a86c0" stroke-width="0.25" stroke-linecap="round" fill="none"/>'
    """
    return element(
        "path",
        {
            "class_": class_,
            "d": d,
            "stroke": colour,
            "stroke-width": width,
            "stroke-linecap": "round",
            "fill": "none",
            "opacity": opacity,
        },
    )
