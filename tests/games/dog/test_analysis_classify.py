"""The dog's solvability classes, bounds and rows (solver.games.dog.analysis.classify), checked
against exact values."""

from __future__ import annotations

import itertools
import json
import random
from functools import cache

import pytest

import solver
from solver.errors import FormatError, OptionError
from solver.games.dog.analysis.classify import (
    CLASSES,
    AnalysisOptions,
    analyse_forest,
    analyse_source,
    clairvoyant_win,
    difficulty_score,
    first_win,
    is_reachable,
    sample_world,
)
from solver.games.dog.analysis.soonest import SoonestWins
from solver.games.dog.forest import Forest, Shouter, Terrain
from solver.games.dog.format import save_forest
from solver.games.dog.generator import GeneratorOptions, roll_forest
from solver.games.dog.routes.graph import hindsight_brute_force, par_brute_force, replay
from solver.search.expectimax import expectimax
from solver.stats import wilson_interval

OP, T = Terrain.OPEN, Terrain.TREE
SMALL = AnalysisOptions(mcts_games=20, mcts_iterations=50, clairvoyant_samples=40, seed=3)
# 60 small forests: sizes 3..5, turn limits 1..5 (so that every class shows up)
SMALL_CASES = [
    (w, h, seed, 1 + (seed + w + h) % 5)
    for w in (3, 4, 5)
    for h in (3, 4, 5)
    for seed in range(7)
    if not (w == 5 and h == 5 and seed > 2)
][:60]
Z_WIDE = 4.0  # a 4-sigma interval: sampling noise never fails the bound checks over 60 forests


def small_forest(w: int, h: int, seed: int, turns: int) -> Forest:
    return roll_forest(w, h, seed).replace(turns=turns)


def exact_value_of(forest: Forest) -> float:
    """The exact win probability, computed independently of the classifier."""
    game = solver.load_game("dog", forest=forest)
    return expectimax(game.new_initial_state(), exact=True, memory_mb=512).value


@cache
def exact_value(w: int, h: int, seed: int, turns: int) -> float:
    return exact_value_of(small_forest(w, h, seed, turns))


@cache
def analysed(w: int, h: int, seed: int, turns: int):
    forest = small_forest(w, h, seed, turns)
    return analyse_forest(forest, SMALL, source=f"{w}x{h}:{seed}:{turns}")


def test_small_forests_cover_every_class() -> None:
    assert len(SMALL_CASES) >= 50
    seen = {analysed(*case).klass for case in SMALL_CASES}
    assert seen == set(CLASSES)


