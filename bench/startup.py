"""Start-up of the ``forest`` command against ``python -c "import solver"`` (issue 16: aim ≤ 1.5×).

Each round runs, in a random order, ``python -c "import solver"`` (the baseline: the interpreter
and the package) and the installed ``forest`` console script with ``--version``, ``games`` and
``dog show dog/tiny-example``, each as a fresh process, timing its wall clock. The medians over
the rounds and their ratios to the baseline's median are printed (one markdown table) with the
machine's load (``os.getloadavg``) before and after, so a run on a busy machine says so.

    python bench/startup.py --rounds 30
    python bench/startup.py --rounds 30 --forest /tmp/venv/bin/forest --python /tmp/venv/bin/python
    python bench/startup.py --rounds 15 --cpu    # CPU seconds: steadier on a loaded machine

The defaults are the ``forest`` script and the interpreter of the running environment.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = {
    "forest --version": ["--version"],
    "forest games": ["games"],
    "forest dog show dog/tiny-example": ["dog", "show", "dog/tiny-example"],
}


def _seconds(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def _cpu_seconds(argv: list[str]) -> float:
    """The CPU seconds (user + system) the command's process took: what a loaded machine's wall
    clock stretches, unstretched."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(
    python: str, forest: str, rounds: int, seed: int = 0, cpu: bool = False
) -> dict[str, list[float]]:
    """Wall seconds (``cpu``: CPU seconds) per command, ``rounds`` runs each, interleaved in a
    shuffled order."""
    timed = _cpu_seconds if cpu else _seconds
    runs: dict[str, list[str]] = {'python -c "import solver"': [python, "-c", "import solver"]}
    runs.update({name: [forest, *argv] for name, argv in COMMANDS.items()})
    for argv in runs.values():  # warm the file cache once
        _seconds(argv)
    order = random.Random(seed)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        names = list(runs)
        order.shuffle(names)
        for name in names:
            times[name].append(timed(runs[name]))
    return times


def report(times: dict[str, list[float]], load_before: str, load_after: str) -> str:
    """The markdown table: medians, quartiles, ratio of medians to the baseline."""
    baseline = statistics.median(times['python -c "import solver"'])
    lines = [
        f"load average before: {load_before}; after: {load_after}; rounds: "
        f"{len(next(iter(times.values())))}",
        "",
        "| command | median ms | quartiles ms | × import solver |",
        "|---|---|---|---|",
    ]
    for name, values in times.items():
        q1, _, q3 = statistics.quantiles(values, n=4)
        median = statistics.median(values)
        lines.append(
            f"| `{name}` | {median * 1e3:.0f} | {q1 * 1e3:.0f}–{q3 * 1e3:.0f} | "
            f"{median / baseline:.2f} |"
        )
    return "\n".join(lines)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    here = Path(sys.executable).parent
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the venv")
    parser.add_argument("--forest", default=str(here / "forest"), help="the forest script")
    parser.add_argument("--rounds", type=int, default=30, help="runs of each command")
    parser.add_argument("--cpu", action="store_true",
                        help="time CPU seconds (user + system) instead of the wall clock: steadier "
                        "on a loaded machine")  # fmt: skip
    args = parser.parse_args()
    before = _load()
    times = measure(args.python, args.forest, args.rounds, cpu=args.cpu)
    print(report(times, before, _load()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
