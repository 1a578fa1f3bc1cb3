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
- **Shares** (``--shares``): per engine, cProfile's cumulative share of the named hot
  functions (``SHARED``) in 5 searches of 200 simulations and in 10 random games.
- **Engines** (``--engines reference,kernel``, the default when the compiled engine is built):
  both measures on every engine named, interleaved game by game and position by position in
  the one process (the ``kernel`` engine is the compiled Trial, ``solver/games/trial/kernel.py``,
  searched by the compiled ISMCTS: its determinisations differ from the reference's, so only
  the random games must come out identical, checked); the ratio is of the medians, against the
  first engine named. ``bench/trial_kernel.py`` measures the compiled engine itself. With
  ``--repeats R`` each position is searched R times per engine (orders alternating) and its rate
  is the median of those.

    python bench/trial_speed.py --games 20 --positions 8 --iterations 200 --profile
    python bench/trial_speed.py --games 40 --positions 10 --iterations 200 --repeats 3 \
        --skip-openspiel
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import platform
import pstats
import random
import statistics
import time
from typing import Any

import numpy as np

from solver.rng import SplitMix64


def random_games(
    count: int, seed: int, engines: tuple[str, ...] = ("reference",)
) -> dict[str, list[float]]:
    """Seconds of ``count`` random four-player games on each engine (game by game, engines
    interleaved, their order alternating); the same seed must play the same game on every
    engine."""
    import solver
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    games = {e: solver.load_game("trial", engine=e, players=4) for e in engines}
    seconds: dict[str, list[float]] = {e: [] for e in engines}
    for g in range(count):
        played = []
        for engine in engines if g % 2 == 0 else engines[::-1]:
            game = games[engine]
            agents = [make_agent("random", game, seed=derive_seed(seed + g, s)) for s in range(4)]
            start = time.perf_counter()
            record = play_game(game, agents, seed=seed + g)
            seconds[engine].append(time.perf_counter() - start)
            played.append((record.actions, record.final.returns()))
        if any(p != played[0] for p in played):
            raise AssertionError(f"game {seed + g} differs between the engines {engines}")
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
    rng = SplitMix64(seed)
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


def default_engines() -> tuple[str, ...]:
    """``reference`` and ``kernel`` when the compiled engine is built, else ``reference``."""
    import importlib.util

    if importlib.util.find_spec("solver._ext.trial") is None:
        return ("reference",)
    return ("reference", "kernel")


SHARED = {
    ("rules.py", "_copy"): "state copy",
    ("scoring.py", "fame"): "fame scoring",
    ("conditions.py", "playable"): "card playability",
    ("board.py", "reachable"): "movement reach",
    ("redeal.py", "resample"): "determinisation (its copy included)",
    ("views.py", "information_state"): "information-state strings",
    ("rules.py", "legal_actions"): "legal actions",
    ("rules.py", "apply_action"): "apply_action (its settling included)",
}
"""The reference functions whose cumulative share ``--shares`` reports (the compiled twins are
invisible to cProfile: their time counts in their callers')."""


