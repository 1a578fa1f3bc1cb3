"""Calibrating the strength ladder (issue 22 §2): does each level beat the one below?

    # a one-player game (the dog): every level on the same forests and the same dice, paired
    nice -n 10 .venv/bin/python bench/ladder_calibration.py solo --game dog --count 1000 \\
        [--size 9x9 --turns 8 --first-seed 1000] [-o bench/results/ladder-dog.md]
    # a two-player game: each adjacent pair and level1 against level10, seats rotating
    nice -n 10 .venv/bin/python bench/ladder_calibration.py duel --game guardians --games 200 \\
        --rows /work/runs/ladder-guardians.jsonl [--pairs 1-2,2-3,...] [--rungs pilot.json] \\
        [-o bench/results/ladder-guardians.md]

``solo``: instance ``i`` is the forest the analysis rolls from seed ``first_seed + i`` (``--size``,
``--turns``); every level plays it with the dice of ``play_game(seed=i)`` and its own seed ``i``,
so two levels meet the same forests and the same dice. Level ``k + 1`` beats level ``k`` when it
wins more: the one-sided exact sign test on the forests where exactly one of the two crossed
(p < 0.05 wanted). An Elo scale: a forest is a game between two levels (the one that crossed
while the other did not wins; both or neither, a draw); adjacent levels' scores give the steps,
level 1 is 0, and the 95% intervals are percentile bootstraps over the forests (2,000 resamples).

``duel``: ``--games`` games of each pair (``duel_game``: the higher level in seat ``g % 2``,
games ``2m`` and ``2m + 1`` dealt the same chance stream with the seats swapped, every agent
seeded from the pair and the game); the higher level's score (wins plus half the shared wins)
with its Wilson 95% interval (the lower end above 50% wanted), its Elo difference, and an Elo
scale over the adjacent pairs. Resumable: each finished game is appended to ``--rows`` (JSON
lines, kept by the two rungs' agent, budget and noise, so a pilot's games count for the declared
ladder when the rungs are the same) and skipped when the run starts again; pairs advance
``--block`` games at a time, so a stopped run has played them evenly; ``--table-only`` writes the
table of the rows so far. ``--rungs FILE`` calibrates candidate rungs before they are declared.
The longest decision of each side is recorded in CPU seconds of the deciding thread (what a quiet
core takes; the issue's budget: at most 0.5 s a move) and in wall seconds.
"""

from __future__ import annotations

import argparse
import hashlib
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


def _rungs(args: argparse.Namespace) -> tuple[Any, ...]:
    """The ladder to calibrate: the game's own, or candidate rungs from a JSON file (a list of ten
    ``{"agent", "iterations", "noise", "summary"}``), for pilots before a ladder is declared."""
    from solver.ladder import ladder
    from solver.spec import Rung

    if args.rungs is None:
        return ladder(args.game)
    data = json.loads(Path(args.rungs).read_text(encoding="utf-8"))
    if len(data) != 10:
        raise SystemExit(f"{args.rungs}: ten rungs, not {len(data)}")
    return tuple(Rung(**item) for item in data)


def describe(rung: Any) -> str:
    """What makes a rung the agent it is (rows are kept by it, so a pilot's games count for the
    declared ladder when its rungs are the same)."""
    return f"{rung.agent}|{rung.iterations}|{rung.noise:g}"


def pair_seed(game: str, lower: Any, higher: Any) -> int:
    digest = hashlib.sha256(f"{game}\x00{describe(lower)}\x00{describe(higher)}".encode())
    return int.from_bytes(digest.digest()[:5], "big")


def _clocked(agent: Callable[[Any], int], longest: list[float]) -> Callable[[Any], int]:
    """``agent``, recording its longest decision: CPU seconds of this thread (what a quiet core
    would take, whatever the load) and wall seconds."""

    def choose(state: Any) -> int:
        cpu, wall = time.thread_time(), time.perf_counter()
        action = agent(state)
        longest[0] = max(longest[0], time.thread_time() - cpu)
        longest[1] = max(longest[1], time.perf_counter() - wall)
        return action

    return choose


