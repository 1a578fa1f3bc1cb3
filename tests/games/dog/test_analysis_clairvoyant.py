"""The clairvoyant estimate on the compiled kernel against the reference loop
(:mod:`solver.games.dog.analysis.clairvoyant`): the same worlds drawn in bulk as one by one, and
the same counts (worlds won, sampled, undecided) whatever budget binds."""

from __future__ import annotations

import random

import pytest

from solver.errors import OptionError
from solver.games.dog.analysis import clairvoyant
from solver.games.dog.analysis.clairvoyant import clairvoyant_estimate, sample_worlds
from solver.games.dog.analysis.classify import AnalysisOptions
from solver.games.dog.analysis.soonest import SoonestWins, sample_world, world_shape
from solver.games.dog.generator import GeneratorOptions, roll_forest
from solver.games.dog.kernel import extension_module

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
