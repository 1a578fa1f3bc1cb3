"""A hinted line drawn over the guardians' picture (``GameSpec.svg_line``): the rest of the
mover's turn as the hint plays it (up to its ``end turn``).

Each step the mover takes is numbered in a red badge: a tile taken from the pool is ringed, a
placement is a dashed ghost of the tile on its cell (its colour and number), a walk an arrow
from the mission tile through the tiles it visits, a pawn put down a ring on its cell, a reset a
cross over the pool. The line stops where another player's turn begins. Chance outcomes on the
way (a flipped back) are the hint's guesses and draw nothing. Everything is placed by the
picture's own :func:`~.render_layout.layout_of`, so it lands on the tiles it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.games.guardians.render_layout import CELL, ForestBox, Layout, layout_of
from solver.games.guardians.render_tiles import FILL
from solver.games.guardians.walks import path_from_code
from solver.render import arrow, box, element, group, line, text, token

__all__ = ["HINT", "svg_line"]

HINT = "#d0312d"
"""The hinted line's colour (the dog's hinted path's)."""


def _badge(x: float, y: float, step: int) -> list[str]:
    return token(x, y, 2.4, str(step), fill=HINT, stroke="#ffffff", stroke_width=0.4,
                 label_fill="#ffffff")  # fmt: skip


def _place(state: Any, forest: ForestBox, action: int, step: int) -> list[str]:
    slot, cell = state.game.codec.decode_place(action)
    t = state.tile(state.pool[slot])
    x, y = forest.cell_xy(cell)
    ghost = element("rect", {"class_": "hint-place", "x": x + 1.0, "y": y + 1.0,
                             "width": CELL - 2.0, "height": CELL - 2.0, "rx": 1.2,
                             "fill": FILL.get(t.colour or "", "#ffffff"), "fill-opacity": 0.5,
                             "stroke": HINT, "stroke-width": 1.0,
                             "stroke-dasharray": "2 1"})  # fmt: skip
    label = text(x + CELL / 2, y + CELL - 2.5, f"tile {t.id}", 2.8, anchor="middle",
                 weight="bold", fill=HINT)  # fmt: skip
    return [ghost, label, *_badge(x + 3.2, y + 3.2, step)]


def _walk(state: Any, forest: ForestBox, action: int, step: int) -> list[str]:
    pawn, code = state.game.codec.decode_walk(action)
    start = state.people[state.current].pawns[pawn]
    cells = [start, *path_from_code(start, code)]
    shift = (step % 3 - 1) * 1.2  # walks of a chain cross the same tiles: keep them apart
    centres = [(x + shift, y + shift) for x, y in (forest.centre(c) for c in cells)]
    out = arrow(centres, stroke=HINT, stroke_width=1.1, head=3.2, class_="hint-walk",
                opacity="0.9")  # fmt: skip
    x, y = forest.cell_xy(start)
    return out + _badge(x + 2.6, y + 2.6, step)


def _pool_ring(layout: Layout, state: Any, tile: int, step: int) -> list[str]:
    at = layout.pool_slot(state, tile)
    if at is None:
        return []
    x, y = at
    return [box(x - 1.2, y - 1.2, CELL + 2.4, CELL + 2.4, fill="none", stroke=HINT,
                stroke_width=1.0, rx=1.8), *_badge(x, y, step)]  # fmt: skip


def _step(layout: Layout, state: Any, action: int, step: int) -> list[str]:
    """The drawing of one of the mover's actions from ``state`` (before it is applied)."""
    codec = state.game.codec
    kind = codec.kind(action)
    forest = layout.forests[state.current]
    if kind == "place":
        return _place(state, forest, action, step)
    if kind == "walk":
        return _walk(state, forest, action, step)
    if kind == "pick":
        return _pool_ring(layout, state, state.pool[codec.decode_pick(action)], step)
    if kind == "pawn":
        cell = state.placed if state.placed is not None else (0, 0)
        cx, cy = forest.centre(cell)
        return [box(cx - 5.0, cy - 5.0, 10.0, 10.0, fill="none", stroke=HINT, stroke_width=1.0,
                    rx=5.0), *_badge(cx - 5.0, cy - 5.0, step)]  # fmt: skip
    if kind == "reset":
        (x0, y0), (x1, _) = layout.pool[0], layout.pool[-1]
        return [line(x0, y0, x1 + CELL, y0 + CELL, stroke=HINT, stroke_width=1.2),
                line(x0, y0 + CELL, x1 + CELL, y0, stroke=HINT, stroke_width=1.2),
                *_badge(x0 - 3.0, y0, step)]  # fmt: skip
    return []


def svg_line(game: Any, state: Any, pv: Sequence[int]) -> str:
    """The SVG elements drawing ``pv`` (actions from ``state``) over ``state``'s picture."""
    layout = layout_of(state)
    mover = state.current_player()
    walker = state.clone()
    parts: list[str] = []
    step = 0
    for action in pv:
        if walker.is_terminal():
            break
        if not walker.is_chance_node():
            if walker.current_player() != mover:
                break
            drawn = _step(layout, walker, action, step + 1)
            step += 1 if drawn else 0
            parts += drawn
            if walker.game.codec.kind(action) == "end":
                break  # the turn ends here (solo: the next turn is the same player's)
        walker.apply_action(action)
    return "\n".join(group(parts, class_="hint-line-guardians"))
