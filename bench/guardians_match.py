"""Two-player strength on forest guardians: one agent against another, seats rotating.

``--games`` two-player games (default 200) of ``--agent`` against ``--against``. Games go in
pairs on one deal: games ``2k`` and ``2k+1`` draw their chance from the same seed,
``derive_seed(seed, k)``, with the seats swapped (``--agent`` sits in seat ``g mod 2``), so each
agent plays each deal from both seats and the luck of the draw weighs less (the two games of a
pair still differ once the agents' choices differ). The agents are seeded with
``derive_seed(derive_seed(seed, g), slot + 1)``; every game is a pure function of the options
and its index. A win counts 1, a shared win 1/2; the win rate has a Wilson 95% interval.

Each agent's thinking time is measured in CPU seconds of the process (``time.process_time``
around each of its decisions), so the figures do not depend on the load of a shared machine;
the budget is ``--iterations`` (the agent's own unit, the same for every game). ``--candidates K``
(the ``lookahead`` only) plays out at most K of the planner's turns instead of its 4: the budget
sweep of ``bench/results/guardians_lookahead_budgets.md``; ``--breadth F`` (the ``lookahead``
only) lists its candidates with the planner's lists F times as long instead of its default 4
(``--breadth 1``: the default before, whose games are in ``guardians_match_games.jsonl`` and
``guardians_match_seed1_games.jsonl``).

With ``--rows FILE`` every finished game is appended to FILE (one JSON line) as soon as it ends,
and games already there are not played again: a stopped run resumes; ``--table-only`` prints the
table of the games so far; ``--first K`` / ``--last K`` let two processes share one rows file::

    nice -n 10 python bench/guardians_match.py --agent lookahead --against planner \\
        --games 200 --seed 0 --rows bench/results/guardians_match_games.jsonl \\
        --out bench/results/guardians_match.md
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

from solver.stats import wilson_interval

__all__ = ["play_one", "read_rows", "table"]


def play_one(
    index: int,
    agent: str,
    against: str,
    seed: int,
    iterations: int | None,
    candidates: int | None = None,
    breadth: int | None = None,
) -> dict[str, Any]:
    """Game ``index``: ``agent``'s seat, both agents' returns, scores and CPU seconds
    (``candidates``, ``breadth``: the ``lookahead``'s, when ``agent`` is it and they are
    given)."""
    import solver
    from solver.agents import make_agent
    from solver.game import play_game
    from solver.rng import derive_seed

    game = solver.load_game("guardians", players=2)
    seat = index % 2
    names = [agent, against]
    budgets = [iterations, None]
    seats = [seat, 1 - seat]
    clocks: list[list[float]] = [[], []]
    players: list[Any] = [None, None]
    for slot in range(2):
        agent_seed = derive_seed(derive_seed(seed, index), slot + 1)
        if slot == 0 and (candidates is not None or breadth is not None):
            inner = _lookahead(game, agent, agent_seed, iterations, candidates, breadth)
        else:
            inner = make_agent(names[slot], game, seed=agent_seed, iterations=budgets[slot])
        players[seats[slot]] = _timed(inner, clocks[slot])
    record = play_game(game, players, seed=derive_seed(seed, index // 2))
    final: Any = record.final
    returns, scores = final.returns(), final.scores()
    return {
        "index": index,
        "seat": seat,
        "returns": [float(returns[seats[s]]) for s in range(2)],
        "scores": [int(scores[seats[s]]) for s in range(2)],
        "cpu": [sum(c) for c in clocks],
        "decisions": [len(c) for c in clocks],
        "max_move": [max(c, default=0.0) for c in clocks],
        "round": int(final.round),
    }


def _lookahead(
    game: Any,
    name: str,
    seed: int,
    iterations: int | None,
    candidates: int | None,
    breadth: int | None,
) -> Any:
    """The ``lookahead`` playing out at most ``candidates`` turns (the budget sweep) from the
    planner's candidate lists ``breadth`` times as long (each its default when ``None``)."""
    from solver.errors import OptionError
    from solver.games.guardians import lookahead as L

    if name != "lookahead":
        raise OptionError(f"--candidates and --breadth apply to the lookahead agent, not {name}")
    return L.lookahead_agent(
        game,
        seed=seed,
        iterations=iterations,
        candidates=L.CANDIDATES if candidates is None else candidates,
        breadth=L.BREADTH if breadth is None else breadth,
    )


