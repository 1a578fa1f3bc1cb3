"""Calibrating the six solo levels of forest guardians: win rates with a fixed agent budget.

Every level is played ``--games`` times by ``--agent`` (default: the game's strongest agent as
its spec declares it, at its own play budget); game ``g`` of a level is
``solo_game_record(level, agent, seed, g, iterations)`` (:mod:`solver.games.guardians.solo_runs`),
the same game ``forest guardians solo --seed S`` plays. Games run in ``--jobs`` local processes;
each finished game is appended at once to ``--record`` (JSON lines: level, game, score, tasks
met), so a long run can be stopped and resumed (games already recorded are not played again)
and the table can be written from what was played (``--table-only``). Games go level by level
within each game index (game 0 of levels 1..6, then game 1, ...), so a run cut short has about
as many games at every level.

The markdown file goes to ``--out`` and stdout: the command, the run time and the machine, then
per level its threshold, its tasks, the wins with the Wilson 95% interval and the score's
min/median/max, then how often each level task was met, then the calibration targets checked
on the table (:func:`targets`).

The committed table (``bench/results/guardians_levels.md``) says the command that made it.
The tasks were chosen from a pilot run (``--pilot``: level 1 games with the score at the end of
every round and the round each candidate task would be met; :func:`pilot_game`,
:func:`task_round`; ``bench/results/guardians_levels_pilot.md``).

``make test`` reads the committed table back (:func:`parse_table`): its shape, its tasks equal
to ``puzzles/guardians/levels.json``'s, and the targets; and plays a 5-game smoke run per level.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchkit import publish

from solver.games.guardians.solo import default_levels
from solver.games.guardians.solo_runs import SoloReport, solo_game_record, solo_report
from solver.stats import wilson_interval

__all__ = [
    "HEADER",
    "TASK_HEADER",
    "measure",
    "parse_table",
    "reports_of",
    "table_lines",
    "targets",
    "task_lines",
    "tasks_text",
]

HEADER = (
    "| level | threshold | tasks | games | wins | win rate | 95% interval | "
    "score min | median | max | every task met |"
)
TASK_HEADER = "| level | task | met | share | 95% interval |"


def tasks_text(level: int) -> str:
    """The level's tasks as one table cell: ``long_mission length=3; start_tile``."""
    return "; ".join(_task_text(task) for task in default_levels()[level - 1].tasks)


def _task_text(task: Any) -> str:
    fields = [f"{k}={v}" for k, v in task.to_dict().items() if k != "kind"]
    return " ".join([task.kind, *fields])


def _play(item: tuple[int, int, str, int, int | None]) -> dict[str, Any]:
    level, g, agent, seed, iterations = item
    score, met = solo_game_record(level, agent, seed, g, iterations)
    return {"level": level, "game": g, "score": score, "tasks": list(met)}


def measure(
    *,
    games: int,
    iterations: int | None = None,
    agent: str | None = None,
    seed: int = 0,
    jobs: int = 2,
    record: str | os.PathLike[str] | None = None,
    levels: Iterable[int] = range(1, 7),
) -> list[dict[str, Any]]:
    """Play games 0..``games``-1 of every level (in ``jobs`` processes), skipping those
    ``record`` already holds and appending each new one to it as it ends; every game's
    record (level, game, score, tasks met), those of ``record`` included."""
    agent = agent or _default_agent()
    done = read_records(record) if record is not None else []
    have = {(r["level"], r["game"]) for r in done}
    todo = [
        (level, g, agent, seed, iterations)
        for g in range(games)
        for level in levels
        if (level, g) not in have
    ]
    out = list(done)
    sink = open(record, "a", encoding="utf-8") if record is not None else None  # noqa: SIM115
    try:
        if jobs > 1 and len(todo) > 1:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                for row in pool.imap_unordered(_play, todo):
                    out.append(_keep(row, sink))
        else:
            for item in todo:
                out.append(_keep(_play(item), sink))
    finally:
        if sink is not None:
            sink.close()
    return out