@pytest.mark.parametrize("case", SMALL_CASES, ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_class_agrees_with_exact_value(case: tuple[int, int, int, int]) -> None:
    result = analysed(*case)
    value = exact_value(*case)
    assert result.exact  # small forests are always solved exactly
    if result.klass in ("unreachable", "hopeless"):
        assert value == 0.0
        assert result.win_probability == 0.0 and result.clairvoyant_estimate == 0.0
        assert result.difficulty == 1.0
    elif result.klass == "guaranteed":
        assert value == pytest.approx(1.0, abs=1e-9)
        assert result.win_probability == 1.0 and result.clairvoyant_estimate == 1.0
    else:
        assert result.klass == "uncertain" and result.method == "expectimax"
        assert result.win_probability == pytest.approx(value, abs=1e-12)
        assert 0.0 < value < 1.0
        assert result.ci_low == result.ci_high == result.win_probability
    if value == 0.0:  # the converse: a zero value is always explained by a class
        assert result.klass in ("unreachable", "hopeless")
    if result.klass == "unreachable":
        assert result.par is None
    # the clairvoyant bound is an upper bound (up to sampling noise)
    wins = round(result.clairvoyant_estimate * result.clairvoyant_samples)
    if result.clairvoyant_samples:
        assert wilson_interval(wins, result.clairvoyant_samples, z=Z_WIDE)[1] >= value - 1e-12
        assert result.clairvoyant_low <= result.clairvoyant_estimate <= result.clairvoyant_high
    assert 0.0 <= result.difficulty <= 1.0


@pytest.mark.parametrize("case", SMALL_CASES[::3], ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_par_matches_par_brute_force(case: tuple[int, int, int, int]) -> None:
    forest = small_forest(*case)
    result = analysed(*case)
    expected = par_brute_force(forest)
    assert result.par == expected.turns
    if result.par is not None:
        assert result.par_status == "optimal"
        found = first_win(forest, lambda s, k, j: [(a, 0, 0) for a in s.legal_actions()], 10**6)
        assert replay(forest, found.actions) == result.par
        route = json.loads(result.to_row()["route"])
        assert route[0] == list(forest.start) and route[-1] == list(forest.human)
        for (r1, c1), (r2, c2) in itertools.pairwise(route):
            assert abs(r1 - r2) + abs(c1 - c2) == 1
            assert forest.cells[r2][c2] != Terrain.TREE


def test_clairvoyant_estimate_is_not_below_the_exact_values_on_average() -> None:
    cases = [c for c in SMALL_CASES if analysed(*c).klass == "uncertain"]
    assert len(cases) >= 10
    bound = sum(analysed(*c).clairvoyant_estimate for c in cases) / len(cases)
    value = sum(exact_value(*c) for c in cases) / len(cases)
    assert bound >= value - 0.03


@pytest.mark.parametrize("seed", range(8))
def test_par_at_most_hindsight_turns(seed: int) -> None:
    forest = roll_forest(4, 4, seed).replace(turns=5)
    par = par_brute_force(forest).turns
    rng = random.Random(seed)
    for _ in range(6):
        rolls, dice = sample_world(forest, rng)
        shouts = [rng.random() < 0.5 for _ in dice]
        hind = hindsight_brute_force(forest, rolls, shouts).turns
        mine = clairvoyant_win(forest, rolls, dice).turns
        for turns in (hind, mine):
            if turns is not None:
                assert par is not None and par <= turns
        if par is None:
            assert hind is None and mine is None


@pytest.mark.parametrize("seed", range(6))
def test_clairvoyant_matches_hindsight_without_shouters(seed: int) -> None:
    forest = roll_forest(5, 4, seed, GeneratorOptions(shouters=0)).replace(turns=5)
    rng = random.Random(100 + seed)
    for _ in range(5):
        rolls, dice = sample_world(forest, rng)
        assert dice == []
        assert clairvoyant_win(forest, rolls, dice).turns == (
            hindsight_brute_force(forest, rolls, []).turns
        )


@pytest.mark.parametrize("turns", [2, 3, 4])
def test_clairvoyant_probability_equals_the_value_when_there_is_no_choice(turns: int) -> None:
    # A corridor (row 2) with no decision to make: the clairvoyant has no advantage, so the share
    # of all worlds with a win must equal the exact win probability. The dog crosses (2,1) under
    # an arrow with number 2 (shrugged off on a die of 1 only), then two puddles: a hit there
    # costs a rest turn. This checks the die-against-number reading of the shout rolls.
    P = Terrain.PUDDLE
    grid = [[T, OP, T, T, T, T, T], [T] * 7, [OP, OP, P, P, OP, OP, OP]]
    forest = Forest(
        width=7, height=3, cells=grid, start=(2, 0), human=(2, 6), turns=turns,
        shouters=[Shouter(0, 1, "S", 2)],
    )  # fmt: skip
    value = exact_value_of(forest)
    wins = shrugs = 0
    for rolls in itertools.product((1, 2, 3), repeat=turns):
        for die in range(1, 7):
            dice = [die] + [6] * (3 * turns - 1)
            won = clairvoyant_win(forest, list(rolls), dice).turns is not None
            wins += won
            shrugs += won and die == 1
    assert wins / (6 * 3**turns) == pytest.approx(value, abs=1e-12)
    if turns == 4:
        assert 6 * shrugs > wins  # the shout matters: a shrug wins more often than the average


# -- hand-built forests, one per class ------------------------------------------------------------
def test_walled_in_forest_is_unreachable() -> None:
    grid = [[OP, T, OP], [OP, T, OP]]
    forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 2), turns=5)
    assert not is_reachable(forest)
    result = analyse_forest(forest, SMALL)
    assert (result.klass, result.method, result.win_probability) == ("unreachable", "graph", 0.0)
    assert result.par is None and result.route == () and result.difficulty == 1.0


def test_too_far_human_with_one_turn_is_hopeless() -> None:
    grid = [[OP] * 6 for _ in range(2)]
    forest = Forest(width=6, height=2, cells=grid, start=(1, 0), human=(0, 5), turns=1)
    result = analyse_forest(forest, SMALL)
    assert (result.klass, result.method, result.par) == ("hopeless", "par", None)
    assert result.par_status == "infeasible"


def test_open_forest_with_the_human_one_step_away_is_guaranteed() -> None:
    grid = [[OP] * 3 for _ in range(2)]
    forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 0), turns=1)
    result = analyse_forest(forest, SMALL)
    assert (result.klass, result.method, result.win_probability) == ("guaranteed", "proof", 1)
    assert result.par == 1 and result.route == ((1, 0), (0, 0))
    assert (result.clairvoyant_estimate, result.ci_low, result.ci_high) == (1.0, 1.0, 1.0)


