"""The ``forest analyse`` command: batch analysis, the report and curation.

Examples::

    forest analyse --count 1000 --size 9x9 --seed 0 --jobs 8 --out results.parquet --report rep
    forest analyse --count 100000 --scheduler tcp://10.0.0.5:8786 --out big.parquet --resume
    forest analyse puzzles/*.forest --out mine.csv
    forest analyse --out results.parquet --save-to balanced \\
        --select "class == 'uncertain' and 0.3 < win_probability < 0.6"

With forests to analyse (``--count`` or files) the command runs the batch and writes ``--out``
(without ``--out`` the results go to a temporary file and a table is printed). With none, ``--out``
names an existing results file, which ``--report``, ``--select`` and ``--save-to`` then use
without analysing anything again. ``--select`` keeps the rows where its condition holds
(:mod:`solver.analysis.curate`): they are printed, or saved as ``.forest`` files with
``--save-to``; ``--save-to`` alone saves every forest analysed without error. The results file
and the report always cover every forest.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from solver.errors import OptionError, SolverError

__all__ = ["add_analyse_command", "analysis_function", "run_analyse"]

_DEFAULT_ANALYSIS = "solver.analysis.classify:analyse_source"
_PRINT_LIMIT = 50


def _size(text: str) -> tuple[int, int]:
    """``"9x9"`` → (width, height)."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size like 9x9, found {text!r}") from None
    return width, height


