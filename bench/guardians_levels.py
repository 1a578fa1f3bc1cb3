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

The tasks were chosen from a pilot run (``bench/results/guardians_levels_pilot.md``, made by
``python bench/guardians_levels.py --pilot --games 200 --jobs 2 --seed 1000 --out
bench/results/guardians_levels_pilot.md``): level 1 games with the score at the end of every
round and the round each candidate task would be met (:func:`pilot_game`, :func:`task_round`).

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


#: The tasks the pilot reports on: (label, kind, parameter, pawn colour).
PILOT_TASKS = (
    ("long_mission length=3", "long_mission", 3, -1),
    ("long_mission length=4", "long_mission", 4, -1),
    ("long_mission length=5", "long_mission", 5, -1),
    ("start_tile", "start_tile", 0, -1),
    ("missions_in_turn count=2", "missions_in_turn", 2, -1),
    ("missions_in_turn count=3", "missions_in_turn", 3, -1),
    ("all_colours", "all_colours", 0, -1),
    ("colour_points colour=blue points=10", "colour_points", 10, 0),
    ("colour_points colour=green points=12", "colour_points", 12, 1),
    ("colour_points colour=red points=10", "colour_points", 10, 3),
)


def pilot_game(seed: int, index: int) -> dict[str, Any]:
    """Game ``index`` of ``forest guardians solo --level 1 --agent planner --seed S``, with the
    score at the end of every round and the completed missions ``(tile, pawn, round, points,
    walk length)``: what the level tasks could do to it."""
    from solver.agents import make_agent
    from solver.game import sample_chance
    from solver.registry import load_game
    from solver.rng import SplitMix64, derive_seed

    game = load_game("guardians", players=1, level=1)
    game_seed = derive_seed(seed, index)
    agent = make_agent("planner", game, seed=derive_seed(game_seed, 1))
    rng = SplitMix64(game_seed)
    state: Any = game.new_initial_state()
    by_round: dict[int, int] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        by_round.setdefault(state.round - 1, state.score(0))  # before the round's first move
        state.apply_action(agent(state))
    by_round[state.round] = state.score(0)
    pile = [
        (t, p, r, state.tile(t).points, state.tile(t).walk_length)
        for t, p, r in state.people[0].pile
    ]
    return {"by_round": by_round, "pile": pile}


def task_round(pile: list[tuple[int, int, int, int, int]], kind: str, value: int, colour: int
               ) -> int | None:  # fmt: skip
    """The round at whose end a task would first be met by these missions (``None``: never)."""
    rounds = sorted({r for _, _, r, _, _ in pile})
    for end in rounds:
        done = [m for m in pile if m[2] <= end]
        if kind == "long_mission":
            ok = any(length >= value for *_, length in done)
        elif kind == "start_tile":
            ok = any(t == 0 for t, *_ in done)
        elif kind == "missions_in_turn":
            ok = any(sum(1 for m in done if m[2] == r) >= value for r in rounds if r <= end)
        elif kind == "all_colours":
            ok = len({p for _, p, *_ in done}) == 4
        else:
            ok = sum(points for _, p, _, points, _ in done if p == colour) >= value
        if ok:
            return end
    return None


def pilot_lines(games: list[dict[str, Any]]) -> list[str]:
    """The pilot's two tables: how often each task is met by rounds 12 and 13, and how often
    the score by the end of rounds 12, 13 and 14 reaches each threshold."""
    n = len(games)
    lines = ["| task | met by round 12 | met by round 13 |", "|---|---|---|"]
    for label, kind, value, colour in PILOT_TASKS:
        met = [task_round(g["pile"], kind, value, colour) for g in games]
        by12 = sum(1 for r in met if r is not None and r <= 12) / n
        by13 = sum(1 for r in met if r is not None and r <= 13) / n
        lines.append(f"| {label} | {by12:.3f} | {by13:.3f} |")
    lines += [
        "",
        "| threshold | score by round 12 | by round 13 | by round 14 |",
        "|---|---|---|---|",
    ]
    for level in default_levels():
        rates = []
        for end in (12, 13, 14):
            reached = 0
            for g in games:
                by_round = {int(k): v for k, v in g["by_round"].items()}
                last = max(by_round)
                reached += by_round[min(end, last)] >= level.threshold
            rates.append(f"{reached / n:.3f}")
        lines.append(f"| {level.threshold} | " + " | ".join(rates) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--agent", default="planner")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default=None)
    p.add_argument("--pilot", action="store_true", help="level 1 games, per-round scores")
    args = p.parse_args(argv)
    if args.pilot:
        return _pilot(args, argv)
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


def _pilot(args: argparse.Namespace, argv: list[str] | None) -> int:
    started = time.perf_counter()
    if args.jobs > 1:
        from joblib import Parallel, delayed

        games = Parallel(n_jobs=args.jobs, backend="loky")(
            delayed(pilot_game)(args.seed, g) for g in range(args.games)
        )
    else:
        games = [pilot_game(args.seed, g) for g in range(args.games)]
    seconds = time.perf_counter() - started
    command = " ".join(["python bench/guardians_levels.py", *(argv or sys.argv[1:])])
    lines = [
        "# Forest guardians: the pilot run behind the level tasks",
        "",
        f"Made by `{command}` in {seconds:.0f} s ({args.jobs} processes, machine shared with "
        "other work). The planner plays level 1 (its tasks are met early, so games last 14 "
        "rounds); game g is `forest guardians solo --level 1 --agent planner "
        f"--seed {args.seed}`'s game g. A task met by the end of round 12 adds round 13, and "
        "a second one met by the end of round 13 adds round 14.",
        "",
        *pilot_lines(games),
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
