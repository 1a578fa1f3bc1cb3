"""ISMCTS simulations a second: the compiled loop against the Python ISMCTS and OpenSpiel's.

On the hidden-information test kernel (``tests/ext/cards_kernel.pyx``, compiled here out of tree
against ``solver.get_include()``, with its pure-Python twin ``tests/ext/cards_twin.py``),
``--positions`` decision nodes with at least two legal actions, taken along seeded random games
at spread-out depths, each searched from the mover's view with one random rollout per leaf and
c = 1.4 by:

- **compiled**: :func:`solver.search.ismcts.ismcts` on the kernel state (the compiled loop of
  ``ext/ismcts.pyx``), one thread, then two (root parallelism);
- **python (twin)**: the same call on the twin, a pure-Python engine of the same game: today's
  Python ISMCTS on a reference engine;
- **python (kernel)**: the Python ISMCTS over the kernel's own protocol (``compiled=False``);
- **OpenSpiel**: ``open_spiel.python.algorithms.ismcts.ISMCTSBot.run_search`` on the same
  position through the interop (:func:`solver.interop.openspiel.register_spec`, the kernel's
  information-state strings, its redeal as the resampler), ``RandomRolloutEvaluator(1)``, the same
  c; its rate is ``max_simulations`` over the search's seconds.

With ``--playout`` the heavy-playout evaluator too (``PlayoutEvaluator(24)``: the kernel's
policy, then its heuristic), compiled against the twin. Each position's runs alternate their
order; the rates are medians over the positions, the ratios medians of the per-position ratios
(one process), with the load (``os.getloadavg``) before and after. The compiled search is
checked to give the Python twin's exact result at the Python budget before anything is timed.

    nice -n 10 python bench/ismcts_speed.py --positions 12 --write bench/results/ismcts-speed.md
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from benchkit import openspiel_ismcts_rate

from solver.testing import load_module

HERE = Path(__file__).resolve().parent
TESTS_EXT = HERE.parent / "tests" / "ext"


def build_cards() -> tuple[ModuleType, ModuleType]:
    """The compiled test kernel and its twin."""
    helpers = load_module("_ext_test_kernels", TESTS_EXT / "conftest.py")
    kernel = helpers.build_kernel("cards_kernel", Path(tempfile.mkdtemp(prefix="cards-bench-")))
    return kernel, load_module("cards_twin", TESTS_EXT / "cards_twin.py")


def positions(cards: ModuleType, n: int, hand: int, count: int, seed: int) -> list[list[int]]:
    """Action lines to ``count`` decision nodes (two or more legal actions) of seeded random
    games, the ``k``-th taken after about ``k / count`` of a game's decisions."""
    from solver.rng import SplitMix64

    lines = []
    game = cards.CardsGame(n, hand)
    decisions = n  # plays in a game
    for k in range(count):
        rng = SplitMix64(seed * 1_000_003 + k)
        target = (k * decisions) // (count + 1)
        state, line, made = game.new_initial_state(), [], 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if not state.is_chance_node():
                if made >= target and len(legal) > 1:
                    lines.append(line)
                    break
                made += 1
            line.append(legal[rng.below(len(legal))])
            state.apply_action(line[-1])
    return lines


def openspiel_rate(cards: ModuleType, twin: ModuleType, n: int, hand: int, line: list[int],
                   iterations: int, seed: int) -> float:  # fmt: skip
    """OpenSpiel's ISMCTSBot on the position, through the interop: simulations a second."""
    import pyspiel

    from solver.interop import openspiel

    game = pyspiel.load_game(openspiel.register_spec(twin.cards_spec(cards, n, hand)))
    state = game.new_initial_state()
    for a in line:
        state.apply_action(a)
    return openspiel_ismcts_rate(game, state, iterations, seed)


def _rate(result: Any) -> float:
    return float(result.iterations / result.elapsed)


