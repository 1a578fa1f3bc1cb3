"""Dog-game engine speed: the compiled kernel against the reference, measured in the same run.

Run with ``make bench`` (or ``pytest bench/test_bench_dog.py --benchmark-enable -s``). Measured on
the curated 9x9 forest ``dog/open-meadow-9x9``:

* actions/s of a seeded random playout loop (chance sampled by its probabilities, decisions
  uniformly) three ways: the kernel's C loop (``solver._ext.dog.random_playouts``), the kernel
  through the Python protocol, and the reference (the baseline); the ratios go to
  ``benchmark.extra_info`` and are printed;
* the size of a state (the C struct, and the Python object that holds it) and the time to copy
  one: a ``memcpy`` in C, ``clone()`` in Python, and the reference's ``clone()``.

Nothing here asserts a wall-clock time: timings depend on the machine.
"""

from __future__ import annotations

import random
import sys

import pytest
from benchkit import PlayoutRates

from solver import puzzles
from solver.games.dog.kernel import KernelDogGame
from solver.games.dog.rules import DogGame

try:  # absent: require_kernels (tests/conftest.py) skips these benches, or fails them under CI
    from solver._ext import dog
except ImportError:
    dog = None

pytestmark = pytest.mark.usefixtures("require_kernels")

FOREST = "dog/open-meadow-9x9"
SEED = 2024
GAMES = {"c-loop": 20_000, "kernel-python": 2_000, "reference": 200}  # about 0.1 s each


def python_playouts(game, n_games: int, seed: int) -> tuple[int, int, int]:
    """The random playout loop over the Python protocol: (games, actions applied, wins)."""
    rnd = random.Random(seed).random
    actions = wins = 0
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # solver.rng.weighted_index's sums, inline: a call and a list per chance node
                # would add ~40% to the kernel's protocol time this bench measures
                outcomes = state.chance_outcomes()
                u = rnd()
                action = outcomes[-1][0]
                acc = 0.0
                for outcome, probability in outcomes:
                    acc += probability
                    if u < acc:
                        action = outcome
                        break
            else:
                legal = state.legal_actions()
                action = legal[int(rnd() * len(legal))]
            state.apply_action(action)
            actions += 1
        if state.returns()[0] == 1.0:
            wins += 1
    return n_games, actions, wins


RATES = PlayoutRates(
    GAMES,
    SEED,
    lambda: KernelDogGame(puzzles.load(FOREST)),
    lambda: DogGame(puzzles.load(FOREST)),
    lambda game, n, seed: dog.random_playouts(game, n, seed),
    python_playouts,
)


@pytest.mark.parametrize("way", PlayoutRates.WAYS)
def test_playout_actions_per_second(benchmark, way):
    _, _, wins = RATES.benchmark(benchmark, way, rounds=5)
    benchmark.extra_info.update(forest=FOREST, wins=wins)


def test_ratios(benchmark, capsys):
    """Kernel against reference, in this run; printed and kept in ``extra_info``."""
    state = KernelDogGame(puzzles.load(FOREST)).new_initial_state()
    benchmark(state.clone)  # something to time; the point of this test is the ratios
    with capsys.disabled():
        ratios = RATES.report(benchmark, f"dog playouts on {FOREST}")
    assert all(r > 0 for r in ratios.values())


# -- state size and copy time ----------------------------------------------------------------------
def _mid_game_state(game):
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _deep_size(obj, seen=None) -> int:
    """Bytes of ``obj`` and what it holds (instance dict, sets, tuples), the forest excepted."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, (DogGame, KernelDogGame)):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(_deep_size(k, seen) + _deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, (set, frozenset, tuple, list)):
        size += sum(_deep_size(v, seen) for v in obj)
    elif hasattr(obj, "__dict__"):
        size += _deep_size(
            {k: v for k, v in vars(obj).items() if k not in ("game", "forest")}, seen
        )
    return size


def test_state_size(benchmark, capsys):
    forest = puzzles.load(FOREST)
    kernel_state = _mid_game_state(KernelDogGame(forest))
    reference_state = _mid_game_state(DogGame(forest))
    python_object = sys.getsizeof(kernel_state)
    sizes = {
        "kernel struct (STATE_SIZE)": dog.STATE_SIZE,
        "kernel Python object (sys.getsizeof, holds the struct inline)": python_object,
        "kernel getsizeof + STATE_SIZE": python_object + dog.STATE_SIZE,
        "reference state (deep)": _deep_size(reference_state),
    }
    benchmark(sys.getsizeof, kernel_state)
    benchmark.extra_info.update(sizes)
    with capsys.disabled():
        print("\ndog state sizes (bytes):")
        for name, size in sizes.items():
            print(f"  {name:62s} {size:6d}")
    assert dog.STATE_SIZE == 120


def test_copy_struct_in_c(benchmark):
    state = _mid_game_state(KernelDogGame(puzzles.load(FOREST)))
    n = 1_000_000
    benchmark(dog.copy_loop, state, n)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        benchmark.extra_info["ns per memcpy"] = stats.stats.min / n * 1e9


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_clone(benchmark, engine):
    forest = puzzles.load(FOREST)
    game = KernelDogGame(forest) if engine == "kernel" else DogGame(forest)
    state = _mid_game_state(game)
    copy = benchmark(state.clone)
    assert copy.to_json() == state.to_json()
