"""Batch analysis: run a game's per-instance analysis over many instances, locally or on Dask.

A batch is a :class:`~solver.analysis.sources.Job` (``count`` instances rolled from consecutive
seeds, or files) of one game, and an *analysis function* ``fn(source) -> row``: a picklable
top-level function (by default the one the game's :class:`~solver.spec.AnalysisHooks` name) that
loads the instance with ``source.load()`` and returns one row. :func:`run_batch` runs it over
every instance and writes one row per instance, in batch order, to a Parquet or CSV file chosen
by the file's extension (:mod:`solver.analysis.results`).

How it runs:

- Every option is checked, and the output path too (not a directory, a known format), before
  anything runs.
- The run takes the output's lock and keeps it until the output is final
  (:mod:`solver.analysis.journal`): a second run on the same output is refused meanwhile.
- The sources are streamed and cut into *chunks* of consecutive instances; a chunk is one task.
  Locally the chunks go to worker processes (joblib's loky backend, ``jobs`` of them; ``jobs=1``
  runs in this process); on a cluster they are Dask tasks (:mod:`solver.analysis.backends`).
- Every finished chunk is appended to the journal next to the output; ``resume=True`` reads it
  back and analyses only the instances not in it (``repair=True`` keeps the good rows of a
  damaged journal). When all are done, the final file is written from the rows in batch order
  (to a temporary file renamed into place) and the journal is deleted.
- An exception raised by the analysis for one instance becomes that instance's row: class
  ``"error"`` and the message in the ``error`` column; the batch goes on.
- The rows are the same whatever the backend, the number of workers, the chunk size and the
  completion order, provided the analysis is deterministic (it must derive any random seed from
  the source, never from the worker). The one exception is ``seconds``, the wall time of each
  analysis: compare results with :func:`~solver.analysis.results.without_timing`.

>>> import tempfile
>>> from solver.analysis.stand_ins import fake_analyse
>>> with tempfile.TemporaryDirectory() as tmp:
...     out = run_batch(Job.generated(4, size=(6, 6), seed=3), fake_analyse,
...                     out=Path(tmp) / "r.parquet", jobs=1, progress=False)
...     out.name, journal_path(out).exists(), len(read_results(out))
('r.parquet', False, 4)
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, Unpack

from solver.analysis.backends import Dask, Local, auto_chunk_size, chunks
from solver.analysis.journal import VERSION as JOURNAL_VERSION
from solver.analysis.journal import Journal, OutputLock, fingerprint, journal_path
from solver.analysis.results import (
    TIMING_COLUMNS,
    check_output,
    column_types,
    read_results,
    require,
    results_format,
    without_timing,
    write_results,
)
from solver.analysis.sources import DEFAULT_GAME, Job, Source, analysis_hooks
from solver.analysis.worker import AnalyseFn, analyse_one
from solver.cmdkit import MAX_WORKER_PROCESSES
from solver.errors import InterruptedRun, OptionError, path_said
from solver.files import sigterm_raises

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "TIMING_COLUMNS",
    "BatchResult",
    "Job",
    "Source",
    "analyse_one",
    "analysis_function",
    "execute_batch",
    "journal_header",
    "journal_path",
    "read_results",
    "results_format",
    "run_batch",
    "without_timing",
    "write_results",
]

Notify = Callable[[str], None]

PAUSE_VARIABLE = "FOREST_ANALYSE_PAUSE"
"""Test-only: a comma-separated list of pause points (``chunk``, ``finalise``). At each, the run
prints ``forest-analyse-pause: POINT`` on stderr and waits for a line on stdin, so a test can act
at an exact moment without sleeping."""


def analysis_function(spec: str) -> AnalyseFn:
    """The analysis function named ``"module:function"``.

    >>> analysis_function("solver.analysis.stand_ins:fake_analyse").__name__
    'fake_analyse'
    >>> analysis_function("solver.analysis.stand_ins:nothing")
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: the analysis 'solver.analysis.stand_ins:nothing' does not exist
    """
    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        raise OptionError(f"an analysis is given as module:function, not {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        raise OptionError(f"cannot import the analysis module {module_name!r}: {err}") from None
    fn = getattr(module, name, None)
    if not callable(fn):
        raise OptionError(f"the analysis {spec!r} does not exist")
    return fn  # type: ignore[no-any-return,unused-ignore]


@dataclass(frozen=True)
class BatchResult:
    """A finished batch: the results file and the table written to it."""

    path: Path
    frame: pd.DataFrame


class BatchOptions(TypedDict, total=False):
    """The options :func:`run_batch` passes on to :func:`execute_batch` (described there)."""

    jobs: int
    backend: str
    scheduler: str | None
    dask_local: int | None
    threads: int
    chunk_size: int | None
    resume: bool
    repair: bool
    progress: bool
    notify: Notify | None
    overwrite: bool


def run_batch(
    sources: Job | Sequence[Source],
    analyse_fn: AnalyseFn | None = None,
    *,
    out: str | os.PathLike[str],
    **options: Unpack[BatchOptions],
) -> Path:
    """Analyse every source and write the results file ``out``; return its path.

    The options are those of :func:`execute_batch`.

    >>> run_batch(Job.generated(2), out="r.csv", jobs=0)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: --jobs must be at least 1, not 0
    """
    return execute_batch(sources, analyse_fn, out=out, **options).path


def _check_options(
    jobs: int, backend: str, scheduler: str | None, dask_local: int | None, chunk_size: int | None
) -> None:
    """The run's options, checked whatever a caller passed (types too: the library is called
    from untyped code)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {jobs!r}")
    if jobs > MAX_WORKER_PROCESSES:  # a process each: --jobs 100000 started as many as chunks
        raise OptionError(f"--jobs must be at most {MAX_WORKER_PROCESSES} (worker processes on "
                          f"this machine), not {jobs}")  # fmt: skip
    if backend not in ("local", "dask"):
        raise OptionError(f"unknown backend {backend!r}; expected 'local' or 'dask'")
    if scheduler is not None and dask_local is not None:
        raise OptionError("give either --scheduler (an existing cluster) or --dask-local, not both")
    if backend == "local" and (scheduler is not None or dask_local is not None):
        raise OptionError("--scheduler and --dask-local need the Dask backend")
    if dask_local is not None and (
        isinstance(dask_local, bool) or not isinstance(dask_local, int) or dask_local < 1
    ):
        raise OptionError(f"--dask-local must be at least 1 worker, not {dask_local!r}")
    if dask_local is not None and dask_local > MAX_WORKER_PROCESSES:
        raise OptionError(f"--dask-local must be at most {MAX_WORKER_PROCESSES} workers (processes "
                          f"on this machine), not {dask_local}")  # fmt: skip
    if scheduler is not None and (not isinstance(scheduler, str) or "://" not in scheduler):
        raise OptionError(
            f"--scheduler must be a scheduler address such as tcp://host:8786, not {scheduler!r}"
        )
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise OptionError(f"--chunk-size must be at least 1, not {chunk_size!r}")


