"""The Trial's board graph in SVG: lines, spaces, what lies on them and the pieces.

A forest space is a rounded square coloured by its kind (a location by its slot: grove, ruins,
lookout tower, store) naming what lies there in bold (the location tile's word: ``acorn``,
``tea``, ``→ store`` for ruins that restore to a store) over the space's own name (the name
the moves use: ``move to grove-1``); a ruined tile is struck through. An expedition space is a
disc, its finishing fame in bold. A printed or open tunnel is a thick brown frame, a collapsed
one a brown cross. Pieces: each adventurer a numbered pawn in its colour on top of its space, a
paw token placed on a location a small numbered dot along its bottom edge (strong: ringed), a
tent on a campsite a flag in its owner's colour (grey: nobody's; its bonus stays hidden), an
expedition flag a pennant on its finishing space. Everything drawn is public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.render import box, circle, element, group, line, polygon, text, token

__all__ = ["KIND_FILL", "PLAYER_COLOURS", "BoardFrame", "board_parts", "tile_word"]

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
"""Pawn colours by seat."""
KIND_FILL = {
    "grove": "#8fce7a",
    "ruins": "#c9b79c",
    "lookout": "#9fc5e8",
    "store": "#f6c26b",
    "campsite": "#f4e3b5",
    "start": "#ffffff",
    "path": "#e8e8e8",
    "exit": "#d5a6bd",
    "expedition": "#c9c3e6",
}
SPACE_W, SPACE_H, DISC = 13.0, 10.0, 4.6
TUNNEL = "#5b3a1e"


@dataclass(frozen=True)
class BoardFrame:
    """Where the board graph lies on the page: ``scale`` page units per board unit, the page
    point of the board's top-left corner."""

    x0: float
    y0: float
    scale: float
    xmin: float
    ymin: float

    def at(self, xy: tuple[float, float]) -> tuple[float, float]:
        return self.x0 + (xy[0] - self.xmin) * self.scale, self.y0 + (
            xy[1] - self.ymin
        ) * self.scale


def fill_key(board: Any, space: str) -> str:
    """The legend key of a space: a location by its slot's type, else its kind."""
    kind = board.kind[space]
    return str(board.slot.get(space, "grove")) if kind == "location" else str(kind)


def tile_word(tile: str) -> str:
    """A location tile's word on the board: ``grove-acorn`` → ``acorn``, ``ruins-store`` →
    ``→ store``, ``lookout-2`` → ``lookout 2``."""
    kind, _, rest = tile.partition("-")
    if kind == "ruins":
        return f"\u2192 {rest}"
    return f"{kind} {rest}" if rest.isdigit() else rest


def _lines(game: Any, frame: BoardFrame) -> list[str]:
    board, out = game.board, []
    for a, b in game.pack.board["edges"]:
        (ax, ay), (bx, by) = frame.at(board.xy[a]), frame.at(board.xy[b])
        out.append(line(ax, ay, bx, by, stroke="#9a9a9a", stroke_width=0.7, class_="edge"))
    for paths in board.paths.values():
        for p in paths:
            (ax, ay), (bx, by) = frame.at(board.xy[p["from"]]), frame.at(board.xy[p["to"]])
            dash = {"dotted": "0.7 1.3", "dashed": "2.6 1.3"}.get(p.get("line", ""))
            out.append(line(ax, ay, bx, by, stroke="#6b5fa5", stroke_width=0.8, class_="path",
                            stroke_dasharray=dash))  # fmt: skip
            if "pay" in p:
                price = ", ".join(f"{n} {f}" for f, n in p["pay"].items())
                out.append(element("text", {"x": (ax + bx) / 2 - 2.0, "y": (ay + by) / 2 + 0.8,
                                            "font-size": 2.4, "text-anchor": "end",
                                            "font-weight": "bold", "fill": "#4b3f85",
                                            "stroke": "#ffffff", "stroke-width": 0.8,
                                            "paint-order": "stroke"}, f"pay {price}"))  # fmt: skip
    return out


def _space(game: Any, d: dict[str, Any] | None, space: str, x: float, y: float) -> list[str]:
    """One space: its shape (the group's first element, its frame) and its words."""
    board = game.board
    fill = KIND_FILL.get(fill_key(board, space), "#ffffff")
    tunnel = d["tunnels"].get(space) if d else None
    framed = space in board.printed_tunnels or tunnel == "open"
    stroke, width = (TUNNEL, 1.1) if framed else ("#555555", 0.4)
    if board.kind[space] == "expedition":
        out = [circle(x, y, DISC, fill=fill, stroke=stroke, stroke_width=width)]
        if space in board.finish:
            out.append(text(x, y + 1.4, str(board.finish[space]), 4.0, anchor="middle",
                            weight="bold"))  # fmt: skip
        out.append(text(x, y + DISC + 2.6, space, 2.1, anchor="middle", fill="#444444"))
        return out
    out = [
        box(
            x - SPACE_W / 2,
            y - SPACE_H / 2,
            SPACE_W,
            SPACE_H,
            fill=fill,
            rx=1.6,
            stroke=stroke,
            stroke_width=width,
        )
    ]
    word, ruined = _word(board, d, space)
    if word:
        size = min(2.6, (SPACE_W - 1.2) / (0.62 * len(word)))
        out.append(text(x, y + 0.2, word, size, anchor="middle", weight="bold"))
    if ruined:
        out += [line(x - 5.0, y - 0.6, x + 5.0, y - 0.6, stroke="#7a3b2e", stroke_width=0.5),
                text(x, y - 2.6, "ruined", 1.9, anchor="middle", fill="#7a3b2e")]  # fmt: skip
    out.append(text(x, y + 3.6, space, 2.1, anchor="middle", fill="#444444"))
    if tunnel == "collapsed":
        for a, b in ((-4.5, -2.0), (-2.0, -4.5)):
            out.append(line(x + 3.5, y + a, x + 6.0, y + b, stroke=TUNNEL, stroke_width=0.8))
    return out


