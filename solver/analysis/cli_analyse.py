"""The ``forest analyse`` command: batch analysis of any game with analysis hooks, the report and
curation.

Examples::

    forest analyse --count 1000 --size 9x9 --seed 0 --jobs 8 -o results.parquet --report rep
    forest analyse --count 100000 --scheduler tcp://10.0.0.5:8786 -o big.parquet --resume
    forest analyse puzzles/*.forest -o mine.csv
    forest analyse -o results.parquet --save-to balanced \\
        --select "class == 'uncertain' and 0.3 < win_probability < 0.6"

``--game NAME`` (default ``dog``) picks the game; a game without analysis hooks is refused. With
instances to analyse (``--count`` or files) the command runs the batch and writes ``-o/--output``
(``--out`` is the same option; without it the results go to a temporary file and a table is
printed). With none, the output names an existing results file, which ``--report``, ``--select``
and ``--save-to`` then use without analysing anything again. ``--select`` keeps the rows where its
condition holds (:mod:`solver.analysis.curate`): they are printed, or saved with ``--save-to``
(which never replaces a file unless ``--overwrite``); ``--save-to`` alone saves every instance
analysed without error. The results file and the report always cover every instance.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from solver import puzzles
from solver.analysis.batch import analysis_function
from solver.analysis.sources import DEFAULT_GAME, Job, analysis_hooks, instance_path
from solver.cmdkit import Subcommands, parse_size, path_arg, whole_int
from solver.errors import OptionError, SolverError, path_said
from solver.files import check_readable
from solver.render.ascii import count

if TYPE_CHECKING:
    import pandas as pd

    from solver.spec import AnalysisHooks

__all__ = ["add_analyse_command", "analysis_function", "run_analyse"]

_PRINT_LIMIT = 50


def default_jobs() -> int:
    """Worker processes when ``--jobs`` is not given: one per CPU where joblib (the analysis
    extra) can run them, else 1, so ``forest analyse`` at its defaults works on a base install
    (an explicit ``--jobs 2`` there still says which extra it needs)."""
    if not _installed("joblib"):
        return 1
    return max(1, os.cpu_count() or 1)


def _installed(module: str) -> bool:
    """Whether ``module`` can be imported (found, not imported: it may be heavy)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def add_analyse_command(subparsers: Subcommands) -> argparse.ArgumentParser:
    """Add the ``analyse`` command to ``subparsers`` (the top-level ones of ``forest``).

    >>> parser = argparse.ArgumentParser(prog="forest")
    >>> _ = add_analyse_command(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["analyse", "--count", "5", "--size", "6x4", "--out", "r.csv"])
    >>> args.count, args.size, args.output, args.analysis_game, args.handler is run_analyse
    (5, (6, 4), 'r.csv', 'dog', True)
    """
    p = subparsers.add_parser(
        "analyse",
        allow_abbrev=False,
        aliases=["analyze"],
        help="analyse many instances of a game: classes, values, a report, curation",
        description=(
            "Analyse rolled instances (--count) or files of a game (--game, default dog): one "
            "row per instance with its class and the game's columns (for the dog: par, win "
            "probability, the clairvoyant estimate), as Parquet or CSV; a markdown report with "
            "plots; curation of chosen instances into files."
        ),
    )
    _add_instance_options(p)
    _add_run_options(p)
    _add_output_options(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    # A developer's hook: another analysis function, as module:function (tests, experiments).
    p.add_argument("--analysis", default=None, help=argparse.SUPPRESS)
    p.set_defaults(handler=run_analyse)
    return p


def _add_instance_options(p: argparse.ArgumentParser) -> None:
    """What to analyse: the game, its files or the rolled instances and how they are rolled."""
    p.add_argument("files", nargs="*", metavar="FILE", help="instance files to analyse")
    p.add_argument(
        "--game", dest="analysis_game", default=DEFAULT_GAME, metavar="NAME",
        help=f"the game to analyse (default {DEFAULT_GAME})",
    )  # fmt: skip
    p.add_argument(
        "--count",
        type=whole_int,
        default=None,
        metavar="N",
        help="roll N instances (seeds S..S+N-1)",
    )
    p.add_argument(
        "--size", type=parse_size, default=None, metavar="AxB",
        help="size of the rolled instances, two numbers whose meaning the game's analysis "
        "defines (width x height cells for the grid games; default: the game's, 9x9 for the "
        "dog; docs/analysis.md)",
    )  # fmt: skip
    p.add_argument(
        "--seed", type=whole_int, default=0, metavar="S", help="the first seed (default 0)"
    )
    p.add_argument(
        "--turns", type=whole_int, default=None, metavar="T",
        help="turn limit of the rolled instances (default: the generator's; 20 for the dog; "
        "a game may define it as another length budget, docs/analysis.md)",
    )  # fmt: skip
    p.add_argument(
        "--skill-games", type=whole_int, default=0, metavar="G",
        help="for games that measure skill by play (guardians, the Trial): G games of the "
        "strength ladder's weakest and of its strongest level on each instance, their win-rate "
        "spread in the skill column (default 0: not measured; slow, level 10 plays them; the "
        "dog's skill measure is in every row)",
    )  # fmt: skip


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """Where the batch runs: local processes or a Dask cluster, and in what chunks."""
    p.add_argument(
        "--jobs", "-j", type=whole_int, default=None, metavar="J",
        help="worker processes for a local run (default: one per CPU; 1 without the analysis "
        "extra's joblib); with --dask-local or --scheduler, the instances each Dask task "
        "analyses at once, on threads (default 1)",
    )  # fmt: skip
    p.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="run on a Dask cluster, e.g. tcp://host:8786 (needs forest-solver[dask])",
    )  # fmt: skip
    p.add_argument(
        "--dask-local", type=whole_int, default=None, metavar="WORKERS",
        help="run on a local Dask cluster of WORKERS processes (one task at a time each; "
        "--jobs J: J instances at once in each)",
    )  # fmt: skip
    p.add_argument(
        "--chunk-size", type=whole_int, default=None, metavar="N",
        help="instances per task (default: about four tasks per worker, at most 32 locally "
        "and 256 on Dask, where it is at least --jobs)",
    )  # fmt: skip


