"""The compiled soonest-win search (``solver._ext.dog.soonest_win``) against its pure-Python twin
(:func:`solver.games.dog.analysis.soonest.first_win`): the par and clairvoyant worlds give the
same status, route, turn and node count on many forests, budgets included."""

from __future__ import annotations

import random

import pytest

from solver.errors import OptionError
from solver.games.dog.analysis.clairvoyant import clairvoyant_estimate
from solver.games.dog.analysis.classify import AnalysisOptions
from solver.games.dog.analysis.soonest import SoonestWins, clairvoyant_win, sample_world
from solver.games.dog.generator import roll_forest

pytestmark = pytest.mark.usefixtures("require_kernels")

# sizes and turn limits with every kind of forest: small and walled, shouters, distractions
CASES = [(w, h, seed, turns) for seed in range(8) for (w, h, turns) in
         ((4, 4, 3), (5, 6, 4), (6, 6, 5), (7, 5, 6), (8, 8, 5))]  # fmt: skip


def _pair(w: int, h: int, seed: int, turns: int) -> tuple[SoonestWins, SoonestWins]:
    forest = roll_forest(w, h, seed).replace(turns=turns)
    return SoonestWins(forest, "kernel"), SoonestWins(forest, "kernel", compiled=False)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_par_is_the_same_in_c_and_python(case: tuple[int, int, int, int]) -> None:
    compiled, python = _pair(*case)
    assert compiled.compiled and not python.compiled
    for cap in (1, 7, 150, 150_000):
        assert compiled.par(cap) == python.par(cap)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_worlds_are_the_same_in_c_and_python(case: tuple[int, int, int, int]) -> None:
    compiled, python = _pair(*case)
    rng = random.Random(hash(case) & 0xFFFF)
    statuses = set()
    for _ in range(6):
        rolls, dice = sample_world(compiled.forest, rng)
        cap = rng.choice([3, 40, 400, 50_000])
        found = compiled.world(rolls, dice, cap)
        assert found == python.world(rolls, dice, cap)
        statuses.add(found.status)
    assert statuses  # at least one world searched


def test_every_status_shows_up_in_the_twin_comparison() -> None:
    seen = set()
    for case in CASES[:20]:
        compiled, _ = _pair(*case)
        rng = random.Random(1)
        for cap in (3, 50_000):
            rolls, dice = sample_world(compiled.forest, rng)
            seen.add(compiled.world(rolls, dice, cap).status)
    assert seen == {"optimal", "infeasible", "budget"}


@pytest.mark.parametrize("seed", range(4))
def test_the_sampled_estimate_is_the_same_in_c_and_python(seed: int) -> None:
    forest = roll_forest(7, 7, seed).replace(turns=6)
    for options in (
        AnalysisOptions(clairvoyant_samples=40, seed=seed),
        AnalysisOptions(clairvoyant_samples=40, clairvoyant_total_nodes=3_000,
                        clairvoyant_max_nodes=400, seed=seed),
    ):  # fmt: skip
        compiled = clairvoyant_estimate(forest, options, "x", SoonestWins(forest, "kernel"))
        python = clairvoyant_estimate(
            forest, options, "x", SoonestWins(forest, "kernel", compiled=False)
        )
        assert compiled == python


def test_the_reference_engine_runs_the_python_search() -> None:
    forest = roll_forest(5, 5, 2).replace(turns=4)
    reference = SoonestWins(forest, "reference")
    assert not reference.compiled
    assert reference.par(10_000) == SoonestWins(forest, "kernel").par(10_000)
    with pytest.raises(OptionError, match="kernel engine"):
        SoonestWins(forest, "reference", compiled=True)


def test_bad_worlds_are_refused_by_both() -> None:
    forest = roll_forest(5, 5, 2).replace(turns=4)
    for compiled in (True, False):
        with pytest.raises(OptionError, match="step-roll"):
            clairvoyant_win(forest, [4, 1, 1, 1], [], compiled=compiled)
        with pytest.raises(OptionError, match="shout die"):
            clairvoyant_win(forest, [1, 1, 1, 1], [0] * 200, compiled=compiled)
