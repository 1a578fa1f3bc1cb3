"""What the benches share: timing a call, the kernel-against-reference playout rates, timing
OpenSpiel's ISMCTS bot, and publishing a results table (with the load it ran under).

A bench script run as ``python bench/NAME.py`` imports it as ``benchkit`` (its folder is on the
path); the ``pytest`` benches find it through ``bench/conftest.py``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar


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


Playouts = Callable[[Any, int, int], tuple[int, int, Any]]  # (game, games, seed) -> counts


@dataclass
class PlayoutRates:
    """Actions/s of seeded random playouts three ways, kept for the ratios of the run: the
    kernel's C loop (``"c-loop"``: ``compiled(game, n, seed)``), the kernel through the Python
    protocol (``"kernel-python"``) and the reference (``"reference"``), both by
    ``python_playouts(game, n, seed)``; each answers ``(games, actions, tally)``. ``games`` is
    how many games each way plays a call."""

    WAYS: ClassVar[tuple[str, ...]] = ("c-loop", "kernel-python", "reference")

    games: dict[str, int]
    seed: int
    kernel_game: Callable[[], Any]
    reference_game: Callable[[], Any]
    compiled: Playouts
    python_playouts: Playouts
    rates: dict[str, float] = field(default_factory=dict)

    def runner(self, way: str) -> Callable[[], tuple[int, int, Any]]:
        """A call playing ``way``'s games on a game made now."""
        n = self.games[way]
        if way == "c-loop":
            kernel = self.kernel_game()
            return lambda: self.compiled(kernel, n, self.seed)
        game = self.kernel_game() if way == "kernel-python" else self.reference_game()
        return lambda: self.python_playouts(game, n, self.seed)

    def benchmark(self, benchmark: Any, way: str, rounds: int) -> tuple[int, int, Any]:
        """Time ``way`` under pytest-benchmark (``rounds`` rounds after a warm-up), keep its rate
        and ``extra_info``; its ``(games, actions, tally)``, the games checked."""
        run = self.runner(way)
        games, actions, tally = benchmark.pedantic(
            run, rounds=rounds, iterations=1, warmup_rounds=1
        )
        assert games == self.games[way] and actions > games
        rate = self.rates[way] = actions / seconds_per_call(benchmark, run)
        benchmark.extra_info.update(games=games, actions=actions, actions_per_second=rate)
        return games, actions, tally

    def rate(self, way: str) -> float:
        """Actions/s of ``way`` (measured here if its benchmark has not run in this session)."""
        if way not in self.rates:
            run = self.runner(way)
            self.rates[way] = run()[1] / best_seconds(run)
        return self.rates[way]

    def report(self, benchmark: Any, title: str) -> dict[str, float]:
        """Every way's rate and the kernel's ratios against the reference (and the C loop's
        against the protocol), kept in ``extra_info`` and printed under ``title`` (the caller
        has disabled pytest's capture); the ratios."""
        rates = {way: self.rate(way) for way in self.WAYS}
        ratios = {
            "c-loop / reference": rates["c-loop"] / rates["reference"],
            "kernel-python / reference": rates["kernel-python"] / rates["reference"],
            "c-loop / kernel-python": rates["c-loop"] / rates["kernel-python"],
        }
        benchmark.extra_info.update({f"{w} actions/s": round(r) for w, r in rates.items()})
        benchmark.extra_info.update({k: round(v, 1) for k, v in ratios.items()})
        print(f"\n{title}:")
        for way, rate in rates.items():
            print(f"  {way:14s} {rate:14,.0f} actions/s")
        for name, ratio in ratios.items():
            print(f"  {name:26s} {ratio:8.1f}x")
        return ratios


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


RESULTS = Path(__file__).resolve().parent / "results"
"""``bench/results/``: where the benches' tables are kept."""


def results_text(title: str, intro: str, table: Sequence[str], started: float, note: str) -> str:
    """A results file's text: ``# title``, the ``intro`` paragraph, the ``table`` lines and the
    closing :func:`load_at_end` line."""
    return f"# {title}\n\n{intro}\n\n" + "\n".join(table) + "\n\n" + load_at_end(started, note)


def load_at_end(started: float, note: str) -> str:
    """A results table's closing line: the load average now, ``note`` (how the load bears on the
    figures) and the seconds since ``started`` (a ``time.monotonic()``)."""
    one, five, fifteen = os.getloadavg()
    return (f"Load average at the end: {one:.2f}, {five:.2f}, {fifteen:.2f} ({note}); "
            f"{time.monotonic() - started:.0f} s in all.\n")  # fmt: skip
