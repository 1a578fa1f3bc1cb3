"""Calibrating the strength ladder (issue 22 §2): does each level beat the one below?

    # a one-player game (the dog): every level on the same forests and the same dice, paired
    nice -n 10 .venv/bin/python bench/ladder_calibration.py solo --game dog --count 1000 \\
        [--size 9x9 --turns 8 --first-seed 1000] [-o bench/results/ladder-dog.md]
    # a two-player game: each adjacent pair and level1 against level10, seats rotating
    nice -n 10 .venv/bin/python bench/ladder_calibration.py duel --game guardians --games 200 \\
        [--pairs 1-2,2-3,...] [-o bench/results/ladder-guardians.md]

``solo``: instance ``i`` is the forest the analysis rolls from seed ``first_seed + i`` (``--size``,
``--turns``); every level plays it with the dice of ``play_game(seed=i)`` and its own seed ``i``,
so two levels meet the same forests and the same dice. Level ``k + 1`` beats level ``k`` when it
wins more: the one-sided exact sign test on the forests where exactly one of the two crossed
(p < 0.05 wanted). An Elo scale: a forest is a game between two levels (the one that crossed
while the other did not wins; both or neither, a draw); adjacent levels' scores give the steps,
level 1 is 0, and the 95% intervals are percentile bootstraps over the forests (2,000 resamples).

``duel``: ``solver.play.play_match`` of the two levels, ``--games`` games, seats rotating; the
higher level's score (wins plus half the shared wins) with its Wilson 95% interval (the lower end
above 50% wanted) and its Elo difference. The longest decision each level took is recorded (the
issue's budget: at most 0.5 s a move).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def _load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def sign_test(better: int, worse: int) -> float:
    """One-sided exact p-value of ``better`` successes out of ``better + worse`` under p = 1/2."""
    n = better + worse
    if n == 0:
        return 1.0
    return sum(math.comb(n, k) for k in range(better, n + 1)) / 2**n


def elo(score: float) -> float:
    """The Elo difference of a score (clamped away from 0 and 1)."""
    score = min(max(score, 1e-4), 1 - 1e-4)
    return 400 * math.log10(score / (1 - score))


def _timed(agent: Callable[[Any], int], longest: list[float]) -> Callable[[Any], int]:
    def choose(state: Any) -> int:
        started = time.perf_counter()
        action = agent(state)
        longest[0] = max(longest[0], time.perf_counter() - started)
        return action

    return choose


def _pair_score(a: list[bool], b: list[bool], idx: list[int]) -> float:
    wins = sum(1 for i in idx if b[i] and not a[i])
    losses = sum(1 for i in idx if a[i] and not b[i])
    return (wins + (len(idx) - wins - losses) / 2 + 0.5) / (len(idx) + 1)


def solo(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    import random

    import solver
    from solver.agents import make_agent
    from solver.ladder import LEVELS, ladder
    from solver.play import play_game

    spec_ladder = ladder(args.game)
    width, height = (int(x) for x in args.size.lower().split("x"))
    from solver.registry import game_spec

    hooks = game_spec(args.game).require("analysis", "rolled instances")
    won: list[list[bool]] = [[] for _ in range(LEVELS)]
    longest = [[0.0] for _ in range(LEVELS)]
    cpu = [0.0] * LEVELS
    load_start = _load()
    for i in range(args.count):
        instance = hooks.roll(args.first_seed + i, (width, height), args.turns)
        game = solver.load_game(args.game, **{game_spec(args.game).source_option: instance})
        for k in range(LEVELS):
            started = time.process_time()
            agent = _timed(make_agent(f"level{k + 1}", game, seed=i), longest[k])
            record = play_game(game, [agent], seed=i)
            cpu[k] += time.process_time() - started
            won[k].append(record.final.returns()[0] > 0.5)
        if (i + 1) % 100 == 0:
            print(f"{i + 1} of {args.count} instances", file=sys.stderr)
    rng = random.Random(0)
    n = args.count
    steps = [elo(_pair_score(won[k], won[k + 1], list(range(n)))) for k in range(LEVELS - 1)]
    boots: list[list[float]] = [[] for _ in range(LEVELS)]
    for _ in range(2000):
        idx = [rng.randrange(n) for _ in range(n)]
        total = 0.0
        boots[0].append(0.0)
        for k in range(LEVELS - 1):
            total += elo(_pair_score(won[k], won[k + 1], idx))
            boots[k + 1].append(total)
    lines = [
        f"# The strength ladder of {args.game}: every level on the same instances and dice",
        "",
        f"`bench/ladder_calibration.py solo --game {args.game} --count {n} --size {args.size} "
        f"--turns {args.turns} --first-seed {args.first_seed}`: {n} rolled {args.size} "
        f"instances at {args.turns} turns (seeds {args.first_seed}..{args.first_seed + n - 1}), "
        "each played once by every level with the same dice (`play_game(seed=i)`) and the "
        "level's seed `i`.",
        "",
        "| level | agent | win rate [95%] | beats the level below on | loses to it on | "
        "one-sided p | Elo [95%] | longest move s | CPU s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    from solver.stats import wilson_interval

    total = 0.0
    levels: list[dict[str, Any]] = []
    for k in range(LEVELS):
        wins = sum(won[k])
        low, high = wilson_interval(wins, n)
        if k:
            better = sum(1 for a, b in zip(won[k - 1], won[k], strict=True) if b and not a)
            worse = sum(1 for a, b in zip(won[k - 1], won[k], strict=True) if a and not b)
            p = sign_test(better, worse)
            total += steps[k - 1]
            vs = (str(better), str(worse), f"{p:.2g}")
        else:
            better = worse = 0
            p = float("nan")
            vs = ("-", "-", "-")
        b = sorted(boots[k])
        lo, hi = b[int(0.025 * len(b))], b[int(0.975 * len(b)) - 1]
        rung = spec_ladder[k]
        lines.append(
            f"| {k + 1} | {rung.summary or rung.agent} | {wins / n:.3f} [{low:.3f}, {high:.3f}] | "
            f"{vs[0]} | {vs[1]} | {vs[2]} | {total:.0f} [{lo:.0f}, {hi:.0f}] | "
            f"{longest[k][0]:.3f} | {cpu[k]:.1f} |"
        )
        levels.append({"level": k + 1, "wins": wins, "win_rate": wins / n, "better": better,
                       "worse": worse, "p": p, "elo": total, "elo_low": lo, "elo_high": hi,
                       "longest_move": longest[k][0],
                       "won": "".join("1" if w else "0" for w in won[k])})  # fmt: skip
    separated = all(lv["p"] < 0.05 for lv in levels[1:])
    lines += [
        "",
        "Every adjacent pair separated (p < 0.05): " + ("yes" if separated else "**no**") + ".",
        "",
        f"Load (1, 5, 15 minutes) at the start: {load_start}; at the end: {_load()} "
        f"({os.cpu_count()} CPUs); `nice -n 10`.",
        "",
    ]
    return "\n".join(lines), {"game": args.game, "count": n, "levels": levels}


def _pairs(text: str | None) -> list[tuple[int, int]]:
    if text is None:
        return [(k, k + 1) for k in range(1, 10)] + [(1, 10)]
    return [tuple(int(x) for x in part.split("-")) for part in text.split(",")]  # type: ignore[misc]


def duel(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    import solver
    from solver.agents import make_agent
    from solver.ladder import ladder
    from solver.play import play_match
    from solver.rng import derive_seed
    from solver.stats import wilson_interval

    spec_ladder = ladder(args.game)
    game = solver.load_game(args.game, players=2)
    load_start = _load()
    lines = [
        f"# The strength ladder of {args.game}: adjacent levels and level1 against level10",
        "",
        f"`bench/ladder_calibration.py duel --game {args.game} --games {args.games}`: two "
        "players, seats rotating between games (`solver.play.play_match`, seed = the pair's "
        "index); the higher level's score (wins plus half the shared wins) with its Wilson 95% "
        "interval and Elo difference.",
        "",
        "| pair | higher's wins | lower's wins | shared | higher's score [95%] | Elo diff "
        "[95%] | longest move s (lower, higher) | wall s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    results = []
    for index, (low_level, high_level) in enumerate(_pairs(args.pairs)):
        longest = [[0.0], [0.0]]
        started = time.perf_counter()
        agents = [
            _timed(make_agent(f"level{low_level}", game, seed=derive_seed(index, 0)), longest[0]),
            _timed(make_agent(f"level{high_level}", game, seed=derive_seed(index, 1)), longest[1]),
        ]
        names = [f"level{low_level}", f"level{high_level}"]
        match = play_match(game, names, agents, games=args.games, seed=index)
        wall = time.perf_counter() - started
        by_name = {p.agent: p for p in match.players}
        hi_wins, lo_wins = by_name[names[1]].wins, by_name[names[0]].wins
        score = (hi_wins + match.ties / 2) / args.games
        low, high = wilson_interval(round(score * args.games), args.games)
        lines.append(
            f"| {low_level} vs {high_level} | {hi_wins} | {lo_wins} | {match.ties} | "
            f"{score:.3f} [{low:.3f}, {high:.3f}] | {elo(score):.0f} [{elo(low):.0f}, "
            f"{elo(high):.0f}] | {longest[0][0]:.2f}, {longest[1][0]:.2f} | {wall:.0f} |"
        )
        print(lines[-1], file=sys.stderr)
        results.append({"pair": [low_level, high_level], "higher_wins": hi_wins,
                        "lower_wins": lo_wins, "ties": match.ties, "score": score,
                        "low": low, "high": high})  # fmt: skip
    rungs = ", ".join(
        f"{k}: {r.agent}{f' {r.iterations}' if r.iterations else ''}"
        f"{f' noise {r.noise:g}' if r.noise else ''}"
        for k, r in enumerate(spec_ladder, 1)
    )
    lines += [
        "",
        f"Rungs: {rungs}.",
        "",
        f"Load (1, 5, 15 minutes) at the start: {load_start}; at the end: {_load()} "
        f"({os.cpu_count()} CPUs); `nice -n 10`.",
        "",
    ]
    return "\n".join(lines), {"game": args.game, "games": args.games, "pairs": results}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("solo", help="a one-player game: every level, paired")
    p.add_argument("--game", default="dog")
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--size", default="9x9")
    p.add_argument("--turns", type=int, default=8)
    p.add_argument("--first-seed", type=int, default=1000)
    p.add_argument("-o", "--output", default=None)
    p = sub.add_parser("duel", help="a two-player game: adjacent pairs and 1 vs 10")
    p.add_argument("--game", required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--pairs", default=None, help="e.g. 1-2,2-3,1-10 (default: all)")
    p.add_argument("-o", "--output", default=None)
    args = parser.parse_args(argv)
    text, data = solo(args) if args.command == "solo" else duel(args)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        Path(args.output).with_suffix(".json").write_text(
            json.dumps(data, indent=1) + "\n", encoding="utf-8"
        )
    print(text)


if __name__ == "__main__":
    main()