def test_human_two_steps_away_in_one_turn_is_uncertain() -> None:
    grid = [[OP, OP, OP], [OP, OP, OP]]
    forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(1, 2), turns=1)
    result = analyse_forest(forest, SMALL)
    assert result.klass == "uncertain" and result.exact
    assert result.win_probability == pytest.approx(2 / 3)
    assert result.par == 1


# -- budgets ---------------------------------------------------------------------------------------
def test_memory_cap_falls_back_to_mcts_with_an_interval() -> None:
    case = next(c for c in SMALL_CASES if analysed(*c).klass == "uncertain")
    forest = small_forest(*case)
    options = AnalysisOptions(exact_memory_mb=1e-4, mcts_games=30, mcts_iterations=50, seed=1)
    result = analyse_forest(forest, options, source="x")
    assert (result.klass, result.method, result.exact, result.games) == (
        "uncertain", "mcts", False, 30,
    )  # fmt: skip
    assert result.ci_low <= result.win_probability <= result.ci_high
    # the policy's rate estimates a lower bound of the optimum
    assert result.ci_low <= exact_value(*case) + 1e-12


def test_par_budget_leaves_the_par_unknown_and_never_claims_hopeless() -> None:
    forest = small_forest(4, 4, 0, 4)
    capped = AnalysisOptions(par_max_nodes=1, clairvoyant_samples=5, par_cpsat_seconds=0)
    result = analyse_forest(forest, capped)
    assert result.par is None and result.par_status == "budget"
    assert result.klass != "hopeless"
    assert result.win_probability == pytest.approx(exact_value(4, 4, 0, 4))


def test_clairvoyant_budget_counts_as_a_win() -> None:
    forest = small_forest(5, 5, 1, 5)
    capped = clairvoyant_win(forest, [1] * 5, [6] * 50, max_nodes=1)
    assert capped.status == "budget"


# -- the batch runner's entry ---------------------------------------------------------------------
def _without_seconds(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "seconds"}


ROW_KEYS = {
    "source", "width", "height", "class", "par", "win_probability", "exact", "ci_low",
    "ci_high", "clairvoyant_estimate", "clairvoyant_low", "clairvoyant_high", "difficulty",
    "route", "seconds",
}  # fmt: skip
TINY = {"mcts_games": 10, "mcts_iterations": 30, "clairvoyant_samples": 20}


def test_analyse_source_generated_is_deterministic() -> None:
    descriptor = {"source": "seed:4", "width": 4, "height": 4, "seed": 4, "turns": 4,
                  "options": TINY}  # fmt: skip
    row = analyse_source(descriptor)
    assert set(row) >= ROW_KEYS
    assert row["source"] == "seed:4" and (row["width"], row["height"]) == (4, 4)
    assert row["class"] in CLASSES
    json.dumps(row)  # flat and JSON-friendly
    assert _without_seconds(analyse_source(dict(descriptor))) == _without_seconds(row)


def test_analyse_source_mcts_rows_are_deterministic() -> None:
    descriptor = {"width": 4, "height": 4, "seed": 0, "turns": 4,
                  "options": {**TINY, "exact_memory_mb": 1e-4, "seed": 9}}  # fmt: skip
    row = analyse_source(descriptor)
    assert row["method"] == "mcts" and row["exact"] is False
    assert _without_seconds(analyse_source(descriptor)) == _without_seconds(row)
    other = analyse_source({**descriptor, "source": "another name"})
    assert other["source"] == "another name"


def test_analyse_source_reads_files(tmp_path) -> None:
    forest = roll_forest(4, 3, seed=2).replace(turns=3)
    path = tmp_path / "x.forest"
    save_forest(forest, path)
    row = analyse_source({"source": str(path), "path": str(path), "options": TINY})
    expected = analyse_forest(forest, AnalysisOptions(**TINY), source=str(path)).to_row()
    assert _without_seconds(row) == _without_seconds(expected)
    assert row["turns"] == 3


def test_analyse_source_accepts_a_batch_source(tmp_path) -> None:
    from solver.analysis.sources import Source

    forest = roll_forest(3, 3, seed=0).replace(turns=2)
    path = tmp_path / "y.forest"
    save_forest(forest, path)
    row = analyse_source(Source.file(path))
    assert row["source"] == str(path) and row["class"] == "guaranteed"