def measures(
    args: argparse.Namespace, cards: ModuleType, twin: ModuleType, line: list[int], i: int
) -> list[tuple[str, Callable[[], float]]]:
    """The timed runs at one position (the kernel state and the twin after ``line``)."""
    from solver.search.evaluators import PlayoutEvaluator
    from solver.search.ismcts import ismcts

    n, hand = args.cards, args.hand
    kernel = cards.CardsGame(n, hand).new_initial_state()
    copy = twin.CardsTwin(n, hand)
    for a in line:
        kernel.apply_action(a)
        copy.apply_action(a)
    light = {"seed": i, "evaluator": "rollout", "c": 1.4}
    heavy = {"seed": i, "evaluator": PlayoutEvaluator(24), "c": 0.4}
    check = ismcts(kernel, iterations=args.python_iterations, **light)
    if not check.same_search(ismcts(copy, iterations=args.python_iterations, **light)):
        raise AssertionError(f"position {i}: the compiled and Python searches differ")

    def search(state: Any, iterations: int, **options: Any) -> Callable[[], float]:
        return lambda: _rate(ismcts(state, iterations=iterations, **options))

    runs = [
        ("compiled", search(kernel, args.iterations, **light)),
        ("compiled, 2 threads", search(kernel, args.iterations, threads=2, **light)),
        ("python (twin)", search(copy, args.python_iterations, **light)),
        ("python (kernel protocol)",
         search(kernel, args.python_iterations, compiled=False, **light)),
    ]  # fmt: skip
    if not args.skip_openspiel:
        runs.append(("OpenSpiel ISMCTSBot", lambda: openspiel_rate(
            cards, twin, n, hand, line, args.python_iterations, i)))  # fmt: skip
    if args.playout:
        runs.append(("compiled, heavy playouts", search(kernel, args.iterations, **heavy)))
        runs.append(("python (twin), heavy playouts",
                     search(copy, args.python_iterations, **heavy)))  # fmt: skip
    return runs


def run(args: argparse.Namespace) -> list[str]:
    cards, twin = build_cards()
    lines = positions(cards, args.cards, args.hand, args.positions, args.seed)
    load_before = os.getloadavg()
    rows: dict[str, list[float]] = {}
    out = []
    for i, line in enumerate(lines):
        runs = measures(args, cards, twin, line, i)
        if i % 2:
            runs.reverse()
        for name, measure in runs:
            rows.setdefault(name, []).append(measure())
        text = ", ".join(f"{name} {rows[name][-1]:,.0f}/s" for name, _ in runs)
        print(f"position {i}: {text}", flush=True)
    load_after = os.getloadavg()
    base = rows["compiled"]
    out.append("| search | simulations/s (median) | compiled / this (median over positions) |")
    out.append("|---|---:|---:|")
    for name, rates in rows.items():
        ratio = statistics.median(b / r for b, r in zip(base, rates, strict=True))
        out.append(f"| {name} | {statistics.median(rates):,.0f} | {ratio:,.1f}x |")
    if args.playout:
        heavy = rows["compiled, heavy playouts"]
        twin_heavy = rows["python (twin), heavy playouts"]
        ratio = statistics.median(a / b for a, b in zip(heavy, twin_heavy, strict=True))
        out.append("")
        out.append(
            f"Heavy playouts: compiled / python (twin) = {ratio:,.1f}x (median over positions)."
        )
    out.append("")
    out.append(
        f"{len(lines)} positions of the {args.cards}-card, {args.hand}-a-hand game; "
        f"{args.iterations:,} simulations a compiled search, {args.python_iterations:,} a "
        f"Python or OpenSpiel one; load {load_before[0]:.2f} before, {load_after[0]:.2f} after "
        f"(1-minute average; {os.cpu_count()} cores); Python {platform.python_version()}, "
        f"{platform.machine()}."
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--cards", type=int, default=16)
    parser.add_argument("--hand", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=20_000, help="a compiled search")
    parser.add_argument(
        "--python-iterations", type=int, default=400, help="a Python or OpenSpiel search"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--playout", action="store_true", help="also the heavy playouts")
    parser.add_argument("--skip-openspiel", action="store_true")
    parser.add_argument("--write", type=Path, default=None, help="a markdown file for the table")
    args = parser.parse_args(argv)
    lines = run(args)
    print("\n".join(lines))
    if args.write is not None:
        command = "python bench/ismcts_speed.py " + " ".join(argv or sys.argv[1:])
        title = "# ISMCTS simulations a second: compiled, Python, OpenSpiel"
        header = [title, "", f"`{command}`", ""]
        args.write.write_text("\n".join(header + lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
