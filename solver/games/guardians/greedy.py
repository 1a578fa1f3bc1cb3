"""The greedy baseline agent: no look-ahead beyond the current action.

- missions: the legal walk whose mission is worth the most points (the first such walk in
  action order), until none is left, then ``end turn``; this is "greedy mission completion in
  the first legal order" and can miss the best order (see the mission-ordering model);
- growth: ``take 1 tile`` while fewer than two pawns stand in the forest, else ``take 2 tiles``;
  never a reset;
- placement: the placement after which the most walks are legal (ties: the lowest action id);
- pawn choices: the lowest legal id.
"""

from __future__ import annotations

from typing import Any

from solver.games.guardians.actions import END_TURN, TAKE_ONE, TAKE_TWO

__all__ = ["greedy_agent"]


def greedy_agent(state: Any) -> int:
    """The greedy agent's action at a decision node of a guardians reference state."""
    from solver.games.guardians.rules import Phase

    legal = state.legal_actions()
    phase = state.phase
    if phase == Phase.MISSIONS:
        return _best_walk(state, legal)
    if phase == Phase.GROW:
        me = state.people[state.current]
        on_board = sum(p is not None for p in me.pawns)
        if TAKE_ONE in legal and on_board < 2:
            return TAKE_ONE
        return TAKE_TWO
    if phase == Phase.PLACE:
        best, best_count = legal[0], -1
        for action in legal:
            child = state.child(action)
            count = len(child.walks()) if child.phase == Phase.MISSIONS else 0
            if count > best_count:
                best, best_count = action, count
        return best
    return legal[0]


def _best_walk(state: Any, legal: list[int]) -> int:
    codec = state.game.codec
    me = state.people[state.current]
    best, best_points = END_TURN, -1
    for action in legal:
        if action == END_TURN:
            continue
        pawn, _ = codec.decode_walk(action)
        cell = me.pawns[pawn]
        points = state.game.tile(me.forest[cell].tile).points
        if points > best_points:
            best, best_points = action, points
    return best
