"""Adversarial expectimax stops a node once its value is settled (issue 16 §4).

``expectimax(adversarial=True)`` on the README's 6x5 forest (``dog/tiny-example``) filled its
1024 MB table in 16-26 s and raised ``SearchBudgetError``. Returns lie in [0, 1], so a chance node
that has seen a 0 (the dice's worst) and a decision node whose mover has a 1 need no further
child: the search now answers within a few dozen nodes. The answers are checked independently:
following the strategy wins against every roll (a walk over every outcome), and on forests small
enough for the exhaustive AND-OR recursion the value is the recursion's.
"""

from __future__ import annotations

import pytest

import solver
from solver.search import expectimax, solve
from solver.testing import always_winnable


def _state(name: str, engine: str):
    return solver.load_game("dog", forest=name, engine=engine).new_initial_state()


def _wins_every_roll(state, solution, seen) -> bool:
    """Does following ``solution.best_action`` win against every roll? (memoised on to_json)"""
    key = state.to_json()
    if key in seen:
        return seen[key]
    if state.is_terminal():
        won = state.returns()[0] == 1.0
    elif state.is_chance_node():
        won = True
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if not _wins_every_roll(child, solution, seen):
                won = False
                break
    else:
        child = state.clone()
        child.apply_action(solution.best_action(state))
        won = _wins_every_roll(child, solution, seen)
    seen[key] = won
    return won


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_the_readme_forest_is_answered_within_a_small_table(engine):
    state = _state("dog/tiny-example", engine)
    result = expectimax(state, adversarial=True, memory_mb=4)  # was: 1 GB, then an error
    assert result.value == 1.0 and result.exact
    assert result.nodes < 1000
    solution = solve(state, adversarial=True, memory_mb=4)
    assert _wins_every_roll(state.clone(), solution, {})


@pytest.mark.parametrize("name", ["dog/tiny-2x2", "dog/tiny-3x3", "dog/corridor", "dog/walled-in"])
def test_the_value_is_the_exhaustive_recursions(name):
    kernel, reference = _state(name, "kernel"), _state(name, "reference")
    value = expectimax(kernel, adversarial=True).value
    assert value == (1.0 if always_winnable(reference) else 0.0)
    assert expectimax(kernel, adversarial=True).same_search(
        expectimax(reference, adversarial=True, _engine="python")
    )