def _add_output_options(p: argparse.ArgumentParser) -> None:
    """What comes out: the results file (resumed or repaired), the report and the curation."""
    p.add_argument(
        "-o", "--output", "--out", dest="output", default=None, type=path_arg, metavar="FILE",
        help="the results file, .parquet or .csv (with no instances given: the file to read)",
    )  # fmt: skip
    p.add_argument(
        "--resume", action="store_true",
        help="continue an interrupted run into the same output without redoing finished ones",
    )  # fmt: skip
    p.add_argument(
        "--repair", action="store_true",
        help="with --resume: keep the good rows of a damaged journal and redo the rest",
    )  # fmt: skip
    p.add_argument(
        "--report",
        default=None,
        type=path_arg,
        metavar="DIR",
        help="write report.md and plots here",
    )
    p.add_argument(
        "--select", default=None, metavar="EXPR",
        help="keep the rows where EXPR holds, e.g. \"class == 'uncertain' and par > 8\"",
    )  # fmt: skip
    p.add_argument(
        "--save-to", default=None, type=path_arg, metavar="DIR",
        help="write the selected instances here as files (re-serialised, never copied)",
    )  # fmt: skip
    p.add_argument(
        "--overwrite", action="store_true",
        help="let -o, --report and --save-to replace existing files (default: refuse; "
        "--resume continues its own -o)",
    )  # fmt: skip


def _say(message: str) -> None:
    print(f"forest: {message}", file=sys.stderr)


def _summary(frame: pd.DataFrame) -> str:
    classes = frame["class"].astype(object).map(lambda v: "(none)" if v is None or v != v else v)
    counts = classes.value_counts(sort=False).sort_values(ascending=False, kind="stable")
    return ", ".join(f"{count} {name}" for name, count in counts.items())


def _print_rows(frame: pd.DataFrame, value_column: str | None) -> None:
    wanted = ("source", "class", "par", value_column, "ci_low", "ci_high", "skill", "error")
    columns = [c for c in wanted if c is not None and c in frame.columns]
    table = frame[columns].head(_PRINT_LIMIT)
    # the skill measure (guardians' and the Trial's only with --skill-games) and the errors only
    # when there are some
    empty = [c for c in ("skill", "error") if c in columns and table[c].isna().all()]
    table = table.drop(columns=empty)
    print(table.to_string(index=False, na_rep=""))
    if len(frame) > _PRINT_LIMIT:
        print(f"... {len(frame) - _PRINT_LIMIT} more rows")


def _check_selection(expression: str, hooks: AnalysisHooks, batch: bool) -> None:
    """``--select`` checked before anything runs: its syntax always, and where a batch is to run,
    its columns against the ones the batch writes (the game's declared columns), on an empty
    table: 'clas == 1' was refused only after the whole batch had run and its file was written."""
    from solver.analysis.curate import check_expression, select
    from solver.analysis.results import column_types, frame_of

    check_expression(expression)
    if batch:  # a results file read instead may hold other columns: checked when it is read
        select(frame_of([], column_types(hooks.columns)), expression)