def add_analyse_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``analyse`` command to ``subparsers`` (the top-level ones of ``forest``).

    >>> parser = argparse.ArgumentParser(prog="forest")
    >>> _ = add_analyse_command(parser.add_subparsers(dest="game"))
    >>> args = parser.parse_args(["analyse", "--count", "5", "--size", "6x4", "--out", "r.csv"])
    >>> args.count, args.size, args.out, args.handler is run_analyse
    (5, (6, 4), 'r.csv', True)
    """
    p = subparsers.add_parser(
        "analyse",
        help="analyse many forests: classes, bounds, win probabilities, a report",
        description=(
            "Analyse rolled forests (--count) or .forest files: one row per forest with its "
            "class, par, win probability and bounds, as Parquet or CSV; a markdown report with "
            "plots; curation of chosen forests into .forest files."
        ),
    )
    p.add_argument("files", nargs="*", metavar="FILE", help=".forest files to analyse")
    p.add_argument(
        "--count", type=int, default=None, metavar="N", help="roll N forests (seeds S..S+N-1)"
    )
    p.add_argument(
        "--size", type=_size, default=(9, 9), metavar="WxH", help="forest size (default 9x9)"
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the first seed (default 0)")
    p.add_argument(
        "--turns", type=int, default=None, metavar="T",
        help="turn limit of the rolled forests (default: the generator's 20)",
    )  # fmt: skip
    p.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="J",
        help="worker processes for a local run (default: one per CPU)",
    )  # fmt: skip
    p.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="run on a Dask cluster, e.g. tcp://host:8786 (needs forest-solver[dask])",
    )  # fmt: skip
    p.add_argument(
        "--dask-local", type=int, default=None, metavar="WORKERS",
        help="run on a local Dask cluster of WORKERS processes",
    )  # fmt: skip
    p.add_argument(
        "--chunk-size", type=int, default=None, metavar="N",
        help="forests per task (default: about four tasks per worker)",
    )  # fmt: skip
    p.add_argument(
        "--out", "-o", default=None, metavar="FILE",
        help="the results file, .parquet or .csv (with no forests given: the file to read)",
    )  # fmt: skip
    p.add_argument(
        "--resume", action="store_true",
        help="continue an interrupted run into the same --out without redoing finished forests",
    )  # fmt: skip
    p.add_argument("--report", default=None, metavar="DIR", help="write report.md and plots here")
    p.add_argument(
        "--select", default=None, metavar="EXPR",
        help="keep the rows where EXPR holds, e.g. \"class == 'uncertain' and par > 8\"",
    )  # fmt: skip
    p.add_argument(
        "--save-to", default=None, metavar="DIR",
        help="write the selected forests here as .forest files",
    )  # fmt: skip
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    # A developer's hook: another analysis function, as module:function (tests, experiments).
    p.add_argument("--analysis", default=None, help=argparse.SUPPRESS)
    p.set_defaults(handler=run_analyse)
    return p


def analysis_function(spec: str | None = None) -> Any:
    """The per-forest analysis ``module:function`` (default: the classify module's).

    >>> analysis_function("solver.analysis._testing:fake_analyse").__name__
    'fake_analyse'
    >>> analysis_function("solver.analysis._testing:nothing")
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: the analysis 'solver.analysis._testing:nothing' does not exist
    """
    text = spec or _DEFAULT_ANALYSIS
    module_name, _, name = text.partition(":")
    if not module_name or not name:
        raise OptionError(f"an analysis is given as module:function, not {text!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if spec is None and err.name in (module_name, "solver.analysis.classify"):
            raise SolverError(
                "the per-forest analysis (solver.analysis.classify) is not available in this "
                "installation"
            ) from None
        raise OptionError(f"cannot import the analysis module {module_name!r}: {err}") from None
    fn = getattr(module, name, None)
    if not callable(fn):
        raise OptionError(f"the analysis {text!r} does not exist")
    return fn


def _say(message: str) -> None:
    print(f"forest: {message}", file=sys.stderr)


def _summary(frame: Any) -> str:
    classes = frame["class"].astype(object).map(lambda v: "(none)" if v is None or v != v else v)
    counts = classes.value_counts(sort=False).sort_values(ascending=False, kind="stable")
    return ", ".join(f"{count} {name}" for name, count in counts.items())


def _print_rows(frame: Any) -> None:
    columns = [
        c
        for c in ("source", "class", "par", "win_probability", "ci_low", "ci_high", "error")
        if c in frame.columns
    ]
    table = frame[columns].head(_PRINT_LIMIT)
    if "error" in columns and table["error"].isna().all():
        table = table.drop(columns=["error"])
    print(table.to_string(index=False, na_rep=""))
    if len(frame) > _PRINT_LIMIT:
        print(f"... {len(frame) - _PRINT_LIMIT} more rows")


def run_analyse(args: argparse.Namespace) -> int:
    """Carry out ``forest analyse`` (the handler the parser sets)."""
    from solver.analysis.batch import Job, read_results, results_format, run_batch

    if args.select is not None:  # refuse a bad condition before any long run
        from solver.analysis.curate import check_expression

        check_expression(args.select)
    if args.count is not None and args.files:
        raise OptionError("give either --count (rolled forests) or forest files, not both")
    if args.out is not None:
        results_format(args.out)
    has_sources = args.count is not None or bool(args.files)

    if has_sources:
        job = (
            Job.generated(args.count, size=args.size, seed=args.seed, turns=args.turns)
            if args.count is not None
            else Job.files(args.files)
        )
        analyse_fn = analysis_function(args.analysis)
        dask = args.scheduler is not None or args.dask_local is not None
        if dask and args.jobs is not None:
            raise OptionError(
                "--jobs is for local runs; with Dask the workers are set by the cluster "
                "(--dask-local WORKERS)"
            )
        if args.resume and args.out is None:
            raise OptionError("--resume needs the --out of the interrupted run")
        jobs = args.jobs if args.jobs is not None else max(1, os.cpu_count() or 1)
        with tempfile.TemporaryDirectory(prefix="forest-analyse-") as scratch:
            out = Path(args.out) if args.out is not None else Path(scratch) / "results.parquet"
            run_batch(
                job,
                analyse_fn,
                out=out,
                jobs=jobs,
                backend="dask" if dask else "local",
                scheduler=args.scheduler,
                dask_local=args.dask_local,
                chunk_size=args.chunk_size,
                resume=args.resume,
                progress=not args.no_progress,
                notify=_say,
            )
            frame = read_results(out)
        where = f" -> {args.out}" if args.out is not None else ""
        print(f"analysed {len(frame)} forests{where}: {_summary(frame)}")
        if args.out is None and args.select is None:
            _print_rows(frame)
    else:
        if args.out is None:
            raise OptionError(
                "nothing to analyse: give --count N or forest files, or --out with an existing "
                "results file to report on or select from"
            )
        if args.resume:
            raise OptionError(
                "--resume needs the forests of the interrupted run (--count or files)"
            )
        if args.report is None and args.select is None and args.save_to is None:
            raise OptionError(
                "with no forests to analyse, say what to do with the results: --report, --select "
                "or --save-to"
            )
        frame = read_results(args.out)

    if args.report is not None:
        from solver.analysis.report import write_report

        report = write_report(frame, args.report)
        print(f"wrote {report}")
    if args.select is not None or args.save_to is not None:
        from solver.analysis.curate import save_selected, select

        if args.select is not None:
            chosen = select(frame, args.select)
        else:
            chosen = frame[frame["error"].isna().to_numpy()]
        if args.save_to is not None:
            written = save_selected(chosen, args.save_to)
            print(f"saved {len(written)} forests to {args.save_to}")
        else:
            print(f"{len(chosen)} of {len(frame)} forests selected")
            if len(chosen):
                _print_rows(chosen)
    return 0
