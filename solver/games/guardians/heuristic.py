"""A heuristic value of a guardians position, in [0, 1], for depth-limited and MCTS searches.

Each player's *prospect* is the score plus half of the points the pawns are on their way to
(a pawn whose mission has the first j of its k colours already lined up beside it, forwards or
backwards, counts ``points * j / k``) plus a quarter of the points of every mission a pawn
stands on (the start tile aside; :data:`STANDING`). Without that last term a pawn waiting on a
fresh mission was worth nothing, and MCTS at 100 simulations per decision scored 0 in all 72
solo games of a first calibration run.
With 2-4 players: a softmax of the prospects (temperature 5 VP), so the values sum to 1 like
the returns. Terminal states get their returns.

Solo (:func:`solo_chance`): an estimate of the chance of reaching the level's threshold, a
logistic of the *projected final score* less the threshold. The projection is the score, plus
a share of ``progress``, plus points for every round still to play (the current one included)
and for every level task not yet done that can still be met (a done task adds a round); the
logistic's spread grows
with the square root of the rounds left (the score's random walk) over a floor. The constants
are a least-squares and maximum-likelihood fit on the default agent's recorded solo games
(``bench/guardians_solo_value.py``; the fit and its calibration are in
``docs/rules/guardians.md`` §13). Before, the solo value was the prospect over the threshold:
0 at the first move of a level-1 game the default agent wins 58% of the time.

>>> from solver.games.guardians.grove_format import parse_grove
>>> from solver.games.guardians.rules import GuardiansGame
>>> state = GuardiansGame(position=parse_grove("grid:\\n[GRE]b G:BB R:BB\\n")).new_initial_state()
>>> round(progress(state, 0), 3)   # G-R-E: two of three colours lined up, 5 points
3.333
>>> round(standing(state, 0), 3)
5.0
>>> left = 12  # round 1 of 12, one level task to do (no start tile: level 1's start-tile task
>>> # can never be met, docs/rules/guardians.md §7): 0 + 0.4 * 3.333 + 5 * 12 + 1.2 * 1
>>> spread = math.sqrt(3.75 ** 2 * left + 1.0 ** 2) * math.sqrt(3) / math.pi
>>> expected = 1 / (1 + math.exp(-(0.4 * 10 / 3 + 5 * left + 1.2 * 1 - 60 + 0.5) / spread))
>>> round(expected, 6), math.isclose(heuristic(state, 0), expected, rel_tol=1e-12)
(0.60403, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from solver.games.guardians.board import neighbours
from solver.games.guardians.state_parts import never_met

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState
    from solver.games.guardians.tiles import Tile

__all__ = ["STANDING", "heuristic", "progress", "solo_chance", "standing"]

TEMPERATURE = 5.0
STANDING = 0.25
"""The share of a waiting mission's points a pawn on it is worth before any colour lines up."""

# Solo: the projection and spread of :func:`solo_chance`, fit on 240 recorded default-agent
# games (40 a level, seed 0: bench/guardians_solo_value.py --fit).
ROUND_POINTS = 5.0
"""Solo: the points each round still to play (the current one included) adds to the score."""
PROGRESS_SHARE = 0.4
"""Solo: the share of :func:`progress` (points the pawns are on their way to) counted as won."""
TASK_POINTS = 1.2
"""Solo: the points a level task not yet done adds (the round it may add, times its odds)."""
SPREAD_PER_ROUND = 3.75
"""Solo: the final score's standard deviation per square root of the rounds left (points)."""
SPREAD_FLOOR = 1.0
"""Solo: the standard deviation left with no round to play (points)."""


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
        return solo_chance(state)
    top = max(prospects)
    weights = [math.exp((v - top) / TEMPERATURE) for v in prospects]
    return weights[player] / sum(weights)


def solo_chance(state: GuardiansState) -> float:
    """Solo, a state not over: the estimated chance that the final score reaches the level's
    threshold (see the module docstring; the kernel's C twin computes the same)."""
    level = state.game.level
    assert level is not None
    left = max(0, state.rounds() - state.round + 1)
    if state.end_triggered:  # the bag ran out: this round is the last
        left = min(left, 1)
    pending = sum(  # a task this game can never meet brings no round (a position without [*])
        not done and not never_met(state, task)
        for task, done in zip(level.tasks, state.tasks_done, strict=True)
    )
    projected = (
        state.score(0)
        + PROGRESS_SHARE * progress(state, 0)
        + ROUND_POINTS * left
        + TASK_POINTS * pending
    )
    spread = math.sqrt(SPREAD_PER_ROUND * SPREAD_PER_ROUND * left + SPREAD_FLOOR * SPREAD_FLOOR)
    scale = spread * math.sqrt(3.0) / math.pi  # a logistic with that standard deviation
    return 1.0 / (1.0 + math.exp(-(projected - level.threshold + 0.5) / scale))
