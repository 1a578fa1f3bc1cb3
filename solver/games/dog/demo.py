"""``make demo``: roll a forest, find its best first moves, and play one game with MCTS.

1. Roll a forest (docs/rules/dog.md §12) and draw it.
2. Its win probability: exact expectimax when it fits in the memory cap, else MCTS estimates.
3. The best first move for every possible first roll, with the values of the alternatives.
4. One game on the compiled kernel, MCTS choosing every decision, each turn shown.

Run it with ``python -m solver.demo [--seed S] [--size WxH] [--iterations N]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from solver.errors import SearchBudgetError
from solver.game import State
from solver.games.dog import SPEC
from solver.games.dog.generator import roll_forest
from solver.games.dog.play import play_game
from solver.games.dog.render import render_forest_text
from solver.rng import derive_seed
from solver.search import expectimax, mcts
from solver.search.agents import mcts_agent
from solver.stats import wilson_interval


def _first_moves(state, iterations: int, seed: int) -> None:
    """Print the best first move for each first roll, with the alternatives' values."""
    for action, probability in state.chance_outcomes():
        child = state.clone()
        child.apply_action(action)
        label = state.action_to_string(action)
        if child.is_terminal() or child.is_chance_node():
            print(f"  {label} (p={probability:.3f}): no decision")
            continue
        result = mcts(child, iterations=iterations, seed=seed, evaluator="heuristic")
        moves = ", ".join(f"{m.label} {m.value:.3f}" for m in result.moves)
        print(f"  {label} (p={probability:.3f}): best {result.best_label:<4}  [{moves}]")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False, prog="python -m solver.demo [--game dog]", description=__doc__
    )
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--size", default="9x9")
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--memory-mb", type=float, default=256)
    parser.add_argument("--games", type=int, default=100, help="games for the policy estimate")
    parser.add_argument("--policy-iterations", type=int, default=500)
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))

    forest = roll_forest(width, height, seed=args.seed)
    print(f"== A rolled forest: {forest.name} ({width}x{height}, {forest.turns} turns) ==")
    print(render_forest_text(forest))

    game = SPEC.build(engine="kernel", forest=forest)
    start = game.new_initial_state()
    print("\n== Win probability from the start ==")
    began = time.perf_counter()
    try:
        result = expectimax(start, exact=True, memory_mb=args.memory_mb)
        print(
            f"  exact: {result.value:.4f}  ({result.nodes:,} states solved in "
            f"{time.perf_counter() - began:.2f} s)"
        )
    except SearchBudgetError:
        print(
            f"  too many states to solve exactly within {args.memory_mb:g} MB; "
            "the MCTS policy's win rate below estimates it"
        )

    print("\n== Best first move for each first roll ==")
    print("  (values: MCTS win-probability estimates, leaves valued by the kernel's heuristic)")
    _first_moves(start, args.iterations, args.seed)
    games = args.games
    policy = mcts_agent(game, seed=args.seed, iterations=args.policy_iterations)
    wins = sum(play_game(game, policy, seed=derive_seed(args.seed, i)).won for i in range(games))
    low, high = wilson_interval(wins, games)
    print(
        f"  MCTS policy ({args.policy_iterations} iterations per decision) won {wins}/{games}"
        f" games: {wins / games:.3f}, 95% CI [{low:.3f}, {high:.3f}]"
    )

    print(f"\n== One game, MCTS ({args.iterations} iterations per decision) ==")

    def agent(state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best = mcts(state, iterations=args.iterations, seed=args.seed).best_action
        if best is None:  # no simulation expanded the root
            raise SearchBudgetError(f"MCTS found no move in {args.iterations} iteration(s)")
        return best

    record = play_game(game, agent, seed=args.seed)
    for turn in record.turns:
        print(f"turn {turn.turn:>2}: {', '.join(turn.actions)}")
    print("\n== The pencilled sheet ==")
    print(record.final)
    print(f"\nResult: {'the dog reached its human' if record.won else 'the human went home'}.")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
