"""A hinted line drawn over the Trial's picture (``GameSpec.svg_line``): the mover's next
decisions as the hint names them.

A move (``move to X``) is an arrow along the way the move takes under the movement rules and
within the move's own budget of steps (:meth:`~solver.games.trial.board.Board.route`, the search
that makes the move legal: lines, open tunnels, an exit to its expedition's start, an expedition
start ending the move), a tunnel hop dashed, and the steps it takes out of the budget written by
its end; an advance on an expedition or the first placement (``start on X``) an arrow or a ring
on the space. Every other decision (a card played, a paw placed, an item bought) is written in a
red callout by the adventurer, so the hint is on the picture whatever it is. Only the mover's
own consecutive decisions are drawn, and only from public things (the board and where the
pawns stand).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from solver.games.trial.render_svg import board_frame
from solver.render import arrow, box, circle, element, group, polyline, token

__all__ = ["HINT", "route", "svg_line"]

HINT = "#d0312d"


def route(
    game: Any, d: dict[str, Any], origin: str, goal: str, budget: int | None = None
) -> list[str] | None:
    """The way a move of at most ``budget`` steps (``None``: any number) from ``origin`` takes
    to ``goal`` on the state ``d`` (its tunnels), both ends included; ``None`` when no move
    does."""
    return game.board.route(origin, goal, budget, _open_tunnels(game, d))


def _open_tunnels(game: Any, d: dict[str, Any]) -> set[str]:
    status = d["tunnels"]
    printed = {s for s in game.board.printed_tunnels if status.get(s) != "collapsed"}
    return printed | {s for s, v in status.items() if v == "open"}


def _move_budget(d: dict[str, Any]) -> int | None:
    """The steps the move under way may take (its frame's movement symbols), ``None`` when the
    step on top is not a move."""
    frame = d["stack"][-1] if d["stack"] else None
    if frame is None or frame.get("step") != "move":
        return None
    return int(frame["base"]) + int(frame["extra"])


def _route_arrow(game: Any, d: dict[str, Any], way: list[str], budget: int | None) -> list[str]:
    """The arrow along ``way``: runs of line steps solid, tunnel hops dashed (they are one step
    however far apart the two tunnels are drawn), the head on the last piece, and the steps
    taken (of the budget) by the end."""
    frame = board_frame(game)
    tunnels = _open_tunnels(game, d)
    points = [frame.at(game.board.xy[s]) for s in way]
    pieces: list[tuple[list[tuple[float, float]], bool]] = [([points[0]], False)]
    for k, (a, b) in enumerate(pairwise(way), start=1):
        hop = a in tunnels and b in tunnels and b not in game.board.neighbours.get(a, [])
        run, dashed = pieces[-1]
        if hop or dashed:
            pieces.append(([points[k - 1], points[k]], hop))
        else:
            run.append(points[k])
    out: list[str] = []
    for index, (run, dashed) in enumerate(pieces):
        dashes = "2.4 1.6" if dashed else "none"
        if index == len(pieces) - 1:
            out += arrow(run, stroke=HINT, stroke_width=1.2, head=3.6, opacity="0.9",
                         stroke_dasharray=dashes)  # fmt: skip
        elif len(run) > 1:
            out.append(polyline(run, stroke=HINT, stroke_width=1.2, opacity="0.9",
                                stroke_dasharray=dashes))  # fmt: skip
    steps = len(way) - 1
    words = f"{steps} step{'s' if steps != 1 else ''}" + (f" of {budget}" if budget else "")
    x, y = points[-1]
    out.append(element("text", {"x": x + 8.5, "y": y + 1.0, "font-size": 2.8,
                                "font-weight": "bold", "fill": HINT, "stroke": "#ffffff",
                                "stroke-width": 0.9, "paint-order": "stroke",
                                "class": "route-steps"}, words))  # fmt: skip
    return out


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
        ring = circle(*end, 7.5, fill="none", stroke=HINT, stroke_width=1.0)
        if label.startswith("move"):
            budget = _move_budget(d)
            way = route(game, d, here, target, budget)
            return [*(_route_arrow(game, d, way, budget) if way else []), ring]
        points = [frame.at(game.board.xy[s]) for s in (here, target)]
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
