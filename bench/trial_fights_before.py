"""Who won the Trial's fights in self-play under the earlier fight rules (commit e3a8ca9).

The "before" half of ``bench/results/trial-fights.md``: the same self-play as
``bench/trial_fights.py`` (``--games`` four-player games of ``random`` x4 and ``heuristic`` x4,
seeded the same way), played by the code of commit e3a8ca9 (no die for an adventurer without die
symbols, one stage of at most 2 face-down cards, the heuristic agent's earlier estimate). Those
rules kept no record of a fight, so this script wraps their fight ending (``fights._finish``) to
note the card, both strengths and the winner. It runs with that checkout's own build, this file
given by its path (it reads ``trial_fights.py`` beside it only for the table)::

    git worktree add --detach ../trial-e3a8ca9 e3a8ca9 && cd ../trial-e3a8ca9 && make install
    .venv/bin/python ../forest-solver/bench/trial_fights_before.py --games 100 --seed 0
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def record_fights(events: list[dict[str, Any]]) -> None:
    """Make e3a8ca9's fight ending append each decided fight to ``events``."""
    from solver.games.trial import fights  # the old checkout's module (fields d, g, p, opp)

    finish = fights._finish

    def wrapped(st: Any, f: dict[str, Any]) -> None:
        attack, defend = fights.totals(st, f)  # before the fight's cards go back or away
        finish(st, f)
        events.append(
            {
                "name": st.g.pack.card(f["card"])["name"],
                "defender": f["opp"],
                "strength": [attack, defend],
                "winner": "attacker" if f["winner"] == 0 else "defender",
            }
        )

    fights._finish = wrapped


def play(lineup: str, games: int, seed: int, events: list[dict[str, Any]]) -> None:
    """``games`` four-player games of ``lineup``, seeded as ``trial_fights.play`` seeds them."""
    import solver
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    game = solver.load_game("trial", players=4, engine="kernel")
    for g in range(games):
        agents = [
            make_agent(lineup, game, seed=derive_seed(derive_seed(seed, g), s + 1))
            for s in range(4)
        ]
        play_game(game, agents, seed=derive_seed(derive_seed(seed, g), 0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lineups", default="random,heuristic")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from trial_fights import selfplay_table

    events: list[dict[str, Any]] = []
    record_fights(events)
    lines: list[str] = []
    for lineup in args.lineups.split(","):
        start = time.perf_counter()
        events.clear()
        play(lineup, args.games, args.seed, events)
        lines += selfplay_table(lineup, list(events), args.games)
        lines += ["", f"({time.perf_counter() - start:.0f} s)", ""]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
