"""The compiled SplitMix64 (``ext/rng.pxd``) and its Python twin (``solver/rng.py``) agree.

The searchers' results for a seed depend on the two drawing the same stream: the raw outputs,
the uniform doubles, the bounded indices and the chance draws (``sample_outcome``) are compared
number for number, and the dog
kernel's C playout loop (which draws from ``rng.pxd`` too) is replayed in Python on the
*reference* engine with ``solver.rng.SplitMix64``.
"""

from __future__ import annotations

import pytest

from solver import puzzles
from solver.games.dog.rules import DogGame
from solver.rng import MASK64, SplitMix64, sample_outcome
from solver.testing import random_playouts

try:  # absent: require_kernels skips these tests (fails them under CI)
    from solver._ext import dog, mcts
except ImportError:
    dog = mcts = None

pytestmark = pytest.mark.usefixtures("require_kernels")

SEEDS = [0, 1, 7, 42, 0x9E3779B97F4A7C15, MASK64 - 1, MASK64]


@pytest.mark.parametrize("seed", SEEDS)
def test_raw_outputs_agree(seed):
    rng = SplitMix64(seed)
    assert mcts._splitmix_stream(seed, 200) == [rng.next() for _ in range(200)]


def test_known_outputs():
    # The published first outputs of SplitMix64 seeded with 0.
    assert mcts._splitmix_stream(0, 2) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


@pytest.mark.parametrize("seed", SEEDS)
def test_uniform_doubles_agree(seed):
    rng = SplitMix64(seed)
    compiled = mcts._splitmix_stream(seed, 200, "uniform")
    assert compiled == [rng.uniform() for _ in range(200)]
    assert all(0.0 <= u < 1.0 for u in compiled)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 7, 64, 1000, 2**31 - 1])
@pytest.mark.parametrize("seed", [0, 3, MASK64])
def test_bounded_indices_agree(seed, k):
    rng = SplitMix64(seed)
    compiled = mcts._splitmix_stream(seed, 100, "below", k)
    assert compiled == [rng.below(k) for _ in range(100)]
    assert all(0 <= i < k for i in compiled)


def test_stream_hook_rejects_bad_arguments():
    with pytest.raises(ValueError, match="kind"):
        mcts._splitmix_stream(0, 1, "gauss")
    with pytest.raises(ValueError, match="at least 1"):
        mcts._splitmix_stream(0, 1, "below", 0)
    with pytest.raises(OverflowError):
        mcts._splitmix_stream(-1, 1)


@pytest.mark.parametrize(
    ("name", "seed"), [("dog/tiny-example", 5), ("dog/shout-gauntlet", 11), ("dog/stick", 3)]
)
def test_kernel_playout_loop_draws_the_python_stream(name, seed):
    forest = puzzles.load(name)
    reference = DogGame(forest)
    expected = random_playouts(reference, 60, seed, lambda final: final.returns()[0] == 1.0)
    assert dog.random_playouts(dog.DogKernelGame(forest), 60, seed) == expected


def _distributions(seed: int) -> list[tuple[list[int], list[float]]]:
    """Chance nodes as kernels list them: a die, a stick roll, uneven weights, and probabilities
    whose float sum stops short of 1 (the last outcome takes what rounding leaves)."""
    rng = SplitMix64(seed)
    uneven = [1 + rng.roll(50) for _ in range(1 + rng.roll(40))]
    total = sum(uneven)
    return [
        ([1, 2, 3, 4, 5, 6], [1 / 6] * 6),
        ([10, 11], [2 / 3, 1 / 3]),
        ([7], [1.0]),
        (list(range(len(uneven))), [w / total for w in uneven]),
        ([0, 1, 2], [0.1, 0.1, 0.7999999]),
        ([3, 9], [1e-12, 1.0 - 1e-12]),
    ]


@pytest.mark.parametrize("seed", range(40))
def test_chance_draws_agree(seed):
    for actions, probs in _distributions(seed):
        for stream in (seed, seed * 0x9E3779B97F4A7C15 & MASK64):
            rng = SplitMix64(stream)
            outcomes = list(zip(actions, probs, strict=True))
            python = [sample_outcome(outcomes, rng) for _ in range(300)]
            assert mcts._sample_outcomes(stream, actions, probs, 300) == python


def test_chance_draws_follow_the_probabilities():
    # independent of the twin: 60,000 draws of a 1:2:3 distribution land near 1/6, 2/6, 3/6
    drawn = mcts._sample_outcomes(12345, [4, 5, 6], [1 / 6, 2 / 6, 3 / 6], 60_000)
    for action, share in ((4, 1 / 6), (5, 2 / 6), (6, 3 / 6)):
        assert abs(drawn.count(action) / 60_000 - share) < 0.01
    with pytest.raises(ValueError, match="as many probabilities"):
        mcts._sample_outcomes(0, [1, 2], [1.0], 1)
