"""`forest analyse` on guardians positions and Trial set-ups (issue 22 §1): each game's analysis
as it was (the step that dominated its profile put back) against this checkout, in one process,
on the same instances, with the same rows.

    nice -n 10 .venv/bin/python bench/analysis_games.py [--groves 60 --setups 6 --rounds 3] \\
        [-o bench/results/analysis-games.md]

* guardians: rolled 6x5 positions (the default ``--size``). Before: the connectivity rule asked by
  a flood fill of the forest without the tile, once per candidate pawn and position of the best-
  order search (the old ``splits_forest``, written out here); now: the forest's cut vertices in
  one depth-first pass, remembered per forest. (The walk search's colour table, read once per
  question since, speeds both sides alike: it is not in the ratio.)
* the Trial: rolled 2-player set-ups of 4 games (the default ``--size 2x4``). Before: the games on
  the reference engine; now: on the kernel engine (compiled copy, movement and scoring).

CPU seconds of this process (``time.process_time``), medians over the rounds (before and now
alternate); the top functions of a profile of each side (``cProfile``, own time) show what is left.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import statistics
import time
from collections.abc import Callable, Collection, Iterator
from typing import Any


def _flood_fill_splits(cells: Collection[Any], removed: Any) -> bool:
    from solver.games.guardians.connectivity import is_connected

    rest = set(cells)
    rest.discard(removed)
    return not is_connected(rest)


@contextlib.contextmanager
def _guardians_before() -> Iterator[None]:
    import solver.games.guardians.connectivity as connectivity
    import solver.games.guardians.rules as rules

    saved = rules.splits_forest, connectivity.splits_forest
    rules.splits_forest = connectivity.splits_forest = _flood_fill_splits
    try:
        yield
    finally:
        rules.splits_forest, connectivity.splits_forest = saved


@contextlib.contextmanager
def _trial_before() -> Iterator[None]:
    import solver.games.trial.kernel as kernel
    from solver.games.trial.rules import TrialGame

    saved = kernel.KernelTrialGame
    kernel.KernelTrialGame = TrialGame  # type: ignore[misc, assignment]
    try:
        yield
    finally:
        kernel.KernelTrialGame = saved  # type: ignore[misc]


def _guardians_work(count: int) -> Callable[[], list[dict[str, Any]]]:
    from solver.games.guardians.analysis import analyse_grove, roll_grove

    groves = [roll_grove(seed, 6, 5) for seed in range(count)]
    return lambda: [analyse_grove(g) for g in groves]


def _trial_work(count: int) -> Callable[[], list[dict[str, Any]]]:
    from solver.games.trial.analysis import TrialSetup, analyse_setup

    setups = [TrialSetup(seed, 2, 4) for seed in range(count)]
    return lambda: [analyse_setup(s) for s in setups]


def _cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    from solver.games.guardians.connectivity import _pieces

    _pieces.cache_clear()  # no side starts with the forests of an earlier round remembered
    started = time.process_time()
    rows = work()
    return time.process_time() - started, rows


def _top(work: Callable[[], Any], lines: int = 6) -> list[str]:
    profile = cProfile.Profile()
    profile.enable()
    work()
    profile.disable()
    stats = pstats.Stats(profile, stream=io.StringIO())
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    out = []
    for (path, line, name), (_, _, own, _, _) in rows[:lines]:
        where = path.split("/solver/")[-1] if "/solver/" in path else os.path.basename(path)
        out.append(f"{where}:{line} `{name}` {100 * own / total:.0f}%")
    return out


def compare(name: str, work: Callable[[], Any], before: Any, rounds: int) -> list[str]:
    work()  # warm: imports, tables
    times: dict[str, list[float]] = {"before": [], "now": []}
    for round_ in range(rounds):
        for side in ("before", "now") if round_ % 2 == 0 else ("now", "before"):
            with before() if side == "before" else contextlib.nullcontext():
                seconds, rows = _cpu(work)
            times[side].append(seconds)
            if side == "before":
                old_rows = rows
            else:
                new_rows = rows
        if old_rows != new_rows:
            raise SystemExit(f"{name}: the rows differ between before and now")
    with before():
        top_before = _top(work)
    top_now = _top(work)
    b, n = statistics.median(times["before"]), statistics.median(times["now"])
    return [
        f"| {name} | {b:.2f} | {n:.2f} | **{b / n:.1f}x** | {'; '.join(top_before[:4])} "
        f"| {'; '.join(top_now[:4])} |"
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groves", type=int, default=60)
    parser.add_argument("--setups", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-o", "--output", default=None)
    args = parser.parse_args(argv)
    load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    lines = [
        "# `forest analyse` on guardians and the Trial: before and now",
        "",
        f"`bench/analysis_games.py --groves {args.groves} --setups {args.setups} --rounds "
        f"{args.rounds}`: CPU seconds of one process, medians of {args.rounds} rounds, the same "
        "rows on both sides (checked each round).",
        "",
        "| analysis | before s | now s | speed-up | profile before (own time) | profile now |",
        "|---|---|---|---|---|---|",
    ]
    lines += compare(f"guardians: {args.groves} rolled 6x5 positions",
                     _guardians_work(args.groves), _guardians_before, args.rounds)  # fmt: skip
    lines += compare(f"Trial: {args.setups} rolled 2-player set-ups of 4 games",
                     _trial_work(args.setups), _trial_before, args.rounds)  # fmt: skip
    end = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    lines += ["", f"Load (1, 5, 15 minutes) at the start: {load}; at the end: {end} "
              f"({os.cpu_count()} CPUs).", ""]  # fmt: skip
    text = "\n".join(lines)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    print(text)


if __name__ == "__main__":
    main()
