"""The dog's skill measure (issue 22 §3): the optimum less the win probability of the ladder's
level 1, a uniformly random legal move at every decision.

The weakest level's exact value is checked against a brute force that shares nothing with the
searches (every path of the game tree on the reference engine, no table, no pruning), against a
hand-derived value, and, statistically, against the ladder's own ``level1`` agent playing the
forest; the compiled searches against their pure-Python twins (same values, node counts and
counts of won games); the analysis rows and ``dog generate --skill`` against those values.
"""

from __future__ import annotations

import pytest

import solver
from solver import puzzles
from solver.agents import make_agent
from solver.cli import main
from solver.games.dog.analysis.classify import analyse_forest
from solver.games.dog.analysis.options import AnalysisOptions
from solver.games.dog.analysis.skill import (
    skill_of,
    uniform_playouts,
    uniform_playouts_reference,
    uniform_value,
    uniform_value_reference,
    weakest_win_probability,
)
from solver.games.dog.format import load_forest
from solver.games.dog.generator import roll_forest, roll_forest_with_value
from solver.games.dog.rules import DogGame
from solver.ladder import ladder
from solver.play import play_game
from solver.stats import wilson_interval

pytestmark = pytest.mark.usefixtures("require_kernels")

SMALL = [(w, h, seed, turns) for seed in range(4) for (w, h, turns) in
         ((3, 3, 2), (4, 3, 2), (3, 4, 3), (4, 4, 2))]  # fmt: skip
TWINS = [(w, h, seed, turns) for seed in range(5) for (w, h, turns) in
         ((4, 4, 3), (5, 6, 4), (6, 6, 4), (7, 5, 3))]  # fmt: skip


def brute_force(state) -> float:
    """The uniform policy's win probability by walking every path of the game tree."""
    if state.is_terminal():
        return 1.0 if state.won else 0.0
    if state.is_chance_node():
        return sum(p * brute_force(state.child(a)) for a, p in state.chance_outcomes())
    actions = state.legal_actions()
    return sum(brute_force(state.child(a)) for a in actions) / len(actions)


def _forest(w: int, h: int, seed: int, turns: int):
    return roll_forest(w, h, seed).replace(turns=turns)


def test_the_dogs_weakest_level_is_the_uniform_policy() -> None:
    rung = ladder("dog")[0]
    assert (rung.agent, rung.noise) == ("random", 0.0)


def test_a_hand_derived_value() -> None:
    # tiny-2x2: a roll of 2 or 3 steps wins by either way round (the dog never steps back to the
    # cell it just left), a roll of 1 loses: 2/3, for the optimal and the uniform policy alike
    forest = puzzles.load("dog/tiny-2x2")
    value, _ = uniform_value(forest, 1000)
    assert value == pytest.approx(2 / 3, abs=1e-12)
    row = analyse_forest(forest, AnalysisOptions(mcts_games=5, clairvoyant_samples=5))
    assert row.skill == 0.0 and row.weakest_method == "exact"


@pytest.mark.parametrize("case", SMALL, ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_the_exact_value_is_the_brute_force_value(case) -> None:
    forest = _forest(*case)
    expected = brute_force(DogGame(forest).new_initial_state())
    for engine in ("kernel", "reference"):
        value, _ = uniform_value(forest, 10**6, engine)
        assert value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("case", TWINS, ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_the_compiled_search_is_its_twin(case) -> None:
    forest = _forest(*case)
    full = uniform_value(forest, 10**6)
    assert full == uniform_value_reference(forest, 10**6, "kernel")
    assert full == uniform_value_reference(forest, 10**6, "reference")
    if full[1] > 1:  # a budget one short of what it needs: no value, in both
        short = uniform_value(forest, full[1] - 1)
        assert short[0] is None and short == uniform_value_reference(forest, full[1] - 1)


@pytest.mark.parametrize("seed", range(4))
def test_compiled_playouts_win_the_games_their_twin_wins(seed) -> None:
    forest = _forest(5, 5, seed, 4)
    assert uniform_playouts(forest, 300, seed) == uniform_playouts_reference(
        DogGame(forest), 300, seed
    )


def test_the_ladders_level1_agent_wins_as_often_as_the_exact_value_says() -> None:
    forest = _forest(4, 4, 2, 3)
    value, _ = uniform_value(forest, 10**6)
    assert value is not None and 0.2 < value < 0.8
    game = solver.load_game("dog", forest=forest)
    games = 600
    wins = sum(
        play_game(game, [make_agent("level1", game, seed=i)], seed=i).final.returns()[0] > 0.5
        for i in range(games)
    )
    low, high = wilson_interval(wins, games, z=3.29)  # 99.9%: a seeded, fixed outcome anyway
    assert low <= value <= high


def test_the_sampled_value_holds_the_exact_one_in_its_interval() -> None:
    hits = 0
    for seed in range(10):
        forest = _forest(5, 5, seed, 4)
        exact, _ = uniform_value(forest, 10**6)
        sampled = weakest_win_probability(
            forest, AnalysisOptions(weakest_max_nodes=1, weakest_games=4000), source=f"s{seed}"
        )
        assert sampled.method == "sampled"
        hits += sampled.low <= exact <= sampled.high
    assert hits >= 8  # a 95% interval, ten seeded forests


@pytest.mark.parametrize("seed", range(6))
def test_the_row_holds_the_skill_measure(seed) -> None:
    forest = _forest(6, 6, seed, 5)
    options = AnalysisOptions(mcts_games=20, clairvoyant_samples=20)
    row = analyse_forest(forest, options)
    if row.klass in ("unreachable", "hopeless"):
        assert (row.weakest_win_probability, row.skill, row.weakest_method) == (0.0, 0.0, "class")
        return
    weakest = weakest_win_probability(forest, options, source=row.source)
    assert row.weakest_win_probability == weakest.value
    assert row.weakest_method == weakest.method in ("exact", "sampled")
    assert row.skill == skill_of(row.win_probability, weakest.value)
    if weakest.method == "exact":
        assert row.weakest_low == row.weakest_high == weakest.value


def test_skill_is_never_negative() -> None:
    assert skill_of(0.0, 0.01) == 0.0 and skill_of(0.5, 0.25) == 0.25


def test_generate_finds_a_forest_in_both_bands(tmp_path, capsys) -> None:
    found = roll_forest_with_value(5, 5, 0.3, 0.9, seed=0, turns=4, skill=(0.2, 0.5))
    exact_weakest, _ = uniform_value(found.forest, 10**7)
    assert found.weakest_method == "exact" and found.weakest == pytest.approx(exact_weakest)
    assert 0.2 <= found.value - exact_weakest <= 0.5 and 0.3 <= found.value <= 0.9
    for earlier in range(0, found.seed):  # each forest passed over missed one of the bands
        try:
            again = roll_forest_with_value(5, 5, 0.3, 0.9, seed=earlier, turns=4, max_tries=1)
        except solver.errors.SolverError:
            continue
        assert not 0.2 <= again.value - uniform_value(again.forest, 10**7)[0] <= 0.5
    out = tmp_path / "f.forest"
    argv = ["dog", "generate", "--size", "5x5", "--turns", "4", "--win-probability", "0.3:0.9",
            "--skill", "0.2:0.5", "-o", str(out)]  # fmt: skip
    assert main(argv) == 0
    assert load_forest(str(out)) == found.forest
    assert f"seed {found.seed}" in capsys.readouterr().err


def test_a_bad_skill_band_is_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["dog", "generate", "--skill", "0.5:0.2"])
    assert stop.value.code == 2
    assert "--skill" in capsys.readouterr().err
