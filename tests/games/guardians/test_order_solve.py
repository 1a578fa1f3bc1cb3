"""One ordering rule for the ``order`` command and the agents (``solve_order``): exact where the
budget allows, CP-SAT within its model cap, else the first legal order, never a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from solver.errors import OptionError
from solver.games.guardians import resolve_position
from solver.games.guardians.agent import plan_missions
from solver.games.guardians.order_model import candidate_walks
from solver.games.guardians.order_solve import MODEL_CAP, solve_order
from solver.games.guardians.ordering import best_order, first_legal_order
from solver.games.guardians.rules import GuardiansGame

DENSE = Path(__file__).parent / "data" / "dense12.grove"


def test_small_positions_are_solved_exactly_by_every_method():
    state = GuardiansGame(position=resolve_position("guardians/order-trap")).new_initial_state()
    exact = best_order(state)
    for method in ("auto", "brute-force", "cp-sat"):
        answer = solve_order(state, method)
        assert answer.optimal
        assert (answer.plan.count, answer.plan.points) == (exact.count, exact.points)


def test_a_position_past_the_model_cap_answers_a_legal_order_at_once():
    state = GuardiansGame(position=resolve_position(str(DENSE))).new_initial_state()
    walks = candidate_walks(state)
    assert len(walks) * len({w.start for w in walks}) > MODEL_CAP
    answer = solve_order(state)
    assert answer.method in ("brute-force", "first-legal")
    naive = first_legal_order(state)
    assert (answer.plan.count, answer.plan.points) >= (naive.count, naive.points)
    with pytest.raises(OptionError, match="too large for the CP-SAT model"):
        solve_order(state, "cp-sat")
    with pytest.raises(OptionError, match="unknown ordering method"):
        solve_order(state, "magic")


@pytest.mark.slow
def test_the_mcts_agent_plans_the_dense_position_without_building_the_model():
    # the agent's mission step used to build the CP-SAT model here (minutes); now it plays the
    # same plan as the order command
    state = solver.load_game("guardians", position=str(DENSE)).new_initial_state()
    plan = plan_missions(state)
    expected = solve_order(
        GuardiansGame(position=resolve_position(str(DENSE))).new_initial_state()
    ).plan
    assert [step.action for step in plan.steps] == [step.action for step in expected.steps]
