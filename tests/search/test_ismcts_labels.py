"""The moves of a hint asked by a seat that is not to move are named, not shown by their ids.

Defect: `forest trial best-move STATE --player 1` with player 0 to move listed player 0's card
plays as `210`, `196`...: the compiled ISMCTS read every label in one determinisation, where the
cards the other deals gave player 0 are not in its hand. A move's label is now read in the first
of the observer's determinisations where the move is legal.
"""

from __future__ import annotations

import pytest

import solver
from solver.rng import SplitMix64
from solver.search.ismcts import ismcts

pytestmark = pytest.mark.usefixtures("require_kernels")


def _position() -> solver.State:
    """A 3-player Trial after 60 seeded random actions, player 0 to move (a decision)."""
    state = solver.load_game("trial", players=3).new_initial_state()
    rng = SplitMix64(1)
    played = 0
    while played < 60 or state.is_chance_node():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.next_u64() % len(outcomes)][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.next_u64() % len(legal)])
        played += 1
    return state


def test_another_seats_moves_are_named_as_a_deal_from_the_observers_view_names_them():
    state = _position()
    mover, observer = state.current_player(), 1
    assert mover != observer
    # the names each move has in the observer's own redeals (a card is named by its identity)
    names: dict[int, str] = {}
    for k in range(300):
        world = state.resample_hidden(observer, SplitMix64(1000 + k))
        for action in world.legal_actions():
            names.setdefault(action, world.action_to_string(action))
    result = ismcts(state, observer=observer, iterations=400, seed=0)
    assert len(result.moves) > len(state.legal_actions())  # moves of deals the real one lacks
    for move in result.moves:
        assert move.label == names[move.action] and not move.label.isdigit(), move
    # read from the observer's view only: a state it cannot tell apart gets the same answer
    twin = state.resample_hidden(observer, SplitMix64(7))
    again = ismcts(twin, observer=observer, iterations=400, seed=0)
    assert [(m.action, m.label) for m in again.moves] == [(m.action, m.label) for m in result.moves]


def test_best_move_for_a_seat_not_to_move_says_whose_moves_it_lists(tmp_path, capsys):
    # Defect: `--player 1` with player 0 to move listed player 0's moves with no word that they
    # were not player 1's (a reader took them for player 1's best moves)
    from solver.cli import main

    path = tmp_path / "state.json"
    path.write_text(_position().to_json(), encoding="utf-8")
    argv = ["trial", "best-move", "--state", str(path), "--iterations", "200", "--no-progress"]
    assert main([*argv, "--player", "1"]) == 0
    out = capsys.readouterr().out
    assert "note: player 0 is to move, not player 1: the moves are player 0's" in out
    assert main([*argv, "--player", "0"]) == 0
    assert "is to move, not player" not in capsys.readouterr().out
