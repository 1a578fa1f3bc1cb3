"""The compiled Trial's refusal of an illegal action (``KernelTrialState._apply_slow``): the
milliseconds one refusal takes, at positions along seeded random 4-player games, every 7th id
that is not legal there tried once.

Two cases: a fresh state each refusal (a request's position, decoded once for its refusal) and
the same state for all of a position's refusals (its decoded view cached). Budgets are
refusals, not seconds; medians of the rounds. Run it on two trees (``PYTHONPATH``) to compare.

    PYTHONPATH=. python bench/trial_refusals.py --games 2 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from solver.errors import IllegalActionError
from solver.games.trial.kernel import KernelTrialGame
from solver.rng import SplitMix64, sample_outcome


def positions(games: int, every: int) -> list[Any]:
    """Every ``every``-th decision state of ``games`` seeded random 4-player games."""
    game = KernelTrialGame(players=4)
    found = []
    for seed in range(games):
        rng = SplitMix64(seed)
        state = game.new_initial_state()
        ply = 0
        while not state.is_terminal():
            if ply % every == 0 and not state.is_chance_node():
                found.append(state.clone())
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
            ply += 1
    return found


def refusal_ms(states: list[Any], fresh: bool) -> tuple[int, float]:
    """Refusals made and milliseconds a refusal over ``states``."""
    size = states[0].game.layout.size
    tried = 0
    start = time.perf_counter()
    for state in states:
        legal = set(state.legal_actions())
        kept = state.clone()
        for action in range(0, size, 7):
            if action in legal:
                continue
            target = state.clone() if fresh else kept
            try:
                target.apply_action(action)
            except IllegalActionError:
                tried += 1
    return tried, 1000 * (time.perf_counter() - start) / tried


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    states = positions(args.games, 25)
    print(f"load average before {os.getloadavg()[0]:.1f}")
    for fresh in (True, False):
        rounds = [refusal_ms(states, fresh) for _ in range(args.rounds)]
        ms = statistics.median(r for _, r in rounds)
        what = "a fresh state each" if fresh else "one state a position"
        print(f"{what}: {len(states)} positions, {rounds[0][0]} refusals a round, "
              f"{ms:.3f} ms a refusal (median of {args.rounds})")  # fmt: skip
    print(f"load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
