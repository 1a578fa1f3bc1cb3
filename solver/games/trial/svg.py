"""The Trial's board as SVG (``forest trial render``): the board graph with its pieces.

Spaces are discs at the pack's coordinates, coloured by kind (locations by their slot: grove,
ruins, lookout tower, store), joined by the board's lines; the expedition areas' paths are drawn
in violet, paid paths (Frosty Hill) marked with their price, the Dark Caverns' dotted and
dashed lines as such. A location shows the tile lying on it (and a cross when its ruined side is
up); a printed tunnel has a thin ring, an open tunnel a thick one, a collapsed one a cross.
Pieces: each adventurer is a numbered pawn in its colour on its space, and a campsite with a tent
shows a small flag in the owner's colour (grey: a tent nobody owns); a tent's bonus stays hidden
(it lies face down). A legend of the kinds and pawns is drawn under the board. Nothing hidden is
drawn: hands, tents' bonuses and ruins' items never appear.

>>> import solver
>>> game = solver.load_game("trial", players=2)
>>> svg = render_svg(game, None, [])
>>> svg.startswith("<?xml") and svg.count('class="space"') == len(game.board.spaces)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.render.legend import LegendEntry, legend_entries
from solver.render.shapes import circle, line, polygon, token
from solver.render.svg import document, group, text

__all__ = ["PLAYER_COLOURS", "render_svg"]

SCALE = 14.0
"""Millimetres per board unit."""
MARGIN = 14.0
RADIUS = 3.2
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
"""Pawn colours by seat."""

KIND_FILL = {
    "grove": "#8fce7a",
    "ruins": "#b9a48c",
    "lookout": "#9fc5e8",
    "store": "#f6c26b",
    "campsite": "#f4e3b5",
    "start": "#ffffff",
    "path": "#e6e6e6",
    "exit": "#d5a6bd",
    "expedition": "#c9c3e6",
}
KIND_LABEL = {
    "grove": ("grove", "a location"),
    "ruins": ("ruins", "a location"),
    "lookout": ("lookout tower", "a location"),
    "store": ("store", "a location"),
    "campsite": ("campsite", "flag: a tent"),
    "start": ("start space", ""),
    "path": ("path space", ""),
    "exit": ("expedition exit", ""),
    "expedition": ("expedition space", "number: flag fame"),
}


def _fill_key(board: Any, space: str) -> str:
    kind = board.kind[space]
    if kind == "location":
        return str(board.slot.get(space, "grove"))
    return str(kind)


def render_svg(game: Any, state: Any | None, actions: Sequence[int] = ()) -> str:
    """The board and pieces of ``state`` (``None``: the empty board) as an SVG document."""
    board = game.board
    d = state.data if state is not None else None
    xs = [x for x, _ in board.xy.values()]
    ys = [y for _, y in board.xy.values()]
    x0, y0 = min(xs), min(ys)

    def at(space: str) -> tuple[float, float]:
        x, y = board.xy[space]
        return MARGIN + (x - x0) * SCALE, MARGIN + (y - y0) * SCALE

    width = 2 * MARGIN + (max(xs) - x0) * SCALE
    board_height = 2 * MARGIN + (max(ys) - y0) * SCALE
    parts: list[str] = []
    edges: list[str] = []
    for a, b in game.pack.board["edges"]:
        (ax, ay), (bx, by) = at(a), at(b)
        edges.append(line(ax, ay, bx, by, stroke="#8a8a8a", stroke_width=0.6, class_="edge"))
    for space, paths in board.paths.items():
        for p in paths:
            (ax, ay), (bx, by) = at(p["from"]), at(p["to"])
            dash = {"dotted": "0.6 1.2", "dashed": "2.4 1.2"}.get(p.get("line", ""))
            edges.append(
                line(ax, ay, bx, by, stroke="#6b5fa5", stroke_width=0.6, class_="path",
                     stroke_dasharray=dash)
            )  # fmt: skip
            if "pay" in p:
                price = ", ".join(f"{n} {f}" for f, n in p["pay"].items())
                edges.append(text((ax + bx) / 2, (ay + by) / 2 - 1.0, price, 2.2,
                                  anchor="middle", fill="#6b5fa5"))  # fmt: skip
        del space
    parts += group(edges, class_="lines")
    tunnels = d["tunnels"] if d is not None else {}
    tiles = d["tiles"] if d is not None else {}
    spaces: list[str] = []
    for space in board.spaces:
        x, y = at(space)
        key = _fill_key(board, space)
        spaces.append(
            circle(x, y, RADIUS, fill=KIND_FILL.get(key, "#ffffff"), stroke="#444444",
                   stroke_width=0.35, class_="space", **{"data-space": space})
        )  # fmt: skip
        label = space
        if tiles.get(space):  # a slot's tile; None while the set-up has not placed one yet
            tile, ruined = tiles[space][0], tiles[space][1]
            label = f"{tile}{' (ruined)' if ruined else ''}"
            if ruined:
                r = RADIUS * 0.6
                spaces.append(line(x - r, y - r, x + r, y + r, stroke="#7a3b2e", stroke_width=0.5))
                spaces.append(line(x - r, y + r, x + r, y - r, stroke="#7a3b2e", stroke_width=0.5))
        if space in board.finish:
            spaces.append(text(x, y + 1.0, str(board.finish[space]), 2.8, anchor="middle",
                               weight="bold"))  # fmt: skip
        status = tunnels.get(space)
        if space in board.printed_tunnels or status == "open":
            spaces.append(circle(x, y, RADIUS + 0.9, fill="none", stroke="#5b3a1e",
                                 stroke_width=0.7 if status == "open" else 0.35,
                                 class_="tunnel"))  # fmt: skip
        if status == "collapsed":
            spaces.append(text(x + RADIUS, y - RADIUS, "x", 2.6, fill="#5b3a1e", weight="bold"))
        spaces.append(text(x, y + RADIUS + 2.4, label, 1.9, anchor="middle", fill="#333333"))
    parts += group(spaces, class_="spaces")
    pieces: list[str] = []
    if d is not None:
        for space, camp in d["camp_tents"].items():
            if camp is None or space not in board.xy:
                continue
            x, y = at(space)
            owner = camp["owner"]
            colour = "#9a9a9a" if owner is None else PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
            pole = x + RADIUS * 0.2
            pieces.append(line(pole, y - RADIUS * 1.7, pole, y - RADIUS * 0.4, stroke="#333333",
                               stroke_width=0.35))  # fmt: skip
            flag = [(pole, y - RADIUS * 1.7), (pole + 2.4, y - RADIUS * 1.35),
                    (pole, y - RADIUS * 1.0)]  # fmt: skip
            pieces.append(
                polygon(
                    flag,
                    fill=colour,
                    class_="tent",
                    **{"data-owner": "none" if owner is None else owner},
                )
            )
        here: dict[str, list[int]] = {}
        for p, me in enumerate(d["players"]):
            if me["space"] is not None:
                here.setdefault(me["space"], []).append(p)
        for space, who in here.items():
            x, y = at(space)
            for k, p in enumerate(who):
                dx = (k - (len(who) - 1) / 2) * 2.6
                pieces += token(x + dx, y - 0.2, 1.5, str(p), fill=PLAYER_COLOURS[p % 4],
                                stroke="#ffffff", label_fill="#ffffff", class_="pawn")  # fmt: skip
    parts += group(pieces, class_="pieces")
    # the legend
    entries = [LegendEntry(k, *KIND_LABEL[k][:1], tuple(x for x in KIND_LABEL[k][1:] if x))
               for k in KIND_LABEL]  # fmt: skip
    players = game.num_players()
    entries += [LegendEntry(f"pawn{p}", f"player {p}", ("pawn and tent flag",))
                for p in range(players)]  # fmt: skip

    def swatch(key: str, x: float, y: float, size: float) -> list[str]:
        c = size / 2
        if key.startswith("pawn"):
            p = int(key[4:])
            return token(x + c, y + c, c * 0.6, str(p), fill=PLAYER_COLOURS[p % 4],
                         stroke="#ffffff", label_fill="#ffffff")  # fmt: skip
        return [circle(x + c, y + c, c * 0.7, fill=KIND_FILL[key], stroke="#444444",
                       stroke_width=0.35)]  # fmt: skip

    per_column = 5
    columns = -(-len(entries) // per_column)
    legend = legend_entries(entries, MARGIN, board_height, per_column=per_column,
                            column_width=max(38.0, (width - 2 * MARGIN) / max(columns, 1)),
                            row_height=9.0, swatch=swatch, swatch_size=6.0)  # fmt: skip
    parts += group(legend, class_="legend")
    height = board_height + per_column * 9.0 + MARGIN / 2
    title = "the Trial of the Forest"
    if d is not None:
        title += f": day {d['day']}" + (" (over)" if d["game_over"] else "")
    return document(width, height, parts, title=title)
