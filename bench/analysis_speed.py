"""`forest analyse` at speed (issue 22 §1): this checkout against the code of commit e3a8ca9, in
one bench run, on the same forests, with the same ``-j``.

    # once: a worktree of the baseline commit with its own virtual environment and build
    .venv/bin/python bench/analysis_speed.py baseline ../forest-e3a8ca9
    # the comparison (rounds alternate old, new), the per-step profiles, the report
    nice -n 10 .venv/bin/python bench/analysis_speed.py run --baseline ../forest-e3a8ca9 \\
        [--count 60 --size 9x9 --turns 8 --seed 0 -j 1 --rounds 3] \\
        [-o bench/results/analysis-speed.md]
    # the exact clairvoyant value against the sampled estimate, CPU seconds
    .venv/bin/python bench/analysis_speed.py exact
    # the rows the baseline writes for the golden test (tests/games/dog/test_analysis_golden.py)
    .venv/bin/python bench/analysis_speed.py golden --baseline ../forest-e3a8ca9 \\
        -o tests/games/dog/golden/analysis-rows-e3a8ca9.json

``run`` times the whole command as a user runs it, ``forest analyse --count N --size WxH --turns T
--seed S -j J -o FILE``, once with each checkout's own ``forest`` per round, and checks that the
two results files hold the same rows in every column both have (``seconds`` aside): the speed-up
is for the same answers. The per-step profile (``steps``, run by each checkout's interpreter)
times every step of the per-forest analysis by wrapping its function (no profiler, so compiled
and Python steps are timed alike), and the fixed costs: the imports of a run and what the command
spends outside the forests' analyses (start-up, workers, writing). Whole commands are timed in
wall seconds and in CPU seconds (the command and its workers, from ``getrusage``: less sensitive
to a loaded machine); the steps in the process's CPU seconds. Figures are medians over the
rounds; the load (``os.getloadavg``) is written next to them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BASELINE_COMMIT = "e3a8ca9"
CLOCK = time.process_time if os.environ.get("ANALYSIS_SPEED_CPU") else time.perf_counter
"""The steps' clock: wall time, or this process's CPU time with ANALYSIS_SPEED_CPU=1 (less
sensitive to other processes on a loaded machine)."""
HERE = Path(__file__).resolve().parent.parent

# -- the per-step profile (runs inside either checkout: stdlib and `solver` only) ---------------
# (step, module, attribute): the function whose calls are the step. Only the outermost timed call
# counts, so a step called inside another (the par search inside the clairvoyant) stays there.
STEPS: list[tuple[str, str, str]] = [
    ("load or roll the forest", "solver.games.dog.analysis.classify", "_descriptor_forest"),
    ("reachability", "solver.games.dog.analysis.classify", "is_reachable"),
    ("par search", "solver.games.dog.analysis.soonest", "SoonestWins.par"),
    ("par search", "solver.games.dog.analysis.classify", "first_win"),
    ("par route cells", "solver.games.dog.analysis.classify", "route_cells"),
    ("guaranteed proof", "solver.games.dog.analysis.proof", "prove_guaranteed"),
    ("expectimax (adversarial, exact)", "solver.games.dog.analysis.classify", "_expectimax"),
    ("MCTS games", "solver.games.dog.analysis.classify", "_mcts_rate"),
    ("clairvoyant estimate", "solver.games.dog.analysis.classify", "_upper"),
    ("clairvoyant estimate", "solver.games.dog.analysis.classify", "clairvoyant_estimate"),
    ("proven interval", "solver.games.dog.analysis.classify", "_proven_interval"),
    ("skill: the weakest level", "solver.games.dog.analysis.classify", "weakest_win_probability"),
]
# parts of a step, timed inside it (reported apart, not added to the total)
PARTS: list[tuple[str, str, str]] = [
    ("clairvoyant: sampling the worlds", "solver.games.dog.analysis.classify", "sample_world"),
    ("clairvoyant: sampling the worlds", "solver.games.dog.analysis.clairvoyant", "sample_worlds"),
    ("guaranteed proof: turns_needed", "solver.games.dog.analysis.proof", "turns_needed"),
]


def _wrap(owner: Any, attribute: str, name: str, totals: dict[str, float], stack: list[str],
          counted: bool) -> None:  # fmt: skip
    original = getattr(owner, attribute)

    def timed(*args: Any, **kwargs: Any) -> Any:
        outermost = not stack if counted else True
        stack.append(name) if counted else None
        started = CLOCK()
        try:
            return original(*args, **kwargs)
        finally:
            elapsed = CLOCK() - started
            if counted:
                stack.pop()
            if outermost:
                totals[name] = totals.get(name, 0.0) + elapsed

    setattr(owner, attribute, timed)


def _resolve(module_name: str, attribute: str) -> tuple[Any, str] | None:
    import importlib

    try:
        owner: Any = importlib.import_module(module_name)
    except ImportError:
        return None
    *path, last = attribute.split(".")
    for part in path:
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    return (owner, last) if hasattr(owner, last) else None


def profile_steps(descriptors: list[dict[str, Any]]) -> dict[str, Any]:
    """Seconds per step over ``descriptors`` (the dog's ``analyse_source`` on each), and the
    imports' seconds in this fresh process."""
    started = time.perf_counter()
    import solver.analysis.batch
    import solver.cli  # noqa: F401
    from solver.games.dog.analysis import classify

    imports = time.perf_counter() - started
    totals: dict[str, float] = {}
    parts: dict[str, float] = {}
    stack: list[str] = []
    seen: set[tuple[int, str]] = set()
    for name, module_name, attribute in STEPS:
        found = _resolve(module_name, attribute)
        if found is not None and (id(found[0]), found[1]) not in seen:
            seen.add((id(found[0]), found[1]))
            _wrap(found[0], found[1], name, totals, stack, counted=True)
    for name, module_name, attribute in PARTS:
        found = _resolve(module_name, attribute)
        if found is not None and (id(found[0]), found[1]) not in seen:
            seen.add((id(found[0]), found[1]))
            _wrap(found[0], found[1], name, parts, [], counted=False)
    classes: dict[str, int] = {}
    started = CLOCK()
    for descriptor in descriptors:
        row = classify.analyse_source(descriptor)
        key = f"{row['class']}/{row['method']}"
        classes[key] = classes.get(key, 0) + 1
    analysis = CLOCK() - started
    return {"imports": imports, "analysis": analysis, "steps": totals, "parts": parts,
            "classes": classes, "forests": len(descriptors)}  # fmt: skip


# -- exact against sampled ----------------------------------------------------------------------
EXACT_SETS = [((6, 6), 5, 30), ((9, 9), 6, 30), ((9, 9), 8, 12), ((12, 12), 8, 20)]


def exact_against_sampled(sets: list[tuple[tuple[int, int], int, int]] = EXACT_SETS) -> str:
    """CPU seconds of the exact clairvoyant value (within the default 1,000,000 positions) and of
    the default 100 sampled worlds, forest by forest (rolled forests, seeds 0..N-1)."""
    from solver.games.dog.analysis.clairvoyant import clairvoyant_estimate, exact_clairvoyant_value
    from solver.games.dog.analysis.classify import AnalysisOptions
    from solver.games.dog.analysis.soonest import SoonestWins
    from solver.games.dog.generator import roll_forest

    options = AnalysisOptions()
    lines = [
        "| forests | exact CPU s | sampled CPU s | exact cheaper | exact did not fit |",
        "|---|---|---|---|---|",
    ]
    for (width, height), turns, count in sets:
        exact_s = sampled_s = 0.0
        cheaper = unfit = 0
        for seed in range(count):
            forest = roll_forest(width, height, seed=seed).replace(turns=turns)
            searches = SoonestWins(forest)
            started = time.process_time()
            value = exact_clairvoyant_value(forest, options.clairvoyant_total_nodes, searches)
            middle = time.process_time()
            clairvoyant_estimate(forest, options, f"seed:{seed}", searches)
            ended = time.process_time()
            exact_s += middle - started
            sampled_s += ended - middle
            cheaper += middle - started < ended - middle
            unfit += value is None
        lines.append(
            f"| {count} rolled {width}x{height}, {turns} turns | {exact_s:.2f} | {sampled_s:.2f} "
            f"| {cheaper} | {unfit} |"
        )
    return "\n".join(lines)


# -- the golden rows ----------------------------------------------------------------------------
def golden_cases() -> list[dict[str, Any]]:
    """The descriptors of the golden test: every class and method, the budgets that bind."""
    cases: list[dict[str, Any]] = []
    cases += [{"width": 9, "height": 9, "seed": s, "turns": 8} for s in range(12)]
    cases += [{"width": 6, "height": 6, "seed": s, "turns": 2 + s % 5} for s in range(8)]
    cases += [{"width": 12, "height": 12, "seed": s, "turns": 10} for s in range(3)]
    mcts = {"exact_memory_mb": 0.0001, "mcts_games": 8, "mcts_iterations": 30}
    cases += [{"width": 5, "height": 5, "seed": s, "turns": 5, "options": mcts} for s in range(4)]
    cases += [{"width": 6, "height": 5, "seed": s, "turns": 3, "options": mcts} for s in range(4)]
    cases += [{"width": 9, "height": 9, "seed": s, "turns": 2} for s in range(3)]
    capped = {"clairvoyant_total_nodes": 20_000, "clairvoyant_max_nodes": 3_000}
    cases += [
        {"width": 9, "height": 9, "seed": 20 + s, "turns": 8, "options": {**capped, "seed": s}}
        for s in range(6)
    ]
    par_capped = {"par_max_nodes": 40, "clairvoyant_samples": 30}
    cases += [{"width": 7, "height": 7, "seed": s, "turns": 6, "options": par_capped}
              for s in range(3)]  # fmt: skip
    return cases


def golden_rows(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from solver.games.dog.analysis.classify import analyse_source

    out = []
    for descriptor in cases:
        row = analyse_source(descriptor)
        row.pop("seconds", None)
        out.append({"descriptor": descriptor, "row": row})
    return out


# -- running both checkouts -----------------------------------------------------------------------
def _python(checkout: Path) -> Path:
    return checkout / ".venv" / "bin" / "python"


def _forest(checkout: Path) -> Path:
    return checkout / ".venv" / "bin" / "forest"


def _load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def _time_command(checkout: Path, args: argparse.Namespace, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the command and its workers) of one run."""
    command = [str(_forest(checkout)), "analyse", "--count", str(args.count), "--size", args.size,
               "--turns", str(args.turns), "--seed", str(args.seed), "-j", str(args.jobs),
               "-o", str(out), "--no-progress"]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=checkout)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _read_rows(path: Path) -> Any:
    import pandas as pd

    return pd.read_parquet(path)


def compare_rows(old: Any, new: Any) -> tuple[list[str], int]:
    """The columns only the new rows have, and how many rows differ in a shared column (missing
    values equal to missing values)."""
    if len(old) != len(new):
        raise SystemExit(f"the runs wrote {len(old)} and {len(new)} rows")
    missing = [c for c in old.columns if c not in new.columns]
    if missing:
        raise SystemExit(f"the new rows lack the columns {missing}")
    import pandas as pd

    differ = set()
    for column in old.columns:
        if column == "seconds":
            continue
        a, b = old[column].astype(object), new[column].astype(object)
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            gone = pd.isna(x), pd.isna(y)
            if gone != (True, True) and (gone != (False, False) or x != y):
                differ.add(i)
    return [c for c in new.columns if c not in old.columns], len(differ)


def _steps_in(checkout: Path, args: argparse.Namespace) -> dict[str, Any]:
    width, height = (int(x) for x in args.size.lower().split("x"))
    descriptors = [
        {"width": width, "height": height, "seed": args.seed + i, "turns": args.turns}
        for i in range(args.count)
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(descriptors, handle)
    try:
        done = subprocess.run(
            [str(_python(checkout)), str(Path(__file__).resolve()), "steps", handle.name],
            check=True, capture_output=True, text=True, cwd=checkout,
            env={**os.environ, "ANALYSIS_SPEED_CPU": "1"},
        )  # fmt: skip
    finally:
        os.unlink(handle.name)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(args: argparse.Namespace) -> str:
    baseline = Path(args.baseline).resolve()
    checkouts = {"e3a8ca9": baseline, "this checkout": HERE}
    walls: dict[str, list[float]] = {name: [] for name in checkouts}
    cpus: dict[str, list[float]] = {name: [] for name in checkouts}
    inside: dict[str, list[float]] = {name: [] for name in checkouts}
    loads = [_load()]
    new_columns: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            order = list(checkouts) if round_ % 2 == 0 else list(reversed(checkouts))
            rows = {}
            for name in order:
                out = Path(tmp) / f"{round_}-{name.replace(' ', '-')}.parquet"
                wall, cpu = _time_command(checkouts[name], args, out)
                walls[name].append(wall)
                cpus[name].append(cpu)
                rows[name] = _read_rows(out)
                inside[name].append(float(rows[name]["seconds"].sum()))
                loads.append(_load())
                print(f"round {round_ + 1} {name}: {wall:.2f} s wall, {cpu:.2f} s CPU",
                      file=sys.stderr)  # fmt: skip
            new_columns, differ = compare_rows(rows["e3a8ca9"], rows["this checkout"])
            if differ:
                raise SystemExit(f"round {round_ + 1}: {differ} rows differ between the two")
    profiles = {name: _steps_in(path, args) for name, path in checkouts.items()}
    loads.append(_load())
    return report(args, walls, cpus, inside, profiles, new_columns, loads)


def report(args: argparse.Namespace, walls: dict[str, list[float]], cpus: dict[str, list[float]],
           inside: dict[str, list[float]], profiles: dict[str, Any], new_columns: list[str],
           loads: list[str]) -> str:  # fmt: skip
    old, new = "e3a8ca9", "this checkout"
    rate = {name: args.count / statistics.median(w) for name, w in walls.items()}
    command = (f"forest analyse --count {args.count} --size {args.size} --turns {args.turns} "
               f"--seed {args.seed} -j {args.jobs}")  # fmt: skip
    lines = [
        "# `forest analyse` at speed: this checkout against e3a8ca9",
        "",
        f"`{command}`, run {args.rounds} times with each checkout's own `forest` (rounds "
        "alternating which goes first), by `bench/analysis_speed.py run`. Both wrote the same rows "
        "in every column they share (`seconds` aside, checked each round); new columns: "
        + (", ".join(f"`{c}`" for c in new_columns) or "none")
        + ".",
        "",
        "| | e3a8ca9 | this checkout |",
        "|---|---|---|",
        f"| wall seconds (median of {args.rounds}) | {statistics.median(walls[old]):.2f} | "
        f"{statistics.median(walls[new]):.2f} |",
        f"| wall seconds (each round) | {', '.join(f'{w:.2f}' for w in walls[old])} | "
        f"{', '.join(f'{w:.2f}' for w in walls[new])} |",
        f"| forests per second | {rate[old]:.3f} | {rate[new]:.3f} |",
        f"| **speed-up** | | **{rate[new] / rate[old]:.1f}x** |",
        f"| CPU seconds of the command and its workers (median) | "
        f"{statistics.median(cpus[old]):.2f} | {statistics.median(cpus[new]):.2f} |",
        f"| CPU speed-up | | {statistics.median(cpus[old]) / statistics.median(cpus[new]):.1f}x |",
        f"| seconds inside the forests' analyses (sum of `seconds`, median) | "
        f"{statistics.median(inside[old]):.2f} | {statistics.median(inside[new]):.2f} |",
        f"| fixed costs (wall less the analyses: start-up, imports, workers, writing) | "
        f"{statistics.median(walls[old]) - statistics.median(inside[old]):.2f} | "
        f"{statistics.median(walls[new]) - statistics.median(inside[new]):.2f} |",
        "",
        f"Load (1, 5, 15 minutes) before, after each command and at the end: {'; '.join(loads)}"
        f" ({os.cpu_count()} CPUs).",
        "",
        "## The per-step profile",
        "",
        f"The same {args.count} forests analysed in one process by each checkout's interpreter "
        "(`bench/analysis_speed.py steps`): CPU seconds of the process in each step (its "
        "function's calls, timed by a wrapper; a step inside another counts in the outer one), "
        "and the share of the analysis.",
        "",
        "| step | e3a8ca9 s | share | this checkout s | share | speed-up |",
        "|---|---|---|---|---|---|",
    ]
    names: list[str] = []
    for name, _, _ in STEPS:
        if name not in names:
            names.append(name)
    po, pn = profiles[old], profiles[new]
    for name in [*names, "other (row, options, the forest's game)"]:
        if name.startswith("other"):
            so = po["analysis"] - sum(po["steps"].values())
            sn = pn["analysis"] - sum(pn["steps"].values())
        else:
            so, sn = po["steps"].get(name, 0.0), pn["steps"].get(name, 0.0)
        ratio = f"{so / sn:.1f}x" if sn > 0 and so > 0 else "-"
        lines.append(
            f"| {name} | {so:.3f} | {100 * so / po['analysis']:.1f}% | {sn:.3f} | "
            f"{100 * sn / pn['analysis']:.1f}% | {ratio} |"
        )
    lines.append(
        f"| **all {args.count} forests** | **{po['analysis']:.2f}** | | **{pn['analysis']:.2f}** "
        f"| | **{po['analysis'] / pn['analysis']:.1f}x** |"
    )
    lines += ["", "Parts of steps (inside the step's time above):", ""]
    for name in sorted(set(po["parts"]) | set(pn["parts"])):
        lines.append(
            f"- {name}: {po['parts'].get(name, 0.0):.3f} s (e3a8ca9), "
            f"{pn['parts'].get(name, 0.0):.3f} s (this checkout)"
        )
    lines += [
        f"- imports of a run (the analysis, the batch runner, the CLI) in a fresh process: "
        f"{po['imports']:.2f} s (e3a8ca9), {pn['imports']:.2f} s (this checkout)",
        "",
        "Classes/methods of the forests: "
        + ", ".join(f"{k}: {v}" for k, v in sorted(pn["classes"].items())),
        "",
    ]
    return "\n".join(lines)


def make_baseline(directory: Path) -> None:
    """A detached worktree of the baseline commit with its own venv and build (`make install`)."""
    if not directory.exists():
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(directory),
                        BASELINE_COMMIT], check=True)  # fmt: skip
    subprocess.run(["make", "-C", str(directory), "install"], check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "baseline", allow_abbrev=False, help="make the baseline worktree and its build"
    )
    p.add_argument("directory")
    p = sub.add_parser(
        "run", allow_abbrev=False, help="time both checkouts, profile the steps, write the report"
    )
    p.add_argument("--baseline", required=True, help="the worktree of e3a8ca9 (built)")
    p.add_argument("--count", type=int, default=60)
    p.add_argument("--size", default="9x9")
    p.add_argument("--turns", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-j", "--jobs", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("-o", "--output", default=None)
    p = sub.add_parser(
        "golden", allow_abbrev=False, help="write the baseline's rows for the golden test"
    )
    p.add_argument("--baseline", required=True)
    p.add_argument("-o", "--output", required=True)
    sub.add_parser(
        "exact", allow_abbrev=False, help="the exact clairvoyant value against the sampled estimate"
    )
    p = sub.add_parser(
        "steps", allow_abbrev=False, help="(internal) the per-step profile in this interpreter"
    )
    p.add_argument("descriptors")
    p = sub.add_parser(
        "golden-rows", allow_abbrev=False, help="(internal) the golden rows in this interpreter"
    )
    args = parser.parse_args(argv)
    if args.command == "baseline":
        make_baseline(Path(args.directory).resolve())
    elif args.command == "steps":
        descriptors = json.loads(Path(args.descriptors).read_text())
        print(json.dumps(profile_steps(descriptors)))
    elif args.command == "exact":
        print(exact_against_sampled())
        print(f"\nload {_load()} ({os.cpu_count()} CPUs)")
    elif args.command == "golden-rows":
        print(json.dumps(golden_rows(golden_cases())))
    elif args.command == "golden":
        baseline = Path(args.baseline).resolve()
        done = subprocess.run(
            [str(_python(baseline)), str(Path(__file__).resolve()), "golden-rows"],
            check=True, capture_output=True, text=True, cwd=baseline,
        )  # fmt: skip
        rows = json.loads(done.stdout.strip().splitlines()[-1])
        header = {"baseline": BASELINE_COMMIT, "made_by": "bench/analysis_speed.py golden"}
        text = json.dumps({**header, "cases": rows}, indent=1, sort_keys=True)
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        text = run(args)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        print(text)


if __name__ == "__main__":
    main()
