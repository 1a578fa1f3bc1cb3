"""Shared drawing helpers for the games' pictures: SVG building blocks and plain-text layouts.

Every game draws its sheet with these, so all pictures print numbers, escape text and lay out
grids and legends the same way. The helpers know nothing of any game: positions, sizes, colours
and classes are arguments.

- :mod:`solver.render.svg`: number formatting, XML escaping, elements, text, points, boxes,
  groups and the standalone document (a printable page in millimetres).
- :mod:`solver.render.shapes`: circles, lines, polylines, polygons and labelled tokens (pawns,
  pieces, badges): what a board graph or a tile grid's pawns are drawn with.
- :mod:`solver.render.pencil`: pencil marks (a cross, a ring) and round-capped strokes.
- :mod:`solver.render.grid`: a square grid's cell rectangles and row/column labels.
- :mod:`solver.render.legend`: an SVG legend of swatches with labels and explanations.
- :mod:`solver.render.ascii`: one-line labels, a text grid with headers, a text legend.
- :mod:`solver.render.tables`: markdown tables and matplotlib figures of a results table's
  columns (the analysis report's and the games' report sections; imports pandas and matplotlib
  only when called).

>>> from solver.render import document, text
>>> svg = document(50.0, 20.0, [text(5.0, 10.0, "hello", 4.0)], title="greeting")
>>> svg.splitlines()[-2]
'<text x="5" y="10" font-size="4" fill="#222222">hello</text>'
"""

from __future__ import annotations

from solver.render.ascii import count, legend_lines, one_line, text_grid
from solver.render.grid import cell_centre, cell_rects, grid_labels
from solver.render.legend import LegendEntry, legend_entries, titled_legend
from solver.render.pencil import PENCIL, pencil_ring, pencil_x, round_stroke
from solver.render.shapes import arrow, circle, line, polygon, polyline, token
from solver.render.svg import (
    FONT,
    INK,
    box,
    document,
    element,
    escape,
    fmt,
    group,
    points,
    text,
    xml_char,
)

__all__ = [
    "FONT",
    "INK",
    "PENCIL",
    "LegendEntry",
    "arrow",
    "box",
    "cell_centre",
    "cell_rects",
    "circle",
    "count",
    "document",
    "element",
    "escape",
    "fmt",
    "grid_labels",
    "group",
    "legend_entries",
    "legend_lines",
    "line",
    "one_line",
    "pencil_ring",
    "pencil_x",
    "points",
    "polygon",
    "polyline",
    "round_stroke",
    "text",
    "text_grid",
    "titled_legend",
    "token",
    "xml_char",
]
