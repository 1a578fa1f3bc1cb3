"""Speed on the Trial: random self-play games per second, ISMCTS simulations per second, and the
same budget in OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) on ``forest_trial``.

- **Random self-play**: ``--games`` four-player games of the ``random`` agent through
  :func:`solver.play.play_game` (chance sampled by its probabilities); the median game's seconds
  and games per second (one process).
- **ISMCTS**: ``--positions`` decision nodes with at least three legal actions, taken along
  seeded random games at spread-out depths; on each, :func:`solver.search.ismcts.ismcts` with
  ``--iterations`` simulations from the mover's view (its default configuration: heuristic
  leaves, c = 0.4) and OpenSpiel's ``ISMCTSBot.run_search`` on the same position through the
  interop (``forest_trial``, the Trial's information-state strings), with the same leaf values
  (an evaluator returning ``state.heuristic(p)`` for every player), the same c and
  ``max_simulations``, its determinisations drawn by ``resample_hidden`` (``set_resampler``).
  Medians of the simulations per second.
- **Profile** (``--profile``): cProfile of one ISMCTS search; the functions with the most own
  time.

    python bench/trial_speed.py --games 20 --positions 8 --iterations 200 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import statistics
import time
from typing import Any

import numpy as np


def random_games(count: int, seed: int) -> list[float]:
    import solver
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    game = solver.load_game("trial", players=4)
    seconds = []
    for g in range(count):
        agents = [make_agent("random", game, seed=derive_seed(seed + g, s)) for s in range(4)]
        start = time.perf_counter()
        play_game(game, agents, seed=seed + g)
        seconds.append(time.perf_counter() - start)
    return seconds


def positions(count: int, seed: int) -> list[Any]:
    from solver.game import CHANCE
    from solver.games.trial.rules import TrialGame

    game = TrialGame(players=4)
    found = []
    g = 0
    while len(found) < count:
        rng = random.Random(seed + g)
        g += 1
        state = game.new_initial_state()
        target = 20 + 40 * (len(found) % 5)
        decisions = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                weights = [p for _, p in outcomes]
                state.apply_action(rng.choices([a for a, _ in outcomes], weights)[0])
                continue
            legal = state.legal_actions()
            if decisions >= target and len(legal) >= 3:
                found.append(state.clone())
                break
            state.apply_action(rng.choice(legal))
            decisions += 1
    return found


class HeuristicLeaves:
    """OpenSpiel's evaluator shape: the Trial's heuristic for every player, uniform priors."""

    def evaluate(self, state: Any) -> Any:
        inner = state._inner
        return np.array([inner.heuristic(p) for p in range(4)])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def openspiel_rate(state: Any, iterations: int, c: float, seed: int) -> float:
    import pyspiel
    from open_spiel.python.algorithms import ismcts as os_ismcts

    from solver.interop.openspiel import register

    register("trial")
    game = pyspiel.load_game("forest_trial", {"players": 4})
    wrapped = type(game.new_initial_state())(game, state.clone())
    rng = random.Random(seed)
    bot = os_ismcts.ISMCTSBot(
        game,
        HeuristicLeaves(),
        c,
        iterations,
        random_state=np.random.RandomState(seed),
        allow_inconsistent_action_sets=True,
    )
    bot.set_resampler(lambda s, p: type(s)(game, s._inner.resample_hidden(p, rng)))
    start = time.perf_counter()
    bot.run_search(wrapped)
    return iterations / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--skip-openspiel", action="store_true")
    args = parser.parse_args(argv)
    from solver.search.ismcts import DEFAULT_C_ISMCTS, ismcts

    games = random_games(args.games, args.seed)
    print(f"random self-play: {args.games} four-player games, median {statistics.median(games):.3f}"
          f" s a game = {1 / statistics.median(games):.1f} games/s")  # fmt: skip
    ours, theirs = [], []
    for i, state in enumerate(positions(args.positions, args.seed)):
        result = ismcts(state, iterations=args.iterations, seed=i)
        ours.append(result.extra["simulations_per_second"])
        if not args.skip_openspiel:
            theirs.append(openspiel_rate(state, args.iterations, DEFAULT_C_ISMCTS, i))
        print(f"position {i}: {len(state.legal_actions())} actions, ours {ours[-1]:.0f}/s"
              + (f", OpenSpiel {theirs[-1]:.0f}/s" if theirs else ""))  # fmt: skip
    print(f"ISMCTS: median {statistics.median(ours):.0f} simulations/s "
          f"({args.iterations} a search, {args.positions} positions)")  # fmt: skip
    if theirs:
        print(
            f"OpenSpiel ISMCTS: median {statistics.median(theirs):.0f} simulations/s; "
            f"ratio ours/theirs {statistics.median(ours) / statistics.median(theirs):.2f}"
        )
    if args.profile:
        state = positions(1, args.seed + 100)[0]
        profiler = cProfile.Profile()
        profiler.enable()
        ismcts(state, iterations=args.iterations, seed=1)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(14)
        print(out.getvalue())
    print(f"Python {platform.python_version()}, {platform.machine()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