def _keep(row: dict[str, Any], sink: Any) -> dict[str, Any]:
    if sink is not None:
        sink.write(json.dumps(row) + "\n")
        sink.flush()
    return row


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The game records of a ``--record`` file (none if it does not exist); a line cut short
    by a stopped run is skipped."""
    if not Path(path).exists():
        return []
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def _default_agent() -> str:
    from solver.games.guardians import SPEC

    return SPEC.strongest_agent


def reports_of(
    records: list[dict[str, Any]], agent: str, seed: int, iterations: int | None
) -> list[tuple[SoloReport, list[list[bool]]]]:
    """Per level with games: its report and each game's tasks met, on the games 0..n-1 that
    every level has (a run cut short reports the same games everywhere)."""
    by_level: dict[int, dict[int, dict[str, Any]]] = {}
    for r in records:
        by_level.setdefault(r["level"], {})[r["game"]] = r
    n = min((_prefix(games) for games in by_level.values()), default=0)
    out = []
    for level in range(1, 7):
        rows = [by_level[level][g] for g in range(n)] if level in by_level else []
        if not rows:
            continue
        report = solo_report(level, agent, seed, iterations, [r["score"] for r in rows])
        out.append((report, [list(r["tasks"]) for r in rows]))
    return out


def _prefix(games: dict[int, Any]) -> int:
    n = 0
    while n in games:
        n += 1
    return n


def table_lines(reports: list[tuple[SoloReport, list[list[bool]]]]) -> list[str]:
    """The markdown level table (header, rule, one row per level)."""
    lines = [HEADER, _rule(HEADER)]
    for r, met in reports:
        every = sum(all(m) for m in met)
        lines.append(
            f"| {r.level} | {r.threshold} | {tasks_text(r.level)} | {r.games} | {r.wins} | "
            f"{r.win_rate:.3f} | [{r.ci_low:.3f}, {r.ci_high:.3f}] | {min(r.scores)} | "
            f"{statistics.median(r.scores):g} | {max(r.scores)} | {every} |"
        )
    return lines


def task_lines(reports: list[tuple[SoloReport, list[list[bool]]]]) -> list[str]:
    """How often each level task was met: a row per level and task."""
    lines = [TASK_HEADER, _rule(TASK_HEADER)]
    for r, met in reports:
        for i, task in enumerate(default_levels()[r.level - 1].tasks):
            k = sum(m[i] for m in met)
            low, high = wilson_interval(k, len(met))
            lines.append(
                f"| {r.level} | {_task_text(task)} | {k}/{len(met)} | {k / len(met):.3f} | "
                f"[{low:.3f}, {high:.3f}] |"
            )
    return lines


def _rule(header: str) -> str:
    return "|" + "---|" * (header.count("|") - 1)


ROW = re.compile(
    r"^\| (\d) \| (\d+) \| ([^|]+) \| (\d+) \| (\d+) \| ([\d.]+) \| \[([\d.]+), ([\d.]+)\] \| "
    r"(\d+) \| ([\d.]+) \| (\d+) \| (\d+) \|$"
)


def parse_table(text: str) -> list[dict[str, Any]]:
    """The rows of a committed table, as dicts; ``ValueError`` when its shape is wrong."""
    lines = text.splitlines()
    try:
        start = lines.index(HEADER)
    except ValueError:
        raise ValueError("no level table header") from None
    if lines[start + 1] != _rule(HEADER):
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
                "every_task": int(g[11]),
            }
        )
    if len(rows) != 6:
        raise ValueError(f"expected 6 level rows, found {len(rows)}")
    return rows


def targets(rows: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """The calibration targets (issue 20's aims), each with whether the table's rows (as
    :func:`parse_table` gives them) meet it."""
    rates = [r["win_rate"] for r in rows]
    return [
        (
            "the win rate falls level by level (each level below the one before)",
            all(a > b for a, b in itertools.pairwise(rates)),
        ),
        ("level 1 is won in at least 80% of games", rates[0] >= 0.8),
        ("level 6 is won in at most 15% of games", rates[-1] <= 0.15),
        (
            "no level has its tasks met in every game",
            all(r["every_task"] < r["games"] for r in rows),
        ),
    ]


def _agent_text(agent: str, iterations: int | None) -> str:
    if agent == "planner":
        return (
            "Agent `planner` (the game's default): the solo turn planner (a fixed budget per "
            "turn: the best 20 single placements paired, 16 completing pairs, 20 other pairs and "
            "8 take-1 placements searched to the end of the turn, hidden backs by expectation; "
            "deterministic)"
        )
    if agent == "mcts":
        budget = "its default" if iterations is None else str(iterations)
        return (
            f"Agent `mcts`, {budget} MCTS simulations per decision (the planner's evaluation "
            "at the end of the turn; mission steps play the exact plan)"
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


def pilot_game(seed: int, index: int, agent: str | None = None) -> dict[str, Any]:
    """Game ``index`` of ``forest guardians solo --level 1 --agent AGENT --seed S``, with the
    score and the forest's size at the end of every round and the completed missions ``(tile,
    pawn, round, points, walk length)``: what the level tasks could do to it."""
    from solver.agents import make_agent
    from solver.game import sample_chance
    from solver.registry import load_game
    from solver.rng import SplitMix64, derive_seed

    game = load_game("guardians", players=1, level=1)
    game_seed = derive_seed(seed, index)
    player = make_agent(agent or _default_agent(), game, seed=derive_seed(game_seed, 1))
    rng = SplitMix64(game_seed)
    state: Any = game.new_initial_state()
    by_round: dict[int, int] = {}
    forest: dict[int, int] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        by_round.setdefault(state.round - 1, state.score(0))  # before the round's first move
        forest.setdefault(state.round - 1, len(state.people[0].forest))
        state.apply_action(player(state))
    by_round[state.round] = state.score(0)
    forest[state.round] = len(state.people[0].forest)
    pile = [
        (t, p, r, state.tile(t).points, state.tile(t).walk_length)
        for t, p, r in state.people[0].pile
    ]
    return {"by_round": by_round, "forest": forest, "pile": pile}


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
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="games per level (default 200)")
    p.add_argument("--iterations", type=int, default=None, help="an MCTS agent's budget")
    p.add_argument("--agent", default=None, help="default: the game's strongest agent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default=None)
    p.add_argument("--record", default=None, help="JSON lines of every game (resumable)")
    p.add_argument("--table-only", action="store_true", help="the table from --record alone")
    p.add_argument("--pilot", action="store_true", help="level 1 games, per-round scores")
    args = p.parse_args(argv)
    args.agent = args.agent or _default_agent()
    if args.pilot:
        return _pilot(args, argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    started = time.perf_counter()
    if args.table_only:
        if args.record is None:
            p.error("--table-only needs --record")
        records = read_records(args.record)
    else:
        records = measure(
            games=args.games, iterations=args.iterations, agent=args.agent, seed=args.seed,
            jobs=args.jobs, record=args.record,
        )  # fmt: skip
    seconds = time.perf_counter() - started
    reports = reports_of(records, args.agent, args.seed, args.iterations)
    given = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--table-only"]
    command = " ".join(["python bench/guardians_levels.py", *given])
    lines = [
        "# Forest guardians: solo level calibration",
        "",
        f"Made by `{command}` ({_took(args.table_only, seconds)}; "
        f"{args.jobs} processes on a machine with {os.cpu_count()} cores shared with other "
        f"work, load average {load:.1f} at the start; Python {platform.python_version()}, "
        f"{platform.machine()}).",
        f"{_agent_text(args.agent, args.iterations)}; game g of every level is `forest guardians "
        f"solo --level L --agent {args.agent} --seed {args.seed}`'s game g.",
        "",
        *table_lines(reports),
        "",
        "How often each level task was met (each met task adds a round to the 12):",
        "",
        *task_lines(reports),
        "",
    ]
    if len(reports) == 6:
        checks = targets(parse_table("\n".join(table_lines(reports))))
        lines += [
            "Targets:",
            "",
            *[f"- {name}: {'met' if ok else 'NOT met'}" for name, ok in checks],
            "",
        ]
    publish("\n".join(lines), args.out)
    return 0


def _took(table_only: bool, seconds: float) -> str:
    if table_only:
        return "the table of the games its --record file holds, re-read with --table-only"
    return f"{seconds:.0f} s"


def _pilot(args: argparse.Namespace, argv: list[str] | None) -> int:
    started = time.perf_counter()
    if args.jobs > 1:
        from joblib import Parallel, delayed

        games = Parallel(n_jobs=args.jobs, backend="loky")(
            delayed(pilot_game)(args.seed, g, args.agent) for g in range(args.games)
        )
    else:
        games = [pilot_game(args.seed, g, args.agent) for g in range(args.games)]
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
    publish("\n".join(lines), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
