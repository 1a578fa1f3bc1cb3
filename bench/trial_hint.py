"""A Trial hint over stdio: latency of a fixed-budget ISMCTS hint from the first decision.

The position: the default four-player Trial, its chance outcomes drawn as ``forest trial play
--seed 0`` draws them (``sample_chance`` from ``SplitMix64(0)``) up to the first decision. The
request: ``{"game": "trial", "actions": [...], "limit": {"iterations": N}, "seed": 0}`` (plus
``"engine"`` when given), sent ``--requests`` times, one at a time, to one ``forest hint --stdio
--workers 1`` process (warmed: its first answer is not counted); the latency is from writing the
line to reading the answer, and the worker's CPU time over it (``/proc/PID/task/*/schedstat``:
the latency on a quiet core, whatever the machine's load). Also the same search in this process
(``solver.hint.engine.answer``) for comparison. Prints p50, p90 and the maximum in
milliseconds, the answer's ``searcher`` and ``method``, and the load (``os.getloadavg``) before
and after.

    nice -n 10 python bench/trial_hint.py --iterations 2000 --requests 40
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def first_decision(players: int, seed: int, engine: str | None) -> list[int]:
    """The chance outcomes ``play --seed SEED`` draws before the first decision."""
    import solver
    from solver.game import sample_chance
    from solver.rng import SplitMix64

    game = solver.load_game("trial", players=players, engine=engine)
    state = game.new_initial_state()
    rng = SplitMix64(seed)
    actions = []
    while state.is_chance_node():
        actions.append(sample_chance(state, rng))
        state.apply_action(actions[-1])
    return actions


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid``'s threads have run, from ``/proc/PID/task/*/schedstat``
    (nanoseconds: what the process would take on a quiet core, whatever the load)."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            continue
    return total / 1e9


def stdio_latencies(
    request: dict[str, Any], count: int
) -> tuple[list[float], list[float], dict[str, Any]]:
    """Seconds of ``count`` requests, one at a time, to one stdio worker (after one warm-up):
    wall-clock latencies and the worker process's CPU seconds for each."""
    command = [sys.executable, "-m", "solver.cli", "hint", "--stdio", "--workers", "1"]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    latencies: list[float] = []
    cpu: list[float] = []
    reply: dict[str, Any] = {}
    try:
        for n in range(count + 1):
            start, used = time.perf_counter(), cpu_seconds(proc.pid)
            proc.stdin.write(json.dumps({**request, "id": f"b{n}"}) + "\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            if "error" in reply:
                raise RuntimeError(f"the hint failed: {reply}")
            if n:
                latencies.append(time.perf_counter() - start)
                cpu.append(cpu_seconds(proc.pid) - used)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    return latencies, cpu, reply


def in_process(request: dict[str, Any], count: int) -> list[float]:
    from solver.hint.engine import answer

    answer({**request, "id": "warm"})
    times = []
    for n in range(count):
        start = time.perf_counter()
        answer({**request, "id": f"p{n}"})
        times.append(time.perf_counter() - start)
    return times


def summary(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (f"| {name} | {len(seconds)} | {1000 * statistics.median(seconds):.1f} | "
            f"{1000 * p90:.1f} | {1000 * ordered[-1]:.1f} |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", default=None, help="the Trial's engine (default: its own)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    actions = first_decision(args.players, args.seed, args.engine)
    request: dict[str, Any] = {"game": "trial", "options": {"players": args.players},
                               "actions": actions, "limit": {"iterations": args.iterations},
                               "seed": 0}  # fmt: skip
    if args.engine:
        request["engine"] = args.engine
    latencies, cpu, reply = stdio_latencies(request, args.requests)
    local = in_process(request, args.requests)
    root = reply["rootInfo"]
    lines = [
        f"`python bench/trial_hint.py {' '.join(sys.argv[1:] if argv is None else argv)}`",
        "",
        f"A {args.iterations}-simulation hint at the first decision of the default "
        f"{args.players}-player Trial (chance of seed {args.seed}: {len(actions)} outcomes); "
        f"searcher {root.get('searcher')!r}, method {root['method']!r}, "
        f"{root['visits']} simulations, best move {reply['moveInfos'][0]['label']!r}.",
        "",
        "| path | requests | p50 ms | p90 ms | max ms |",
        "|---|---:|---:|---:|---:|",
        summary("forest hint --stdio --workers 1, wall clock", latencies),
        summary("the same, the worker's CPU seconds (a quiet core)", cpu),
        summary("solver.hint.engine.answer, in-process", local),
        "",
        f"Load average {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after (1 minute; "
        f"{os.cpu_count()} cores); Python {platform.python_version()}.",
    ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
