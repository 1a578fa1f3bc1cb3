"""Forest guardians solo: the endgame player's threshold play-outs over more rounds, paired
game for game with the default (issue 20's level-1 aim).

Game ``g`` is ``forest guardians solo --level L --seed S``'s game ``g`` (chance from
``derive_seed(S, g)``, the agent seeded ``derive_seed(derive_seed(S, g), 1)``), played by the
solo endgame player (:func:`~solver.games.guardians.endgame.endgame_agent`) with its last
``rounds`` rounds played for the threshold and, before them, ``worlds`` sampled worlds voting
on the turn (determinized planning; 0: the broad planner's turn); ``--rounds 2`` alone is the
default agent's solo play.
Every game is appended to ``--record`` (JSON lines: variant, game, score, won, decisions, CPU
seconds per decision, mean and worst, by ``time.process_time`` around each call, and the
rounds left after the slowest one's: 0 in the last round), so a run resumes where it
stopped; ``--table`` writes the paired table from the record alone: every variant against the
default on the games both played (wins one way and the other, and the exact sign test).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from guardians_levels import read_records

from solver.stats import wilson_interval

BASE = "rounds=2"
MOVE_SECONDS = 0.5
"""The thinking time a move has (issue 20): the table counts the games with a slower one."""
HEADER = (
    "| variant | games | won | win rate | 95% interval | default won | won, default lost | "
    "lost, default won | sign test p | mean score (default) | CPU s a decision: mean | worst | "
    "games with one over 0.5 s |"
)


def variant_name(rounds: int, worlds: int = 0) -> str:
    """A variant's name in the record and the table: ``rounds=2``, ``rounds=2 worlds=8``."""
    return f"rounds={rounds}" + (f" worlds={worlds}" if worlds else "")


def play(
    level: int, seed: int, index: int, rounds: int, worlds: int = 0, make: Any = None
) -> dict[str, Any]:
    """Game ``index`` of the run with seed ``seed`` at ``level``, timed decision by decision
    (``make``: another agent's factory, ``make(game, seed=)``, for experiments)."""
    from solver.game import sample_chance
    from solver.games.guardians import SPEC
    from solver.games.guardians.endgame import endgame_agent
    from solver.rng import SplitMix64, derive_seed

    game = SPEC.build(players=1, level=level)
    game_seed = derive_seed(seed, index)
    agent_seed = derive_seed(game_seed, 1)
    if make is None:
        agent = endgame_agent(game, seed=agent_seed, rounds=rounds, worlds=worlds)
    else:
        agent = make(game, seed=agent_seed)
    rng = SplitMix64(game_seed)
    state: Any = game.new_initial_state()
    times: list[float] = []
    worst_left = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        start = time.process_time()
        left = state.rounds() - state.round
        action = agent(state)
        times.append(time.process_time() - start)
        if times[-1] >= max(times):
            worst_left = left
        state.apply_action(action)
    score = int(state.scores()[0])
    return {
        "variant": variant_name(rounds, worlds),
        "level": level,
        "seed": seed,
        "game": index,
        "score": score,
        "won": score >= int(game.level.threshold),
        "decisions": len(times),
        "cpu_mean": sum(times) / len(times),
        "cpu_max": max(times),
        "worst_left": worst_left,
    }


def sign_test(plus: int, minus: int) -> float:
    """The two-sided exact sign test's p on ``plus`` against ``minus`` (ties dropped)."""
    n = plus + minus
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(plus, minus) + 1)) / 2**n
    return min(1.0, 2 * tail)


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The paired table: each variant on the games the default (``rounds=2``) also played."""
    by: dict[str, dict[int, dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["variant"], {})[r["game"]] = r
    base = by.get(BASE, {})
    lines = [HEADER, "|" + "---|" * (HEADER.count("|") - 1)]
    for variant in sorted(by, key=_order):
        games = sorted(set(by[variant]) & set(base))
        if games:
            lines.append(_row(variant, [by[variant][g] for g in games], [base[g] for g in games]))
    return lines


def _order(variant: str) -> tuple[int, str]:
    return (variant != BASE, variant)


def _row(variant: str, mine: list[dict[str, Any]], base: list[dict[str, Any]]) -> str:
    n = len(mine)
    won = sum(r["won"] for r in mine)
    plus = sum(a["won"] and not b["won"] for a, b in zip(mine, base, strict=True))
    minus = sum(b["won"] and not a["won"] for a, b in zip(mine, base, strict=True))
    low, high = wilson_interval(won, n)
    score = sum(r["score"] for r in mine) / n
    score_base = sum(r["score"] for r in base) / n
    cpu = sum(r["cpu_mean"] * r["decisions"] for r in mine) / sum(r["decisions"] for r in mine)
    return (
        f"| {variant} | {n} | {won} | {won / n:.3f} | [{low:.3f}, {high:.3f}] | "
        f"{sum(r['won'] for r in base)} | {plus} | {minus} | {sign_test(plus, minus):.3f} | "
        f"{score:.2f} ({score_base:.2f}) | "
        f"{cpu:.4f} | {max(r['cpu_max'] for r in mine):.2f} | "
        f"{sum(r['cpu_max'] > MOVE_SECONDS for r in mine)} |"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=2, help="rounds played for the threshold")
    p.add_argument("--worlds", type=int, default=0, help="sampled worlds voting (0: none)")
    p.add_argument("--first", type=int, default=0, help="the first game index")
    args = parse_run(p, argv)
    if args.table:
        return 0
    record_games(
        args.record,
        variant_name(args.rounds, args.worlds),
        range(args.first, args.first + args.games),
        lambda g: play(args.level, args.seed, g, args.rounds, args.worlds),
    )
    return 0


def parse_run(p: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """``p``'s arguments with the run's own (level, seed, games, record, table); with
    ``--table``, the paired table is printed from the record alone."""
    p.add_argument("--level", type=int, default=1)
    p.add_argument("--seed", type=int, default=50_000)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--record", required=True, help="JSON lines of every game (resumable)")
    p.add_argument("--table", action="store_true", help="the paired table from --record alone")
    args = p.parse_args(argv)
    if args.table:
        print("\n".join(table(read_records(args.record))))
    return args


def record_games(
    path: str, variant: str, games: range, play_one: Callable[[int], dict[str, Any]]
) -> None:
    """Play every game of ``games`` the record at ``path`` does not hold yet for ``variant``
    (``play_one(g)``'s row, named ``variant``), appending each as it ends (a run resumes)."""
    have = {r["game"] for r in read_records(path) if r["variant"] == variant}
    with open(path, "a", encoding="utf-8") as sink:
        for g in games:
            if g not in have:
                sink.write(json.dumps(play_one(g) | {"variant": variant}) + "\n")
                sink.flush()
    print(f"load {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
