"""The guardians' positions as text: each player's forest as a grid of tile tokens.

Tokens are those of the ``.grove`` format: ``B:GRE`` a tile forest side up (colour B, mission
G-R-E on its back; the open variant), ``B:?5`` one whose back is not known (colour B, points
preview 5: every unflipped tile with hidden backs), ``[GRE]`` mission side up, ``[GRE]b``
with a pawn (solo colours ``b g y r``, ``p`` with 2-4 players), ``[*]`` the start tile, ``.``
no tile; ``[?5]`` is a tile being flipped (at a reveal node). Rows and columns are labelled with
the board coordinates that the action labels use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from solver.games.guardians.board import Cell, Face
from solver.games.guardians.solo import PAWN_COLOURS
from solver.games.guardians.state_parts import PHASE_WORDS, last_round, level_tasks
from solver.games.guardians.tiles import Tile
from solver.render.ascii import count, legend_lines, text_grid

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = ["LEGEND", "forest_lines", "render_state_text", "tile_token"]

LEGEND: list[tuple[str, str]] = [
    ("B:?5", "a tile forest side up: colour B, points 5, its mission face down"),
    ("B:GRE", "a tile forest side up whose back G-R-E is known (open backs)"),
    ("[GRE]", "a mission tile (sequence G-R-E); a letter after it is a pawn"),
    ("[*]", "the start tile (mission A-B-C-D-E-A)"),
    ("B G R E P Y", "blue green red grey purple yellow"),
    ("b g y r / p", "solo pawns blue green yellow red / a pawn with 2-4 players"),
]


def tile_token(tile: Tile, mission: bool, pawn: str | None = None) -> str:
    """The ``.grove`` token of a tile."""
    if tile.start:
        return "[*]" + (pawn or "")
    if tile.hidden:
        # face down: being flipped when mission side up (a reveal node), else just unseen
        return (f"[?{tile.points}]" + (pawn or "")) if mission else f"{tile.colour}:?{tile.points}"
    if mission:
        return f"[{tile.sequence}]" + (pawn or "")
    return f"{tile.colour}:{tile.sequence}"


def forest_lines(
    forest: Mapping[Cell, Face],
    tiles: Mapping[int, Tile],
    pawns: Mapping[Cell, str],
) -> list[str]:
    """The forest as a labelled text grid over its bounding box."""
    if not forest:
        return ["(no tiles)"]
    rows = [r for r, _ in forest]
    cols = [c for _, c in forest]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    grid = []
    for r in range(r0, r1 + 1):
        line = []
        for c in range(c0, c1 + 1):
            face = forest.get((r, c))
            if face is None:
                line.append(".")
            else:
                line.append(tile_token(tiles[face.tile], face.mission, pawns.get((r, c))))
        grid.append(line)
    return text_grid(
        grid,
        col_labels=[str(c) for c in range(c0, c1 + 1)],
        row_labels=[str(r) for r in range(r0, r1 + 1)],
    )


def render_state_text(state: GuardiansState, *, legend: bool = False) -> str:
    """Every player's forest, then the pool, the bag and whose turn it is."""
    game = state.game
    lines: list[str] = []
    for index, who in enumerate(state.people):
        letters = {
            cell: (PAWN_COLOURS[p] if game.solo else "p")
            for p, cell in enumerate(who.pawns)
            if cell is not None
        }
        title = "forest" if game.solo else f"player {index} forest"
        lines.append(
            f"{title}: score {state.score(index)}, {count(len(who.pile), 'mission')}, "
            f"{count(len(who.forest), 'tile')}, {count(len(who.reserve()), 'pawn')} in reserve"
        )
        lines.extend(forest_lines(who.forest, state.catalogue, letters))
        lines.append("")
    pool = " ".join(f"{t}={tile_token(state.tile(t), False)}" for t in state.pool) or "(empty)"
    lines.append(f"pool: {pool}")
    status = f"bag {count(len(state.bag), 'tile')}, round {state.round}"
    if game.solo:
        status += f"/{state.rounds()}"
    status += f", phase {PHASE_WORDS[state.phase]}"
    if not state.is_terminal():
        status += f", player {state.current}'s turn" if not game.solo else ""
    else:
        status += f", scores {', '.join(str(score) for score in state.scores())}"
    lines.append(status)
    last = last_round(state)
    if last is not None:  # the bag count alone did not say it, nor a pile at the limit
        lines.append(last)
    if game.solo and game.level is not None:  # what a solo game is won by, as the SVG says it
        level = game.level
        tasks = "; ".join(
            f"[{'x' if done else ' '}] {words} ({brings})"
            for words, done, brings in level_tasks(state)
        )
        lines.append(f"level {level.number}: {level.threshold} VP to win; tasks: {tasks}")
    if legend:
        lines.extend(legend_lines(LEGEND))
    return "\n".join(lines)
