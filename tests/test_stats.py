"""The Wilson interval (:func:`solver.stats.wilson_interval`): its bounds at no wins and at every
win are the exact 0 and 1 a reader expects, not a rounding residue."""

from __future__ import annotations

import pytest

from solver.stats import wilson_interval


def test_no_wins_starts_at_zero_and_all_wins_ends_at_one() -> None:
    # Found by attack: play --json printed ci_low 5.551115123125783e-17 for 0 wins of 3 games
    # (863 game counts up to 2000 gave a residue at one end or the other). One test over the
    # 2000 counts, not 2000 tests: the check is a microsecond each.
    for games in range(1, 2001):
        low, high = wilson_interval(0, games)
        assert low == 0.0 and 0.0 < high < 1.0, games
        low, high = wilson_interval(games, games)
        assert high == 1.0 and 0.0 < low < 1.0, games


def test_the_interval_at_half() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-5) and high == pytest.approx(0.59617, abs=1e-5)
