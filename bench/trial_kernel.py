"""The compiled Trial against its reference rules: random self-play actions a second.

Three rates per player count, measured in one process, round by round (the measures interleaved
so that a change of load hits them alike), and reported as medians over the rounds:

- **reference**: the reference engine (``engine="reference"``) driven by a Python loop: chance by
  its probabilities (``sample_outcome``), decisions uniformly (``SplitMix64.below``), every
  action through ``legal_actions`` / ``chance_outcomes`` / ``apply_action``;
- **protocol**: the same Python loop over the compiled engine's states (``engine="kernel"``):
  the C transitions with a Python call per action;
- **C loop**: the compiled engine's own loop, ``solver._ext.trial.random_playouts`` (the shared
  ``play_out`` of ``leaf.pxd`` over the kernel's vtable, as MCTS's rollouts): no Python per
  action.

Budgets are games, not seconds (``--reference-games``, ``--protocol-games``, ``--c-games`` a
round), so the work does not depend on the load; the load average is recorded with the results.

    python bench/trial_kernel.py --rounds 3 --out bench/results/trial-kernel.md
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from solver.game import CHANCE
from solver.rng import SplitMix64, derive_seed, sample_outcome


def python_loop(game: Any, games: int, seed: int) -> tuple[int, float]:
    """Actions applied and seconds of ``games`` random games through the Python protocol."""
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        rng = SplitMix64(derive_seed(seed, g))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
            actions += 1
    return actions, time.perf_counter() - start


def c_loop(game: Any, games: int, seed: int) -> tuple[int, float]:
    """Actions applied and seconds of ``games`` random games in the kernel's C loop."""
    from solver._ext.trial import random_playouts

    start = time.perf_counter()
    _, actions, _ = random_playouts(game, games, seed)
    return actions, time.perf_counter() - start


def measure(players: int, args: argparse.Namespace) -> dict[str, list[float]]:
    """Actions a second of each measure, one entry per round."""
    import solver

    reference = solver.load_game("trial", players=players, engine="reference")
    kernel = solver.load_game("trial", players=players, engine="kernel")
    rates: dict[str, list[float]] = {"reference": [], "protocol": [], "C loop": []}
    for r in range(args.rounds):
        seed = derive_seed(args.seed, 1000 * players + r)
        runs = {
            "reference": (python_loop, reference, args.reference_games),
            "protocol": (python_loop, kernel, args.protocol_games),
            "C loop": (c_loop, kernel, args.c_games),
        }
        order = list(runs) if r % 2 == 0 else list(runs)[::-1]
        for name in order:
            loop, game, games = runs[name]
            actions, seconds = loop(game, games, seed)
            rates[name].append(actions / seconds)
            print(f"  {players} players, round {r}, {name}: {actions / seconds:,.0f} actions/s")
    return rates


def table(results: dict[int, dict[str, list[float]]]) -> list[str]:
    lines = [
        "| players | reference (actions/s) | protocol (actions/s) | C loop (actions/s) "
        "| protocol / reference | C loop / reference |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for players, rates in results.items():
        med = {k: statistics.median(v) for k, v in rates.items()}
        lines.append(
            f"| {players} | {med['reference']:,.0f} | {med['protocol']:,.0f} | "
            f"{med['C loop']:,.0f} | {med['protocol'] / med['reference']:.1f}x | "
            f"{med['C loop'] / med['reference']:.0f}x |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reference-games", type=int, default=3)
    parser.add_argument("--protocol-games", type=int, default=30)
    parser.add_argument("--c-games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="write the results (markdown) here")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    results = {int(p): measure(int(p), args) for p in args.players.split(",")}
    load_after = os.getloadavg()
    lines = table(results)
    print("\n".join(lines))
    if args.out:
        command = "python bench/trial_kernel.py " + " ".join(sys.argv[1:] if argv is None else argv)
        text = [
            "# The compiled Trial: random self-play, compiled vs reference",
            "",
            f"`{command}` ({platform.python_version()}, {platform.machine()}), medians of "
            f"{args.rounds} rounds; a round plays {args.reference_games} games on the reference, "
            f"{args.protocol_games} through the protocol on the compiled engine and "
            f"{args.c_games} in its C loop, per player count (budgets in games, not seconds). "
            f"Load average before {load_before[0]:.1f}, after {load_after[0]:.1f} "
            "(2 shared cores).",
            "",
            *lines,
            "",
            '- reference: `engine="reference"`, a Python loop (chance by `sample_outcome`, '
            "decisions by `SplitMix64.below`) through `legal_actions`/`chance_outcomes`/"
            "`apply_action`;",
            "- protocol: the same loop over the compiled engine's states;",
            "- C loop: `solver._ext.trial.random_playouts` (the shared `play_out` over the "
            "kernel's vtable), no Python per action.",
        ]
        Path(args.out).write_text("\n".join(text) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