def _check_threads(threads: int, backend: str) -> None:
    """``threads`` (the instances a Dask task analyses at once): a whole number from 1 to
    :data:`MAX_WORKER_PROCESSES`, for Dask runs only (a local run's ``jobs`` are processes)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise OptionError(f"--jobs must be at least 1, not {threads!r}")
    if threads > MAX_WORKER_PROCESSES:
        raise OptionError(f"--jobs must be at most {MAX_WORKER_PROCESSES} (threads a Dask "
                          f"task runs), not {threads}")  # fmt: skip
    if threads > 1 and backend != "dask":
        raise OptionError(
            f"threads={threads} is for Dask runs (backend='dask'); a local run's jobs are processes"
        )


class _Batch:
    """The instances of a batch: how many, the source at an index, and what defines them."""

    def __init__(self, sources: Job | Sequence[Source]):
        if isinstance(sources, Job):
            self.game = sources.game
            self.count = len(sources)
            self.source_at: Callable[[int], Source] = sources.source_at
            self.parts: list[Any] = [sources.kind, sources.describe(), list(sources.paths)]
            return
        items = list(sources)
        for item in items:
            if not isinstance(item, Source):
                raise OptionError(f"a batch holds Source descriptors, not {type(item).__name__}")
        games = {item.game for item in items}
        if len(games) > 1:
            raise OptionError(f"a batch holds instances of one game, not of {sorted(games)}")
        self.game = games.pop() if games else DEFAULT_GAME
        self.count = len(items)
        self.source_at = items.__getitem__
        self.parts = [
            [s.game, s.source, s.width, s.height, s.seed, s.path, s.turns]
            + ([s.skill_games] if s.skill_games else [])  # earlier batches' fingerprints stay
            for s in items
        ]


def execute_batch(
    sources: Job | Sequence[Source],
    analyse_fn: AnalyseFn | None = None,
    *,
    out: str | os.PathLike[str],
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    dask_local: int | None = None,
    threads: int = 1,
    chunk_size: int | None = None,
    resume: bool = False,
    repair: bool = False,
    progress: bool = True,
    notify: Notify | None = None,
    overwrite: bool = True,
) -> BatchResult:
    """Analyse every source and write the results file ``out``; return it with its table.

    ``analyse_fn`` defaults to the game's (its hooks' ``analyse``). ``backend="local"`` runs
    ``jobs`` worker processes (``jobs=1``: in this process); ``backend="dask"`` runs on the Dask
    scheduler at ``scheduler`` or on a new ``LocalCluster`` of ``dask_local`` worker processes
    (default: ``jobs``), one thread each; ``threads`` is how many instances each Dask task
    analyses at once, on threads (``--jobs`` with Dask; the rows are the same whatever it is).
    ``chunk_size`` is the number of instances per task
    (default: about four chunks per worker, at most 32 locally and 256 on Dask). ``resume=True``
    continues from the journal an interrupted run left, ``repair=True`` keeps the good rows of a
    damaged one (module docstring). ``progress`` shows a tqdm bar on stderr when stderr is a
    terminal. ``notify`` receives one-line notes. Ctrl-C (``KeyboardInterrupt``) raises
    :class:`~solver.errors.InterruptedRun`, whose message says how much is journaled and how to
    resume. ``overwrite=False`` refuses an existing
    ``out`` (before anything runs, again once the output's lock is held, and when the file is put
    in place) and, without
    ``resume``, the journal an interrupted run left (which a fresh run would replace).
    Impossible options raise :class:`~solver.errors.OptionError` before anything runs.
    """
    notify = notify if notify is not None else (lambda message: None)
    # 1. Everything checked before anything runs.
    _check_options(jobs, backend, scheduler, dask_local, chunk_size)
    _check_threads(threads, backend)
    if analyse_fn is not None and not callable(analyse_fn):
        raise OptionError(f"the analysis must be a function, not {analyse_fn!r}")
    if repair and not resume:
        raise OptionError("--repair mends the journal of a run being resumed: add --resume")
    out = check_output(out)
    _check_not_there(out, overwrite=overwrite, resume=resume)
    if backend == "dask":
        require("distributed", "dask", "a Dask run (--scheduler, --dask-local)")
    elif jobs > 1:
        require("joblib", "analysis", "--jobs above 1")
    batch = _Batch(sources)
    if batch.count == 0:
        raise OptionError("nothing to analyse: the batch has no instances")
    hooks = analysis_hooks(batch.game)
    fn = analyse_fn if analyse_fn is not None else analysis_function(hooks.analyse)
    types = column_types(hooks.columns)

    # 2. The output's lock, held until the output is final; then the journal.
    with OutputLock(out):
        # again under the lock: a run on the same output may have finished it meanwhile (the
        # one holding the lock when this run looked first); this run would analyse the whole
        # batch, be refused at its final write and leave its journal behind
        _check_not_there(out, overwrite=overwrite, resume=resume)
        journaled = journal_path(out)
        _check_journal(out, journaled, overwrite=overwrite, resume=resume)
        journal = Journal(journaled, _header(batch, fn, types))
        done = journal.start(
            resume, repair, batch.count, lambda i: batch.source_at(i).source, types, notify
        )
        try:
            with _sigterm_interrupts():  # the pool shut down before SIGTERM's own action is back
                _run(batch, fn, types, done, journal, jobs, backend, scheduler, dask_local,
                     threads, chunk_size, progress, notify)  # fmt: skip
            _pause("finalise")
            # 3. The final file, in batch order; then the journal goes.
            frame = write_results(
                [done[i] for i in range(batch.count)], out, hooks.columns,
                overwrite=overwrite or resume,
            )  # fmt: skip
            journal.remove()
        finally:
            journal.close()
    return BatchResult(out, frame)


def _check_not_there(out: Path, *, overwrite: bool, resume: bool) -> None:
    """Refuse an output that exists, unless told to replace it or to resume."""
    if not overwrite and out.is_file() and not resume:
        raise OptionError(f"{path_said(out)}: already exists (add --overwrite to replace it)")


def _check_journal(out: Path, journaled: Path, *, overwrite: bool, resume: bool) -> None:
    """Refuse, unless told, to start afresh over an interrupted run's journal, or to resume
    where no run is left to resume over a finished output (it would be replaced)."""
    interrupted = journaled.is_file() and journaled.stat().st_size > 0
    if not (overwrite or resume) and interrupted:
        raise OptionError(
            f"{path_said(journaled)}: holds the rows of an interrupted run (add --resume to "
            "continue it, or --overwrite to start afresh)"
        )
    if resume and not overwrite and not interrupted and out.is_file():
        # a finished output (of this batch or another): resuming would start afresh over it
        raise OptionError(
            f"{path_said(out)}: already exists and no run is left to resume (no journal "
            "beside it); add --overwrite to replace it"
        )


def _run(
    batch: _Batch,
    fn: AnalyseFn,
    types: Mapping[str, str],
    done: dict[int, dict[str, Any]],
    journal: Journal,
    jobs: int,
    backend: str,
    scheduler: str | None,
    dask_local: int | None,
    threads: int,
    chunk_size: int | None,
    progress: bool,
    notify: Notify,
) -> None:
    """Analyse the instances not in ``done``, journaling each chunk as it finishes."""
    pending_count = batch.count - len(done)
    noun = analysis_hooks(batch.game).noun
    if pending_count == 0:
        return
    pending: Iterator[tuple[int, Source]] = (
        (i, batch.source_at(i)) for i in range(batch.count) if i not in done
    )
    executor: Local | Dask | None = None
    bar = None
    try:
        if backend == "dask":
            workers = None if scheduler is not None else dask_local or jobs
            executor = Dask(scheduler, workers, threads)
            # a task's threads share its chunk: at least as many instances as threads
            size = chunk_size or max(
                min(threads, pending_count),
                auto_chunk_size(pending_count, executor.workers, executor.cap),
            )
        else:  # no more worker processes than chunks
            workers = min(jobs, pending_count)
            size = chunk_size or auto_chunk_size(pending_count, workers, Local.cap)
            executor = Local(min(workers, -(-pending_count // size)))
        bar = _progress_bar(batch.count, len(done), progress, noun)
        results = executor.run(fn, chunks(pending, size), types)
        with contextlib.closing(results):
            for chunk_rows in results:
                journal.append(chunk_rows)
                for index, row in chunk_rows:
                    done[index] = row
                if bar is not None:
                    bar.update(len(chunk_rows))
                _pause("chunk")
    except KeyboardInterrupt as exc:  # one line says what is kept and how to go on
        signum = getattr(exc, "signum", signal.SIGINT)
        said = _interrupted(batch.count, len(done), noun, journal.path)
        raise InterruptedRun(said, signum) from None
    finally:
        if bar is not None:
            bar.close()
        if executor is not None:
            executor.close()


class _TermAsInterrupt(KeyboardInterrupt):
    """A SIGTERM during the analysis, raised where the run stands (:func:`_sigterm_interrupts`);
    one escaping the pool's shutdown still exits as SIGTERM (the command reads ``signum``)."""

    signum = signal.SIGTERM


