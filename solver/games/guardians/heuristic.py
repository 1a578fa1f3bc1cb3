"""Colour progress: how far a player's pawns have lined up the colours of their missions.

The ``greedy`` agent breaks ties between placements by it. A pawn whose mission has the first
``j`` of its ``k`` colours already lined up beside it (a path of forest tiles of those colours
from the pawn, forwards or backwards) counts ``points * j / k``. (The state heuristic that MCTS
searches with is the planner's evaluation: :mod:`solver.games.guardians.evaluation`.)

>>> from solver.games.guardians.grove import parse_grove
>>> from solver.games.guardians.rules import GuardiansGame
>>> state = GuardiansGame(position=parse_grove("grid:\\n[GRE]b G:BB R:BB\\n")).new_initial_state()
>>> round(progress(state, 0), 3)   # G-R-E: two of three colours lined up, 5 points
3.333
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.games.guardians.board import neighbours

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = ["progress"]


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


def progress(state: GuardiansState, player: int) -> float:
    """The points a player's pawns are on their way to (see the module docstring)."""
    me = state.people[player]
    total = 0.0
    for cell in me.pawns:
        if cell is None:
            continue
        tile = state.tile(me.forest[cell].tile)
        if tile.start or tile.hidden:
            continue  # the start walk's pattern is no fixed sequence; an unseen back: no colours
        k = len(tile.sequence)
        j = max(
            _lined_up(state, player, cell, tile.sequence),
            _lined_up(state, player, cell, tile.sequence[::-1]),
        )
        total += tile.points * j / k
    return total
