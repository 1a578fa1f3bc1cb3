"""The guardians' positions as SVG: each player's forest with coloured tiles, missions and pawns.

A forest-side tile is a square of its colour with its points preview and, where its back is
known (open backs, a ``.grove`` position's ``B:GRE``), its mission as small swatches along the
bottom; a mission-side tile is white with its sequence as large swatches; the start tile shows
``A-B-C-D-E-A``; a pawn is a disc (solo: of its colour; with 2-4 players: grey). With a mission
plan (``order``), each mission tile carries its step number in a badge. Drawn with the shared
helpers of :mod:`solver.render`.

>>> from solver.games.guardians.grove import parse_grove
>>> from solver.games.guardians.rules import GuardiansGame
>>> state = GuardiansGame(position=parse_grove("grid:\\n[GR]b G:BB R:BB\\n")).new_initial_state()
>>> svg = render_state_svg(state)
>>> svg.startswith("<?xml") and svg.count('class="tile"') == 3
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from solver.games.guardians.board import Cell
from solver.games.guardians.solo import PAWN_COLOURS
from solver.render import box, document, text, token

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = ["FILL", "render_state_svg"]

#: The fill of each forest colour and pawn colour.
FILL: dict[str, str] = {
    "B": "#3f7fd0",
    "G": "#4caf50",
    "R": "#d84a3a",
    "E": "#9e9e9e",
    "P": "#9c5ac8",
    "Y": "#f2c230",
}
PAWN_FILL = {"b": FILL["B"], "g": FILL["G"], "y": FILL["Y"], "r": FILL["R"], "p": "#555555"}
SIZE = 16.0
MARGIN = 8.0


def _tile(
    x: float,
    y: float,
    colour: str | None,
    sequence: str,
    mission: bool,
    start: bool,
    preview: int | None = None,
) -> list[str]:
    out = [
        box(
            x,
            y,
            SIZE,
            SIZE,
            class_="tile",
            fill="#ffffff" if mission or colour is None else FILL[colour],
        )
    ]
    if start:
        out.append(text(x + SIZE / 2, y + SIZE / 2 + 1.2, "A-B-C-D-E-A", 2.3, anchor="middle"))
        return out
    if preview is not None:  # the back is face down: the points preview only
        label = f"?{preview}" if mission else str(preview)
        out.append(text(x + SIZE - 2, y + SIZE - 2, label, 3.2, anchor="end"))
        return out
    if mission:
        w = (SIZE - 2) / len(sequence)
        for i, c in enumerate(sequence):
            out.append(
                box(x + 1 + i * w, y + SIZE - 6, w, 4, fill=FILL[c], stroke="#333333", rx=0.3)
            )
    else:
        w = 2.4
        for i, c in enumerate(sequence):
            out.append(
                box(x + 1 + i * w, y + SIZE - 3.4, w, 2.4, fill=FILL[c], stroke="#ffffff", rx=0.2)
            )
    return out


def render_state_svg(state: GuardiansState, *, order: Mapping[Cell, int] | None = None) -> str:
    """Every player's forest side by side (the player to move first is drawn first)."""
    game = state.game
    parts: list[str] = []
    x0 = MARGIN
    height = 0.0
    for index, who in enumerate(state.people):
        rows = [r for r, _ in who.forest]
        cols = [c for _, c in who.forest]
        r0, c0 = min(rows), min(cols)
        width = (max(cols) - c0 + 1) * SIZE
        title = "forest" if game.solo else f"player {index}"
        parts.append(
            text(x0, MARGIN - 2, f"{title}: score {state.score(index)}", 4.0, weight="bold")
        )
        pawns = {
            cell: (PAWN_COLOURS[p] if game.solo else "p")
            for p, cell in enumerate(who.pawns)
            if cell is not None
        }
        for (r, c), face in sorted(who.forest.items()):
            tile = state.tile(face.tile)
            x = x0 + (c - c0) * SIZE
            y = MARGIN + (r - r0) * SIZE
            preview = tile.points if tile.hidden else None
            parts.extend(_tile(x, y, tile.colour, tile.sequence, face.mission, tile.start, preview))
            letter = pawns.get((r, c))
            if letter is not None:
                parts.extend(
                    token(
                        x + SIZE / 2,
                        y + 5,
                        3.0,
                        letter,
                        fill=PAWN_FILL[letter],
                        label_fill="#ffffff",
                    )
                )
            if order and (r, c) in order and index == state.current:
                parts.extend(token(x + 3, y + 3, 2.4, str(order[(r, c)]), fill="#ffffff"))
        x0 += width + 2 * MARGIN
        height = max(height, (max(rows) - r0 + 1) * SIZE)
    return document(x0, height + 2 * MARGIN, parts, title="forest guardians")
