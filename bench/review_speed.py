"""``forest GAME review`` at its defaults, one source tree against another (issue rev33: the walk).

The records are played here, deterministically, with the tree under test (``forest GAME play
--record``): a four-player Trial of heuristic agents (seed 1, 766 plies), a two-player guardians
game of greedy agents (seed 1, 224 plies), and two dog games (``dog/big-12x12`` with MCTS, seed 1;
``dog/rolled-9x9-seed7`` with random moves, seed 2). Each round reviews every record once with
every tree, the trees in a random order, each review a fresh ``python -m solver.cli`` process with
``PYTHONPATH`` at that tree; its wall clock and CPU seconds (user + system, the child's) are
kept. The medians and the ratios to the first tree's are printed as one markdown table, with the
machine's load (``os.getloadavg``) before and after: CPU seconds are the steadier figure on a
shared machine.

    python bench/review_speed.py --tree before=/tmp/base --tree after=. --rounds 3

A tree is a source checkout (``solver/`` with its compiled kernels, ``puzzles/``); the reviews'
JSON of every tree is compared too: the values of every position not forced must be the same.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RECORDS = {
    "trial4": ("trial", ["--players", "4", "--agent", "heuristic", "--seed", "1"]),
    "guardians2": ("guardians", ["--players", "2", "--agent", "greedy", "--seed", "1"]),
    "dog-big-12x12": ("dog", ["dog/big-12x12", "--agent", "mcts", "--seed", "1"]),
    "dog-rolled-9x9": ("dog", ["dog/rolled-9x9-seed7", "--agent", "random", "--seed", "2"]),
}


def _forest(tree: Path, *args: str, out: int | None = subprocess.DEVNULL) -> None:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-m", "solver.cli", *args], check=True, env=env,
                   stdout=out, stderr=subprocess.DEVNULL)  # fmt: skip


def _timed(tree: Path, game: str, record: Path, output: Path) -> tuple[float, float]:
    """One review's wall clock and CPU seconds (the child's user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with output.open("w") as out:
        _forest(tree, game, "review", str(record), "--json", "--no-progress", out=out.fileno())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _same_values(first: Path, other: Path) -> bool:
    """Whether two reviews value every position not forced in either alike."""
    a, b = json.loads(first.read_text()), json.loads(other.read_text())
    pairs = zip(a["curve"], b["curve"], strict=True)
    return all(
        p["value"] == q["value"] for p, q in pairs if not (p.get("forced") or q.get("forced"))
    )


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", action="append", choices=sorted(RECORDS))
    args = parser.parse_args()
    trees = {name: Path(path).resolve() for name, path in (t.split("=", 1) for t in args.tree)}
    folder = Path(tempfile.mkdtemp(prefix="review-speed-"))
    records = {name: RECORDS[name] for name in args.only or RECORDS}
    first = next(iter(trees.values()))
    for name, (game, play) in records.items():
        _forest(first, game, "play", *play, "--record", str(folder / f"{name}.json"),
                "--no-progress")  # fmt: skip
    load_before = os.getloadavg()
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    rng = random.Random(0)
    for _ in range(args.rounds):
        for name, (game, _play) in records.items():
            order = list(trees.items())
            rng.shuffle(order)
            for tree_name, tree in order:
                output = folder / f"{name}-{tree_name}.review.json"
                times.setdefault((name, tree_name), []).append(
                    _timed(tree, game, folder / f"{name}.json", output)
                )
    load_after = os.getloadavg()
    _print(records, trees, times, folder)
    print(f"\nload (1, 5, 15 min) before {load_before}, after {load_after}; "
          f"{args.rounds} rounds; {os.cpu_count()} cores")  # fmt: skip


def _print(records, trees, times, folder: Path) -> None:
    base = next(iter(trees))
    print("| record | plies | tree | wall median s | CPU median s | CPU ratio | same values |")
    print("|---|---|---|---|---|---|---|")
    for name in records:
        plies = len(json.loads((folder / f"{name}.json").read_text())["actions"])
        base_cpu = statistics.median(c for _, c in times[(name, base)])
        for tree in trees:
            walls = [w for w, _ in times[(name, tree)]]
            cpus = [c for _, c in times[(name, tree)]]
            cpu = statistics.median(cpus)
            same = _same_values(folder / f"{name}-{base}.review.json",
                                folder / f"{name}-{tree}.review.json")  # fmt: skip
            print(f"| {name} | {plies} | {tree} | {statistics.median(walls):.2f} | {cpu:.2f} | "
                  f"{cpu / base_cpu:.2f} | {'yes' if same else 'NO'} |")  # fmt: skip


if __name__ == "__main__":
    main()
