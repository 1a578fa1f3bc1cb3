"""Playing strength on the Trial: ISMCTS at a fixed budget against heuristic, heuristic, random.

``--games`` four-player games (default 200); the four agents' seats rotate from game to game
(game ``g`` seats agent ``i`` at ``(i + g) mod 4``, as ``forest GAME play`` does), and every game
is a pure function of ``--seed`` and its index (chance and the agents' seeds come from
``derive_seed(derive_seed(seed, g), ...)``). Games run in ``--workers`` local processes (joblib's
loky backend). A win counts 1, a victory shared by k players 1/k; the win rate of an agent is its
wins over the seats it held, with a Wilson 95% interval (the two heuristic seats pooled). The table
(markdown) goes to stdout and, with ``--out``, to a file with the command line that made it::

    python bench/trial_strength.py --games 200 --iterations 64 --workers 2 --seed 0 \\
        --out bench/results/trial-strength.md

With ``--rows FILE`` every finished game is appended to FILE (one JSON line) as soon as it ends,
and games already there are not played again: a run stopped part-way resumes where it stopped, and
``--table-only`` prints the table of the games played so far (a long run on a loaded machine can
report a partial sample honestly). ``--first K`` plays only games K.. (two processes sharing one
rows file can split the range; each game is independent of the others).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

from benchkit import publish

AGENTS = ("ismcts", "heuristic", "heuristic", "random")


def play_one(
    index: int,
    seed: int,
    iterations: int | None,
    engine: str = "kernel",
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Game ``index``: the returns and fame per agent slot (0..3), and the seconds it took."""
    import solver
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    game = solver.load_game("trial", players=4, engine=engine)  # the engines play identical games
    n = 4
    seat_of = [(i + index) % n for i in range(n)]
    agents: list[Any] = [None] * n
    for slot, name in enumerate(AGENTS):
        agent_seed = derive_seed(derive_seed(seed, index), slot + 1)
        if name == "ismcts" and settings:
            from solver.games.trial.playouts import PLAY_SIMULATIONS, ismcts_agent

            budget = PLAY_SIMULATIONS if iterations is None else iterations
            agents[seat_of[slot]] = ismcts_agent(game, seed=agent_seed, iterations=budget,
                                                 **settings)  # fmt: skip
            continue
        agents[seat_of[slot]] = make_agent(name, game, seed=agent_seed, iterations=iterations)
    start = time.perf_counter()
    record = play_game(game, agents, seed=derive_seed(derive_seed(seed, index), 0))
    elapsed = time.perf_counter() - start
    returns = record.final.returns()
    fame = record.final.scores()
    return {
        "index": index,
        "returns": [float(returns[seat_of[s]]) for s in range(n)],
        "fame": [int(fame[seat_of[s]]) for s in range(n)],
        "seconds": elapsed,
        "actions": len(record.actions),
    }


def parse_settings(text: str) -> dict[str, Any]:
    """``depth=8,c=0.3,multiple_observers=1,threads=2`` as the agent's keywords."""
    kinds = {"depth": int, "c": float, "threads": int,
             "multiple_observers": lambda v: bool(int(v))}  # fmt: skip
    out: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        if key not in kinds:
            raise SystemExit(f"unknown setting {key!r}; expected one of {', '.join(kinds)}")
        out[key] = kinds[key](value)
    return out


def describe_agent(iterations: int | None, settings: dict[str, Any] | None = None) -> str:
    """The ``ismcts`` agent's settings in words (``iterations`` None: its play default)."""
    from solver.games.trial import SPEC
    from solver.games.trial.playouts import AGENT_SETTINGS

    budget = SPEC.play_iterations("ismcts") if iterations is None else iterations
    default = " (its play default)" if iterations is None else ""
    changed = (", changed: " + ", ".join(f"{k}={v}" for k, v in settings.items())
               if settings else "")  # fmt: skip
    return (f"ISMCTS at {budget} simulations a decision{default} (the Trial's ismcts agent: "
            f"{AGENT_SETTINGS}{changed})")  # fmt: skip


def table(
    rows: list[dict[str, Any]], iterations: int | None, settings: dict[str, Any] | None = None
) -> list[str]:
    from solver.stats import wilson_interval

    games = len(rows)
    lines = [
        f"{games} four-player games, {describe_agent(iterations, settings)}.",
        "",
        "| agent | seats | wins | win rate | 95% interval (Wilson) | mean fame |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for name in dict.fromkeys(AGENTS):
        slots = [s for s, a in enumerate(AGENTS) if a == name]
        wins = sum(row["returns"][s] for row in rows for s in slots)
        seats = games * len(slots)
        low, high = wilson_interval(wins, seats)
        fame = statistics.mean(row["fame"][s] for row in rows for s in slots)
        lines.append(
            f"| {name} | {seats} | {wins:g} | {wins / seats:.3f} | [{low:.3f}, {high:.3f}] "
            f"| {fame:.1f} |"
        )
    seconds = [row["seconds"] for row in rows]
    lines += [
        "",
        f"Median game: {statistics.median(seconds):.2f} s, "
        f"{statistics.median(row['actions'] for row in rows):.0f} actions (chance included).",
    ]
    return lines


def read_rows(path: str) -> dict[int, dict[str, Any]]:
    """The games already in ``path`` (JSON lines), by index; an absent file holds none."""
    rows: dict[int, dict[str, Any]] = {}
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                rows[int(row["index"])] = row
    return rows


def load() -> str:
    """The 1-, 5- and 15-minute load averages, as ``uptime`` prints them."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--iterations", type=int, default=None, help="the ismcts agent's (default: its own)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", default="kernel", help="kernel (default) or reference")
    parser.add_argument(
        "--settings",
        default="",
        help="the ismcts agent's settings other than its own: depth=D,c=C,multiple_observers=1,"
        "threads=T (comma-separated)",
    )
    parser.add_argument("--out", default=None)
    parser.add_argument("--first", type=int, default=0, help="play games --first.. --games-1")
    parser.add_argument("--rows", default=None, help="JSON lines of finished games (resumable)")
    parser.add_argument(
        "--table-only", action="store_true", help="only the table of the games in --rows"
    )
    args = parser.parse_args(argv)
    from joblib import Parallel, delayed

    settings = parse_settings(args.settings)
    load_before = load()
    start = time.perf_counter()
    done = read_rows(args.rows) if args.rows else {}
    todo = [] if args.table_only else [g for g in range(args.first, args.games) if g not in done]
    games = Parallel(
        n_jobs=args.workers, backend="loky", verbose=5, return_as="generator_unordered"
    )(delayed(play_one)(g, args.seed, args.iterations, args.engine, settings) for g in todo)
    for row in games:
        done[row["index"]] = row
        if args.rows:
            with open(args.rows, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")
    rows = [done[g] for g in sorted(done) if g < args.games]
    wall = time.perf_counter() - start
    command = "python bench/trial_strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = ["# The Trial: ISMCTS vs heuristic, heuristic, random", "", f"`{command}`", ""]
    lines += table(rows, args.iterations, settings) if rows else ["No games played yet."]
    if len(rows) < args.games:
        lines += ["", f"**Partial: {len(rows)} of the {args.games} games played.**"]
    if args.table_only:
        lines += [f"(The games recorded in {args.rows}; load average now {load_before}.)", ""]
    else:
        lines += [
            f"Wall time {wall:.0f} s with {args.workers} worker(s) on {platform.machine()}, "
            f"Python {platform.python_version()} (a shared 2-core machine; load average "
            f"{load_before} at the start, {load()} at the end).",
            "",
        ]
    publish("\n".join(lines), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