def _timed(agent: Any, clock: list[float]) -> Any:
    def choose(state: Any) -> int:
        start = time.process_time()
        action = agent(state)
        clock.append(time.process_time() - start)
        return int(action)

    return choose


def read_rows(path: str | None) -> dict[int, dict[str, Any]]:
    """The games recorded in ``path`` (JSON lines) by index; a torn last line is skipped."""
    rows: dict[int, dict[str, Any]] = {}
    if path is None or not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows[int(row["index"])] = row
    return rows


def table(rows: list[dict[str, Any]], agent: str, against: str) -> list[str]:
    """The markdown table of ``rows``: each agent's wins, interval, scores and CPU per move."""
    n = len(rows)
    lines = [
        "| agent | games | wins | win rate | 95% interval | score median | "
        "CPU s a game (median) | CPU s a decision (mean) | slowest decision (s) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for slot, name in enumerate((agent, against)):
        wins = sum(r["returns"][slot] for r in rows)
        low, high = wilson_interval(wins, n)
        cpu = [r["cpu"][slot] for r in rows]
        per_move = sum(cpu) / max(1, sum(r["decisions"][slot] for r in rows))
        slowest = max((r["max_move"][slot] for r in rows), default=0.0)
        median_score = statistics.median(r["scores"][slot] for r in rows) if rows else 0
        lines.append(
            f"| {name} | {n} | {wins:g} | {wins / max(n, 1):.3f} | [{low:.3f}, {high:.3f}] | "
            f"{median_score:g} | {statistics.median(cpu) if cpu else 0:.2f} | {per_move:.3f} | "
            f"{slowest:.2f} |"
        )
    for seat in (0, 1):
        mine = [r for r in rows if r["seat"] == seat]
        wins = sum(r["returns"][0] for r in mine)
        lines.append("")
        lines.append(f"{agent} in seat {seat}: {wins:g} of {len(mine)} games won.")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n")[0])
    parser.add_argument("--agent", default="lookahead")
    parser.add_argument("--against", default="planner")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=None, help="--agent's budget")
    parser.add_argument(
        "--candidates", type=int, default=None, help="the lookahead's turns played out (at most)"
    )
    parser.add_argument(
        "--breadth", type=int, default=None, help="the lookahead's candidate lists' factor"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="play games --first..")
    parser.add_argument("--last", type=int, default=None, help="..up to --last (exclusive)")
    parser.add_argument("--rows", default=None, help="JSON lines of finished games (resumable)")
    parser.add_argument("--table-only", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    done = read_rows(args.rows)
    start = time.time()
    if not args.table_only:
        last = args.games if args.last is None else min(args.last, args.games)
        for index in range(args.first, last):
            if index in done:
                continue
            row = play_one(
                index,
                args.agent,
                args.against,
                args.seed,
                args.iterations,
                args.candidates,
                args.breadth,
            )
            done[index] = row
            if args.rows is not None:
                with open(args.rows, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row) + "\n")
    rows = [done[i] for i in sorted(done) if i < args.games]
    command = "python bench/guardians_match.py " + " ".join(argv or sys.argv[1:])
    out = [
        f"# Forest guardians: {args.agent} against {args.against}, 2 players",
        "",
        f"Made by `{command}` ({len(rows)} of {args.games} games; seats rotating, pairs of "
        f"games on one deal; thinking time in CPU seconds; load average "
        f"{os.getloadavg()[0]:.1f} at the end, {time.time() - start:.0f} s of wall time for "
        f"this call; Python {platform.python_version()}, {platform.machine()}).",
        "",
        *table(rows, args.agent, args.against),
    ]
    text = "\n".join(out) + "\n"
    print(text, end="")
    if args.out is not None:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