def duel_game(game: Any, name: str, lower: Any, higher: Any, index: int) -> dict[str, Any]:
    """Game ``index`` of a pair: the higher rung in seat ``index % 2``; games ``2m`` and
    ``2m + 1`` are dealt the same chance stream with the seats swapped; every agent seeded from
    the pair and the game, so a row is the same whenever it is played."""
    from solver.ladder import rung_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    base = pair_seed(name, lower, higher)
    high_seat = index % 2
    longest = {"lower": [0.0, 0.0], "higher": [0.0, 0.0]}
    seats: list[Any] = [None, None]
    for side, rung, seat in (("lower", lower, 1 - high_seat), ("higher", higher, high_seat)):
        agent = rung_agent(game, rung, seed=derive_seed(base, 1_000_000 + 2 * index + seat))
        seats[seat] = _clocked(agent, longest[side])
    started = time.process_time()
    record = play_game(game, seats, seed=derive_seed(base, index // 2))
    returns = record.final.returns()
    high, low = returns[high_seat], returns[1 - high_seat]
    return {
        "game": name, "lower": describe(lower), "higher": describe(higher), "index": index,
        "higher_seat": high_seat, "result": "higher" if high > low else "lower" if low > high
        else "shared", "actions": len(record.actions), "cpu": time.process_time() - started,
        "longest_cpu": [longest["lower"][0], longest["higher"][0]],
        "longest_wall": [longest["lower"][1], longest["higher"][1]],
    }  # fmt: skip


def _read_rows(path: Path | None) -> dict[tuple[str, str, int], dict[str, Any]]:
    rows: dict[tuple[str, str, int], dict[str, Any]] = {}
    if path is None or not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:  # a line torn by a kill: played again
            continue
        rows[(row["lower"], row["higher"], row["index"])] = row
    return rows


def play_pairs(args: argparse.Namespace, rungs: tuple[Any, ...]) -> dict[tuple[str, str, int], Any]:
    """Play every pair's missing games in blocks (every pair advances a block at a time, so a
    stopped run has played them evenly), appending each finished game to ``--rows``."""
    import solver

    rows_path = Path(args.rows) if args.rows else None
    rows = _read_rows(rows_path)
    if args.table_only:
        return rows
    game = solver.load_game(args.game, players=2)
    pairs = _pairs(args.pairs)
    for start in range(0, args.games, args.block):
        for low, high in pairs:
            lower, higher = rungs[low - 1], rungs[high - 1]
            for index in range(start, min(args.games, start + args.block)):
                key = (describe(lower), describe(higher), index)
                if key in rows:
                    continue
                row = rows[key] = duel_game(game, args.game, lower, higher, index)
                if rows_path is not None:
                    with rows_path.open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps(row) + "\n")
            done = sum(1 for k in rows if k[:2] == (describe(lower), describe(higher)))
            print(f"level{low} vs level{high}: {done} games ({_load()})", file=sys.stderr)
    return rows


def _score(results: list[str]) -> float:
    return sum(1.0 if r == "higher" else 0.5 if r == "shared" else 0.0 for r in results)


def _duel_load(args: argparse.Namespace, load_start: str) -> str:
    """The table's load line: the run's own, or for ``--table-only`` (games played by earlier
    runs) the loads ``--load-note`` gives for those runs."""
    if not args.table_only:
        return (f"Load (1, 5, 15 minutes) at the start: {load_start}; at the end: {_load()} "
                f"({os.cpu_count()} CPUs); `nice -n 10`.")  # fmt: skip
    played = f": {args.load_note}" if args.load_note else " (their loads are in their logs)"
    return (f"Tabled with `--table-only` from the games of earlier runs{played}; "
            f"{os.cpu_count()} CPUs.")  # fmt: skip


def duel(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    import random

    from solver.stats import wilson_interval

    rungs = _rungs(args)
    load_start = _load()
    rows = play_pairs(args, rungs)
    pairs = _pairs(args.pairs)
    lines = [
        f"# The strength ladder of {args.game}: adjacent levels and level1 against level10",
        "",
        f"`bench/ladder_calibration.py duel --game {args.game} --games {args.games}`: two "
        "players, the higher level in seat `g % 2` of game `g`, games `2m` and `2m + 1` dealt the "
        "same chance stream with the seats swapped, every agent seeded from its pair and game "
        "(`duel_game`); the higher level's score (wins plus half the shared wins) with its Wilson "
        "95% interval and its Elo difference. The agents' budgets are iterations, so the games "
        "do not depend on the load; the longest decision is in CPU seconds of the deciding "
        "thread (what a quiet core takes) and in wall seconds on this loaded machine.",
        "",
        "| pair | games | higher's wins | lower's wins | shared | higher's score [95%] | "
        "Elo diff [95%] | separated | longest move CPU s (lower, higher) | wall s | CPU s a game |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    results: dict[tuple[int, int], list[str]] = {}
    out = []
    for low, high in pairs:
        lower, higher = rungs[low - 1], rungs[high - 1]
        found = [rows[k] for k in sorted(rows) if k[:2] == (describe(lower), describe(higher))
                 and k[2] < args.games]  # fmt: skip
        if not found:
            continue
        played = [r["result"] for r in found]
        results[(low, high)] = played
        n = len(played)
        score = _score(played) / n
        lo, hi = wilson_interval(_score(played), n)
        wins = played.count("higher"), played.count("lower"), played.count("shared")
        cpu = [max(r["longest_cpu"][side] for r in found) for side in (0, 1)]
        wall = [max(r["longest_wall"][side] for r in found) for side in (0, 1)]
        lines.append(
            f"| {low} vs {high} | {n} | {wins[0]} | {wins[1]} | {wins[2]} | {score:.3f} "
            f"[{lo:.3f}, {hi:.3f}] | {elo(score):.0f} [{elo(lo):.0f}, {elo(hi):.0f}] | "
            f"{'yes' if lo > 0.5 else '**no**'} | {cpu[0]:.2f}, {cpu[1]:.2f} | "
            f"{wall[0]:.2f}, {wall[1]:.2f} | {sum(r['cpu'] for r in found) / n:.2f} |"
        )
        out.append({"pair": [low, high], "games": n, "higher_wins": wins[0],
                    "lower_wins": wins[1], "ties": wins[2], "score": score, "low": lo,
                    "high": hi, "longest_cpu": cpu})  # fmt: skip
    chain = [(k, k + 1) for k in range(1, 10)]
    if all(p in results for p in chain):
        rng = random.Random(0)
        boots: list[list[float]] = [[0.0] * 2000 for _ in range(10)]
        for b in range(2000):
            total = 0.0
            for k, pair in enumerate(chain, 1):
                games = results[pair]
                sample = [games[rng.randrange(len(games))] for _ in games]
                total += elo((_score(sample) + 0.5) / (len(sample) + 1))
                boots[k][b] = total
        lines += ["", "| level | agent | Elo [95%] |", "|---|---|---|"]
        total = 0.0
        for k in range(10):
            if k:
                games = results[chain[k - 1]]
                total += elo((_score(games) + 0.5) / (len(games) + 1))
            b = sorted(boots[k])
            rung = rungs[k]
            lines.append(f"| {k + 1} | {rung.summary or describe(rung)} | {total:.0f} "
                         f"[{b[50]:.0f}, {b[1949]:.0f}] |")  # fmt: skip
        lines += ["", "Elo: level 1 is 0; each level adds the Elo of its score against the level "
                  "below (a half game added to each side, so a clean sweep stays finite); 95% "
                  "intervals by bootstrap over each pair's games (2,000 resamples)."]  # fmt: skip
    separated = [p for p in chain if p in results]
    verdict = all(wilson_interval(_score(results[p]), len(results[p]))[0] > 0.5
                  for p in separated)  # fmt: skip
    lines += [
        "",
        f"Adjacent pairs played: {len(separated)} of 9; every one played separated (the lower "
        f"end of the 95% interval above 50%): {'yes' if verdict else '**no**'}.",
        "",
        "Rungs: "
        + "; ".join(
            f"{k}: {r.summary or describe(r)} ({describe(r)})" for k, r in enumerate(rungs, 1)
        )
        + ".",
        "",
        _duel_load(args, load_start),
        "",
    ]
    data = {"game": args.game, "games": args.games, "rungs": [describe(r) for r in rungs],
            "pairs": out}  # fmt: skip
    return "\n".join(lines), data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("solo", allow_abbrev=False, help="a one-player game: every level, paired")
    p.add_argument("--game", default="dog")
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--size", default="9x9")
    p.add_argument("--turns", type=int, default=8)
    p.add_argument("--first-seed", type=int, default=1000)
    p.add_argument("-o", "--output", default=None)
    p = sub.add_parser(
        "duel", allow_abbrev=False, help="a two-player game: adjacent pairs and 1 vs 10"
    )
    p.add_argument("--game", required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--pairs", default=None, help="e.g. 1-2,2-3,1-10 (default: all)")
    p.add_argument("--rows", default=None, help="JSON lines of finished games: appended, reused")
    p.add_argument("--block", type=int, default=10, help="games a pair plays before the next")
    p.add_argument("--rungs", default=None, help="candidate rungs (JSON) instead of the ladder")
    p.add_argument("--table-only", action="store_true", help="only the table of --rows")
    p.add_argument("--load-note", default=None, help="with --table-only: the runs' loads")
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