def _sigterm_interrupts() -> contextlib.AbstractContextManager[None]:
    """While the instances are analysed, SIGTERM stops the run as Ctrl-C does (the pool shut
    down, the journal kept, :class:`~solver.errors.InterruptedRun` saying so): by its default
    action the process died where it stood, saying nothing, and joblib's resource tracker then
    warned of the pool's semaphores and /dev/shm folders it was left to clean."""
    return sigterm_raises(_TermAsInterrupt)


def _header(batch: _Batch, fn: AnalyseFn, types: Mapping[str, str]) -> dict[str, Any]:
    name = _function_name(fn)
    return {
        "fingerprint": fingerprint([batch.game, *batch.parts, types], name),
        "count": batch.count,
        "analysis": name,
        "game": batch.game,
    }


def journal_header(sources: Job | Sequence[Source], analyse_fn: AnalyseFn) -> dict[str, Any]:
    """The header line a batch of ``sources`` analysed with ``analyse_fn`` journals (it names the
    batch: a journal with another header is refused on resume)."""
    batch = _Batch(sources)
    types = column_types(analysis_hooks(batch.game).columns)
    return {
        "journal": "forest analyse",
        "version": JOURNAL_VERSION,
        **_header(batch, analyse_fn, types),
    }


def _function_name(fn: Callable[..., Any]) -> str:
    module = getattr(fn, "__module__", None) or "?"
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    return f"{module}:{name}"