def _word(board: Any, d: dict[str, Any] | None, space: str) -> tuple[str, bool]:
    """What lies on a space in a word, and whether that tile is ruined."""
    kind = board.kind[space]
    if kind == "location":
        tile = (d["tiles"].get(space) if d else None) or None
        if tile:
            return tile_word(tile[0]), bool(tile[1])
        return str(board.slot.get(space, "")), False
    return {"campsite": "camp", "start": "start", "exit": "exit", "path": ""}.get(kind, ""), False


def _pieces(game: Any, d: dict[str, Any], frame: BoardFrame) -> list[str]:
    """Tents on campsites, flags on finishing spaces, paws on locations, then the pawns."""
    board, out = game.board, []
    for space, camp in d["camp_tents"].items():
        if camp is None or space not in board.xy:
            continue
        x, y = frame.at(board.xy[space])
        owner = camp["owner"]
        colour = "#9a9a9a" if owner is None else PLAYER_COLOURS[owner % 4]
        px, top = x + SPACE_W / 2 - 2.2, y - SPACE_H / 2 - 3.2
        out.append(line(px, top, px, top + 5.0, stroke="#333333", stroke_width=0.4))
        mark = {"data-owner": "none" if owner is None else owner}
        out.append(polygon([(px, top), (px + 3.4, top + 1.1), (px, top + 2.2)], fill=colour,
                           class_="tent", **mark))  # fmt: skip
    for p, me in enumerate(d["players"]):
        for area, space in me["flags"].items():
            if space is not None and space in board.xy:
                x, y = frame.at(board.xy[space])
                out.append(polygon([(x - 1.0, y - 7.5), (x + 3.0, y - 6.2), (x - 1.0, y - 4.9)],
                                   fill=PLAYER_COLOURS[p % 4], class_="flag",
                                   **{"data-area": area}))  # fmt: skip
    out += _paws(game, d, frame)
    return out + _pawns(game, d, frame)


def _paws(game: Any, d: dict[str, Any], frame: BoardFrame) -> list[str]:
    board, out = game.board, []
    on: dict[str, list[tuple[int, bool]]] = {}
    for p, me in enumerate(d["players"]):
        for target, strong in me["paws_placed"]:
            if str(target).startswith("loc:"):
                on.setdefault(str(target)[4:], []).append((p, bool(strong)))
    for space, paws in on.items():
        if space not in board.xy:
            continue
        x, y = frame.at(board.xy[space])
        for k, (p, strong) in enumerate(paws):
            cx = x - SPACE_W / 2 + 2.0 + k * 3.0
            out.append(circle(cx, y + SPACE_H / 2, 1.3, fill=PLAYER_COLOURS[p % 4],
                              stroke="#222222" if strong else "#ffffff",
                              stroke_width=0.6 if strong else 0.3, class_="paw"))  # fmt: skip
    return out


def _pawns(game: Any, d: dict[str, Any], frame: BoardFrame) -> list[str]:
    board, out = game.board, []
    here: dict[str, list[int]] = {}
    for p, me in enumerate(d["players"]):
        if me["space"] is not None:
            here.setdefault(me["space"], []).append(p)
    for space, who in here.items():
        x, y = frame.at(board.xy[space])
        for k, p in enumerate(who):
            dx = (k - (len(who) - 1) / 2) * 3.6
            out += token(x + dx, y - SPACE_H / 2, 2.0, str(p), fill=PLAYER_COLOURS[p % 4],
                         stroke="#ffffff", stroke_width=0.5, label_fill="#ffffff",
                         class_="pawn")  # fmt: skip
    return out


def board_parts(game: Any, d: dict[str, Any] | None, frame: BoardFrame) -> list[str]:
    """The board of the state data ``d`` (``None``: the empty board) at ``frame``."""
    parts = group(_lines(game, frame), class_="lines")
    spaces: list[str] = []
    for space in game.board.spaces:
        x, y = frame.at(game.board.xy[space])
        spaces += group(_space(game, d, space, x, y), class_="space", **{"data-space": space})
    parts += group(spaces, class_="spaces")
    if d is not None:
        parts += group(_pieces(game, d, frame), class_="pieces")
    return parts
