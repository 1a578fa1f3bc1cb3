"""Forest analysis throughput: forests per second per core, and the batch speed-up from workers.

- classification alone (``clairvoyant_samples=0``) and the full analysis at the default budgets of
  :class:`~solver.games.dog.analysis.classify.AnalysisOptions`, on a handful of rolled 9x9 and 12x12
  forests (fixed seeds, 20 turns);
- :func:`~solver.analysis.batch.run_batch` with ``analyse_source`` on 1 and 2 worker processes.

Figures go to ``benchmark.extra_info``; a summary table is printed at the end.

    .venv/bin/python -m pytest bench/test_bench_analysis.py -q -s -p no:cacheprovider \\
        -o addopts="--import-mode=importlib" --benchmark-enable
"""

from __future__ import annotations

import statistics
import time

import pytest

from solver.analysis.batch import Job, run_batch
from solver.games.dog.analysis.classify import AnalysisOptions, analyse_forest, analyse_source
from solver.games.dog.generator import roll_forest

SEEDS = range(5)
BATCH_COUNT = 8
SUMMARY: list[tuple[str, str]] = []


def _analyse_all(size: int, options: AnalysisOptions) -> list[float]:
    seconds = []
    for seed in SEEDS:
        forest = roll_forest(size, size, seed)
        started = time.perf_counter()
        analyse_forest(forest, options, source=f"seed:{seed}")
        seconds.append(time.perf_counter() - started)
    return seconds


@pytest.mark.parametrize("size", [9, 12])
@pytest.mark.parametrize("mode", ["classify", "full"])
def test_bench_analysis(benchmark, size: int, mode: str) -> None:
    options = AnalysisOptions(clairvoyant_samples=0) if mode == "classify" else AnalysisOptions()
    runs: list[list[float]] = []
    benchmark.pedantic(lambda: runs.append(_analyse_all(size, options)), rounds=1, iterations=1)
    per_forest = runs[-1]
    median = statistics.median(per_forest)
    rate = len(per_forest) / sum(per_forest)
    benchmark.extra_info.update(
        size=size,
        mode=mode,
        forests=len(per_forest),
        median_seconds=round(median, 4),
        max_seconds=round(max(per_forest), 4),
        forests_per_second_per_core=round(rate, 3),
    )
    SUMMARY.append(
        (
            f"{mode} {size}x{size}",
            f"median {median:.3f} s  max {max(per_forest):.3f} s  {rate:.2f} forests/s/core",
        )
    )


def test_bench_batch_speedup(benchmark, tmp_path) -> None:
    job = Job.generated(BATCH_COUNT, size=(9, 9), seed=100)
    seconds = {}

    def run(jobs: int) -> None:
        started = time.perf_counter()
        run_batch(job, analyse_source, out=tmp_path / f"r{jobs}.csv", jobs=jobs, progress=False)
        seconds[jobs] = time.perf_counter() - started

    run(1)
    benchmark.pedantic(lambda: run(2), rounds=1, iterations=1)
    speedup = seconds[1] / seconds[2]
    benchmark.extra_info.update(
        forests=BATCH_COUNT,
        seconds_1_worker=round(seconds[1], 3),
        seconds_2_workers=round(seconds[2], 3),
        speedup=round(speedup, 3),
    )
    SUMMARY.append(
        (
            f"batch 9x9 x{BATCH_COUNT}",
            f"1 worker {seconds[1]:.2f} s  2 workers {seconds[2]:.2f} s  speed-up {speedup:.2f}x",
        )
    )
    print("\n\nanalysis benchmark summary")
    for name, text in SUMMARY:
        print(f"  {name:<16} {text}")