def _interrupted(count: int, done: int, noun: str, journal: Path) -> str:
    """What an interrupted run says: how much is journaled and how to go on; where nothing is
    (no chunk had finished, so no journal was written) it said "0 of N are journaled in" a file
    that was not there, and to --resume it."""
    if not journal.exists():
        return f"interrupted before any {noun} was analysed: nothing to resume, run again"
    return (
        f"interrupted: {done} of {count} {noun}s are journaled in {path_said(journal)}; run "
        "again with --resume to continue"
    )


def _pause(point: str) -> None:
    """The test-only pause point ``point`` (see :data:`PAUSE_VARIABLE`)."""
    wanted = os.environ.get(PAUSE_VARIABLE)
    if not wanted or point not in wanted.split(","):
        return
    print(f"forest-analyse-pause: {point}", file=sys.stderr, flush=True)
    sys.stdin.readline()


TICK_SECONDS = 1.0
"""How often the progress bar is redrawn while no chunk finishes."""


class _Bar(Protocol):
    """What :class:`_TickingBar` asks of a progress bar (tqdm's)."""

    def refresh(self) -> object: ...

    def update(self, n: int) -> object: ...

    def close(self) -> object: ...


class _TickingBar:
    """A tqdm bar redrawn every :data:`TICK_SECONDS` by a thread of its own, so that its clock
    runs on while a long chunk does (one 16x16 guardians position took 72 s, the bar standing
    still meanwhile), not only when a chunk finishes."""

    def __init__(self, bar: _Bar) -> None:
        self.bar = bar
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, name="analyse-progress", daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(TICK_SECONDS):
            self.bar.refresh()

    def update(self, count: int) -> None:
        self.bar.update(count)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.bar.close()


def _progress_bar(
    total: int, initial: int, wanted: bool, noun: str = "instance"
) -> _TickingBar | None:
    if not wanted or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # the bar is a nicety
        return None
    return _TickingBar(
        tqdm(total=total, initial=initial, unit=noun, desc="analyse", file=sys.stderr, leave=False)
    )
