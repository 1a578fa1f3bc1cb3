"""A hinted line drawn over the Trial's picture (``GameSpec.svg_line``): the mover's next
decisions as the hint names them.

A move (``move to X``) is an arrow along the shortest route on the board from the adventurer's
space (lines, open tunnels, an exit to its expedition's start); an advance on an expedition or
the first placement (``start on X``) an arrow or a ring on the space. Every other decision (a
card played, a paw placed, an item bought) is written in a red callout by the adventurer, so
the hint is on the picture whatever it is. Only the mover's own consecutive decisions are drawn,
and only from public things (the board and where the pawns stand).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from solver.games.trial.svg import board_frame
from solver.render import arrow, box, circle, element, group, token

__all__ = ["HINT", "route", "svg_line"]

HINT = "#d0312d"


def _open_tunnels(game: Any, d: dict[str, Any]) -> set[str]:
    status = d["tunnels"]
    printed = {s for s in game.board.printed_tunnels if status.get(s) != "collapsed"}
    return printed | {s for s, v in status.items() if v == "open"}


def route(game: Any, d: dict[str, Any], origin: str, goal: str) -> list[str]:
    """The shortest way from ``origin`` to ``goal`` over the board's lines, the open tunnels
    and the exits' expedition starts (both ends included; ``[origin, goal]`` when none)."""
    board = game.board
    tunnels = _open_tunnels(game, d)
    parent: dict[str, str | None] = {origin: None}
    queue = deque([origin])
    while queue and goal not in parent:
        here = queue.popleft()
        steps = list(board.neighbours.get(here, []))
        if here in tunnels:
            steps += sorted(tunnels - {here})
        steps += [board.area_start[a] for a in board.areas if board.area_exit[a] == here]
        for nxt in steps:
            if nxt not in parent:
                parent[nxt] = here
                queue.append(nxt)
    if goal not in parent:
        return [origin, goal]
    way: list[str] = []
    at: str | None = goal
    while at is not None:
        way.append(at)
        at = parent[at]
    return way[::-1]


def _callout(x: float, y: float, words: str, step: int) -> list[str]:
    width = 3.5 + 0.58 * 2.8 * len(words)
    out = [box(x + 3.0, y - 9.5, width + 4.0, 5.2, fill="#ffffff", stroke=HINT,
               stroke_width=0.6, rx=1.2)]  # fmt: skip
    out.append(element("text", {"x": x + 8.0, "y": y - 5.8, "font-size": 2.8,
                                "font-weight": "bold", "fill": HINT}, words))  # fmt: skip
    return out + token(x + 5.0, y - 6.9, 1.9, str(step), fill=HINT, stroke="#ffffff",
                       label_fill="#ffffff")  # fmt: skip


def _step(game: Any, state: Any, action: int, step: int, offset: float) -> list[str]:
    frame = board_frame(game)
    d = state.data
    me = d["players"][state.current_player()]
    label = state.action_to_string(action)
    words = label.split()
    target = words[-1] if words and words[-1] in game.board.xy else None
    here = me["space"]
    if target is not None and label.startswith(("move to ", "advance to ", "start on ")):
        end = frame.at(game.board.xy[target])
        if here is None or here == target:
            return [circle(*end, 7.5, fill="none", stroke=HINT, stroke_width=1.2)]
        way = route(game, d, here, target) if label.startswith("move") else [here, target]
        points = [frame.at(game.board.xy[s]) for s in way]
        ring = circle(*end, 7.5, fill="none", stroke=HINT, stroke_width=1.0)
        return [*arrow(points, stroke=HINT, stroke_width=1.2, head=3.6, opacity="0.9"), ring]
    x, y = frame.at(game.board.xy[here]) if here is not None else (frame.x0, frame.y0)
    return _callout(x, y - offset, label, step)


def svg_line(game: Any, state: Any, pv: Sequence[int]) -> str:
    """The SVG elements drawing the mover's first consecutive decisions of ``pv``."""
    mover = state.current_player()
    walker = state.clone()
    parts: list[str] = []
    for step, action in enumerate(pv, start=1):
        if walker.is_terminal() or walker.is_chance_node() or walker.current_player() != mover:
            break
        parts += _step(game, walker, action, step, 6.0 * (step - 1))
        walker.apply_action(action)
    return "\n".join(group(parts, class_="hint-line-trial"))
