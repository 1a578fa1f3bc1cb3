"""One ordering rule for the ``order`` command and the agents (``solve_order``): exact where the
budget allows, CP-SAT within its model cap, else the first legal order, never a hang."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import solver
from solver.errors import OptionError
from solver.games.guardians import resolve_position
from solver.games.guardians.agent import plan_missions
from solver.games.guardians.mission_order import MODEL_CAP, solve_order
from solver.games.guardians.mission_order_cpsat import candidate_walks
from solver.games.guardians.mission_order_search import best_order, first_legal_order
from solver.games.guardians.rules import GuardiansGame
from solver.testing import one_line_error
from solver.testing import run_forest as forest

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


def _dense_grove(n: int, seed: int) -> str:
    """A legal n x n solo position with thousands of candidate walks (two colours, long
    missions): the shape that made the CP-SAT model's construction run for many minutes."""
    import random

    rng = random.Random(seed)
    pawns = list("bgyr")
    corners = [(0, 0), (n - 1, n - 1), (0, n - 1), (n - 1, 0)]
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            if (i, j) in corners:
                row.append("[" + "".join(rng.choice("BG") for _ in range(5)) + "]" + pawns.pop())
            elif rng.random() < 0.12:
                row.append("[" + "".join(rng.choice("BG") for _ in range(rng.randint(2, 5))) + "]")
            else:
                row.append(rng.choice("BG") + ":" + "".join(rng.choice("BG") for _ in range(3)))
        rows.append(" ".join(row))
    return "grid:\n" + "\n".join(rows) + "\n"


def test_order_on_a_position_too_large_for_the_exact_searches_answers_quickly(tmp_path):
    # Defect: `forest guardians order dense.grove` (a legal 12x12 position: 292 candidate walks
    # over 72 mission tiles) ran for many minutes building the CP-SAT model, whatever
    # --time-limit said. Now: the first legal order, marked as not proven optimal.
    from solver.games.guardians.grove_format import parse_grove
    from solver.games.guardians.mission_order_search import first_legal_order
    from solver.games.guardians.rules import GuardiansGame

    text = _dense_grove(12, 5)
    path = tmp_path / "dense.grove"
    path.write_text(text, encoding="utf-8")
    run = forest("guardians", "order", str(path), "--json", timeout=90)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    state = GuardiansGame(position=parse_grove(text)).new_initial_state()
    naive = first_legal_order(state)
    assert (report["count"], report["points"]) >= (naive.count, naive.points)
    assert report["count"] > 0
    assert report["optimal"] is False and report["method"] == "first-legal"
    run = forest("guardians", "order", str(path), "--method", "cp-sat", timeout=90)
    one_line_error(run, "too large")
