"""Forests made to order: ``forest dog generate --win-probability LO:HI`` and
``roll_forest_with_value``. Every forest found is solved again independently -- by the plain
exact expectimax (``prune=False``) on the reference engine, which shares neither the pruning
search nor the kernel -- and its value must lie in the band; the seeds before it must not (those
are checked with the plain search on the kernel, for speed).
"""

from __future__ import annotations

import pytest

import solver
from solver.cli import main
from solver.errors import OptionError, SolverError
from solver.games.dog.format import load_forest
from solver.games.dog.generator import roll_forest, roll_forest_with_value
from solver.search import expectimax

pytestmark = pytest.mark.usefixtures("require_kernels")


def independent_value(forest, engine="reference"):
    game = solver.load_game("dog", forest=forest, engine=engine)
    return expectimax(game.new_initial_state(), prune=False, memory_mb=512).value


@pytest.mark.parametrize(
    ("size", "turns", "band", "seed"),
    [((4, 4), 4, (0.3, 0.6), 0), ((4, 3), 5, (0.6, 0.9), 7), ((5, 4), 4, (0.0, 0.2), 3)],
)
def test_found_forests_lie_in_the_band(size, turns, band, seed):
    lo, hi = band
    found = roll_forest_with_value(*size, lo, hi, seed=seed, turns=turns)
    value = independent_value(found.forest)
    assert lo - 1e-12 <= value <= hi + 1e-12
    assert found.value == pytest.approx(value, abs=1e-9)
    assert found.exact and found.value_low == found.value_high == found.value
    assert found.forest == roll_forest(*size, seed=found.seed).replace(turns=turns)
    assert found.seed == seed + found.tries - 1
    for earlier in range(seed, found.seed):  # every forest skipped was outside the band
        forest = roll_forest(*size, seed=earlier).replace(turns=turns)
        v = independent_value(forest, "kernel")  # the plain search, on the kernel: faster
        assert not (lo - 1e-12 <= v <= hi + 1e-12)


def test_deterministic_and_par():
    one = roll_forest_with_value(5, 4, 0.3, 0.7, seed=10, turns=5)
    two = roll_forest_with_value(5, 4, 0.3, 0.7, seed=10, turns=5)
    assert one == two
    with_par = roll_forest_with_value(5, 4, 0.3, 0.7, seed=10, turns=5, par_at_least=3)
    assert with_par.par is not None and with_par.par >= 3
    assert with_par.seed >= one.seed


@pytest.mark.parametrize("band", [(0.6, 0.3), (-0.1, 0.5), (0.2, 1.5), (0.4, 0.4), (True, 1)])
def test_a_bad_band_is_an_option_error(band):
    with pytest.raises(OptionError, match="band"):
        roll_forest_with_value(4, 4, *band)


def test_nothing_found_is_a_clear_error():
    with pytest.raises(SolverError, match=r"no forest of seeds 0 to 4 .*\(tried 5\)"):
        roll_forest_with_value(3, 3, 0.99, 1.0, turns=1, max_tries=5)


def test_the_command(tmp_path, capsys):
    target = tmp_path / "band.forest"
    argv = ["dog", "generate", "--win-probability", "0.3:0.6", "--size", "4x4", "--turns", "4"]
    code = main([*argv, "--seed", "0", "-o", str(target)])
    out, err = capsys.readouterr()
    assert code == 0 and out == ""
    found = roll_forest_with_value(4, 4, 0.3, 0.6, seed=0, turns=4)
    assert load_forest(target) == found.forest
    assert f"tried {found.tries} forest" in err and f"{found.value:.6f} (exact)" in err
    # the same command, the same forest
    assert main([*argv, "--seed", "0"]) == 0
    assert capsys.readouterr().out == target.read_text()


@pytest.mark.parametrize("bad", ["0.6:0.3", "1:2", "x:y", "0.5", "nan:1"])
def test_the_command_refuses_a_bad_band(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["dog", "generate", "--win-probability", bad, "--size", "4x4"])
    assert exc.value.code == 2
    assert "0 <= LO < HI <= 1" in capsys.readouterr().err


def test_the_command_says_when_nothing_is_found(capsys):
    argv = ["dog", "generate", "--win-probability", "0.99:1", "--size", "3x3", "--turns", "1"]
    assert main([*argv, "--max-tries", "5"]) == 2
    assert "no forest of seeds 0 to 4" in capsys.readouterr().err
    assert main(["dog", "generate", "--size", "3x3", "--max-tries", "5"]) == 2
    assert "--max-tries needs --win-probability" in capsys.readouterr().err