def test_analyse_source_bad_input_raises(tmp_path) -> None:
    bad = tmp_path / "bad.forest"
    bad.write_text("grid:\n. . @\nH T x\n", encoding="utf-8")
    with pytest.raises(FormatError):
        analyse_source({"source": str(bad), "path": str(bad)})
    with pytest.raises(OptionError, match="unknown analysis options"):
        analyse_source({"width": 3, "height": 3, "seed": 0, "options": {"games": 3}})
    with pytest.raises(OptionError, match="needs 'path'"):
        analyse_source({"source": "nothing"})
    with pytest.raises(OptionError):
        AnalysisOptions(mcts_games=-1)
    with pytest.raises(OptionError):
        analyse_source({"path": str(tmp_path / "missing.forest")})


def test_difficulty_is_monotone() -> None:
    assert difficulty_score(0.0, None, 20) == 1.0
    ps = [0.0, 0.2, 0.5, 0.9, 1.0]
    assert all(
        difficulty_score(a, 5, 20) > difficulty_score(b, 5, 20) for a, b in itertools.pairwise(ps)
    )
    assert all(difficulty_score(0.5, a, 20) < difficulty_score(0.5, a + 1, 20) for a in range(20))
    assert 0.0 <= difficulty_score(1.0, 1, 20) < 0.02


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_full_analysis_of_a_9x9_forest(seed: int) -> None:
    row = analyse_source(
        {"width": 9, "height": 9, "seed": seed, "options": {"clairvoyant_samples": 50}}
    )
    assert row["class"] in CLASSES
    if row["class"] == "uncertain":
        assert row["clairvoyant_high"] >= row["ci_low"]


@pytest.mark.parametrize("case", [(4, 4, 0, 4), (5, 5, 1, 5), (6, 6, 1, 2), (6, 6, 6, 2)])
def test_past_the_par_search_s_cap_the_rules_model_finds_the_par(
    case: tuple[int, int, int, int],
) -> None:
    """Found by a new user: `forest analyse` left big-12x12's par blank (budget) where
    `forest dog route` finds its 5 turns in a second. Past the search's cap (1 position here)
    the rules model answers: the par (and a route that wins in it) or no par, as the brute
    force says."""
    forest = small_forest(*case)
    assert SoonestWins(forest).par(1).status == "budget"  # the search alone gives up
    result = analyse_forest(forest, AnalysisOptions(par_max_nodes=1, clairvoyant_samples=5))
    twin = par_brute_force(forest)
    assert result.par == twin.turns
    assert result.par_status == ("infeasible" if twin.turns is None else "optimal")
    assert (result.klass == "hopeless") == (twin.turns is None)
    if twin.turns is not None:  # the row's route runs from the dog's start to the human
        assert result.route[0] == tuple(forest.start) and result.route[-1] == tuple(forest.human)


def test_inside_a_passed_deadline_the_rules_model_keeps_to_the_clock() -> None:
    """The service's analysis runs inside a search deadline; the par's rules model had at most
    its seconds left, but as CP-SAT's deterministic seconds, which a loaded machine runs slower
    than the clock (and at least 0.01 of them): past the deadline big-12x12's model still ran
    and proved its par. Now the deadline bounds it by the wall clock too: no horizon starts
    past it and the par stays unknown; outside any deadline the model proves the par (here
    a small forest's, as the brute force finds it)."""
    import time

    from solver.games.dog.analysis.classify import _par_past_the_cap
    from solver.search.limit import search_deadline

    forest = small_forest(6, 6, 1, 5)
    found = SoonestWins(forest).par(1)
    assert found.status == "budget"  # the search alone gives up
    with search_deadline(time.monotonic() - 1.0):
        assert _par_past_the_cap(forest, AnalysisOptions(), found).status == "budget"
    proven = _par_past_the_cap(forest, AnalysisOptions(), found)
    assert (proven.status, proven.turns) == ("optimal", par_brute_force(forest).turns)


def test_past_the_deadline_no_rules_model_is_built(monkeypatch) -> None:
    """seconds_left() never falls below its floor, so a par fallback asked after the deadline
    still built and solved a first horizon's model; it now asks none (helper 96's read)."""
    import time

    import solver.games.dog.routes.cpsat as cpsat
    from solver.games.dog.analysis.classify import _par_past_the_cap
    from solver.search.limit import search_deadline

    def never(*_args: object, **_kw: object) -> None:
        raise AssertionError("the rules model was asked past the deadline")

    forest = small_forest(6, 6, 1, 5)
    found = SoonestWins(forest).par(1)
    monkeypatch.setattr(cpsat, "par_cpsat_model", never)
    with search_deadline(time.monotonic() - 1.0):
        assert _par_past_the_cap(forest, AnalysisOptions(), found) is found
