"""The greedy baseline agent: no look-ahead beyond the current action.

- missions: the legal walk whose mission is worth the most points (the first such walk in
  action order), until none is left, then ``end turn``; this is "greedy mission completion in
  the first legal order" and can miss the best order (see the mission-ordering model);
- growth: ``take 1 tile`` while fewer than two pawns stand in the forest, else ``take 2 tiles``;
  never a reset;
- placement: the placement after which the most walks are legal, then the most progress of the
  pawns toward their missions (:func:`~solver.games.guardians.heuristic.progress`: colours lined
  up beside them; without it the ties fell to the lowest action id, a straight line of tiles
  along which no pawn ever scored), then the cell nearest a pawn (a forest grown around the
  pawns offers them paths); remaining ties: the lowest action id;
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
        from solver.games.guardians.heuristic import progress

        player = state.current
        me = state.people[player]
        pawns = [cell for cell in me.pawns if cell is not None]
        best, best_key = legal[0], (-1, -1.0, -(10**9))
        for action in legal:
            child = state.child(action)
            count = len(child.walks()) if child.phase == Phase.MISSIONS else 0
            (cell,) = set(child.people[player].forest) - set(me.forest)
            near = min((abs(cell[0] - r) + abs(cell[1] - c) for r, c in pawns), default=0)
            key = (count, progress(child, player), -near)
            if key > best_key:
                best, best_key = action, key
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
        points = state.tile(me.forest[cell].tile).points
        if points > best_points:
            best, best_points = action, points
    return best
