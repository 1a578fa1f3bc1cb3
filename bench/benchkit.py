"""What the benches share: timing a call, printing kernel-against-reference rates, timing
OpenSpiel's ISMCTS bot, and publishing a results table.

A bench script run as ``python bench/NAME.py`` imports it as ``benchkit`` (its folder is on the
path); the ``pytest`` benches find it through ``bench/conftest.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_seconds(run: Callable[[], Any], repeats: int = 3) -> float:
    """The shortest wall time of ``repeats`` calls of ``run``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def seconds_per_call(benchmark: Any, run: Callable[[], Any]) -> float:
    """The best time of one call: from pytest-benchmark's stats, or timed here when disabled."""
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        return float(stats.stats.min)
    return best_seconds(run)


class PlayoutRates:
    """Actions/s of the ways a bench plays seeded random playouts (``runner(way)``: a call
    playing them, answering ``(games, actions, tally)``), kept for the ratios of the run."""

    def __init__(self, runner: Callable[[str], Callable[[], tuple[int, int, int]]]) -> None:
        self.runner = runner
        self.rates: dict[str, float] = {}

    def benchmark(self, benchmark: Any, way: str, rounds: int) -> tuple[int, int, int]:
        """Time ``way`` under pytest-benchmark (``rounds`` rounds after a warm-up), keep its rate
        and ``extra_info``; its ``(games, actions, tally)``."""
        run = self.runner(way)
        games, actions, tally = benchmark.pedantic(
            run, rounds=rounds, iterations=1, warmup_rounds=1
        )
        rate = self.rates[way] = actions / seconds_per_call(benchmark, run)
        benchmark.extra_info.update(games=games, actions=actions, actions_per_second=rate)
        return games, actions, tally

    def rate(self, way: str) -> float:
        """Actions/s of ``way`` (measured here if its benchmark has not run in this session)."""
        if way not in self.rates:
            run = self.runner(way)
            self.rates[way] = run()[1] / best_seconds(run)
        return self.rates[way]


def report_rates(
    benchmark: Any, title: str, rates: dict[str, float], ratios: dict[str, float]
) -> None:
    """Keep the actions/s ``rates`` and their ``ratios`` in ``extra_info`` and print them under
    ``title`` (the caller has disabled pytest's capture)."""
    benchmark.extra_info.update({f"{w} actions/s": round(r) for w, r in rates.items()})
    benchmark.extra_info.update({k: round(v, 1) for k, v in ratios.items()})
    print(f"\n{title}:")
    for way, rate in rates.items():
        print(f"  {way:14s} {rate:14,.0f} actions/s")
    for name, ratio in ratios.items():
        print(f"  {name:26s} {ratio:8.1f}x")


def openspiel_ismcts_rate(game: Any, state: Any, iterations: int, seed: int) -> float:
    """Simulations a second of OpenSpiel's ``ISMCTSBot`` (random rollouts, c = 1.4, the
    resampler of ``solver.interop.openspiel``) searching ``state`` of the pyspiel ``game``."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts as os_ismcts
    from open_spiel.python.algorithms import mcts as os_mcts

    from solver.interop import openspiel

    bot = os_ismcts.ISMCTSBot(
        game,
        os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        1.4,
        iterations,
        random_state=np.random.RandomState(seed),
        allow_inconsistent_action_sets=True,
    )
    bot.set_resampler(openspiel.resampler(seed))
    start = time.perf_counter()
    bot.run_search(state)
    return iterations / (time.perf_counter() - start)


def publish(text: str, out: str | None) -> None:
    """Print the results ``text`` and, when ``out`` names a file, write it there as well."""
    print(text)
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)
