"""``make demo``: roll a forest, show it, and play one game on the compiled kernel.

Run it with ``python -m solver.demo [--seed S] [--size WxH]``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import solver
from solver.games.dog.generator import roll_forest
from solver.games.dog.play import play_game, random_agent
from solver.games.dog.render import render_ascii


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.demo", description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--size", default="9x9")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))

    forest = roll_forest(width, height, seed=args.seed)
    print(f"== A rolled forest: {forest.name} ({width}x{height}, {forest.turns} turns) ==")
    print(render_ascii(forest))

    game = solver.load_game("dog", forest=forest, engine="kernel")
    print("\n== One game on the compiled kernel, random legal policy (seed "
          f"{args.seed}) ==")
    record = play_game(game, random_agent(args.seed), seed=args.seed)
    for turn in record.turns:
        print(f"turn {turn.turn:>2}: {', '.join(turn.actions)}")
    print("\n== The pencilled sheet ==")
    print(record.final)
    print(f"\nResult: {'the dog reached its human' if record.won else 'the human went home'}.")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
