"""The clairvoyant estimate on the compiled kernel against the reference loop
(:mod:`solver.games.dog.analysis.clairvoyant`): the same worlds drawn in bulk as one by one, and
the same counts (worlds won, sampled, undecided) whatever budget binds; the exact clairvoyant
value in C against its Python twin, against every roll sequence searched on its own, against the
exact win probability (never below it) and against the sampled estimate (inside its interval)."""

from __future__ import annotations

import itertools
import random

import pytest

import solver
from solver.errors import OptionError
from solver.games.dog.analysis import clairvoyant
from solver.games.dog.analysis.clairvoyant import (
    clairvoyant_estimate,
    exact_clairvoyant_value,
    exact_reference,
    sample_worlds,
)
from solver.games.dog.analysis.classify import AnalysisOptions, analyse_forest
from solver.games.dog.analysis.soonest import (
    SoonestWins,
    clairvoyant_win,
    sample_world,
    world_shape,
)
from solver.games.dog.generator import GeneratorOptions, roll_forest
from solver.games.dog.kernel import extension_module
from solver.search.expectimax import expectimax
from solver.stats import wilson_interval

pytestmark = pytest.mark.usefixtures("require_kernels")


@pytest.mark.parametrize("seed", range(12))
def test_bulk_worlds_are_the_worlds_drawn_one_by_one(seed: int) -> None:
    shouters = seed % 4  # 0 shouters: no dice at all
    forest = roll_forest(6 + seed % 5, 7, seed, GeneratorOptions(shouters=shouters))
    forest = forest.replace(turns=1 + seed * 7 % 20)
    count = [1, 3, 100, 250][seed % 4]
    rolls, dice = sample_worlds(forest, random.Random(seed), count)
    rng = random.Random(seed)
    expected = [sample_world(forest, rng) for _ in range(count)]
    nrolls, ndice = world_shape(forest)
    assert len(rolls) == count * nrolls and len(dice) == count * ndice
    for w, (want_rolls, want_dice) in enumerate(expected):
        assert list(rolls[w * nrolls : (w + 1) * nrolls]) == want_rolls
        assert list(dice[w * ndice : (w + 1) * ndice]) == want_dice


def test_bulk_draws_more_words_when_they_run_out(monkeypatch) -> None:
    monkeypatch.setattr(clairvoyant, "_words_for", lambda worlds, rolls, dice: 3)
    forest = roll_forest(5, 5, 2).replace(turns=6)
    rolls, dice = sample_worlds(forest, random.Random(5), 20)
    rng = random.Random(5)
    expected = [sample_world(forest, rng) for _ in range(20)]
    assert rolls == bytes(r for w in expected for r in w[0])
    assert dice == bytes(d for w in expected for d in w[1])


def test_decoding_stops_at_an_unfinished_world() -> None:
    decode = extension_module().decode_worlds
    # readings: 0xC0.. is rejected (3 << 30), 0x40.. reads 2; dice: 0xE0.. rejected, 0x20.. reads 2
    words = b"".join(x.to_bytes(4, "little") for x in (0xC0000000, 0x40000000, 0x20000000))
    assert decode(words, 1, 1, 1) == (1, 3, b"\x02", b"\x02")
    assert decode(words, 1, 1, 2) == (1, 3, b"\x02", b"\x02")
    assert decode(words[:8], 1, 1, 1) == (0, 0, b"", b"")


@pytest.mark.parametrize("seed", range(10))
def test_compiled_counts_are_the_reference_loops(seed: int) -> None:
    forest = roll_forest(7 + seed % 3, 7, seed).replace(turns=5 + seed % 4)
    budgets = [
        {},
        {"clairvoyant_max_nodes": 300},
        {"clairvoyant_total_nodes": 4_000, "clairvoyant_max_nodes": 1_500},
        {"clairvoyant_total_nodes": 1},
        {"clairvoyant_samples": 0},
    ]
    for budget in budgets:
        options = AnalysisOptions(**{"clairvoyant_samples": 60, "seed": seed, **budget})
        compiled = clairvoyant_estimate(forest, options, "s", SoonestWins(forest, "kernel"))
        python = clairvoyant_estimate(
            forest, options, "s", SoonestWins(forest, "kernel", compiled=False)
        )
        assert compiled == python, budget


def test_the_budgets_bind_in_the_comparison() -> None:
    forest = roll_forest(8, 7, 1).replace(turns=7)
    options = AnalysisOptions(clairvoyant_total_nodes=4_000, clairvoyant_max_nodes=1_500)
    counts = clairvoyant_estimate(forest, options, "s")
    assert counts.undecided > 0 and counts.samples < options.clairvoyant_samples