def _check(args: argparse.Namespace) -> bool:
    """Every option checked before anything runs; returns whether there is a batch to run."""
    hooks = analysis_hooks(args.analysis_game)  # "analysis is not supported for GAME"
    if args.select is not None:  # refuse a bad condition before any long run
        _check_selection(args.select, hooks, args.count is not None or bool(args.files))
    if args.count is not None and args.files:
        raise OptionError(f"give either --count (rolled {hooks.noun}s) or files, not both")
    for path in args.files:  # a path that is no readable file is the user's error, not a row
        wrong = puzzles.other_game(path, args.analysis_game, "use --game {other}")
        if wrong is not None:  # `--game trial guardians/order-trap`: not "no such file"
            raise OptionError(wrong)
        check_readable(instance_path(path, args.analysis_game), f"{hooks.noun} file")
    has_sources = args.count is not None or bool(args.files)
    if args.repair and not args.resume:
        raise OptionError("--repair mends the journal of a run being resumed: add --resume")
    _check_output(args, has_sources)
    _check_report(args)
    if has_sources:
        _check_run(args)
    else:
        _check_reuse(args, hooks.noun)
    return has_sources


def _check_output(args: argparse.Namespace, has_sources: bool) -> None:
    """``-o``: a results file to write (refused if it exists, unless replaced or resumed), or,
    with nothing to analyse, one to read."""
    from solver.analysis.results import check_output, results_format

    if args.output is None:
        return
    if not has_sources:
        results_format(args.output)
        return
    check_output(args.output)
    if Path(args.output).is_file() and not (args.overwrite or args.resume):
        raise OptionError(
            f"{args.output}: already exists (add --overwrite to replace it, or "
            "--resume to continue the run that writes it)"
        )


def _check_report(args: argparse.Namespace) -> None:
    """``--report`` (its extra and its folder) and ``--save-to``: folders, checked before the
    batch rather than after it."""
    if args.report is not None and not _installed("matplotlib"):
        raise OptionError(
            "--report needs the optional package 'matplotlib': "
            "pip install 'forest-solver[analysis]'"
        )
    if args.report is not None and not args.overwrite:
        from solver.analysis.report_files import check_report_folder

        check_report_folder(args.report)
    for name in ("report", "save_to"):
        where, flag = getattr(args, name), "--" + name.replace("_", "-")
        # lexists: a symbolic link to nothing is no folder to write into either (it ran the
        # batch, then said 'File exists' or named the report's staging folder)
        if where is not None and os.path.lexists(where) and not Path(where).is_dir():
            dangling = "" if Path(where).exists() else " (a symbolic link to nothing)"
            raise OptionError(f"{flag} {path_said(where)!r} is not a directory{dangling}")
        if where is not None and Path(where).is_dir() and not os.access(where, os.W_OK | os.X_OK):
            # said now, not once the batch of minutes has run (solver.folder_swap refuses it)
            raise OptionError(f"{flag} {path_said(where)!r}: cannot write: Permission denied")


def _check_run(args: argparse.Namespace) -> None:
    """The options of a batch to run: what a resumed run needs (``--jobs`` goes with local and
    Dask runs alike: :func:`_analyse`)."""
    if args.resume and args.output is None:
        raise OptionError("--resume needs the --output of the interrupted run")


def _check_reuse(args: argparse.Namespace, noun: str) -> None:
    """With nothing to analyse: an existing results file and something to do with it."""
    if args.output is None:
        raise OptionError(
            f"nothing to analyse: give --count N or {noun} files, or --output with an "
            "existing results file to report on or select from"
        )
    if args.resume:
        raise OptionError(f"--resume needs the {noun}s of the interrupted run (--count or files)")
    if args.report is None and args.select is None and args.save_to is None:
        raise OptionError(
            "with nothing to analyse, say what to do with the results: --report, --select "
            "or --save-to"
        )


def run_analyse(args: argparse.Namespace) -> int:
    """Carry out ``forest analyse`` (the handler the parser sets).

    A file-system error (a folder that cannot be written, a full disk) is the user's to fix: it
    is raised as an :class:`~solver.errors.OptionError` naming the file, not as a traceback.
    """
    try:
        return _run_analyse(args)
    except (BrokenPipeError, SolverError):  # the reader left; an error already worded (a full
        raise  # stdout's OutputError is an OSError too)
    except OSError as exc:
        where = f" {path_said(exc.filename)!r}" if exc.filename else ""
        why = exc.strerror or " ".join(str(exc).split()) or type(exc).__name__
        raise OptionError(f"cannot read or write{where}: {why}") from exc


