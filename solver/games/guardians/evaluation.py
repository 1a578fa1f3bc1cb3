"""The planner's position value as a heuristic of any state: what MCTS searches with.

Why: the ``planner`` plans a turn well because it values a position by what its pawns are on
their way to (mission *templates*: paths of forest tiles of the right colours and empty cells
still to fill), not only by the points scored; the old MCTS heuristic counted colours lined up
next to a pawn and lost every solo game. This module values a state the planner's way, for
every player, so that the ``mcts`` agent's compiled search (``ext/guardians.pyx``: the heuristic
of the game's search twin, ``search_twin()``; this module is its exact twin, held to it by
``tests/games/guardians/test_kernel_diff.py``) searches with the planner's evaluation and primes
every new node's children with it (its prior).

A player's **value** is a projected final score, in points: the score now, plus, while turns
remain (:func:`future_turns`), for each pawn in the forest the prospect of its mission
(:func:`prospect`) and :data:`PAWN_STREAM` per turn left, :data:`RESERVE_VALUE` per pawn in the
reserve, :data:`TILE_VALUE` per forest-side tile and :data:`EDGE_VALUE` per side two tiles share;
with 2-4 players the combo card the turn's missions would take; in solo :data:`TASK_VALUE` per
level task met but not yet counted (it adds a round). A pawn whose mission is face down (at a
reveal node) is valued as the mean over the backs it may show, by their exact odds.

A **prospect** (the planner's): for a mission worth ``p`` points, the best path of the mission's
length from the pawn (either reading) over forest-side tiles of the right colours and empty
cells; ``d`` empty cells (at most the budget: 2 per turn left, 6 at most) weigh
``p * WEIGHT[d] * q``, ``q`` the product over the empty cells of the chance that the next pool
holds the colour needed (:func:`next_pool`). A complete path on a cut vertex counts as one tile
short. The start tile's A-B-C-D-E-A walk takes empty cells as wildcards (at most
:data:`START_BUDGET`, each ``START_FILL``). With no path the prospect is ``p * WEIGHT[6]`` when
the budget allows 6 empty cells, else 0.

The **heuristic** in [0, 1]: solo, a logistic of (value - threshold) / :data:`SOLO_SCALE`; with
2-4 players a softmax of the values (temperature :data:`TEMPERATURE` VP), as the returns sum to
1. Terminal states get their returns.

>>> from solver.games.guardians.grove_format import parse_grove
>>> from solver.games.guardians.rules import GuardiansGame
>>> state = GuardiansGame(position=parse_grove("grid:\\n[GRE]b G:BB R:BB\\n")).new_initial_state()
>>> round(value(state, 0), 6) > 0, 0.0 < heuristic(state, 0) < 1.0
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from solver.games.guardians import templates
from solver.games.guardians.board import Cell
from solver.games.guardians.scoring import combo_card
from solver.games.guardians.templates import (
    MAX_DEFICIENCY,
    START_BUDGET,
    START_FILL,
    WEIGHT,
    colour_odds,
    shared_sides,
)

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = [
    "EDGE_VALUE",
    "PAWN_STREAM",
    "RESERVE_VALUE",
    "SOLO_SCALE",
    "START_BUDGET",
    "START_FILL",
    "TASK_VALUE",
    "TEMPERATURE",
    "TILE_VALUE",
    "WEIGHT",
    "future_turns",
    "heuristic",
    "next_pool",
    "prospect",
    "value",
]

TILE_VALUE = 0.6
EDGE_VALUE = 0.15
RESERVE_VALUE = 2.5
PAWN_STREAM = 0.25
TASK_VALUE = 7.0
SOLO_SCALE = 30.0
"""Solo: the points over the threshold at which the heuristic reads 0.73 (a logistic)."""
TEMPERATURE = 5.0
"""2-4 players: the softmax temperature over the values, in VP."""


def future_turns(state: GuardiansState, player: int) -> int:
    """How many more turns ``player`` will start after the current one: solo, the rounds left
    on the track; with 2-4 players, once the end is triggered one for a player still to play
    this round, else an estimate: the turns the bag feeds (two tiles a turn) or the missions
    left before the limit, whichever is fewer, plus this round's turn for a later seat."""
    game = state.game
    if game.solo:
        return max(0, state.rounds() - state.round)
    later = 1 if player > state.current else 0
    if state.end_triggered:
        return later
    players = game.players
    most = max(len(who.pile) for who in state.people)
    rounds = min(len(state.bag) // (2 * players), max(0, game.mission_limit - most))
    return rounds + later


def next_pool(state: GuardiansState) -> dict[str, float]:
    """The chance that each colour is in the next pool (the planner's, with the pool as it is:
    :func:`~solver.games.guardians.templates.colour_odds`)."""
    bag = [state.tile(t).colour for t in state.bag]
    return colour_odds(bag, [state.tile(t).colour for t in state.pool])


def prospect(
    colours: Mapping[Cell, str],
    occupied: Iterable[Cell] | set[Cell],
    start: Cell,
    sequence: str | None,
    points: int,
    avail: Mapping[str, float],
    budget: int,
) -> float:
    """The prospect of a mission on ``start`` (``sequence`` ``None``: the start tile's walk);
    ``colours`` maps forest-side cells to their colour, ``occupied`` holds every tile's cell.
    The search is the planner's (:func:`~solver.games.guardians.templates.prospect`), with
    templates kept inside the board window."""
    taken = occupied if isinstance(occupied, set) else set(occupied)
    return templates.prospect(colours, taken, start, sequence, points, avail, budget, window=True)


def _mission_value(
    state: GuardiansState,
    player: int,
    cell: Cell,
    sequence: str | None,
    points: int,
    avail: Mapping[str, float],
    turns: int,
    colours: Mapping[Cell, str],
) -> float:
    from solver.games.guardians.connectivity import splits_forest

    forest = state.people[player].forest
    budget = min(MAX_DEFICIENCY, 2 * turns)
    v = prospect(colours, set(forest), cell, sequence, points, avail, budget)
    if v >= points * WEIGHT[0] and splits_forest(forest.keys(), cell):
        v = points * WEIGHT[1]
    return v


def value(state: GuardiansState, player: int, avail: Mapping[str, float] | None = None) -> float:
    """The projected final score of ``player`` (see the module docstring), in points."""
    who = state.people[player]
    total = _standing(state, player)
    turns = future_turns(state, player)
    if turns <= 0:
        return total
    if avail is None:
        avail = next_pool(state)
    colours: dict[Cell, str] = {}
    for cell, face in who.forest.items():
        if not face.mission:
            colours[cell] = state.tile(face.tile).colour or ""
    for where in who.pawns:
        total += _pawn_value(state, player, where, avail, turns, colours)
    total += TILE_VALUE * len(colours) + EDGE_VALUE * shared_sides(who.forest)
    return total


def _standing(state: GuardiansState, player: int) -> float:
    """The score now, and what is as good as scored: with 2-4 players the combo card the turn's
    missions would take (the player to move's), in solo each level task met but not yet
    counted."""
    game = state.game
    total = float(state.score(player))
    if not game.solo and player == state.current and not state.is_terminal():
        card = combo_card(state.turn_missions, state.supply)
        total += card or 0
    if game.solo and game.level is not None:
        for task, done in zip(game.level.tasks, state.tasks_done, strict=True):
            if not done and state.task_met(task):
                total += TASK_VALUE
    return total


def _pawn_value(
    state: GuardiansState,
    player: int,
    where: Cell | None,
    avail: Mapping[str, float],
    turns: int,
    colours: dict[Cell, str],
) -> float:
    """What a pawn adds: in the reserve (``where`` None) :data:`RESERVE_VALUE` while more than
    one turn is left; in the forest its mission's prospect (a face-down mission's: the mean
    over the backs it may show) and :data:`PAWN_STREAM` a turn left."""
    if where is None:
        return RESERVE_VALUE if turns > 1 else 0.0
    game = state.game
    tile = state.tile(state.people[player].forest[where].tile)
    if tile.start:
        v = _mission_value(state, player, where, None, tile.points, avail, turns, colours)
    elif tile.hidden:  # being flipped: the mean over the backs it may show
        v = 0.0
        for u, n, count in state.unseen_backs(game.face_of(tile.id)):
            v += (n / count) * _mission_value(
                state, player, where, game.back(u), tile.points, avail, turns, colours
            )
    else:
        v = _mission_value(state, player, where, tile.sequence, tile.points, avail, turns, colours)
    return v + PAWN_STREAM * turns


def heuristic(state: GuardiansState, player: int) -> float:
    """The estimated return of ``player`` in [0, 1] (see the module docstring)."""
    if state.is_terminal():
        return state.returns()[player]
    game = state.game
    avail = next_pool(state)
    if game.solo:
        assert game.level is not None
        x = (value(state, 0, avail) - game.level.threshold) / SOLO_SCALE
        return 1.0 / (1.0 + math.exp(-x))
    values = [value(state, p, avail) for p in range(game.players)]
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    return weights[player] / sum(weights)