def test_bad_worlds_and_budgets_are_refused() -> None:
    forest = roll_forest(5, 5, 2).replace(turns=4)
    root = SoonestWins(forest, "kernel").root
    worlds = extension_module().clairvoyant_worlds
    nrolls, ndice = world_shape(forest)
    with pytest.raises(OptionError, match="step-roll"):
        worlds(root, b"\x04" * nrolls, b"\x01" * ndice, 1, 10, 10, 3)
    with pytest.raises(OptionError, match="shout die"):
        worlds(root, b"\x01" * nrolls, b"\x07" * max(1, ndice), 1, 10, 10, 3)
    with pytest.raises(OptionError, match="budgets"):
        worlds(root, b"", b"", 0, 0, 10, 3)
    with pytest.raises(OptionError, match="same count"):
        worlds(root, b"\x01" * 3, b"", 2, 10, 10, 3)


# -- the exact clairvoyant value ------------------------------------------------------------------
EXACT_CASES = [(w, h, seed, turns) for seed in range(6) for (w, h, turns) in
               ((4, 4, 3), (5, 5, 4), (6, 5, 4), (6, 6, 4), (7, 6, 5))]  # fmt: skip


def _forest(case):
    return roll_forest(case[0], case[1], case[2]).replace(turns=case[3])


@pytest.mark.parametrize("case", EXACT_CASES, ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_exact_value_is_the_same_in_c_and_python(case) -> None:
    forest = _forest(case)
    for budget in (1, 30, 400, 20_000):
        compiled = exact_clairvoyant_value(forest, budget, SoonestWins(forest, "kernel"))
        python = exact_reference(forest, budget, SoonestWins(forest, "kernel", compiled=False))
        assert compiled == python, budget  # the same floats, or None for both
        if budget <= 400:  # the reference engine too (slower)
            assert exact_reference(forest, budget, SoonestWins(forest, "reference")) == compiled


@pytest.mark.parametrize("seed", range(5))
def test_exact_value_is_the_share_of_every_roll_sequence_without_shouters(seed: int) -> None:
    # No shouters: a world is its step rolls alone, 3**turns of them, each searched on its own
    forest = roll_forest(5, 5, seed, GeneratorOptions(shouters=0)).replace(turns=4)
    assert world_shape(forest)[1] == 0
    wins = sum(
        clairvoyant_win(forest, list(rolls), [], 10**6, compiled=False).turns is not None
        for rolls in itertools.product((1, 2, 3), repeat=4)
    )
    assert exact_clairvoyant_value(forest, 10**6) == pytest.approx(wins / 81, abs=1e-12)


@pytest.mark.parametrize("case", EXACT_CASES, ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_exact_value_bounds_the_win_probability_and_the_samples_agree(case) -> None:
    forest = _forest(case)
    exact = exact_clairvoyant_value(forest, 10**6)
    game = solver.load_game("dog", forest=forest)
    value = expectimax(game.new_initial_state(), exact=True, memory_mb=256).value
    assert exact is not None and exact >= value - 1e-12  # hindsight never does worse
    counts = clairvoyant_estimate(forest, AnalysisOptions(clairvoyant_samples=200), "s")
    low, high = wilson_interval(counts.wins, counts.samples, z=4.0)
    assert low <= exact <= high


def test_analysis_rows_say_how_the_clairvoyant_estimate_was_made() -> None:
    forest = roll_forest(6, 6, 1).replace(turns=4)
    exact = analyse_forest(forest, AnalysisOptions(clairvoyant_method="exact"), source="x")
    assert exact.clairvoyant_method == "exact" and exact.clairvoyant_samples == 0
    assert exact.clairvoyant_low == exact.clairvoyant_estimate == exact.clairvoyant_high
    tight = AnalysisOptions(clairvoyant_method="exact", clairvoyant_total_nodes=5)
    fallback = analyse_forest(forest, tight, source="x")
    assert fallback.clairvoyant_method == "sampled" and fallback.clairvoyant_samples > 0
    sampled = analyse_forest(forest, AnalysisOptions(), source="x").to_row()
    assert sampled["clairvoyant_method"] == "sampled"
    guaranteed = analyse_forest(roll_forest(6, 6, 1), AnalysisOptions(), source="x")
    assert (guaranteed.klass, guaranteed.clairvoyant_method) == ("guaranteed", "class")
    with pytest.raises(OptionError, match="clairvoyant_method"):
        AnalysisOptions(clairvoyant_method="guess")
