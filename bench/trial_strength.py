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
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from typing import Any

AGENTS = ("ismcts", "heuristic", "heuristic", "random")


def play_one(index: int, seed: int, iterations: int, engine: str = "kernel") -> dict[str, Any]:
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
        agents[seat_of[slot]] = make_agent(
            name, game, seed=derive_seed(derive_seed(seed, index), slot + 1), iterations=iterations
        )
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


def table(rows: list[dict[str, Any]], iterations: int) -> list[str]:
    from solver.stats import wilson_interval

    games = len(rows)
    lines = [
        f"{games} four-player games, ISMCTS at {iterations} simulations a decision "
        "(the Trial's ismcts agent: leaves valued after up to 24 actions of the heuristic "
        "agent's rules, c = 0.4).",
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", default="kernel", help="kernel (default) or reference")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    from joblib import Parallel, delayed

    start = time.perf_counter()
    rows = Parallel(n_jobs=args.workers, backend="loky", verbose=5)(
        delayed(play_one)(g, args.seed, args.iterations, args.engine) for g in range(args.games)
    )
    wall = time.perf_counter() - start
    command = "python bench/trial_strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = ["# The Trial: ISMCTS vs heuristic, heuristic, random", "", f"`{command}`", ""]
    lines += table(list(rows), args.iterations)
    lines += [
        f"Wall time {wall:.0f} s with {args.workers} worker(s) on {platform.machine()}, "
        f"Python {platform.python_version()} (a shared 2-core machine).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
