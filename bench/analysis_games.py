"""`forest analyse` on guardians positions and Trial set-ups at speed (issue 22 §1): this checkout
against the code of commit e3a8ca9, in one bench run, with the same rows.

    # once: a worktree of e3a8ca9 with its own build (bench/analysis_speed.py baseline DIR)
    nice -n 10 .venv/bin/python bench/analysis_games.py run --baseline ../forest-e3a8ca9 \\
        [--case guardians:6x5:500 --case guardians:9x9:200 --case trial:2x4:12] \\
        [--rounds 3] [-o bench/results/analysis-games.md]

Each case ``GAME:SIZE:COUNT`` is timed as a user runs it, ``forest analyse --game GAME --count
COUNT --size SIZE --seed 0 -j 1 -o FILE``, once with each checkout's own ``forest`` per round
(rounds alternate which goes first), and the two results files must hold the same rows in every
column both have (``seconds`` aside): the speed-up is for the same answers. Whole commands are
timed in wall seconds and in CPU seconds (the command and its workers, ``getrusage``: less
sensitive to a loaded machine); the per-instance analysis inside them is the sum of the
``seconds`` column. The profile of each side (``profile``, run by each checkout's interpreter on
the same instances) gives the CPU seconds of the per-instance analysis in one process and the
functions with the most own time (``cProfile``). Figures are medians over the rounds; the load
(``os.getloadavg``) is written next to them.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from analysis_speed import _forest, _load, _python, _read_rows, compare_rows

HERE = Path(__file__).resolve().parent.parent
OLD, NEW = "e3a8ca9", "this checkout"
DEFAULT_CASES = ["guardians:6x5:500", "guardians:9x9:200", "trial:2x4:12"]


def _case(text: str) -> tuple[str, str, int]:
    game, size, count = text.split(":")
    return game, size, int(count)


# -- inside either checkout: the per-instance analysis and its profile --------------------------
def profile_case(game: str, size: str, count: int) -> dict[str, Any]:
    """CPU seconds of the analysis of ``count`` rolled instances in this process (the analysis
    function the hooks name, on the instances they roll), and the top functions by own time."""
    import importlib

    from solver.registry import game_spec

    hooks = game_spec(game).analysis
    module, name = hooks.analyse.split(":")
    analyse = getattr(importlib.import_module(module), name)
    from solver.analysis.sources import Source

    width, height = (int(x) for x in size.lower().split("x"))
    sources = [Source.generated(seed, width, height, None, game) for seed in range(count)]
    analyse(sources[0])  # warm: imports, tables
    started = time.process_time()
    for source in sources:
        analyse(source)
    seconds = time.process_time() - started
    profile = cProfile.Profile()
    profile.enable()
    for source in sources:
        analyse(source)
    profile.disable()
    stats = pstats.Stats(profile, stream=io.StringIO())
    table = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in table.values())
    top = []
    ranked = sorted(table.items(), key=lambda kv: -kv[1][2])
    for (path, line, function), (_, _, own, _, _) in ranked[:6]:
        where = path.split("/solver/")[-1] if "/solver/" in path else os.path.basename(path)
        top.append(f"{where}:{line} `{function}` {100 * own / total:.0f}%")
    return {"seconds": seconds, "top": top}


def engines_case(size: str, count: int) -> str:
    """The Trial's analyses in this checkout on its reference rules and on its kernel engine,
    the same rules (so the same rows, checked): what the compiled engine alone is worth, where
    the rules changed since the baseline."""
    import solver.games.trial.kernel as kernel
    from solver.games.trial.analysis import TrialSetup, analyse_setup, trial_game
    from solver.games.trial.rules import TrialGame

    players, games = (int(x) for x in size.lower().split("x"))
    setups = [TrialSetup(seed, players, games) for seed in range(count)]
    seconds, rows = {}, {}
    compiled = kernel.KernelTrialGame
    for name, cls in (("reference", TrialGame), ("kernel", compiled)):
        kernel.KernelTrialGame = cls  # type: ignore[misc]
        trial_game.cache_clear()
        try:
            started = time.process_time()
            rows[name] = [analyse_setup(s) for s in setups]
            seconds[name] = time.process_time() - started
        finally:
            kernel.KernelTrialGame = compiled  # type: ignore[misc]
            trial_game.cache_clear()
    if rows["reference"] != rows["kernel"]:
        raise SystemExit("the Trial's rows differ between its engines")
    return (
        f"The same rules in this checkout (`bench/analysis_games.py engines --case "
        f"trial:{size}:{count}`): {count} rolled {size} set-ups analysed in one process on the "
        f"reference rules {seconds['reference']:.2f} s, on the kernel engine "
        f"{seconds['kernel']:.2f} s of CPU (**{seconds['reference'] / seconds['kernel']:.1f}x**), "
        "the same rows."
    )


# -- both checkouts -------------------------------------------------------------------------------
def _command(checkout: Path, game: str, size: str, count: int, out: Path) -> tuple[float, float]:
    import resource

    command = [str(_forest(checkout)), "analyse", "--game", game, "--count", str(count),
               "--size", size, "--seed", "0", "-j", "1", "-o", str(out),
               "--no-progress"]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=checkout)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _profile_in(checkout: Path, case: tuple[str, str, int]) -> dict[str, Any]:
    spec = ":".join(map(str, case))
    done = subprocess.run(
        [str(_python(checkout)), str(Path(__file__).resolve()), "profile", spec],
        check=True, capture_output=True, text=True, cwd=checkout,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_case(
    baseline: Path, case: tuple[str, str, int], rounds: int, loads: list[str], changed: bool
) -> str:
    """One case's rows of the report; ``changed``: the game's rules changed since the baseline,
    so its rows may differ (counted and said, not refused)."""
    game, size, count = case
    checkouts = {OLD: baseline, NEW: HERE}
    walls: dict[str, list[float]] = {name: [] for name in checkouts}
    cpus: dict[str, list[float]] = {name: [] for name in checkouts}
    inside: dict[str, list[float]] = {name: [] for name in checkouts}
    new_columns: list[str] = []
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(rounds):
            order = list(checkouts) if round_ % 2 == 0 else list(reversed(checkouts))
            rows = {}
            for name in order:
                out = Path(tmp) / f"{round_}-{name.replace(' ', '-')}.parquet"
                wall, cpu = _command(checkouts[name], game, size, count, out)
                walls[name].append(wall)
                cpus[name].append(cpu)
                rows[name] = _read_rows(out)
                inside[name].append(float(rows[name]["seconds"].sum()))
                loads.append(_load())
                print(f"{game} {size} x{count} round {round_ + 1} {name}: {wall:.2f} s wall, "
                      f"{cpu:.2f} s CPU", file=sys.stderr)  # fmt: skip
            new_columns, differ = compare_rows(rows[OLD], rows[NEW])
            if differ and not changed:
                raise SystemExit(f"{game} round {round_ + 1}: {differ} rows differ")
    profiles = {name: _profile_in(path, case) for name, path in checkouts.items()}
    med = {k: {n: statistics.median(v[n]) for n in checkouts} for k, v in
           (("wall", walls), ("cpu", cpus), ("inside", inside))}  # fmt: skip
    noun = {"guardians": "positions", "trial": "set-ups"}.get(game, "instances")
    po, pn = profiles[OLD]["seconds"], profiles[NEW]["seconds"]
    return "\n".join([
        f"### {game}: {count} rolled {size} {noun}",
        "",
        f"`forest analyse --game {game} --count {count} --size {size} --seed 0 -j 1`, "
        f"{rounds} rounds; "
        + (f"**the rows differ in {differ} of {count}: the rules changed since {OLD}** (so the "
           "games played differ too)" if differ else "the same rows in every shared column")
        + "; new columns: " + (", ".join(f"`{c}`" for c in new_columns) or "none") + ".",
        "",
        f"| | {OLD} | {NEW} | speed-up |",
        "|---|---|---|---|",
        f"| CPU seconds of the command and its workers (median) | {med['cpu'][OLD]:.2f} | "
        f"{med['cpu'][NEW]:.2f} | **{med['cpu'][OLD] / med['cpu'][NEW]:.1f}x** |",
        f"| wall seconds (median) | {med['wall'][OLD]:.2f} | {med['wall'][NEW]:.2f} | "
        f"{med['wall'][OLD] / med['wall'][NEW]:.1f}x |",
        f"| wall seconds (each round) | {', '.join(f'{w:.2f}' for w in walls[OLD])} | "
        f"{', '.join(f'{w:.2f}' for w in walls[NEW])} | |",
        f"| seconds inside the analyses (sum of `seconds`, median) | {med['inside'][OLD]:.2f} | "
        f"{med['inside'][NEW]:.2f} | {med['inside'][OLD] / med['inside'][NEW]:.1f}x |",
        f"| the analyses in one process, CPU seconds (profile run) | {po:.3f} | {pn:.3f} | "
        f"{po / pn:.1f}x |",
        "",
        f"Profile, own time, {OLD}: " + "; ".join(profiles[OLD]["top"]) + ".",
        "",
        f"Profile, own time, {NEW}: " + "; ".join(profiles[NEW]["top"]) + ".",
        "",
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "run",
        allow_abbrev=False,
        help="time both checkouts on each case, profile, write the report",
    )
    p.add_argument("--baseline", required=True, help="the worktree of e3a8ca9 (built)")
    p.add_argument("--case", action="append", default=None, help="GAME:SIZE:COUNT (repeatable)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument(
        "--changed-rules",
        action="append",
        default=[],
        metavar="GAME",
        help="a game whose rules changed since the baseline: its rows may differ",
    )
    p.add_argument("-o", "--output", default=None)
    p = sub.add_parser(
        "profile", allow_abbrev=False, help="(internal) one case's analyses in this interpreter"
    )
    p.add_argument("case")
    p = sub.add_parser(
        "engines", allow_abbrev=False, help="the Trial on its reference rules and its kernel engine"
    )
    p.add_argument("--case", default="trial:2x4:30", help="trial:SIZE:COUNT")
    args = parser.parse_args(argv)
    if args.command == "profile":
        print(json.dumps(profile_case(*_case(args.case))))
        return
    if args.command == "engines":
        _, size, count = _case(args.case)
        print(engines_case(size, count))
        return
    cases = [_case(c) for c in (args.case or DEFAULT_CASES)]
    flags = [f"--case {c}" for c in args.case or DEFAULT_CASES]
    flags += [f"--changed-rules {g}" for g in args.changed_rules]
    loads = [_load()]
    parts = [
        run_case(Path(args.baseline).resolve(), case, args.rounds, loads,
                 case[0] in args.changed_rules)
        for case in cases
    ]  # fmt: skip
    text = "\n".join([
        "# `forest analyse` on guardians positions and Trial set-ups: this checkout against "
        f"{OLD}",
        "",
        f"`bench/analysis_games.py run --baseline DIR {' '.join(flags)} --rounds {args.rounds}` "
        "(under `nice -n 10`).",
        "",
        *parts,
        f"Load (1, 5, 15 minutes) at the start, after each command and at the end: "
        f"{'; '.join([*loads, _load()])} ({os.cpu_count()} CPUs).",
        "",
    ])  # fmt: skip
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
