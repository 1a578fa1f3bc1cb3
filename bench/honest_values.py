"""How far a hint's estimate is from the exact value, by budget: ``python bench/honest_values.py``.

For each set of positions (pebbles, the plug-in game of ``tests/plugin_game``: every position;
the curated dog forests: each start and the position after each first roll, on the kernel and
on the reference engine), the estimate ``solver.search.search_position(exact=False)`` gives at
200, 1000 (the hint engine's default), 2000 and 20,000 simulations against the exact value,
with the estimator the hint engine uses (``estimate_options``: max backup) and, for comparison,
the mean backup of the strong configuration (what the engine reported before). Prints a
markdown table of the largest and the mean absolute error; writes it to
``bench/results/honest-values.md`` with the load. ``--kernel-only`` skips the dog's reference
engine and ``--now-only`` the mean-backup rows (the long parts on a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "plugin_game"))

from benchkit import RESULTS, publish, results_text  # noqa: E402

import solver  # noqa: E402
from solver.search import Limit, expectimax, search_position  # noqa: E402
from solver.search.auto import estimate_options  # noqa: E402
from solver.search.mcts import strong_mcts_options  # noqa: E402

BUDGETS = (200, 1000, 2000, 20000)


def _pebbles() -> list[Any]:
    import pebbles_game

    game = pebbles_game.PebblesGame()
    found, stack = [], [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        found.append(state)
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            stack.append(child)
    return found


def _dog(engine: str) -> list[Any]:
    found = []
    for name in solver.puzzles.names("dog"):
        start = solver.load_game("dog", forest=name, engine=engine).new_initial_state()
        found.append(start)
        for action, _p in start.chance_outcomes():
            child = start.clone()
            child.apply_action(action)
            found.append(child)
    return found


def _errors(states: list[Any], exact: list[float], budget: int, options: Any) -> list[float]:
    out = []
    for state, value in zip(states, exact, strict=True):
        found = search_position(state, exact=False, limit=Limit(iterations=budget),
                                options=options(state))  # fmt: skip
        out.append(abs(found.value - value))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--kernel-only",
        action="store_true",
        help="skip the dog's reference engine (pure Python: the longest part)",
    )
    parser.add_argument(
        "--now-only",
        action="store_true",
        help="only the estimator the hint engine uses (no mean-backup rows)",
    )
    args = parser.parse_args()
    sets = {"pebbles (plug-in game), every position": _pebbles(),
            "dog, curated forests, kernel": _dog("kernel")}  # fmt: skip
    if not args.kernel_only:
        sets["dog, curated forests, reference"] = _dog("reference")
    rows = ["| positions | n | estimator | " + " | ".join(f"{b} sims: max / mean" for b in BUDGETS)
            + " |", "|---|---|---|" + "---|" * len(BUDGETS)]  # fmt: skip
    started = time.monotonic()
    for title, states in sets.items():
        exact = []
        for state in states:
            result = expectimax(state)
            view = 0 if state.is_chance_node() else state.current_player()
            exact.append(float(result.extra["values"][view]))
        estimators = [("max backup (now)", estimate_options)]
        if not args.now_only:
            estimators.append(("mean backup (before)", strong_mcts_options))
        for label, options in estimators:
            cells = []
            for budget in BUDGETS:
                errors = _errors(states, exact, budget, options)
                cells.append(f"{max(errors):.3f} / {sum(errors) / len(errors):.3f}")
            rows.append(f"| {title} | {len(states)} | {label} | " + " | ".join(cells) + " |")
            print(rows[-1], flush=True)
    intro = (
        "`python bench/honest_values.py`: the largest and the mean absolute error of "
        "`search_position(exact=False)` (seed 0) against expectimax, by simulations (1000 is "
        "the hint engine's default budget)."
    )
    title = "Honest values: the hint's estimate against the exact value"
    note = "errors do not depend on load: iteration budgets, fixed seeds"
    text = results_text(title, intro, rows, started, note)
    publish(text, str(RESULTS / "honest-values.md"))


if __name__ == "__main__":
    main()
