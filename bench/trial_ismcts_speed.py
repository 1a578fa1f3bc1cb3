"""ISMCTS simulations a second on the Trial: the compiled loop on the compiled engine against
today's Python ISMCTS on the reference engine, and against OpenSpiel's ``ISMCTSBot``.

``--positions`` decision nodes of the four-player Trial with at least three legal actions, taken
along seeded random games at spread-out depths (built on the reference engine and carried to the
compiled one through their JSON, which both engines read). On each:

- **heavy playouts** (the ``ismcts`` agent's leaf: ``PlayoutEvaluator(--depth)`` of
  ``solver.games.trial.playouts``, c = 0.4): :func:`solver.search.ismcts.ismcts` with the same
  ``--iterations`` on the compiled engine (the compiled loop, the kernel's ``playout_action``)
  and on the reference engine (the Python ISMCTS, the heuristic agent in Python). The compiled
  search is repeated ``--repeats`` times (its rate is their median); the Python search runs once;
- **one random rollout a leaf** (c = 1.4): the compiled loop with ``--openspiel-iterations``
  simulations, and OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot.run_search`` with
  ``RandomRolloutEvaluator(1)`` and the same ``max_simulations`` on the same position through the
  interop (``forest_trial`` on the compiled engine, the interop's ``resampler``); its rate is the
  simulations over the search's seconds.

Rates are medians over the positions, ratios the medians of the per-position ratios; one process,
with the load (``os.getloadavg``) before and after. ``--threads 2`` also times root parallelism.

    nice -n 10 python bench/trial_ismcts_speed.py --positions 10 --iterations 200 \\
        --write bench/results/trial-ismcts-speed.md
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchkit import openspiel_ismcts_rate


def positions(count: int, seed: int, players: int) -> list[str]:
    """The JSON of ``count`` decision nodes (three or more legal actions) of seeded random games
    on the reference engine, the ``k``-th after about ``20 + 40 (k mod 5)`` decisions."""
    import solver
    from solver.rng import SplitMix64
    from solver.testing import decision_nodes

    game = solver.load_game("trial", players=players, engine="reference")
    found: list[str] = []
    g = 0
    while len(found) < count:
        rng = SplitMix64(seed * 1_000_003 + g)
        g += 1
        target = 20 + 40 * (len(found) % 5)
        for decisions, state in enumerate(decision_nodes(game.new_initial_state(), rng)):
            legal = state.legal_actions()
            if decisions >= target and len(legal) >= 3:
                found.append(state.to_json())
                break
            state.apply_action(legal[rng.below(len(legal))])
    return found


def openspiel_rate(text: str, players: int, engine: str, iterations: int, seed: int) -> float:
    """OpenSpiel's ISMCTSBot with one random rollout a leaf: simulations a second."""
    import pyspiel

    from solver.interop import openspiel

    openspiel.register("trial")
    game = pyspiel.load_game("forest_trial", {"players": players, "engine": engine})
    inner = game._inner.state_from_json(text)  # type: ignore[attr-defined]
    state = type(game.new_initial_state())(game, inner)
    return openspiel_ismcts_rate(game, state, iterations, seed)


def _rate(result: Any) -> float:
    return float(result.iterations / result.elapsed)


def measures(args: argparse.Namespace, text: str, i: int) -> dict[str, Callable[[], float]]:
    """The timed runs at one position, by name."""
    import solver
    from solver.games.trial.playouts import PlayoutEvaluator
    from solver.search.ismcts import ismcts

    fast = solver.load_game("trial", players=args.players, engine=args.engine).state_from_json(text)
    slow = solver.load_game("trial", players=args.players, engine="reference").state_from_json(text)
    heavy = {"seed": i, "evaluator": PlayoutEvaluator(depth=args.depth), "c": 0.4}
    light = {"seed": i, "evaluator": "rollout", "c": 1.4}

    def compiled(iterations: int, threads: int = 1, **options: Any) -> Callable[[], float]:
        def run() -> float:
            rates = []
            for _ in range(args.repeats):
                result = ismcts(fast, iterations=iterations, threads=threads, **options)
                if not result.extra["compiled"]:
                    raise AssertionError(f"engine {args.engine!r}: not the compiled ISMCTS")
                rates.append(_rate(result))
            return statistics.median(rates)

        return run

    runs = {
        "compiled, heavy playouts": compiled(args.iterations, **heavy),
        "python (reference), heavy playouts": lambda: _rate(
            ismcts(slow, iterations=args.iterations, compiled=False, **heavy)
        ),
        "compiled, one rollout": compiled(args.openspiel_iterations, **light),
    }
    if args.threads > 1:
        runs["compiled, heavy playouts, 2 threads"] = compiled(args.iterations, 2, **heavy)
    if not args.skip_openspiel:
        runs["OpenSpiel ISMCTSBot, one rollout"] = lambda: openspiel_rate(
            text, args.players, args.engine, args.openspiel_iterations, i
        )
    return runs


def run(args: argparse.Namespace) -> list[str]:
    load_before = os.getloadavg()
    rows: dict[str, list[float]] = {}
    for i, text in enumerate(positions(args.positions, args.seed, args.players)):
        runs = measures(args, text, i)
        names = list(runs) if i % 2 == 0 else list(reversed(runs))
        for name in names:
            rows.setdefault(name, []).append(runs[name]())
        print(f"position {i}: " + ", ".join(f"{n} {rows[n][-1]:,.0f}/s" for n in runs), flush=True)
    load_after = os.getloadavg()

    def ratio(top: str, bottom: str) -> float:
        return statistics.median(a / b for a, b in zip(rows[top], rows[bottom], strict=True))

    out = ["| search | simulations/s (median) |", "|---|---:|"]
    out += [f"| {name} | {statistics.median(r):,.1f} |" for name, r in rows.items()]
    heavy = ratio("compiled, heavy playouts", "python (reference), heavy playouts")
    out += [
        "",
        f"- heavy playouts, compiled / Python on the reference engine, same positions and "
        f"budget ({args.iterations} simulations): **{heavy:,.1f}x** (median of the "
        "per-position ratios; aim >= 50x)",
    ]
    if not args.skip_openspiel:
        out.append(
            f"- one random rollout a leaf, compiled / OpenSpiel's ISMCTSBot on the compiled "
            f"engine ({args.openspiel_iterations} simulations): "
            f"**{ratio('compiled, one rollout', 'OpenSpiel ISMCTSBot, one rollout'):,.1f}x** "
            "(aim >= 100x)"
        )
    out += [
        "",
        f"{args.positions} positions of the {args.players}-player Trial (seed {args.seed}); "
        f"compiled engine {args.engine!r}; heavy playouts of depth {args.depth}; compiled "
        f"searches repeated {args.repeats}x (median); load {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after (1-minute average; {os.cpu_count()} cores); Python "
        f"{platform.python_version()}, {platform.machine()}.",
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=200, help="heavy-playout budget")
    parser.add_argument("--openspiel-iterations", type=int, default=100)
    parser.add_argument("--depth", type=int, default=24)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--engine", default="kernel", help="the compiled engine's name")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-openspiel", action="store_true")
    parser.add_argument("--write", type=Path, default=None)
    args = parser.parse_args(argv)
    lines = run(args)
    print("\n".join(lines))
    if args.write is not None:
        command = "python bench/trial_ismcts_speed.py " + " ".join(argv or sys.argv[1:])
        header = ["# ISMCTS on the Trial: compiled, Python, OpenSpiel", "", f"`{command}`", ""]
        args.write.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
