"""The Trial's table as SVG (``forest trial render``, the web table): a heading, the board graph
with its pieces (:mod:`.render_board`), the scoreboard and a legend (:mod:`.render_scores`), the
encounter row and the store (:mod:`.render_market`).

The heading names the day, whose turn it is, the legendary tokens taken and the first player.
Spaces carry ``data-space`` (the name the moves use), encounter cards ``data-encounter`` and
store slots ``data-store``, so the web table can make them clickable; :mod:`.render_line` draws a
hinted route over the picture from the same :func:`board_frame`. Nothing hidden is drawn:
hands are counts, tents' bonuses and the items lying in ruins never appear
(``tests/games/trial/test_render_svg.py`` redeals what each player cannot see and finds the same
picture).

>>> import solver
>>> game = solver.load_game("trial", players=2)
>>> svg = render_svg(game, None, [])
>>> svg.startswith("<?xml") and svg.count('class="space"') == len(game.board.spaces)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.games.trial.core import turn_words
from solver.games.trial.render_board import PLAYER_COLOURS, BoardFrame, board_parts
from solver.games.trial.render_market import MARKET_HEIGHT, market
from solver.games.trial.render_scores import ROW, legend, scoreboard
from solver.render import document, group, line, text

__all__ = ["MARGIN", "PLAYER_COLOURS", "SCALE", "board_frame", "heading_lines", "render_svg"]

SCALE = 15.0
"""Page units per board unit."""
MARGIN = 10.0
HEADING = 22.0
WIDTH = 256.0
"""The page's least width (the scoreboard's)."""


def board_frame(game: Any) -> BoardFrame:
    """Where the board graph lies on the page (the spaces' half sizes kept inside)."""
    xs = [x for x, _ in game.board.xy.values()]
    ys = [y for _, y in game.board.xy.values()]
    return BoardFrame(MARGIN + 8.0, MARGIN + HEADING + 8.0, SCALE, min(xs), min(ys))


def heading_lines(game: Any, state: Any | None) -> tuple[str, str]:
    """The title and the subtitle (the day and who plays, or who won)."""
    players = game.num_players()
    if state is None:
        return "The Trial of the Forest", f"{players} players · the board"
    d = state.data
    if state.is_terminal():
        best = max(state.returns())
        won = [str(p) for p, r in enumerate(state.returns()) if r == best]
        return "The Trial of the Forest: game over", f"won by player {' and '.join(won)}"
    tokens = [f"{name} {'-' if who is None else f'player {who}'}"
              for name, who in d["legendary"].items()]  # fmt: skip
    mover = state.current_player()
    turn = f"player {mover} to play" if mover >= 0 else turn_words(d)  # chance: no mover
    return (f"The Trial of the Forest · day {d['day']}",
            f"{players} players · {turn} · first player {d['first_player']} · legendary: "
            + ", ".join(tokens))  # fmt: skip


def render_svg(game: Any, state: Any | None, actions: Sequence[int] = ()) -> str:
    """The table of ``state`` (``None``: the empty board) as an SVG document."""
    frame = board_frame(game)
    xs = [x for x, _ in game.board.xy.values()]
    ys = [y for _, y in game.board.xy.values()]
    width = max(WIDTH, frame.x0 + (max(xs) - frame.xmin) * SCALE + 8.0 + MARGIN)
    below = frame.y0 + (max(ys) - frame.ymin) * SCALE + 12.0
    title, sub = heading_lines(game, state)
    parts = [text(MARGIN, MARGIN + 8.0, title, 7.0, weight="bold", class_="title"),
             text(MARGIN, MARGIN + 14.5, sub, 3.2, fill="#444444", class_="subtitle"),
             line(MARGIN, MARGIN + 18.0, width - MARGIN, MARGIN + 18.0, stroke="#cccccc",
                  stroke_width=0.4)]  # fmt: skip
    parts += board_parts(game, state.data if state is not None else None, frame)
    if state is not None:
        parts += group(scoreboard(state, MARGIN, below), class_="scoreboard")
        below += 8.0 + game.num_players() * ROW
        parts += group(market(game, state.data, MARGIN, below), class_="market")
        below += MARKET_HEIGHT + 4.0
    parts += group(legend(MARGIN, below, width - 2 * MARGIN), class_="legend")
    return document(width, below + 48.0, parts, title=f"{title} · {sub}")
