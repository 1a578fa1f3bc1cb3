"""The reference Trial's Python ISMCTS: simulations a second of CPU time, and its budgets.

The reference engine (``solver.load_game("trial", engine="reference")``) is the readable twin of
the compiled kernel; ``forest trial best-move --engine reference`` and a hint naming
``"engine": "reference"`` search it with the Python ISMCTS. On ``--positions`` decision nodes of
the four-player Trial (``trial_ismcts_speed.positions``: seeded random games, spread-out depths):

- **heuristic leaves**: what best-move and hints search the reference with
  (``GameSpec.ismcts_options``: ISMCTS's default leaf, c its default), ``--iterations``
  simulations;
- **heavy playouts**: the ``ismcts`` agent's leaf (``PlayoutEvaluator``, c = 0.4),
  ``--heavy-iterations`` simulations;
- **budget**: a search of ``--seconds`` seconds (heuristic leaves): how far past its budget it
  ended, wall clock (one simulation past it at most).

Each rate is the simulations over the search's CPU seconds (``time.process_time``: the machine
is shared, so wall-clock rates follow its load), the median of ``--repeats`` runs a position,
then the median over the positions; the load (``os.getloadavg``) is quoted before and after.

    nice python bench/trial_reference_speed.py --write bench/results/trial-reference-speed.md
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchkit import publish
from trial_ismcts_speed import positions


def _cpu_rate(search: Callable[[Any, int], Any], state: Any, i: int) -> tuple[float, float]:
    """``(simulations per CPU second, per wall second)`` of one search."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = search(state, i)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return result.iterations / max(cpu, 1e-9), result.iterations / max(wall, 1e-9)


def run(args: argparse.Namespace) -> list[str]:
    import solver
    from solver.games.trial.playouts import PLAYOUT_C, PlayoutEvaluator
    from solver.search.ismcts import ismcts

    load_before = os.getloadavg()
    game = solver.load_game("trial", players=4, engine="reference")
    texts = positions(args.positions, args.seed, 4)
    kinds: dict[str, Callable[[Any, int], Any]] = {
        "heuristic leaves (best-move, hints)": lambda st, i: ismcts(
            st, iterations=args.iterations, seed=i, compiled=False
        ),
        "heavy playouts (the ismcts agent)": lambda st, i: ismcts(
            st,
            iterations=args.heavy_iterations,
            seed=i,
            compiled=False,
            evaluator=PlayoutEvaluator(),
            c=PLAYOUT_C,
        ),
    }
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in kinds}
    overruns: list[float] = []
    for i, text in enumerate(texts):
        state = game.state_from_json(text)
        for name, search in kinds.items():
            runs = [_cpu_rate(search, state, i) for _ in range(args.repeats)]
            rates[name].append(
                (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
            )
        wall = time.perf_counter()
        ismcts(state, seconds=args.seconds, seed=i, compiled=False)
        overruns.append(time.perf_counter() - wall - args.seconds)
    load_after = os.getloadavg()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    lines = [
        "# The reference Trial's Python ISMCTS: simulations a second",
        "",
        f"`python bench/trial_reference_speed.py --positions {args.positions} "
        f"--iterations {args.iterations} --heavy-iterations {args.heavy_iterations} "
        f"--repeats {args.repeats}` at {commit or 'this checkout'}",
        "",
        "| search | simulations / CPU s (median) | simulations / wall s (median) |",
        "|---|---:|---:|",
    ]
    for name, pairs in rates.items():
        cpu_rate = statistics.median(p[0] for p in pairs)
        wall_rate = statistics.median(p[1] for p in pairs)
        lines.append(f"| {name} | {cpu_rate:,.1f} | {wall_rate:,.1f} |")
    late = f"{max(overruns):.3f} s (median {statistics.median(overruns):.3f} s)"
    loads = f"{load_before[0]:.2f} before, {load_after[0]:.2f} after (1-minute average)"
    python = f"Python {platform.python_version()}, {platform.machine()}"
    where = f"{args.positions} positions of the 4-player Trial (seed {args.seed})"
    return [*lines, "",
            f"- a {args.seconds} s search (heuristic leaves) ended at most {late} past its budget, "
            "wall clock: the search reads the clock after each simulation",
            f"- {where}, each rate the median of {args.repeats} runs a position, then over them; "
            f"load {loads}; {python}."]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    for flag, default in (("--positions", 5), ("--iterations", 300), ("--heavy-iterations", 40),
                          ("--repeats", 5), ("--seconds", 0.5), ("--seed", 0)):  # fmt: skip
        parser.add_argument(flag, type=type(default), default=default)
    parser.add_argument("--write", default=None, help="also write the results to this file")
    args = parser.parse_args(argv)
    publish("\n".join(run(args)) + "\n", args.write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
