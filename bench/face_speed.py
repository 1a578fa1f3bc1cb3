"""The kernels' shared face and playout loop against a build without them, in one run.

    python bench/face_speed.py --before /path/to/old/checkout [--rounds 3]

Runs the same fixed workloads (iteration and game budgets, so the figures do not depend on
the load, only their seconds do) in the given checkouts' own venvs (``.venv/bin/python``),
alternating before/after ``--rounds`` times, and prints each workload's median CPU seconds (of
the per-process best of three; CPU time, as the machine is shared) and the ratio after /
before. The workloads:

- ``dog C loop``: ``random_playouts`` on ``dog/open-meadow-9x9``, 100,000 games (the C loop);
- ``dog via protocol``: 10,000 games through the Python protocol on the kernel engine
  (``legal_actions``, ``apply_action`` ...; the loop is this file's, the same on both sides);
- ``guardians C loop``: ``random_playouts`` of 2-player guardians, 1,000 games;
- ``guardians via protocol``: 150 games through the Python protocol on its kernel engine;
- ``MCTS kernel``: 100,000 simulations of the compiled MCTS (rollouts) on the
  ``bench/test_bench_mcts.py`` position;
- ``dog clone+==+hash``: 500,000 ``clone()``, ``==`` and ``_hash()`` of one kernel state
  (``hash()`` is left out: it is ``hash(to_json())`` after, the struct's hash before).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

WORKER = r"""
import json, random, time
from solver import puzzles
from solver._ext import dog, guardians
from solver.games.dog.kernel import KernelDogGame
from solver.games.guardians.kernel import KernelGuardiansGame
from solver.search.mcts import mcts
from solver.rng import weighted_index
import solver


def python_playouts(game, n_games, seed):
    # the same code on both sides (a checkout's own bench files may differ)
    rnd = random.Random(seed).random
    actions = wins = 0
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[weighted_index([p for _, p in outcomes], rnd())][0]
            else:
                legal = state.legal_actions()
                action = legal[int(rnd() * len(legal))]
            state.apply_action(action)
            actions += 1
        wins += state.returns()[0] == 1.0
    return n_games, actions, wins

meadow = KernelDogGame(puzzles.load("dog/open-meadow-9x9"))
two = KernelGuardiansGame(2)
root = solver.load_game("dog", forest=puzzles.load("dog/rolled-9x9-seed7"), engine="kernel")
root = root.new_initial_state()
root.apply_action(11)
state = meadow.new_initial_state()


def faces():
    for _ in range(500_000):
        other = state.clone()
        assert other == state
        other._hash()


def searched():
    result = mcts(root, iterations=100_000, seed=0)
    return result.best_action, result.value


work = {
    "dog C loop": lambda: dog.random_playouts(meadow, 100_000, 2024),
    "dog via protocol": lambda: python_playouts(meadow, 10_000, 2024),
    "guardians C loop": lambda: guardians.random_playouts(two, 1_000, 1),
    "guardians via protocol": lambda: python_playouts(two, 150, 1),
    "MCTS kernel": searched,
    "dog clone+==+hash": faces,
}
out = {}
for name, run in work.items():
    result = run()
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        again = run()
        best = min(best, time.process_time() - start)
    assert again == result, name  # seeded: the same figures every time
    out[name] = [best, repr(result)]
print(json.dumps(out))
"""


def _run(checkout: Path) -> dict[str, list]:
    done = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-c", WORKER],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare to")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="default: this one")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, list]]] = {"before": [], "after": []}
    for _ in range(args.rounds):
        for side in ("before", "after"):
            runs[side].append(_run(getattr(args, side)))
            print(f"{side}: {json.dumps(runs[side][-1])}", file=sys.stderr, flush=True)
    print("| workload | before (s) | after (s) | after / before | same results |")
    print("|---|---|---|---|---|")
    for name in runs["before"][0]:
        before = statistics.median(r[name][0] for r in runs["before"])
        after = statistics.median(r[name][0] for r in runs["after"])
        same = runs["before"][0][name][1] == runs["after"][0][name][1]
        print(f"| {name} | {before:.3f} | {after:.3f} | {after / before:.2f} | {same} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
