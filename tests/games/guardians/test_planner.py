"""The solo turn planner (``solver.games.guardians.planner``): its walks agree with the rules,
its prospects with hand-derived values, its games are legal and deterministic."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import solver
from solver.agents import make_agent
from solver.games.guardians import planner as P
from solver.games.guardians.grove_format import parse_grove
from solver.games.guardians.rules import GuardiansGame, Phase
from solver.games.guardians.solo_runs import solo_game
from solver.games.guardians.walks import walks_from
from solver.play import play_game
from solver.rng import SplitMix64


def _mission_states(count: int, seed: int):
    """States at the mission step reached by random play (solo, the reference engine)."""
    rng = SplitMix64(seed)
    out = []
    while len(out) < count:
        state = GuardiansGame(players=1, level=1).new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.phase == Phase.MISSIONS and any(p is not None for p in state.people[0].pawns):
                out.append(state.clone())
            legal = state.legal_actions()
            # prefer growth and walks over ending turns, so forests grow and missions happen
            walks = [a for a in legal if a > 3] if state.phase == Phase.MISSIONS else legal
            pick = walks if walks and rng.below(4) else legal
            state.apply_action(pick[rng.below(len(pick))])
    return out


def test_walks_agree_with_the_rules():
    checked = 0
    for state in _mission_states(150, 7):
        board = P.board_of(state)
        ctx = P._context(state, list(state.pool))
        me = state.people[0]
        for cell in me.pawns:
            if cell is None:
                continue
            expected = set(walks_from(me.forest, state.catalogue, cell))
            assert set(P._walks(board, cell, board.mis[cell], ctx)) == expected
            checked += 1
    assert checked >= 150


def test_remembered_walks_are_the_walks_of_the_board_asked(monkeypatch):
    # the memo keys the walks on the colours within a walk's reach of the pawn: boards changed
    # near the pawn and far from it, asked in turn with the memo warm (and emptied when full),
    # must each get their own board's walks, as a fresh search of that board finds them
    from solver.games.guardians.walks import colour_walks

    monkeypatch.setattr(P, "WALKS_CACHED", 64)
    rng = SplitMix64(11)
    asked = 0
    for state in _mission_states(40, 9):
        board = P.board_of(state)
        ctx = P._context(state, list(state.pool))
        for cell in state.people[0].pawns:
            if cell is None or P._hidden(board.mis[cell], ctx) or not board.col:
                continue
            tile = board.mis[cell]
            sequence = None if tile == P.START_ID else ctx.seq[tile]
            for _ in range(12):
                changed = board.copy()
                cells = sorted(changed.col)
                for _ in range(1 + rng.below(3)):
                    spot = cells[rng.below(len(cells))]
                    if rng.below(2) or spot not in changed.col:
                        changed.col[spot] = "BGREPY"[rng.below(6)]
                    else:
                        del changed.col[spot]
                for twice in (changed, changed.copy()):
                    fresh = sorted(colour_walks(twice.col, cell, sequence))
                    assert P._walks(twice, cell, tile, ctx) == fresh
                    asked += 1
    assert asked >= 500 and len(P._WALKS) <= 64


def test_cut_vertex_test_agrees_with_the_rules():
    # the planner's board asks the connectivity rule; held to its definition (the forest
    # without the tile in one piece, by flood fill) on the forest of the state itself
    from solver.games.guardians.connectivity import is_connected

    for state in _mission_states(60, 8):
        board = P.board_of(state)
        forest = state.people[0].forest
        for cell in forest:
            assert P._splits(board, cell) == (not is_connected(forest.keys() - {cell}))


def _position(text: str):
    game = GuardiansGame(position=parse_grove(text))
    state = game.new_initial_state()
    return state, P.board_of(state), P._context(state, [])


def test_prospect_of_a_walk_ready_now():
    # [GR]b on the left end of G R: the walk is there, and the end tile is no cut vertex
    _state, board, ctx = _position("grid:\n[GR]b G:BB R:BB\n")
    assert ctx.rounds_left == 11
    assert P.pawn_value(board, 0, ctx) == pytest.approx(3 * P.WEIGHT[0])


def test_prospect_of_a_walk_one_tile_short():
    # G-R: G is there, R must still be placed on (0,2): d = 1, times the chance of red
    _state, board, ctx = _position("grid:\n[GR]b G:BB .\n")
    expected = 3 * P.WEIGHT[1] * ctx.avail["R"] - P.FILL_COST
    assert P.pawn_value(board, 0, ctx) == pytest.approx(expected)


def test_prospect_on_a_cut_vertex_counts_one_tile_short():
    # the mission tile joins Y:BB to the G R line: its walk is ready but it may not leave
    _state, board, ctx = _position("grid:\nY:BB [GR]b G:BB R:BB\n")
    assert P._splits(board, (0, 1))
    assert P.pawn_value(board, 0, ctx) == pytest.approx(3 * P.WEIGHT[1] - P.FILL_COST)


def test_planner_plays_the_chain_first():
    game = solver.load_game(
        "guardians", position=parse_grove("grid:\n[GR]b G:BB R:BB Y:BB\n. . [YR]g .\n")
    )
    state = game.new_initial_state()
    agent = make_agent("planner", game)
    labels = []
    while state.phase == Phase.MISSIONS and state.round == 1:
        action = agent(state)
        labels.append(state.action_to_string(action))
        state.apply_action(action)
    assert labels[:2] == [
        "walk green pawn: (1,2) -> (0,2) (0,3)",
        "walk blue pawn: (0,0) -> (0,1) (0,2)",
    ]


def test_a_game_is_legal_and_deterministic_on_both_engines():
    scores = []
    for engine in ("reference", "kernel"):
        game = solver.load_game("guardians", players=1, level=2, engine=engine)
        record = play_game(game, [make_agent("planner", game, seed=5)], seed=11)
        scores.append(record.final.scores()[0])
    assert scores[0] == scores[1]
    assert solo_game(2, "planner", 11, 0) == solo_game(2, "planner", 11, 0)


def test_solo_command_takes_the_planner():
    cmd = [sys.executable, "-m", "solver.cli", "guardians", "solo", "--level", "1", "--agent",
           "planner", "--games", "1", "--seed", "2", "--json"]  # fmt: skip
    data = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    assert data["agent"] == "planner"
    assert data["scores"] == [solo_game(1, "planner", 2, 0)]
