"""The Trial's reference and compiled games side by side, for the tests comparing them."""

from __future__ import annotations

import pytest

from solver.games.trial.rules import TrialGame


@pytest.fixture(scope="module")
def games(require_kernels: None) -> dict[int, tuple[TrialGame, object]]:
    """``{players: (reference game, compiled game)}`` for 2, 3 and 4 players (a test module may
    declare its own ``games``)."""
    from solver.games.trial.kernel import KernelTrialGame

    return {n: (TrialGame(players=n), KernelTrialGame(players=n)) for n in (2, 3, 4)}
