"""Square grids in SVG: one background ``rect`` per cell, and row and column labels.

A grid is placed by its top-left corner (``x``, ``y``) and its cell size ``size``; cell
``(row, col)`` is the square ``(x + col * size, y + row * size, size)``, row 0 at the top, the
convention of every forest game's sheet. Fills come from a callable so a game can colour cells by
terrain, tile colour or anything else.

>>> cells = cell_rects(0.0, 0.0, 10.0, 1, 2, lambda r, c: "#fff" if c else "#000")
>>> cells[1]
'<rect class="cell" data-row="0" data-col="1" x="10" y="0" width="10" height="10" fill="#fff" \
stroke="#9a9a9a" stroke-width="0.25"/>'
"""

from __future__ import annotations

from collections.abc import Callable

from solver.render.svg import element, text

__all__ = ["cell_centre", "cell_rects", "grid_labels"]


def cell_centre(x: float, y: float, size: float, row: int, col: int) -> tuple[float, float]:
    """The centre of cell (row, col) of the grid at (x, y) with cells of ``size``.

    >>> cell_centre(10.0, 20.0, 4.0, 1, 2)
    (20.0, 26.0)
    """
    return x + (col + 0.5) * size, y + (row + 0.5) * size


def cell_rects(
    x: float,
    y: float,
    size: float,
    rows: int,
    cols: int,
    fill: Callable[[int, int], str],
    *,
    stroke: str = "#9a9a9a",
    stroke_width: float = 0.25,
    class_: str = "cell",
) -> list[str]:
    """One ``rect`` per cell in row-major order, carrying ``data-row`` and ``data-col``.

    ``fill(row, col)`` gives each cell's colour. The data attributes let tools and tests find a
    cell's picture without recomputing the layout.
    """
    return [
        element(
            "rect",
            {
                "class_": class_,
                "data-row": r,
                "data-col": c,
                "x": x + c * size,
                "y": y + r * size,
                "width": size,
                "height": size,
                "fill": fill(r, c),
                "stroke": stroke,
                "stroke-width": stroke_width,
            },
        )
        for r in range(rows)
        for c in range(cols)
    ]


def grid_labels(
    x: float,
    y: float,
    size: float,
    rows: int,
    cols: int,
    *,
    font_size: float,
    fill: str = "#666666",
    gap: float = 1.5,
    row_gap: float = 1.8,
) -> list[str]:
    """Column numbers above the grid (``gap`` above it) and row numbers left of it.

    Column labels are centred over their column (class ``col-label``); row labels end
    ``row_gap`` left of the grid, vertically centred on their row (class ``row-label``).
    """

    def label(at_x: float, at_y: float, number: int, anchor: str, kind: str) -> str:
        return text(at_x, at_y, str(number), font_size, anchor=anchor, fill=fill, class_=kind)

    columns = [label(x + (c + 0.5) * size, y - gap, c, "middle", "col-label") for c in range(cols)]
    return columns + [
        label(x - row_gap, y + (r + 0.5) * size + font_size * 0.35, r, "end", "row-label")
        for r in range(rows)
    ]
