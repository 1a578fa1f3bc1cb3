"""The guardians' positions as SVG: the whole table on one page.

A heading (the game, the round, who plays, the phase), the table row (the pool's six tiles with
their faces and points previews, each with its tile number; the bag; the combo cards left, or
solo the round track with the tiles drawn onto it and the level's tasks), then every player's
forest: its score, counts and the missions completed (chips with their sequence and points),
the grid with its row and column numbers (the coordinates of the actions' labels), the tiles
and pawns, and the empty cells where a tile may go, dashed. A legend closes the page. Pieces are
drawn by :mod:`.render_tiles`; :mod:`.render_layout` places them (and :mod:`.render_line` the
hinted line over them).

Elements carry attributes for the web table and for tests: every forest cell (a tile or an
empty cell next to one) ``data-cell="PLAYER:ROW,COL"``, every pool tile ``data-tile="ID"``.
With a mission plan (``order``), each of the player to move's mission tiles carries its step
number in a badge. A tile whose back is unseen shows its face only.

>>> from solver.games.guardians.grove_format import parse_grove
>>> from solver.games.guardians.rules import GuardiansGame
>>> state = GuardiansGame(position=parse_grove("grid:\\n[GR]b G:BB R:BB\\n")).new_initial_state()
>>> svg = render_state_svg(state)
>>> svg.startswith("<?xml") and svg.count('class="tile"') == 3
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from solver.games.guardians.board import Cell
from solver.games.guardians.render_layout import (
    CELL,
    MARGIN,
    ForestBox,
    Layout,
    frontier,
    layout_of,
)
from solver.games.guardians.render_legend import legend
from solver.games.guardians.render_tiles import CREAM, FILL, chip, pawn, tile
from solver.games.guardians.scoring import winners_share
from solver.games.guardians.solo import PAWN_COLOURS
from solver.games.guardians.state_parts import level_tasks
from solver.render import box, count, document, element, group, text, token

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = ["FILL", "heading_lines", "render_state_svg"]

_COMBO = ("+2", "+3", "+4", "+5")
_TO_MOVE = "\u25b6 "
SUBTITLE_SIZE = 3.6
_DONE, _OPEN = "\u2713", "\u25cb"


def heading_lines(state: GuardiansState) -> tuple[str, str]:
    """The title and the subtitle: players or level, round, who plays, phase (or the end)."""
    from solver.games.guardians.state_parts import PHASE_WORDS, last_round

    game = state.game
    if game.solo and game.level is not None:
        who = (f"solo, level {game.level.number} ({game.level.threshold} VP to win) · "
               f"round {state.round} of {state.rounds()}")  # fmt: skip
    else:
        who = f"{game.players} players · round {state.round} · player {state.current} to play"
    if state.is_terminal():
        scores = state.scores()
        best = max(scores)
        if game.solo:
            won = game.level is not None and best >= game.level.threshold
            return "Forest guardians: game over", f"{best} VP: level {'won' if won else 'lost'}"
        # the winners as returns() has them: a score tie goes to fewer tiles in forest and pile
        tiles = [state.tile_count(p) for p in range(len(scores))]
        shares = winners_share(scores, tiles)
        ahead = [p for p, share in enumerate(shares) if share > 0]
        winners = " and ".join(f"player {p}" for p in ahead)
        tied = [p for p, s in enumerate(scores) if s == best]
        # "player 1 wins with 8 VP", not "player 1 8 VP" (a number beside the seat's number)
        head = f"{winners} {'wins' if len(ahead) == 1 else 'share first place'} with {best} VP"
        if len(tied) > len(ahead):
            others = ", ".join(str(tiles[p]) for p in tied if p not in ahead)
            verb = "wins" if len(ahead) == 1 else "share"
            head = (f"{winners} {verb} the tie on fewer tiles ({tiles[ahead[0]]} against "
                    f"{others}), {best} VP")  # fmt: skip
        return "Forest guardians: game over", f"{head} · " + " · ".join(
            f"player {p}: {s} VP" for p, s in enumerate(scores)
        )
    phase = PHASE_WORDS[state.phase]
    sub = f"{who} · {phase} · bag {len(state.bag)}"
    last = last_round(state)
    if last is not None:  # in the title, and why in the subtitle
        return "Forest guardians: last round", f"{sub} · {last}"
    return "Forest guardians", sub


SUBTITLE_EM = 0.56
"""A generous mean glyph width of the subtitle's sans-serif, in ems (measured in Chromium: about
0.50), so the page is never narrower than its subtitle."""


def _wide_enough(layout: Layout, subtitle: str) -> Layout:
    """``layout``, widened where the subtitle would run past its right edge (the longest, a
    small forest's last round: who reached the mission limit and the empty bag). Only the page
    widens; every part keeps its place, so a hinted line drawn on the layout still lands."""
    needed = len(subtitle) * SUBTITLE_SIZE * SUBTITLE_EM + 2 * MARGIN
    return layout if needed <= layout.width else replace(layout, width=needed)


def _heading(title: str, sub: str, width: float) -> list[str]:
    return [text(MARGIN, MARGIN + 8.0, title, 8.0, weight="bold", class_="title"),
            text(MARGIN, MARGIN + 15.0, sub, SUBTITLE_SIZE, fill="#444444", class_="subtitle"),
            element("line", {"x1": MARGIN, "y1": MARGIN + 19.0, "x2": width - MARGIN,
                             "y2": MARGIN + 19.0, "stroke": "#cccccc",
                             "stroke-width": 0.4})]  # fmt: skip


def _pool(state: GuardiansState, layout: Layout) -> list[str]:
    """The pool's six slots: each tile's face and number, empty slots dashed."""
    y0 = layout.table_y
    out = [text(MARGIN, y0 + 4.0, "Pool", 3.6, weight="bold"),
           text(MARGIN, y0 + 8.5, "forest", 2.6, fill="#666666"),
           text(MARGIN, y0 + 11.5, "side up", 2.6, fill="#666666")]  # fmt: skip
    for k, (x, y) in enumerate(layout.pool):
        if k >= len(state.pool):
            out.append(box(x, y, CELL, CELL, fill="none", stroke="#bbbbbb", rx=1.2,
                           class_="empty-slot"))  # fmt: skip
            continue
        t = state.tile(state.pool[k])
        parts = tile(x, y, CELL, colour=t.colour, sequence=t.sequence, points=t.points,
                     mission=False, hidden=t.hidden)  # fmt: skip
        parts.append(text(x + CELL / 2, y + CELL + 4.2, f"tile {t.id}", 2.8, anchor="middle",
                          fill="#444444"))  # fmt: skip
        out += group(parts, class_="pool-tile", **{"data-tile": t.id})
    return out


def _supply(state: GuardiansState, x: float, y: float) -> list[str]:
    """The bag and, with 2-4 players, the combo cards left."""
    mid = x + CELL / 2
    out = [box(x, y + 7.0, CELL, CELL, fill="#e9dfc8", stroke="#8a7a55", rx=4.0, class_="bag"),
           text(mid, y + 14.0, str(len(state.bag)), 4.4, anchor="middle", weight="bold"),
           text(mid, y + 19.5, "in bag", 2.6, anchor="middle", fill="#555555")]  # fmt: skip
    if state.game.solo:
        return out + _track(state, x + CELL + 8.0, y)
    cx = x + CELL + 8.0
    out.append(text(cx, y + 4.0, "Combo cards left", 3.2, weight="bold"))
    for k, (name, left) in enumerate(zip(_COMBO, state.supply, strict=True)):
        bx = cx + k * 15.0
        out.append(box(bx, y + 7.0, 12.0, 16.0, fill="#ffffff" if left else "#eeeeee",
                       stroke="#8a7a55", class_="combo"))  # fmt: skip
        out.append(text(bx + 6.0, y + 15.0, name, 4.0, anchor="middle", weight="bold"))
        out.append(text(bx + 6.0, y + 21.0, f"×{left}", 2.8, anchor="middle", fill="#555555"))
    return out


def _track(state: GuardiansState, x: float, y: float) -> list[str]:
    """Solo: the round track (a box a round, the tile drawn onto it in its colour, the round
    being played framed) and the level's tasks, ticked when met."""
    out = [text(x, y + 4.0, "Round track", 3.2, weight="bold")]
    for k in range(state.rounds()):
        bx = x + k * 6.0
        colour = state.tile(state.track[k]).colour if k < len(state.track) else None
        now = k + 1 == state.round and not state.is_terminal()
        out.append(box(bx, y + 6.0, 5.2, 6.0, fill=FILL[colour] if colour else "#ffffff",
                       stroke="#222222" if now else "#999999",
                       stroke_width=0.8 if now else 0.3, rx=0.6,
                       class_="track-box"))  # fmt: skip
        out.append(text(bx + 2.6, y + 10.4, str(k + 1), 2.4, anchor="middle",
                        fill="#ffffff" if colour else "#555555"))  # fmt: skip
    for k, (words, done, brings) in enumerate(level_tasks(state)):
        mark = _DONE if done else _OPEN
        out.append(text(x, y + 17.0 + 4.2 * k, f"{mark} {words} ({brings})", 2.7,
                        fill="#2f6b3a" if done else "#444444", class_="task"))  # fmt: skip
    return out


def render_state_svg(state: GuardiansState, *, order: Mapping[Cell, int] | None = None) -> str:
    """The whole table of ``state`` as an SVG document (see the module's docstring)."""
    title, sub = heading_lines(state)
    layout = _wide_enough(layout_of(state), sub)
    parts = _heading(title, sub, layout.width)
    parts += group(_pool(state, layout), class_="pool")
    parts += group(_supply(state, layout.pool[-1][0] + CELL + 10.0, layout.table_y),
                   class_="supply")  # fmt: skip
    for forest in layout.forests:
        parts += group(_forest(state, forest, order), class_="forest",
                       **{"data-player": forest.player})  # fmt: skip
    parts += group(legend(state, MARGIN, layout.legend_y, layout.width - 2 * MARGIN),
                   class_="legend")  # fmt: skip
    return document(layout.width, layout.height, parts, title=f"{title} · {sub}")


def _forest_head(state: GuardiansState, forest: ForestBox) -> list[str]:
    """A forest's name and score, its counts and its pile of completed missions."""
    p, game = forest.player, state.game
    who = state.people[p]
    x, y = forest.x - 6.0, forest.y - 28.0
    to_move = p == state.current and not state.is_terminal()
    name = "your forest" if game.solo else f"player {p}"
    head = f"{_TO_MOVE if to_move else ''}{name} · {state.score(p)} VP"
    out = [text(x, y + 4.5, head, 4.4, weight="bold", class_="score",
                fill="#2f4f3a" if to_move else "#222222")]  # fmt: skip
    facts = [count(len(who.pile), "mission"), count(len(who.forest), "tile"),
             f"{count(len(who.reserve()), 'pawn')} in reserve"]  # fmt: skip
    if who.cards:
        facts.append("combo " + " ".join(f"+{c}" for c in who.cards))
    if who.resets:
        facts.append(f"{count(who.resets, 'reset')} (−{who.resets})")
    out.append(text(x, y + 9.0, " · ".join(facts), 2.9, fill="#444444"))
    fits = max(1, int((forest.width + 6.0) // 13.0))
    for k, (tile_id, pawn_index, _) in enumerate(who.pile[:fits]):
        t = state.tile(tile_id)
        edge = FILL[PAWN_COLOURS[pawn_index].upper()] if game.solo else "#777777"
        out += chip(x + k * 13.0, y + 11.0, t.sequence, t.points, edge)
    if len(who.pile) > fits:
        out.append(text(x + fits * 13.0, y + 17.0, f"+{len(who.pile) - fits}", 3.0))
    return out


def _forest(
    state: GuardiansState, forest: ForestBox, order: Mapping[Cell, int] | None
) -> list[str]:
    """One forest: header, coordinates, empty cells, tiles, pawns (and the plan's badges)."""
    p, game = forest.player, state.game
    who = state.people[p]
    out = _forest_head(state, forest)
    for k in range(forest.cols):
        cx = forest.x + (k + 0.5) * CELL
        out.append(text(cx, forest.y - 1.6, str(forest.col0 + k), 2.6, anchor="middle",
                        fill="#777777", class_="col-label"))  # fmt: skip
    for k in range(forest.rows):
        cy = forest.y + (k + 0.5) * CELL + 0.9
        out.append(text(forest.x - 1.6, cy, str(forest.row0 + k), 2.6, anchor="end",
                        fill="#777777", class_="row-label"))  # fmt: skip
    for cell in frontier(who.forest):
        x, y = forest.cell_xy(cell)
        out += group([box(x + 0.6, y + 0.6, CELL - 1.2, CELL - 1.2, fill=CREAM, stroke="#c9c0a8",
                          rx=1.0)], class_="slot", **{"data-cell": _cell_id(p, cell)})  # fmt: skip
    pawns = {cell: (PAWN_COLOURS[k] if game.solo else "p")
             for k, cell in enumerate(who.pawns) if cell is not None}  # fmt: skip
    for cell, face in sorted(who.forest.items()):
        t = state.tile(face.tile)
        x, y = forest.cell_xy(cell)
        parts = tile(x, y, CELL, colour=t.colour, sequence=t.sequence, points=t.points,
                     mission=face.mission, start=t.start, hidden=t.hidden)  # fmt: skip
        if cell in pawns:
            parts += pawn(x + CELL / 2, y + 4.2, pawns[cell])
        if order and cell in order and p == state.current:  # clear of the colour letter
            by = y + 3.0 if face.mission else y + 8.0
            parts += token(x + 3.0, by, 2.4, str(order[cell]), fill="#ffffff")
        out += group(parts, class_="cell", **{"data-cell": _cell_id(p, cell)})
    return out


def _cell_id(player: int, cell: Cell) -> str:
    return f"{player}:{cell[0]},{cell[1]}"
