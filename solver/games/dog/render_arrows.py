"""The shouters' arrows on the dog sheet: a red line per shouter and its numbers in circles.

Each arrow runs from the shouter's cell along its direction over the cells it covers (horizontal
arrows near the top of their cells, vertical ones near the right side), ends in an arrowhead, and
shows each covered cell's printed number in a small circle (the shouter's own cell reads 1). Where
several arrows cover a cell along the same axis, their circles are shifted apart.
"""

from __future__ import annotations

from solver.games.dog.forest import DELTAS, Cell, Forest
from solver.games.dog.glyphs import ARROW
from solver.render.shapes import line, polygon, token

__all__ = ["draw_arrows"]


def _number_badge(cx: float, cy: float, s: float, number: int) -> list[str]:
    """The printed number of an arrow cell, in a small red-rimmed circle."""
    return token(
        cx,
        cy,
        s * 0.09,
        str(number),
        fill="#ffffff",
        stroke=ARROW,
        stroke_width=max(0.25, s * 0.022),
        label_fill=ARROW,
        label_class="arrow-number",
    )


def draw_arrows(forest: Forest, gx: float, gy: float, s: float) -> list[str]:
    """Every shouter's arrow over the grid at (gx, gy) with cells of ``s``; badges on top."""
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
            line(
                x0,
                y0,
                x1,
                y1,
                stroke=ARROW,
                stroke_width=width,
                class_="arrow",
                stroke_linecap="round",
                opacity="0.85",
            )
        )
        h = s * 0.1
        tip = (x1 + dc * h * 0.6, y1 + dr * h * 0.6)
        wing1 = (x1 - dc * h + dr * h * 0.8, y1 - dr * h + dc * h * 0.8)
        wing2 = (x1 - dc * h - dr * h * 0.8, y1 - dr * h - dc * h * 0.8)
        out.append(polygon([tip, wing1, wing2], fill=ARROW, class_="arrow", opacity="0.9"))
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
