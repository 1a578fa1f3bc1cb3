"""Forest guardians engine speed: the compiled kernel against the reference, in the same run.

Run with ``make bench`` (or ``pytest bench/test_bench_guardians.py --benchmark-enable -s``).
Fresh three-player games:

* actions/s of a seeded random playout loop (chance sampled by its probabilities, decisions
  uniformly) three ways: the kernel's C loop (``solver._ext.guardians.random_playouts``), the
  kernel through the Python protocol, and the reference (the baseline); the ratios go to
  ``benchmark.extra_info`` and are printed;
* ``clone()`` on both engines (the kernel's is one ``memcpy`` of ``state_size`` bytes).

Nothing here asserts a wall-clock time. The fuller table (cut vertices, walks, MCTS) is
``bench/guardians_perf.py --kernel``, recorded in ``bench/results/guardians.md``.
"""

from __future__ import annotations

import pytest
from benchkit import PlayoutRates

from solver.games.guardians.kernel import KernelGuardiansGame
from solver.games.guardians.rules import GuardiansGame
from solver.rng import SplitMix64
from solver.testing import random_playouts

try:  # absent: require_kernels (tests/conftest.py) skips these benches, or fails them under CI
    from solver._ext import guardians
except ImportError:
    guardians = None

pytestmark = pytest.mark.usefixtures("require_kernels")

PLAYERS = 3
SEED = 2024
GAMES = {"c-loop": 2_000, "kernel-python": 40, "reference": 8}  # about 0.1-0.3 s each


def python_playouts(game, n_games: int, seed: int) -> tuple[int, int, int]:
    """The random playout loop over the Python protocol: (games, actions, player 0's scores),
    the C loop's draws (``solver.testing.random_playouts``)."""
    played, actions, scores = random_playouts(game, n_games, seed, lambda final: final.score(0))
    return played, actions, int(scores)


RATES = PlayoutRates(
    GAMES,
    SEED,
    lambda: KernelGuardiansGame(PLAYERS),
    lambda: GuardiansGame(PLAYERS),
    lambda game, n, seed: guardians.random_playouts(game, n, seed),
    python_playouts,
)


@pytest.mark.parametrize("way", PlayoutRates.WAYS)
def test_playout_actions_per_second(benchmark, way):
    RATES.benchmark(benchmark, way, rounds=3)


def test_the_loops_play_the_same_games():
    """The C loop and the Python loop on both engines draw the same numbers: same games."""
    c = guardians.random_playouts(KernelGuardiansGame(PLAYERS), 3, SEED)
    assert python_playouts(KernelGuardiansGame(PLAYERS), 3, SEED) == c
    assert python_playouts(GuardiansGame(PLAYERS), 3, SEED) == c


def test_ratios(benchmark, capsys):
    """Kernel against reference, in this run; printed and kept in ``extra_info``."""
    state = KernelGuardiansGame(PLAYERS).new_initial_state()
    benchmark(state.clone)
    with capsys.disabled():
        ratios = RATES.report(benchmark, f"guardians playouts, {PLAYERS} players")
    assert all(r > 0 for r in ratios.values())


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_clone(benchmark, engine):
    game = KernelGuardiansGame(PLAYERS) if engine == "kernel" else GuardiansGame(PLAYERS)
    state = game.new_initial_state()
    rng = SplitMix64(1)
    for _ in range(60):
        state.apply_action(rng.pick(state.legal_actions()))
    copy = benchmark(state.clone)
    assert copy.to_json() == state.to_json()
