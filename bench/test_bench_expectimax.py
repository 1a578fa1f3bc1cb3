"""Exact expectimax on the curated dog forests: compiled kernel against the pure-Python reference.

Both run the plain search (``prune=False``): the pruning search, the kernel's default, is measured
against it in ``bench/exact_scale.py``.

For every curated forest small enough to solve exactly (the kernel's table fits in
``KERNEL_CAP_MB``), one benchmark times the compiled solve; the same run times the reference
solve as the baseline (when the table has at most ``REFERENCE_MAX_NODES`` entries, else the
reference would take minutes) and checks that both give the same answer. ``extra_info`` carries
the entries, the seconds and states (nodes expanded) per second of each engine and the ratio.

    .venv/bin/python -m pytest bench/test_bench_expectimax.py -o addopts="" -p no:cacheprovider
"""

from __future__ import annotations

import functools
import time

import pytest

import solver
from solver import puzzles
from solver.errors import SearchBudgetError
from solver.search.expectimax import expectimax

KERNEL_CAP_MB = 256
REFERENCE_MAX_NODES = 50_000
KERNEL_REPEATS = 3

NAMES = puzzles.names("dog")


def _state(name: str, engine: str):
    return solver.load_game("dog", forest=puzzles.load(name), engine=engine).new_initial_state()


@functools.cache
def _kernel_run(name: str):
    """(result, best seconds of KERNEL_REPEATS) or None when the table outgrows the cap."""
    best = float("inf")
    result = None
    for _ in range(KERNEL_REPEATS):
        state = _state(name, "kernel")
        start = time.perf_counter()
        try:
            result = expectimax(state, memory_mb=KERNEL_CAP_MB, prune=False)
        except SearchBudgetError:
            return None
        best = min(best, time.perf_counter() - start)
    return result, best


@pytest.mark.parametrize("name", NAMES)
def test_bench_expectimax_exact(benchmark, name):
    run = _kernel_run(name)
    if run is None:
        pytest.skip(f"{name}: the exact table needs more than {KERNEL_CAP_MB} MB")
    kernel, kernel_seconds = run
    info = benchmark.extra_info
    info["forest"] = name
    info["value"] = kernel.value
    info["nodes"] = kernel.nodes
    info["expanded"] = kernel.iterations
    info["kernel_seconds"] = kernel_seconds
    info["kernel_states_per_s"] = kernel.iterations / max(kernel_seconds, 1e-9)
    if kernel.nodes <= REFERENCE_MAX_NODES:
        state = _state(name, "reference")
        start = time.perf_counter()
        reference = expectimax(state, memory_mb=4 * KERNEL_CAP_MB)
        reference_seconds = time.perf_counter() - start
        assert reference.same_search(kernel)
        info["reference_seconds"] = reference_seconds
        info["reference_states_per_s"] = reference.iterations / max(reference_seconds, 1e-9)
        info["ratio"] = info["kernel_states_per_s"] / info["reference_states_per_s"]
    else:
        info["reference_seconds"] = None
        info["ratio"] = None
    result = benchmark(
        lambda: expectimax(_state(name, "kernel"), memory_mb=KERNEL_CAP_MB, prune=False)
    )
    assert result.same_search(kernel)