def profile_shares(states: list[Any], games: int, seed: int, engine: str) -> dict[str, str]:
    """cProfile's cumulative share of the time of 200-simulation searches on ``states`` and of
    ``games`` random games taken by the functions in ``SHARED``."""
    from solver.search.ismcts import ismcts

    out = {}
    for kind in ("ismcts", "random"):
        profiler = cProfile.Profile()
        if kind == "ismcts":
            mine = [as_engine(state, engine) for state in states]
            profiler.enable()
            for i, state in enumerate(mine):
                ismcts(state, iterations=200, seed=i)
            profiler.disable()
        else:
            profiler.enable()
            random_games(games, seed, (engine,))
            profiler.disable()
        stats = pstats.Stats(profiler)
        total = stats.total_tt  # type: ignore[attr-defined]
        found = dict.fromkeys(SHARED.values(), 0.0)
        for (path, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
            label = SHARED.get((path.rsplit("/", 1)[-1], name)) if "/trial/" in path else None
            if label is not None:
                found[label] = max(found[label], row[3])
        out[kind] = ", ".join(f"{label} {t / total:.0%}" for label, t in found.items())
    return out


@functools.cache
def engine_game(engine: str, players: int) -> Any:
    import solver

    return solver.load_game("trial", engine=engine, players=players)


def as_engine(state: Any, engine: str) -> Any:
    """``state``'s position on ``engine`` (through its JSON, which every engine reads)."""
    return engine_game(engine, state.get_game().num_players()).state_from_json(state.to_json())


def ratio(numerator: float, denominator: float, engine: str, base: str) -> str:
    """``"; x1.23 vs base"`` (speed-up of ``engine`` over ``base``), empty for the base itself."""
    return "" if engine == base else f"; x{numerator / denominator:.2f} vs {base}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--shares", action="store_true", help="cProfile shares of the hot functions per engine"
    )
    parser.add_argument("--skip-openspiel", action="store_true")
    parser.add_argument(
        "--repeats", type=int, default=1, help="searches per position and engine (median)"
    )
    parser.add_argument(
        "--engines",
        default=None,
        help="comma-separated Trial engines, the first the baseline (default: reference,kernel "
        "when the compiled engine is built, else reference)",
    )
    args = parser.parse_args(argv)
    from solver.search.ismcts import DEFAULT_C_ISMCTS, ismcts

    engines = tuple(args.engines.split(",")) if args.engines else default_engines()
    base = engines[0]
    games = random_games(args.games, args.seed, engines)
    for engine, times in games.items():
        median = statistics.median(times)
        print(f"random self-play [{engine}]: {args.games} four-player games, median {median:.3f}"
              f" s a game = {1 / median:.1f} games/s"
              + ratio(statistics.median(games[base]), median, engine, base))  # fmt: skip
    rates: dict[str, list[float]] = {e: [] for e in engines}
    theirs = []
    for i, state in enumerate(positions(args.positions, args.seed)):
        results = []
        runs: dict[str, list[float]] = {e: [] for e in engines}
        for r in range(args.repeats):
            for engine in engines if r % 2 == 0 else engines[::-1]:
                result = ismcts(as_engine(state, engine), iterations=args.iterations, seed=i)
                runs[engine].append(result.extra["simulations_per_second"])
                results.append(result)
        for engine in engines:
            rates[engine].append(statistics.median(runs[engine]))
        if engines == ("reference",) and not all(r.same_search(results[0]) for r in results):
            raise AssertionError(f"position {i}: the repeats searched differently")
        if not args.skip_openspiel:
            theirs.append(openspiel_rate(state, args.iterations, DEFAULT_C_ISMCTS, i))
        print(f"position {i}: {len(state.legal_actions())} actions, "
              + ", ".join(f"{e} {rates[e][-1]:.0f}/s" for e in engines)
              + (f", OpenSpiel {theirs[-1]:.0f}/s" if theirs else ""))  # fmt: skip
    for engine in engines:
        median = statistics.median(rates[engine])
        print(f"ISMCTS [{engine}]: median {median:.0f} simulations/s "
              f"({args.iterations} a search, {args.positions} positions)"
              + ratio(median, statistics.median(rates[base]), engine, base))  # fmt: skip
    if theirs:
        ours = rates[base]
        print(
            f"OpenSpiel ISMCTS: median {statistics.median(theirs):.0f} simulations/s; "
            f"ratio ours [{base}]/theirs {statistics.median(ours) / statistics.median(theirs):.2f}"
        )
    if args.shares:
        sample = positions(5, args.seed + 100)
        for engine in engines:
            for kind, text in profile_shares(sample, 10, args.seed, engine).items():
                print(f"profile shares [{engine}, {kind}]: {text}")
    if args.profile:
        state = as_engine(positions(1, args.seed + 100)[0], engines[-1])
        print(f"profile of one search [{engines[-1]}]:")
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
