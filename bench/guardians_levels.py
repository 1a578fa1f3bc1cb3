"""Calibrating the six solo levels of forest guardians: win rates with a fixed agent budget.

Every level is played ``--games`` times by ``--agent`` (default ``planner``: the solo turn
planner, :mod:`solver.games.guardians.planner`, a fixed budget per turn and deterministic;
``mcts`` takes ``--iterations`` simulations per decision); game ``g`` of a level is
``solo_game(level, agent, seed, g, iterations)`` (:mod:`solver.games.guardians.solo_runs`), the
same game ``forest guardians solo --seed S`` plays. Games run in ``--jobs`` local processes
(joblib's loky backend). The markdown file goes to ``--out`` and stdout: the command, the run
time and the machine, then per level its threshold, its tasks, the wins with the Wilson 95%
interval and the score's min/median/max, then the calibration targets checked on the table
(:func:`targets`).

The committed table (``bench/results/guardians_levels.md``) was made by::

    python bench/guardians_levels.py --games 200 --agent planner --jobs 2 --seed 0 \\
        --out bench/results/guardians_levels.md

``make test`` reads the committed table back (:func:`parse_table`): its shape, its tasks equal
to ``puzzles/guardians/levels.json``'s, and the targets; and plays a 5-game smoke run per level.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import re
import statistics
import sys
import time
from typing import Any

from solver.games.guardians.solo import default_levels
from solver.games.guardians.solo_runs import SoloReport, solo_game, solo_report

__all__ = ["HEADER", "measure", "parse_table", "table_lines", "targets", "tasks_text"]

HEADER = (
    "| level | threshold | tasks | games | wins | win rate | 95% interval | "
    "score min | median | max |"
)


def tasks_text(level: int) -> str:
    """The level's tasks as one table cell: ``long_mission length=3; start_tile``."""
    parts = []
    for task in default_levels()[level - 1].tasks:
        fields = [f"{k}={v}" for k, v in task.to_dict().items() if k != "kind"]
        parts.append(" ".join([task.kind, *fields]))
    return "; ".join(parts)


def measure(
    *, games: int, iterations: int, agent: str = "planner", seed: int = 0, jobs: int = 2
) -> list[SoloReport]:
    """Play every level ``games`` times (in ``jobs`` processes); one report per level."""
    jobs_list = [(level, g) for level in range(1, 7) for g in range(games)]
    if jobs > 1:
        from joblib import Parallel, delayed

        scores = Parallel(n_jobs=jobs, backend="loky")(
            delayed(solo_game)(level, agent, seed, g, iterations) for level, g in jobs_list
        )
    else:
        scores = [solo_game(level, agent, seed, g, iterations) for level, g in jobs_list]
    return [
        solo_report(level, agent, seed, iterations, scores[(level - 1) * games : level * games])
        for level in range(1, 7)
    ]


def table_lines(reports: list[SoloReport]) -> list[str]:
    """The markdown table (header, rule, one row per level)."""
    lines = [HEADER, _rule()]
    for r in reports:
        lines.append(
            f"| {r.level} | {r.threshold} | {tasks_text(r.level)} | {r.games} | {r.wins} | "
            f"{r.win_rate:.3f} | [{r.ci_low:.3f}, {r.ci_high:.3f}] | {min(r.scores)} | "
            f"{statistics.median(r.scores):g} | {max(r.scores)} |"
        )
    return lines


def _rule() -> str:
    return "|" + "---|" * (HEADER.count("|") - 1)


ROW = re.compile(
    r"^\| (\d) \| (\d+) \| ([^|]+) \| (\d+) \| (\d+) \| ([\d.]+) \| \[([\d.]+), ([\d.]+)\] \| "
    r"(\d+) \| ([\d.]+) \| (\d+) \|$"
)


def parse_table(text: str) -> list[dict[str, Any]]:
    """The rows of a committed table, as dicts; ``ValueError`` when its shape is wrong."""
    lines = text.splitlines()
    try:
        start = lines.index(HEADER)
    except ValueError:
        raise ValueError("no level table header") from None
    if lines[start + 1] != _rule():
        raise ValueError("the table's rule line is wrong")
    rows = []
    for line in lines[start + 2 : start + 8]:
        m = ROW.match(line)
        if m is None:
            raise ValueError(f"bad table row: {line!r}")
        g = m.groups()
        rows.append(
            {
                "level": int(g[0]),
                "threshold": int(g[1]),
                "tasks": g[2],
                "games": int(g[3]),
                "wins": int(g[4]),
                "win_rate": float(g[5]),
                "ci_low": float(g[6]),
                "ci_high": float(g[7]),
                "score_min": int(g[8]),
                "score_median": float(g[9]),
                "score_max": int(g[10]),
            }
        )
    if len(rows) != 6:
        raise ValueError(f"expected 6 level rows, found {len(rows)}")
    return rows


def targets(rows: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """The calibration targets, each with whether the table's rows (as :func:`parse_table`
    gives them, or reports turned into such rows) meet it."""
    rates = [r["win_rate"] for r in rows]
    first, last = rows[0], rows[-1]
    return [
        (
            "the win rate falls from level 1 to level 6 (never rises from a level to the next)",
            all(a >= b for a, b in itertools.pairwise(rates)) and rates[0] > rates[-1],
        ),
        ("level 1 is won more often than not", first["win_rate"] > 0.5),
        ("level 6 is won at least once", last["wins"] >= 1),
        (
            "the 95% intervals of levels 1 and 6 do not overlap",
            last["ci_high"] < first["ci_low"],
        ),
    ]


def _row(report: SoloReport) -> dict[str, Any]:
    return {"win_rate": report.win_rate, "wins": report.wins, "ci_low": report.ci_low,
            "ci_high": report.ci_high}  # fmt: skip


def _agent_text(agent: str, iterations: int) -> str:
    if agent == "planner":
        return (
            "Agent `planner`: the solo turn planner (a fixed budget per turn: the best 20 single "
            "placements paired, 16 completing pairs, 20 other pairs and 8 take-1 placements "
            "searched to the end of the turn; deterministic)"
        )
    if agent == "mcts":
        return (
            f"Agent `mcts`, {iterations} MCTS simulations per decision (heuristic leaves; "
            "mission steps play the exact plan)"
        )
    return f"Agent `{agent}`"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--agent", default="planner")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    started = time.perf_counter()
    reports = measure(
        games=args.games, iterations=args.iterations, agent=args.agent, seed=args.seed,
        jobs=args.jobs,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    command = " ".join(["python bench/guardians_levels.py", *(argv or sys.argv[1:])])
    checks = targets([_row(r) for r in reports])
    lines = [
        "# Forest guardians: solo level calibration",
        "",
        f"Made by `{command}` in {seconds:.0f} s ({args.jobs} processes on a machine with "
        f"{os.cpu_count()} cores shared with other work, load average {load:.1f} at the start; "
        f"Python {platform.python_version()}, {platform.machine()}).",
        f"{_agent_text(args.agent, args.iterations)}; game g of every level is `forest guardians "
        f"solo --level L --agent {args.agent} --seed {args.seed}`'s game g.",
        "",
        *table_lines(reports),
        "",
        "Targets:",
        "",
        *[f"- {name}: {'met' if ok else 'NOT met'}" for name, ok in checks],
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
