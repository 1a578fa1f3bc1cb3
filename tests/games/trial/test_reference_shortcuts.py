"""The reference Trial's two shortcuts for its searches change nothing they give.

``TrialState.apply_legal`` (the unchecked apply of its own playouts and the heuristic agent's
look-ahead) plays exactly as ``apply_action``: seeded random games, every action applied both
ways to twins, the saved states compared after each; an action that is not legal is still
refused by ``apply_action``. ``TrialState.heuristics`` (every seat's value at once, which the
shared heuristic leaf now calls) gives what the compiled engine's ``heuristic(p)`` gives seat by
seat, along a game."""

from __future__ import annotations

import pytest

import solver
from solver.errors import IllegalActionError
from solver.game import CHANCE
from solver.rng import SplitMix64, sample_outcome
from solver.search.evaluators import HeuristicEvaluator


@pytest.mark.parametrize("players", [2, 4])
def test_apply_legal_plays_as_apply_action(players: int) -> None:
    game = solver.load_game("trial", players=players, engine="reference")
    state = game.new_initial_state()
    rng = SplitMix64(players)
    for _ in range(1200):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
        twin = state.clone()
        twin.apply_legal(action)
        state.apply_action(action)
        assert twin.to_json() == state.to_json()
        assert twin.legal_actions() == state.legal_actions()


def test_apply_action_still_refuses_an_illegal_action() -> None:
    state = solver.load_game("trial", players=2, engine="reference").new_initial_state()
    illegal = next(a for a in range(state.layout.size) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError, match="is not legal here"):
        state.apply_action(illegal)


def test_the_heuristic_leaf_values_every_seat_as_the_compiled_engine_does(
    require_kernels: None,
) -> None:
    reference = solver.load_game("trial", players=4, engine="reference")
    kernel = solver.load_game("trial", players=4, engine="kernel")
    state = reference.new_initial_state()
    rng = SplitMix64(9)
    for step in range(2000):
        if state.is_terminal():
            break
        if step % 7 == 0:
            twin = kernel.state_from_json(state.to_json())
            want = [twin.heuristic(p) for p in range(4)]
            assert state.heuristics() == pytest.approx(want, abs=1e-12)
            assert HeuristicEvaluator().evaluate(state) == state.heuristics()
        if state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
    assert state.is_terminal()
