"""The guardians ``mcts`` agent's search speed: simulations per second with the planner's
evaluation (the search twin), compiled loop against the Python path, in one process.

The same solo game (level 1, seed 7, the planner playing) is stopped at its first placement
decision of round 6; the compiled loop (``ext/mcts.pyx``) searches the kernel's search twin
(``KernelGuardiansGame.search_twin``: ``end turn`` a terminal valued by the evaluation), the
Python path the reference state wrapped in ``agent.HorizonState`` (the same tree). Medians of
``--repeat`` runs; the load average is printed with the table::

    python bench/guardians_search_speed.py --out bench/results/guardians_search_speed.md
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

from benchkit import publish

from solver.game import sample_chance
from solver.games.guardians import SPEC
from solver.games.guardians.agent import HorizonState, search_options
from solver.games.guardians.rules import Phase
from solver.rng import SplitMix64
from solver.search import mcts


def position(engine: str) -> Any:
    """Round 6's first placement of a planner's solo game (the same on both engines)."""
    game = SPEC.build(engine=engine, players=1, level=1)
    agent = SPEC.agent("planner").build(game, seed=1)
    rng = SplitMix64(7)
    state = game.new_initial_state()
    while not (state.phase == Phase.PLACE and state.round >= 6):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(agent(state))
    return game, state


def rate(state: Any, iterations: int, repeat: int) -> float:
    runs = []
    for i in range(repeat):
        start = time.perf_counter()
        mcts(state, iterations=iterations, seed=i, options=search_options())
        runs.append(iterations / (time.perf_counter() - start))
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    load = os.getloadavg()[0]
    kgame, kstate = position("kernel")
    _, rstate = position("reference")
    twin = kgame.search_twin().transfer(kstate)
    compiled = rate(twin, 20_000, args.repeat)
    python = rate(HorizonState(rstate.clone()), 200, args.repeat)
    legal = len(kstate.legal_actions())
    lines = [
        "# Guardians: the mcts agent's search speed (the planner's evaluation)",
        "",
        f"Made by `python bench/guardians_search_speed.py {' '.join(argv or sys.argv[1:])}` "
        f"(load average {load:.1f} at the start, 2 shared cores; medians of {args.repeat} runs; "
        "compiled: 20 000 simulations, Python path: 200).",
        "",
        "| state | legal actions | Python path (sims/s) | compiled (sims/s) | speed-up |",
        "|---|---|---|---|---|",
        f"| solo round 6, placement | {legal} | {python:,.0f} | {compiled:,.0f} | "
        f"{compiled / python:.0f}x |",
        "",
    ]
    text = "\n".join(lines)
    publish(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
