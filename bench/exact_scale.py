"""Exact answers at scale (issue 11): the pruning exact search against the plain one, threads,
and forests made to order. Every ratio is taken within one run on the same machine.

    .venv/bin/python bench/exact_scale.py [--quick] [-o bench/results/exact-scale.md]

Sections (medians where a set is summarised):

1. per forest (the curated set, rolled 7x7/8x8/9x9 forests at 20 turns and at 8 turns): states
   expanded, table bytes and seconds of ``expectimax(state)`` (pruning, the whole result: every
   root move's value, the tie-break, the principal variation) and of ``prune=False`` (the plain
   search, capped at ``--plain-mb``), the value-only pruning search, and where the plain search
   finished the ratio of states;
2. where to memoise: every node or chance nodes (turn starts and shouts) only;
3. 9x9 forests at 8 turns: the share solved exactly within 1 s each;
4. threads: the exact search (shared table) and MCTS (root parallelism) with 1 and 2 threads;
   MCTS's strength at equal total simulations (1000 a move) with 1 and 2 threads on
   ``bench/strength.py``'s small set, the same dice for both;
5. ``roll_forest_with_value`` forests found per minute, bands 0.3-0.6 and 0.6-0.9 at 9x9.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import solver
from solver import puzzles
from solver.errors import SearchBudgetError
from solver.games.dog.generator import roll_forest, roll_forest_with_value
from solver.games.dog.kernel import KernelDogGame
from solver.rng import derive_seed
from solver.search import expectimax, mcts, solve, strong_mcts_options

VALUE_BUDGET = 20_000_000  # nodes for the value-only pruning search of one forest


def _rolled(size: int, seed: int, turns: int | None):
    forest = roll_forest(size, size, seed=seed)
    return forest if turns is None else forest.replace(turns=turns)


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _fmt_bytes(n: float | None) -> str:
    if n is None:
        return "-"
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n}"


def per_forest(args, out: list[str]) -> None:
    from solver._ext.pruning import PruningSearch

    forests = [(name, puzzles.load(name)) for name in puzzles.names("dog")]
    seeds = range(2) if args.quick else range(3)
    for size in (7, 8, 9):
        for turns in (20, 8):
            for seed in seeds:
                forests.append((f"rolled {size}x{size} seed {seed}, {turns} turns",
                                _rolled(size, seed, turns)))  # fmt: skip
    out += [
        "## 1. Per forest: pruning against the plain search (same run)",
        "",
        f"The plain search is capped at {args.plain_mb} MB ('cap': it did not fit). 'value only': "
        f"the pruning search's root value alone (budget {VALUE_BUDGET:,} nodes). States: nodes "
        "expanded.",
        "",
        "| forest | value | pruning: states | bytes | s | value only: states | s "
        "| plain: states | bytes | s | states plain / pruning |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ratios, value_one = [], []
    for label, forest in forests:
        game = KernelDogGame(forest)
        state = game.new_initial_state()
        vs = PruningSearch(game, 1 << 30)
        v, vsec = _timed(lambda vs=vs, state=state: vs.value(state, VALUE_BUDGET))
        value_states = vs.expanded
        if v is None:
            row = f"| {label} | (budget) | - | - | - | > {VALUE_BUDGET:,} | {vsec:.2f} | - | - | - | - |"  # noqa: E501
            out.append(row)
            print(row, file=sys.stderr)
            continue
        pruned, psec = _timed(lambda state=state: expectimax(state))
        try:
            plain, qsec = _timed(
                lambda state=state: expectimax(state, prune=False, memory_mb=args.plain_mb)
            )
            plain_cells = (
                f"{plain.iterations:,} | {_fmt_bytes(plain.extra['table_bytes'])} | {qsec:.2f}"
            )
            ratio = plain.iterations / max(1, pruned.iterations)
            ratios.append(ratio)
            if abs(v - 1.0) < 1e-12:
                value_one.append(plain.iterations / max(1, value_states))
            ratio_cell = f"{ratio:.1f}x"
        except SearchBudgetError:
            plain_cells, ratio_cell = "cap | - | -", "-"
        row = (
            f"| {label} | {v:.6f} | {pruned.iterations:,} | "
            f"{_fmt_bytes(pruned.extra['table_bytes'])} | {psec:.3f} | {value_states:,} | "
            f"{vsec:.3f} | {plain_cells} | {ratio_cell} |"
        )
        out.append(row)
        print(row, file=sys.stderr)
    if ratios:
        out += [
            "",
            f"Median states ratio (plain / pruning, whole result) where both finished: "
            f"{statistics.median(ratios):.1f}x over {len(ratios)} forests; on forests of value 1, "
            f"plain / value-only pruning: median "
            f"{statistics.median(value_one) if value_one else math.nan:.0f}x "
            f"({len(value_one)} forests).",
        ]
    out.append("")


def memo(args, out: list[str]) -> None:
    from solver._ext.pruning import PruningSearch

    out += [
        "## 2. Where to memoise: every node or chance nodes only",
        "",
        "| forest | every node: states | entries | s | chance only: states | entries | s |",
        "|---|---|---|---|---|---|---|",
    ]
    cases = [(n, puzzles.load(n)) for n in ("dog/shout-gauntlet", "dog/puddles", "dog/walled-in")]
    cases += [(f"rolled 9x9 seed {s}, 8 turns", _rolled(9, s, 8)) for s in range(4)]
    for label, forest in cases:
        game = KernelDogGame(forest)
        state = game.new_initial_state()
        cells = []
        for mode in ("all", "chance"):
            ps = PruningSearch(game, 1 << 30, memo=mode)
            v, sec = _timed(lambda ps=ps, state=state: ps.value(state, VALUE_BUDGET))
            cells.append(f"{ps.expanded:,} | {ps.entries:,} | {sec:.3f}" if v is not None
                         else "budget | - | -")  # fmt: skip
        out.append(f"| {label} | {cells[0]} | {cells[1]} |")
    out.append("")


def share_9x9(args, out: list[str]) -> None:
    from solver._ext.pruning import PruningSearch

    count = 40 if args.quick else 100
    solved, times = 0, []
    for seed in range(count):
        game = KernelDogGame(_rolled(9, seed, 8))
        ps = PruningSearch(game, 1 << 30)
        v, sec = _timed(lambda ps=ps, game=game: ps.value(game.new_initial_state(), 5_000_000))
        times.append(sec)
        solved += v is not None and sec <= 1.0
    out += [
        "## 3. 9x9 forests at 8 turns solved exactly within 1 s each",
        "",
        f"{solved} of {count} ({100 * solved / count:.0f} %); "
        f"median {statistics.median(times):.3f} s, "
        f"slowest {max(times):.2f} s (value-only search, seeds 0-{count - 1}).",
        "",
    ]


def _wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def _children(state) -> list:
    """The root's children that are not over (the tasks of the threaded search)."""
    actions = (
        [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    )
    out = []
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal():
            out.append(child)
    return out


def _thread_cases(args) -> list:
    """Rolled forests (from the initial state and after a 2-step roll) whose single-thread value
    search takes 0.1-10 CPU seconds, the first ``--thread-cases`` of them."""
    from solver._ext.pruning import PruningSearch

    cases = []
    for size, turns in ((8, 12), (9, 12), (8, 14), (9, 10), (9, 14), (8, 16)):
        for seed in range(8):
            forest = _rolled(size, seed, turns)
            game = KernelDogGame(forest)
            root = game.new_initial_state()
            rolled = root.clone()
            rolled.apply_action(11)
            for label, state in ((f"rolled {size}x{size} seed {seed}, {turns} turns", root),
                                 (f"rolled {size}x{size} seed {seed}, {turns} turns, "
                                  "after a 2-step roll", rolled)):  # fmt: skip
                if state.is_terminal() or not _children(state):
                    continue
                search = PruningSearch(game, 1 << 30)
                c0 = _cpu()
                found = search.values(_children(state), 40_000_000)
                spent = _cpu() - c0
                if None not in found and 0.1 <= spent <= 10:
                    cases.append((label, game, state))
                    print(f"case {label}: {spent:.2f} cpu s", file=sys.stderr)
                if len(cases) >= args.thread_cases:
                    return cases
    return cases


def threads(args, out: list[str]) -> None:
    from solver._ext.pruning import PruningSearch

    out += ["## 4. Threads: 1 and 2", ""]
    load0 = os.getloadavg()[0]
    repeats = args.repeats
    cases = _thread_cases(args)
    rows, wall_ratios, split_ratios, full_ratios, idle_ratios = [], [], [], [], []
    full_split_ratios: list[float] = []
    for label, game, state in cases:
        walls: dict[int, list[float]] = {1: [], 2: []}
        cpus: dict[int, list[float]] = {1: [], 2: []}
        nodes: dict[int, list[int]] = {1: [], 2: []}
        splits: list[float] = []
        fulls: dict[int, list[float]] = {1: [], 2: []}
        full_nodes: list[int] = []
        full_splits: list[float] = []
        reference = None
        for _ in range(repeats):
            for t in (1, 2):  # alternating, so that both see the same load
                search = PruningSearch(game, 1 << 30, threads=t)
                tasks = _children(state)
                c0 = _cpu()
                found, sec = _timed(lambda search=search, tasks=tasks: search.values(tasks))
                cpus[t].append(_cpu() - c0)
                walls[t].append(sec)
                nodes[t].append(search.expanded)
                if t == 2:
                    splits.append(nodes[1][-1] / max(search.worker_expanded))
                reference = reference or found
                assert max(abs(a - b) for a, b in zip(found, reference, strict=True)) < 1e-12
                solution, sec = _timed(lambda t=t, state=state: solve(state, threads=t))
                r = solution.result
                fulls[t].append(sec)
                per_worker = solution._table._ps.worker_expanded  # the pruning searcher's
                if t == 1:
                    full_nodes.append(r.iterations)
                else:
                    full_splits.append(full_nodes[-1] / max(per_worker))
        med = {t: statistics.median(walls[t]) for t in (1, 2)}
        full = {t: statistics.median(fulls[t]) for t in (1, 2)}
        full_split = statistics.median(full_splits)
        full_split_ratios.append(full_split)
        split = statistics.median(splits)
        # the work split at the measured CPU cost per node of each thread count
        per_node = {t: statistics.median(cpus[t]) / statistics.median(nodes[t]) for t in (1, 2)}
        idle = split * per_node[1] / per_node[2]
        wall_ratios.append(med[1] / med[2])
        split_ratios.append(split)
        full_ratios.append(full[1] / full[2])
        idle_ratios.append(idle)
        rows.append(
            f"| {label} | {r.value:.6f} | {med[1]:.3f} / {statistics.median(cpus[1]):.3f} / "
            f"{statistics.median(nodes[1]):,.0f} | {med[2]:.3f} / {statistics.median(cpus[2]):.3f}"
            f" / {statistics.median(nodes[2]):,.0f} | {med[1] / med[2]:.2f}x | {split:.2f}x | "
            f"{idle:.2f}x | {full[1]:.3f} / {full[2]:.3f} = {full[1] / full[2]:.2f}x | "
            f"{full_split:.2f}x |"
        )
        print(rows[-1], file=sys.stderr)
    load1 = os.getloadavg()[0]
    out += [
        f"Load average (1 min) when the section started: {load0:.1f}, when the exact part "
        f"ended: {load1:.1f}, on {os.cpu_count()} cores. The machine was shared with other "
        "work: with a load above 2 (the scheduler shares the cores out by session) the process "
        "gets about one core whatever its thread count, and the wall-clock ratio cannot show "
        "what 2 idle cores give. 'work split' and 'at CPU cost' estimate that, but they are "
        "measured with the threads taking turns on one core: they leave out what running on "
        "two cores at once costs (cache lines moving between the cores), and a thread that "
        "waits long for the core leaves more of the work to the other.",
        "",
        "Exact search: the value search of the root's children (`PruningSearch(threads=T)"
        ".values`: one shared table, workers defer a chance outcome another worker is inside), "
        f"1 and 2 threads alternating, {repeats} runs each, medians. 'work split' is the "
        "1-thread node count over the busiest worker's nodes with 2 threads: the speed-up 2 "
        "free cores give at an equal cost per node; 'at CPU cost' multiplies it by the "
        "1-thread CPU seconds per node over the 2-thread ones (locks, shared cache lines). "
        "'expectimax()' is the whole result (every "
        "root move, the fastest-win pass and the principal variation: every value search in it "
        "uses all the workers, the fastest-win pass and the null windows of the tie-break one) "
        "with 1 / 2 threads.",
        "",
        "| forest | value | 1 thread: s / cpu / nodes | 2 threads: s / cpu / nodes | wall "
        "speed-up | work split | at CPU cost | expectimax(): 1 / 2 threads s | its work split |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    if rows:
        out += [
            f"Medians over {len(rows)} searches (those taking 0.1-10 CPU s on one thread): wall "
            f"speed-up {statistics.median(wall_ratios):.2f}x, work split "
            f"{statistics.median(split_ratios):.2f}x, at CPU cost "
            f"{statistics.median(idle_ratios):.2f}x, expectimax() whole result work split "
            f"{statistics.median(full_split_ratios):.2f}x and wall "
            f"{statistics.median(full_ratios):.2f}x.",
            "",
        ]
    if args.threads_exact_only:
        return
    # MCTS throughput
    game = solver.load_game("dog", forest="dog/rolled-9x9-seed7", engine="kernel")
    state = game.new_initial_state()
    state.apply_action(11)
    n = 200_000 if args.quick else 1_000_000
    rates, cpus = {}, {}
    for t in (1, 2):
        runs, cpu = [], []
        for seed in range(3):
            c0 = _cpu()
            _r, sec = _timed(lambda t=t, seed=seed: mcts(state, iterations=n, seed=seed, threads=t))
            runs.append(n / sec)
            cpu.append(_cpu() - c0)
        rates[t] = statistics.median(runs)
        cpus[t] = statistics.median(cpu)
    out += [
        f"MCTS (rollout evaluator, {n:,} simulations, median of 3): 1 thread "
        f"{rates[1]:,.0f} simulations/s ({cpus[1]:.2f} cpu s), 2 threads {rates[2]:,.0f} "
        f"({cpus[2]:.2f} cpu s): {rates[2] / rates[1]:.2f}x.",
        "",
    ]
    # MCTS strength at equal total simulations
    from solver.games.dog.play import play_game

    games = 60 if args.quick else 300
    names = ("dog/corridor", "dog/squirrel-corner", "dog/stick", "dog/another-dog",
             "dog/tiny-shout", "dog/trail-crossing")  # fmt: skip
    out += [
        f"MCTS strength, 1000 simulations a move in total, {games} games a forest on the same "
        "dice (win rate, 95 % Wilson interval):",
        "",
        "| forest | 1 thread | 2 threads |",
        "|---|---|---|",
    ]
    inside = 0
    for fi, name in enumerate(names):
        game = solver.load_game("dog", forest=name, engine="kernel")
        cells = []
        intervals = []
        rates_t = []
        for t in (1, 2):
            wins = 0
            for g in range(games):
                seed = derive_seed(derive_seed(11, fi), g)
                counter = iter(range(10**9))

                def agent(state, seed=seed, t=t, counter=counter):
                    legal = state.legal_actions()
                    if len(legal) == 1:
                        return legal[0]
                    opts = dataclasses.replace(strong_mcts_options(state), threads=t)
                    return mcts(state, iterations=1000, seed=derive_seed(seed, next(counter)),
                                options=opts).best_action  # fmt: skip

                record = play_game(game, agent, seed=seed)
                wins += bool(record.won)
            lo, hi = _wilson(wins, games)
            intervals.append((lo, hi))
            rates_t.append(wins / games)
            cells.append(f"{100 * wins / games:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]")
        inside += intervals[0][0] - 1e-9 <= rates_t[1] <= intervals[0][1] + 1e-9
        out.append(f"| {name} | {cells[0]} | {cells[1]} |")
        print(out[-1], file=sys.stderr)
    out += ["", f"2 threads inside the 1-thread interval on {inside} of {len(names)} forests.", ""]


def generate_rate(args, out: list[str]) -> None:
    seconds = 30 if args.quick else 120
    out += [
        "## 5. Forests made to order: found per minute at 9x9",
        "",
        f"`roll_forest_with_value` from successive seeds for {seconds} s per band (each call "
        "continues after the previous forest found).",
        "",
        "| band | turns | found | tried | per minute |",
        "|---|---|---|---|---|",
    ]
    for turns in (8, 20):
        for lo, hi in ((0.3, 0.6), (0.6, 0.9)):
            found = tried = 0
            seed = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                try:
                    f = roll_forest_with_value(9, 9, lo, hi, seed=seed, turns=turns,
                                               max_tries=20, max_nodes=2_000_000)  # fmt: skip
                except solver.errors.SolverError:
                    tried += 20
                    seed += 20
                    continue
                found += 1
                tried += f.tries
                seed = f.seed + 1
            minutes = (time.perf_counter() - start) / 60
            out.append(f"| {lo}-{hi} | {turns} | {found} | {tried} | {found / minutes:.1f} |")
            print(out[-1], file=sys.stderr)
    out.append("")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sets")
    parser.add_argument("--plain-mb", type=float, default=1024.0)
    parser.add_argument("--sections", default="1,2,3,4,5")
    parser.add_argument("--repeats", type=int, default=5, help="runs per thread count (4.)")
    parser.add_argument("--thread-cases", type=int, default=10, help="searches in 4.")
    parser.add_argument("--threads-exact-only", action="store_true",
                        help="4. measures the exact search only (no MCTS)")  # fmt: skip
    parser.add_argument("-o", "--output", default="bench/results/exact-scale.md")
    args = parser.parse_args(argv)
    out = [
        "# Exact answers at scale (bench/exact_scale.py)",
        "",
        f"Run: `{' '.join(['bench/exact_scale.py', *(argv or sys.argv[1:])])}`, "
        "2 cores shared with other work (timings are noisy; ratios come from the same run).",
        "",
    ]
    sections = {"1": per_forest, "2": memo, "3": share_9x9, "4": threads, "5": generate_rate}
    for key in args.sections.split(","):
        sections[key](args, out)
    Path(args.output).write_text("\n".join(out) + "\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
