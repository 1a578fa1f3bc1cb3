"""The pure-Python searches keep to their seconds inside a leaf's rollouts, as the compiled ones
do (163b19c): ``mcts(dog reference state, seconds=0.2, rollouts=10**4)`` took 21 s, every one of
the first leaf's rollouts played before the clock was read."""

from __future__ import annotations

import solver
from solver.search.evaluators import MAX_ROLLOUTS
from solver.search.ismcts import ismcts
from solver.search.mcts import mcts
from solver.testing import outcome_within


def _state(game: str, **options: object) -> solver.State:
    state = solver.load_game(game, engine="reference", **options).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_a_deadline_passed_ends_a_reference_leaf_s_rollouts() -> None:
    state = _state("dog", forest="dog/tiny-example")
    found = outcome_within(lambda: mcts(state, seconds=1e-9, rollouts=MAX_ROLLOUTS, seed=0), 120)
    assert found.iterations == 1 and found.extra["stopped_by"] == "seconds"


def test_a_deadline_passed_ends_a_reference_ismcts_leaf_s_rollouts() -> None:
    state = _state("guardians", players=2)
    run = lambda: ismcts(state, seconds=1e-9, evaluator="rollout", rollouts=MAX_ROLLOUTS, seed=0)  # noqa: E731
    found = outcome_within(run, 120)
    assert found.iterations == 1 and found.extra["stopped_by"] == "seconds"


def test_a_far_deadline_changes_no_reference_rollout() -> None:
    # the clock is read between rollouts and draws nothing: a deadline not reached gives the
    # very search an iteration budget alone gives
    state = _state("dog", forest="dog/tiny-example")
    plain = mcts(state, iterations=12, rollouts=6, seed=5)
    timed = mcts(state, iterations=12, seconds=600.0, rollouts=6, seed=5)
    assert timed.extra["stopped_by"] == "iterations"
    assert [(m.action, m.visits, m.value) for m in timed.moves] == [
        (m.action, m.visits, m.value) for m in plain.moves
    ]
