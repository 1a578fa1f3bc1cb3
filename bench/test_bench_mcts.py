"""MCTS simulations per second on a 9x9 forest: the compiled loop against the Python adapter.

Both run in the same session on the same position (the rolled 9x9 forest of seed 7, after a
roll of 2 steps) with the same seed. The adapter on the reference engine is the baseline; the
ratio is in ``extra_info``. Run with ``make bench`` (or ``pytest bench --benchmark-enable``).
"""

from __future__ import annotations

import time

import pytest

import solver
from solver.search.mcts import mcts

PUZZLE = "dog/rolled-9x9-seed7"
BUDGET = 1_000  # simulations in the side-by-side comparison (the adapter takes ~1 s)
KERNEL_BUDGET = 50_000  # simulations per benchmarked kernel search (a deeper tree)
ROLL_2 = 11


def _forest():
    try:
        return solver.puzzles.load(PUZZLE)
    except (FileNotFoundError, OSError):  # the curated copy is the same rolled forest
        from solver.games.dog.generator import roll_forest

        return roll_forest(9, 9, seed=7)


def _root(engine: str):
    game = solver.load_game("dog", forest=_forest(), engine=engine)
    state = game.new_initial_state()
    state.apply_action(ROLL_2)
    return state


def _best_rate(state, iterations: int, repeat: int, **options) -> tuple[float, object]:
    best = None
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = mcts(state, iterations=iterations, seed=0, **options)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return iterations / best, result


@pytest.fixture(scope="module")
def kernel_state(require_kernels):
    return _root("kernel")


def test_bench_mcts_kernel_vs_adapter(benchmark, kernel_state):
    reference_state = _root("reference")
    adapter_rate, adapter = _best_rate(reference_state, BUDGET, repeat=1)
    kernel_rate, kernel = _best_rate(kernel_state, BUDGET, repeat=20)
    assert kernel.extra["engine"] == "kernel" and adapter.extra["engine"] == "python"
    assert kernel.same_search(adapter)  # the same algorithm, step by step
    result = benchmark.pedantic(
        mcts, args=(kernel_state,), kwargs={"iterations": KERNEL_BUDGET, "seed": 0}, rounds=5
    )
    deep_rate, _ = _best_rate(kernel_state, KERNEL_BUDGET, repeat=3)
    benchmark.extra_info.update(
        {
            "forest": kernel_state.forest.name,
            "budget": BUDGET,
            "adapter_simulations_per_s": round(adapter_rate),
            "kernel_simulations_per_s": round(kernel_rate),
            "ratio_kernel_over_adapter": round(kernel_rate / adapter_rate, 1),
            "kernel_budget": KERNEL_BUDGET,
            "kernel_simulations_per_s_deep": round(deep_rate),
            "kernel_nodes_deep": result.nodes,
        }
    )


def test_bench_mcts_kernel_heuristic(benchmark, kernel_state):
    rollout_rate, _ = _best_rate(kernel_state, KERNEL_BUDGET, repeat=3)
    result = benchmark.pedantic(
        mcts,
        args=(kernel_state,),
        kwargs={"iterations": KERNEL_BUDGET, "seed": 0, "evaluator": "heuristic"},
        rounds=5,
    )
    heuristic_rate, _ = _best_rate(kernel_state, KERNEL_BUDGET, repeat=3, evaluator="heuristic")
    benchmark.extra_info.update(
        {
            "forest": kernel_state.forest.name,
            "kernel_budget": KERNEL_BUDGET,
            "rollout_simulations_per_s": round(rollout_rate),
            "heuristic_simulations_per_s": round(heuristic_rate),
            "ratio_heuristic_over_rollout": round(heuristic_rate / rollout_rate, 2),
            "heuristic_nodes": result.nodes,
        }
    )
