"""A heuristic value of a guardians position, in [0, 1], for depth-limited and MCTS searches.

Each player's *prospect* is the score plus half of the points the pawns are on their way to
(a pawn whose mission has the first j of its k colours already lined up beside it, forwards or
backwards, counts ``points * j / k``) plus a quarter of the points of every mission a pawn
stands on (the start tile aside; :data:`STANDING`). Without that last term a pawn waiting on a
fresh mission was worth nothing, and MCTS at 100 simulations per decision scored 0 in all 72
solo games of a first calibration run.
Solo: the prospect over the level's threshold, capped at 1.
With 2-4 players: a softmax of the prospects (temperature 5 VP), so the values sum to 1 like
the returns. Terminal states get their returns.

>>> from solver.games.guardians.grove_format import parse_grove
>>> from solver.games.guardians.rules import GuardiansGame
>>> state = GuardiansGame(position=parse_grove("grid:\\n[GRE]b G:BB R:BB\\n")).new_initial_state()
>>> round(progress(state, 0), 3)   # G-R-E: two of three colours lined up, 5 points
3.333
>>> round(standing(state, 0), 3), round(heuristic(state, 0), 6)  # (0 + 3.333/2 + 5/4) / 60
(5.0, 0.048611)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from solver.games.guardians.board import neighbours

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState
    from solver.games.guardians.tiles import Tile

__all__ = ["STANDING", "heuristic", "progress", "standing"]

TEMPERATURE = 5.0
STANDING = 0.25
"""The share of a waiting mission's points a pawn on it is worth before any colour lines up."""


def _lined_up(state: GuardiansState, player: int, start: tuple[int, int], sequence: str) -> int:
    """How many leading colours of ``sequence`` a path of forest tiles from ``start`` matches."""
    me = state.people[player]
    tiles = state.catalogue
    best = 0
    path: list[tuple[int, int]] = []

    def extend(here: tuple[int, int]) -> None:
        nonlocal best
        best = max(best, len(path))
        if len(path) == len(sequence) or best == len(sequence):
            return
        want = sequence[len(path)]
        for n in neighbours(here):
            face = me.forest.get(n)
            if face is None or face.mission or n in path or tiles[face.tile].colour != want:
                continue
            path.append(n)
            extend(n)
            path.pop()

    extend(start)
    return best


def _pawn_tiles(state: GuardiansState, player: int) -> Iterator[tuple[tuple[int, int], Tile]]:
    """``(cell, tile)`` under each of the player's pawns on the board."""
    me = state.people[player]
    for cell in me.pawns:
        if cell is not None:
            yield cell, state.tile(me.forest[cell].tile)


def progress(state: GuardiansState, player: int) -> float:
    """The points a player's pawns are on their way to (see the module docstring)."""
    total = 0.0
    for cell, tile in _pawn_tiles(state, player):
        if tile.start or tile.hidden:
            continue  # the start walk's pattern is no fixed sequence; an unseen back: no colours
        k = len(tile.sequence)
        j = max(
            _lined_up(state, player, cell, tile.sequence),
            _lined_up(state, player, cell, tile.sequence[::-1]),
        )
        total += tile.points * j / k
    return total


def standing(state: GuardiansState, player: int) -> float:
    """The points of the missions the player's pawns stand on (the start tile left out)."""
    total = 0.0
    for _, tile in _pawn_tiles(state, player):
        if not tile.start:
            total += tile.points
    return total


def heuristic(state: GuardiansState, player: int) -> float:
    """The estimated return of ``player`` at ``state``, in [0, 1]."""
    if state.is_terminal():
        return state.returns()[player]
    game = state.game
    prospects = [
        state.score(p) + 0.5 * progress(state, p) + STANDING * standing(state, p)
        for p in range(game.players)
    ]
    if game.solo:
        assert game.level is not None
        return max(0.0, min(1.0, prospects[0] / game.level.threshold))
    top = max(prospects)
    weights = [math.exp((v - top) / TEMPERATURE) for v in prospects]
    return weights[player] / sum(weights)