def _run_analyse(args: argparse.Namespace) -> int:
    """The checks, then the batch (or the results file read back), the report and the curation."""
    from solver.analysis.report import one_class
    from solver.analysis.results import read_results

    has_sources = _check(args)
    hooks = analysis_hooks(args.analysis_game)
    if has_sources:
        frame = _analyse(args, hooks)
        command: str | None = "forest " + shlex.join(getattr(args, "argv", None) or sys.argv[1:])
    else:
        frame = read_results(args.output, args.analysis_game)
        _check_results_game(frame, args.output, args.analysis_game)
        command = None  # the command that made the results is not known
    notice = one_class(frame, hooks)
    if notice is not None:  # a sentence in the report; after "forest: " lower case, as errors
        _say(notice[0].lower() + notice[1:])
    if args.report is not None:
        from solver.analysis.report_files import write_report_whole

        report = write_report_whole(
            frame, args.report, game=args.analysis_game, command=command, overwrite=args.overwrite
        )
        print(f"wrote {report}")
    if args.select is not None or args.save_to is not None:
        _curate(args, frame, hooks)
    return 0


def _check_results_game(frame: pd.DataFrame, path: str, game: str) -> None:
    """Refuse a results file that holds another game's columns and not ``game``'s: read as the
    default dog's, a guardians file was reported as forests and its rows rolled again as dog
    forests by ``--save-to``. A file lacking some of ``game``'s columns and matching no other
    game (one written before a column was added) is read as before."""
    from solver.registry import game_specs

    columns = set(frame.attrs.get("columns_read", frame.columns))
    lacking = [c for c in analysis_hooks(game).columns if c not in columns]
    if not lacking:
        return
    others = [
        spec.name
        for spec in game_specs()
        if spec.name != game
        and spec.analysis is not None
        and set(analysis_hooks(spec.name).columns) <= columns
    ]
    if others:
        raise OptionError(
            f"{path} holds the results of {' or '.join(others)}, not of {game} (it has no "
            f"{lacking[0]!r} column): add --game {others[0]}"
        )


def _job(args: argparse.Namespace) -> Job:
    """The batch the options describe: ``--count`` rolled instances, or the files."""
    if args.count is None:
        return Job.files(args.files, game=args.analysis_game, skill_games=args.skill_games)
    return Job.generated(
        args.count,
        size=args.size,
        seed=args.seed,
        turns=args.turns,
        game=args.analysis_game,
        skill_games=args.skill_games,
    )


def _analyse(args: argparse.Namespace, hooks: AnalysisHooks) -> pd.DataFrame:
    """Run the batch into ``-o`` (a temporary file without it), say what it found and, with no
    output file and no selection, print its rows."""
    from solver.analysis.batch import execute_batch

    job = _job(args)
    analyse_fn = analysis_function(args.analysis) if args.analysis else None
    dask = args.scheduler is not None or args.dask_local is not None
    # --jobs J: J worker processes locally; with Dask, J instances at once in each task, on
    # threads of the worker that runs it (the workers are --dask-local's, or the cluster's)
    jobs = 1 if dask else args.jobs if args.jobs is not None else default_jobs()
    threads = args.jobs if dask and args.jobs is not None else 1
    with tempfile.TemporaryDirectory(prefix="forest-analyse-") as scratch:
        out = Path(args.output) if args.output is not None else Path(scratch) / "results.parquet"
        frame = execute_batch(
            job,
            analyse_fn,
            out=out,
            jobs=jobs,
            backend="dask" if dask else "local",
            scheduler=args.scheduler,
            dask_local=args.dask_local,
            threads=threads,
            chunk_size=args.chunk_size,
            resume=args.resume,
            repair=args.repair,
            progress=not args.no_progress,
            notify=_say,
            overwrite=args.overwrite,
        ).frame
    where = f" -> {args.output}" if args.output is not None else ""
    print(f"analysed {count(len(frame), hooks.noun)}{where}: {_summary(frame)}")
    if args.output is None and args.select is None:
        _print_rows(frame, hooks.value_column)
    return frame


def _curate(args: argparse.Namespace, frame: pd.DataFrame, hooks: AnalysisHooks) -> None:
    """``--select`` and ``--save-to``: print the chosen rows, or save their instances."""
    from solver.analysis.curate import save_selected, select

    if args.select is not None:
        chosen = select(frame, args.select)
    else:
        chosen = frame[frame["error"].isna().to_numpy()]
    if args.save_to is not None:
        written = save_selected(
            chosen, args.save_to, game=args.analysis_game, overwrite=args.overwrite
        )
        print(f"saved {count(len(written), hooks.noun)} to {args.save_to}")  # not "1 forests"
    else:
        print(f"{len(chosen)} of {len(frame)} {hooks.noun}s selected")
        if len(chosen):
            _print_rows(chosen, hooks.value_column)
