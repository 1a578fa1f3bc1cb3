"""Batch analysis: run one per-forest analysis over many forests, locally or on a Dask cluster.

A batch is a list of :class:`Source` descriptors (rolled forests ``seed:17`` of one size, or
``.forest`` files), usually made by a :class:`Job`, and an *analysis function*
``analyse_fn(source) -> dict``: a picklable top-level function (the real one is
``solver.analysis.classify.analyse_source``) that loads the forest with :meth:`Source.load` and
returns one row of results. :func:`run_batch` runs it over every source and writes one row per
forest, in source order, to a Parquet or CSV file chosen by the file's extension.

How it runs:

- The sources are cut into *chunks* of consecutive forests; a chunk is one task. Locally the
  chunks go to worker processes (joblib's loky backend, ``jobs`` of them; ``jobs=1`` runs in this
  process); on a cluster they are Dask tasks (``scheduler="tcp://host:port"``, or a
  ``LocalCluster`` of ``dask_local`` worker processes), streamed back with ``as_completed``.
- Every finished chunk is appended to a *journal* next to the output
  (``results.parquet.journal.jsonl``): a header line naming the batch (a fingerprint of the sources
  and the analysis function), then one JSON line ``{"i": index, "row": {...}}`` per forest, flushed
  and synced to disk chunk by chunk. ``resume=True`` reads the journal back (dropping a torn last
  line left by a kill), checks the fingerprint and analyses only the forests not in it. When all
  forests are done, the final file is written from the journal rows sorted by source index
  (through a temporary file and an atomic rename) and the journal is deleted.
- An exception raised by ``analyse_fn`` for one forest becomes that forest's row: class
  ``"error"`` and the message in the ``error`` column; the batch goes on.
- The rows are the same whatever the backend, the number of workers, the chunk size and the
  completion order, provided ``analyse_fn`` is deterministic (it must derive any random seed from
  the source, never from the worker). The one exception is ``seconds``, the wall time of each
  analysis, which differs from run to run: compare results with :func:`without_timing`.

Columns: ``source`` (the path as given, or ``seed:N``), ``width``, ``height``, ``class``, ``par``
(empty when none), ``win_probability``, ``exact``, ``ci_low``, ``ci_high``, ``upper_bound``,
``seconds``, ``error`` (empty unless the analysis failed) and ``route`` (a JSON list of
``[row, col]`` cells, empty when unknown), then any further keys the analysis returns, in order of
first appearance. Lists and dicts returned by the analysis are stored as JSON text.

>>> job = Job.generated(3, size=(4, 3), seed=5)
>>> [s.source for s in job.sources()]
['seed:5', 'seed:6', 'seed:7']
>>> job.sources()[0].load().name
'rolled-4x3-seed5'
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import logging
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.errors import OptionError, SolverError

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from solver.games.dog.forest import Forest

__all__ = [
    "BASE_COLUMNS",
    "TIMING_COLUMNS",
    "Job",
    "Source",
    "analyse_one",
    "journal_path",
    "read_results",
    "results_format",
    "run_batch",
    "without_timing",
    "write_results",
]

#: The columns every results file has, in this order; further columns follow.
BASE_COLUMNS: tuple[str, ...] = (
    "source",
    "width",
    "height",
    "class",
    "par",
    "win_probability",
    "exact",
    "ci_low",
    "ci_high",
    "upper_bound",
    "seconds",
    "error",
    "route",
)

#: Columns that measure time and so differ between otherwise identical runs.
TIMING_COLUMNS: tuple[str, ...] = ("seconds",)

_DTYPES: dict[str, str] = {
    "source": "string",
    "width": "Int64",
    "height": "Int64",
    "class": "string",
    "par": "Int64",
    "win_probability": "float64",
    "exact": "boolean",
    "ci_low": "float64",
    "ci_high": "float64",
    "upper_bound": "float64",
    "seconds": "float64",
    "error": "string",
    "route": "string",
}

_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
_JOURNAL_SUFFIX = ".journal.jsonl"
_JOURNAL_VERSION = 1
_SEED_PREFIX = "seed:"
_MAX_SEED = 2**64 - 1

AnalyseFn = Callable[["Source"], Mapping[str, Any]]
Notify = Callable[[str], None]


# -- sources -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Source:
    """One forest of a batch: a rolled forest (``seed`` and size) or a ``.forest`` file (``path``).

    ``source`` is what the results call it: ``seed:17`` for a rolled forest, the path as the user
    gave it for a file (``path`` holds it made absolute, so workers find it whatever their
    directory). ``width`` and ``height`` are known up front for rolled forests only.

    >>> s = Source.generated(17, 9, 9)
    >>> s.source, s.kind, (s.width, s.height)
    ('seed:17', 'generated', (9, 9))
    >>> Source.from_row({"source": "seed:17", "width": 9, "height": 9}) == s
    True
    """

    source: str
    width: int | None = None
    height: int | None = None
    seed: int | None = None
    path: str | None = None
    turns: int | None = None
    """For a rolled forest: the turn limit instead of the generator's (``--turns``)."""

    @property
    def kind(self) -> str:
        """``"generated"`` or ``"file"``."""
        return "generated" if self.seed is not None else "file"

    @classmethod
    def generated(cls, seed: int, width: int, height: int, turns: int | None = None) -> Source:
        """The forest :func:`~solver.games.dog.generator.roll_forest` rolls from ``seed`` (with
        ``turns`` as its turn limit when given)."""
        return cls(f"{_SEED_PREFIX}{seed}", width=width, height=height, seed=seed, turns=turns)

    @classmethod
    def file(cls, path: str | os.PathLike[str]) -> Source:
        """A ``.forest`` file; ``source`` keeps the path as given."""
        text = os.fspath(path)
        return cls(text, path=os.path.abspath(text))

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Source:
        """The source of a results row (``seed:N`` with its width and height, or a path)."""
        text = str(row.get("source", ""))
        width, height = _int_or_none(row.get("width")), _int_or_none(row.get("height"))
        seed_text = text[len(_SEED_PREFIX) :]
        if text.startswith(_SEED_PREFIX) and seed_text.isdigit():
            if width is None or height is None:
                raise OptionError(f"the row for {text!r} has no width and height to roll it")
            return cls.generated(int(seed_text), width, height, _int_or_none(row.get("turns")))
        return cls.file(text)

    def load(self) -> Forest:
        """The forest itself: rolled again from its seed, or read from its file."""
        if self.seed is not None:
            from solver.games.dog.generator import roll_forest

            if self.width is None or self.height is None:
                raise OptionError(f"{self.source}: a rolled forest needs a width and a height")
            forest = roll_forest(self.width, self.height, seed=self.seed)
            return forest if self.turns is None else forest.replace(turns=self.turns)
        from solver.games.dog.format import load_forest

        return load_forest(self.path if self.path is not None else self.source)


def _int_or_none(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, float) and math.isnan(value):
            return None
        return int(value)
    except (TypeError, ValueError):  # pandas.NA and friends
        return None


@dataclass(frozen=True)
class Job:
    """A description of a batch: ``count`` rolled forests of one size from consecutive seeds, or
    a list of ``.forest`` files.

    >>> job = Job.generated(2, size=(9, 9), seed=40)
    >>> len(job), [s.source for s in job.sources()]
    (2, ['seed:40', 'seed:41'])
    >>> Job.generated(0)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: --count must be at least 1, not 0
    """

    kind: str
    width: int | None = None
    height: int | None = None
    first_seed: int = 0
    count: int = 0
    paths: tuple[str, ...] = ()
    turns: int | None = None

    @classmethod
    def generated(
        cls, count: int, size: tuple[int, int] = (9, 9), seed: int = 0, turns: int | None = None
    ) -> Job:
        """``count`` forests rolled from seeds ``seed``, ``seed + 1``, ... at ``size``; ``turns``
        replaces the generator's turn limit (20) when given."""
        from solver.games.dog.forest import MAX_SIZE, MIN_SIZE

        count, seed = _whole("--count", count), _whole("--seed", seed)
        if count < 1:
            raise OptionError(f"--count must be at least 1, not {count}")
        try:
            width, height = (_whole("--size", v) for v in size)
        except (TypeError, ValueError):
            raise OptionError(f"--size must be a (width, height) pair, not {size!r}") from None
        for name, value in (("width", width), ("height", height)):
            if not MIN_SIZE <= value <= MAX_SIZE:
                raise OptionError(
                    f"--size {name} must be from {MIN_SIZE} to {MAX_SIZE}, not {value}"
                )
        if seed < 0 or seed + count - 1 > _MAX_SEED:
            raise OptionError(
                f"--seed {seed} with --count {count} leaves the seed range 0 to 2**64 - 1"
            )
        if turns is not None:
            turns = _whole("--turns", turns)
            if not 1 <= turns <= 255:
                raise OptionError(f"--turns must be from 1 to 255, not {turns}")
        return cls(
            "generated", width=width, height=height, first_seed=seed, count=count, turns=turns
        )

    @classmethod
    def files(cls, paths: Iterable[str | os.PathLike[str]]) -> Job:
        """The given ``.forest`` files, in order (they are read only when analysed)."""
        paths = tuple(os.fspath(p) for p in paths)
        if not paths:
            raise OptionError("no forest files given")
        return cls("files", count=len(paths), paths=paths)

    def sources(self) -> list[Source]:
        """The sources in batch order."""
        if self.kind == "generated":
            assert self.width is not None and self.height is not None
            return [
                Source.generated(seed, self.width, self.height, self.turns)
                for seed in range(self.first_seed, self.first_seed + self.count)
            ]
        return [Source.file(path) for path in self.paths]

    def __len__(self) -> int:
        return self.count


def _whole(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"{name} must be a whole number, not {value!r}")
    return value


# -- one forest, one chunk -----------------------------------------------------------------------
def analyse_one(analyse_fn: AnalyseFn, source: Source) -> dict[str, Any]:
    """Run ``analyse_fn`` on one source and return its row, never raising for a bad forest.

    The row starts with ``source``, ``width`` and ``height`` from the descriptor (the analysis may
    fill in width and height), takes every key the analysis returned (lists and dicts as JSON
    text, NaN as missing) and ends with ``seconds``, the wall time of the call. An exception
    gives the row ``class = "error"`` and ``error = "ExceptionType: message"``.

    >>> def broken(source):
    ...     raise ValueError("no such forest")
    >>> row = analyse_one(broken, Source.file("missing.forest"))
    >>> row["class"], row["error"]
    ('error', 'ValueError: no such forest')
    """
    start = time.perf_counter()
    try:
        result = analyse_fn(source)
        if not isinstance(result, Mapping):
            raise TypeError(f"the analysis returned a {type(result).__name__}, not a dict")
        fields = {str(key): _plain(key, value) for key, value in result.items()}
        error = None
    except Exception as exc:  # one bad forest must not stop the batch
        fields, error = {}, _describe(exc)
    seconds = time.perf_counter() - start
    row: dict[str, Any] = {"source": source.source, "width": source.width, "height": source.height}
    if error is None:
        fields.pop("source", None)
        for key in ("width", "height"):
            if fields.get(key) is None:
                fields.pop(key, None)
        row.update(fields)
    else:
        row["class"] = "error"
        row["error"] = error
    row["seconds"] = seconds
    return row


def _describe(exc: BaseException) -> str:
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _plain(key: Any, value: Any) -> Any:
    """``value`` as JSON-ready data: scalars stay, NaN becomes None, containers become JSON text."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item) and getattr(value, "ndim", None) == 0:
        return _plain(key, item())
    if isinstance(value, (list, tuple, dict)):
        try:
            return json.dumps(value, default=_json_default, separators=(",", ":"))
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"the analysis returned column {key!r} that is not JSON data: {exc}"
            ) from None
    raise TypeError(
        f"the analysis returned column {key!r} as a {type(value).__name__}; expected a number, "
        "a string, a bool, None, or a list or dict of those"
    )


def _json_default(value: Any) -> Any:
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return tolist()
    raise TypeError(f"{type(value).__name__} is not JSON data")


Chunk = list[tuple[int, Source]]


def _run_chunk(analyse_fn: AnalyseFn, chunk: Chunk) -> list[tuple[int, dict[str, Any]]]:
    """The rows of one chunk (the task a worker runs)."""
    return [(index, analyse_one(analyse_fn, source)) for index, source in chunk]


def _chunks(items: Sequence[tuple[int, Source]], size: int) -> Iterator[Chunk]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def _auto_chunk_size(pending: int, workers: int, cap: int) -> int:
    """About four chunks per worker, at most ``cap`` forests each."""
    return max(1, min(cap, math.ceil(pending / (4 * max(1, workers)))))


# -- the journal ---------------------------------------------------------------------------------
def journal_path(out: str | os.PathLike[str]) -> Path:
    """Where :func:`run_batch` journals the rows for ``out``.

    >>> journal_path("runs/results.parquet").as_posix()
    'runs/results.parquet.journal.jsonl'
    """
    out = Path(out)
    return out.with_name(out.name + _JOURNAL_SUFFIX)


def _fingerprint(sources: Sequence[Source], analyse_fn: AnalyseFn) -> str:
    digest = hashlib.sha256()
    digest.update(_function_name(analyse_fn).encode("utf-8"))
    for s in sources:
        fields = [s.source, s.width, s.height, s.seed, s.path, s.turns]
        digest.update(json.dumps(fields).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def _function_name(fn: Callable[..., Any]) -> str:
    module = getattr(fn, "__module__", None) or "?"
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    return f"{module}:{name}"


class _Journal:
    """The append-only JSON-lines journal of one batch (see the module docstring)."""

    def __init__(self, path: Path, fingerprint: str, count: int, analysis: str):
        self.path = path
        self.header = {
            "journal": "forest analyse",
            "version": _JOURNAL_VERSION,
            "fingerprint": fingerprint,
            "count": count,
            "analysis": analysis,
        }
        self.file: Any = None

    def open(self, resume: bool, sources: Sequence[Source], notify: Notify) -> dict[int, dict]:
        """Open (and lock) for appending; with ``resume`` return the rows already journaled.

        The lock comes first, so a second run on the same output can neither read a journal
        that is being written nor wipe it.
        """
        self.file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        try:
            self._lock()
            if resume and self.path.stat().st_size > 0:
                rows = self._read(sources)
                notify(
                    f"resuming {self.path}: {len(rows)} of {len(sources)} forests already analysed"
                )
                return rows
            if resume:
                notify(f"nothing to resume: no journal at {self.path}; starting afresh")
            self.file.truncate(0)
            self.file.write(json.dumps(self.header) + "\n")
            self._sync()
            return {}
        except BaseException:
            self.close()
            raise

    def _lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return
        try:
            fcntl.flock(self.file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise OptionError(
                f"another run is writing the journal {self.path}; wait for it or use another --out"
            ) from None

    def _read(self, sources: Sequence[Source]) -> dict[int, dict]:
        data = self.path.read_bytes()
        lines = data.split(b"\n")
        good_end = 0  # the byte offset after the last complete, readable line
        rows: dict[int, dict] = {}
        offset = 0
        for number, raw in enumerate(lines):
            complete = number < len(lines) - 1  # the piece after the last LF is unfinished
            end = offset + len(raw) + 1
            if not complete:
                break
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                if number == len(lines) - 2:  # a torn final line: drop it
                    break
                raise OptionError(
                    f"the journal {self.path} is damaged at line {number + 1}; "
                    "delete it and run without --resume"
                ) from None
            if number == 0:
                self._check_header(record)
            else:
                self._check_row(record, number, sources)
                rows[record["i"]] = record["row"]
            good_end = end
            offset = end
        if good_end == 0:
            raise OptionError(
                f"the journal {self.path} has no header line; delete it and run without --resume"
            )
        if good_end < len(data):
            with open(self.path, "r+b") as handle:  # drop the torn tail
                handle.truncate(good_end)
        return rows

    def _check_header(self, record: Any) -> None:
        if not isinstance(record, dict) or record.get("journal") != "forest analyse":
            raise OptionError(f"{self.path} is not a journal of `forest analyse`")
        if record.get("version") != _JOURNAL_VERSION:
            raise OptionError(
                f"the journal {self.path} has version {record.get('version')!r}, expected "
                f"{_JOURNAL_VERSION}; run without --resume"
            )
        if record.get("fingerprint") != self.header["fingerprint"]:
            raise OptionError(
                f"the journal {self.path} belongs to another batch (other forests or another "
                f"analysis: {record.get('analysis')}); run without --resume to start afresh"
            )

    def _check_row(self, record: Any, number: int, sources: Sequence[Source]) -> None:
        index = record.get("i") if isinstance(record, dict) else None
        row = record.get("row") if isinstance(record, dict) else None
        if (
            not isinstance(index, int)
            or not 0 <= index < len(sources)
            or not isinstance(row, dict)
            or row.get("source") != sources[index].source
        ):
            raise OptionError(
                f"the journal {self.path} has a bad row at line {number + 1}; "
                "delete it and run without --resume"
            )

    def append(self, rows: Iterable[tuple[int, dict]]) -> None:
        text = "".join(
            json.dumps({"i": index, "row": row}, ensure_ascii=False) + "\n" for index, row in rows
        )
        self.file.write(text)
        self._sync()

    def _sync(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


# -- backends ------------------------------------------------------------------------------------
def _require(module: str, extra: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise OptionError(
            f"{what} needs the optional package {module!r}: pip install 'forest-solver[{extra}]'"
        ) from None


class _Local:
    """Worker processes on this machine (joblib/loky), or this process alone for one job."""

    cap = 32  # the most forests in one automatic chunk

    def __init__(self, jobs: int):
        self.workers = jobs

    def run(self, fn: AnalyseFn, chunks: Iterator[Chunk]) -> Iterator[list]:
        if self.workers == 1:
            for chunk in chunks:
                yield _run_chunk(fn, chunk)
            return
        joblib = _require("joblib", "analysis", "--jobs above 1")
        try:
            with joblib.Parallel(
                n_jobs=self.workers, backend="loky", return_as="generator_unordered"
            ) as parallel:
                yield from parallel(joblib.delayed(_run_chunk)(fn, chunk) for chunk in chunks)
        except Exception as exc:  # a worker died (a crash in compiled code, out of memory...)
            if isinstance(exc, SolverError):
                raise
            raise SolverError(
                f"a worker process failed ({_describe(exc)}); the finished forests are "
                "journaled: run again with --resume"
            ) from exc

    def close(self) -> None:
        pass


class _Dask:
    """A Dask distributed cluster: a scheduler's address, or a LocalCluster of worker processes."""

    cap = 256  # the most forests in one automatic chunk

    def __init__(self, scheduler: str | None, workers: int | None):
        distributed = _require("distributed", "dask", "Dask runs (--scheduler, --dask-local)")
        self.distributed = distributed
        self.cluster = None
        try:
            if scheduler is not None:
                self.client = distributed.Client(scheduler, timeout="20s", set_as_default=False)
            else:
                self.cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
                self.client = distributed.Client(self.cluster, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            self.close()
            where = scheduler if scheduler is not None else "a local cluster"
            raise SolverError(f"cannot reach the Dask scheduler at {where}: {exc}") from exc
        self.workers = max(1, sum(self.client.nthreads().values()))

    def run(self, fn: AnalyseFn, chunks: Iterator[Chunk]) -> Iterator[list]:
        client = self.client

        def submit(chunk: Chunk) -> Any:
            return client.submit(_run_chunk, fn, chunk, pure=False)

        # About two chunks in flight per worker thread, so no worker waits; the count is read
        # again as chunks finish, so workers that join later get work too.
        in_flight = [submit(c) for c in islice(chunks, 2 * self.workers)]
        pending = self.distributed.as_completed(in_flight, loop=client.loop)
        running = len(in_flight)
        for future in pending:
            running -= 1
            try:
                rows = future.result()
            except Exception as exc:
                raise SolverError(
                    f"a Dask task failed ({_describe(exc)}); the finished forests are "
                    "journaled: run again with --resume"
                ) from exc
            future.release()
            window = 2 * max(1, sum(client.nthreads().values()))
            for following in islice(chunks, max(1, window - running)):
                pending.add(submit(following))
                running += 1
            yield rows

    def close(self) -> None:
        client, cluster = getattr(self, "client", None), self.cluster
        with contextlib.suppress(Exception):
            if client is not None:
                client.close()
        with contextlib.suppress(Exception):
            if cluster is not None:
                cluster.close()


# -- results files -------------------------------------------------------------------------------
def results_format(path: str | os.PathLike[str]) -> str:
    """``"parquet"`` or ``"csv"``, from the file's extension.

    >>> results_format("out/results.parquet"), results_format("x.CSV")
    ('parquet', 'csv')
    >>> results_format("results.xlsx")
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: cannot tell the format of 'results.xlsx': use .parquet, .pq or .csv
    """
    suffix = Path(path).suffix.lower()
    if suffix not in _FORMATS:
        raise OptionError(
            f"cannot tell the format of {os.fspath(path)!r}: use .parquet, .pq or .csv"
        )
    return _FORMATS[suffix]


def _check_writer(fmt: str) -> None:
    _require("pandas", "analysis", "writing results")
    if fmt == "parquet":
        _require("pyarrow", "analysis", "a Parquet results file")


def _frame(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The results table of ``rows`` (in their order) with the standard columns and types."""
    import pandas as pd

    extra: list[str] = []
    seen = set(BASE_COLUMNS)
    for row in rows:
        for key in row:
            if key not in seen:
                seen.add(key)
                extra.append(key)
    columns = list(BASE_COLUMNS) + extra
    data = {col: [row.get(col) for row in rows] for col in columns}
    frame = pd.DataFrame({col: pd.Series(values, dtype=object) for col, values in data.items()})
    for col in columns:
        frame[col] = _typed(frame[col], _DTYPES.get(col))
    return frame


def _typed(series: pd.Series, dtype: str | None) -> pd.Series:
    """``series`` as ``dtype`` (or a type inferred from its values when ``dtype`` is None)."""
    import pandas as pd

    values = [v for v in series if not _missing(v)]
    if dtype is None:
        if values and all(isinstance(v, bool) for v in values):
            dtype = "boolean"
        elif values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            dtype = "Int64"
        elif values and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
        ):
            dtype = "float64"
        else:
            dtype = "string"
    if dtype == "boolean":
        mapping = {"true": True, "false": False, "True": True, "False": False}
        series = series.map(lambda v: mapping.get(v, v) if isinstance(v, str) else v)
    if dtype == "string":
        series = series.map(lambda v: v if isinstance(v, str) else _text(v))
    try:
        if dtype == "float64":
            return pd.to_numeric(series, errors="raise").astype("float64")
        return series.astype(dtype)
    except (TypeError, ValueError):
        if dtype == "string":  # pragma: no cover - every value is text by now
            raise
        return _typed(series, "string")


def _missing(value: Any) -> bool:
    """None, NaN or pandas' NA."""
    if value is None:
        return True
    if isinstance(value, (str, bool, int)):
        return False
    if isinstance(value, float):
        return math.isnan(value)
    import pandas as pd

    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a container: not missing
        return False


def _text(value: Any) -> str | None:
    return None if _missing(value) else str(value)


def _csv_bool(value: Any) -> str:
    if _missing(value):
        return ""
    return "true" if value else "false"


def write_results(rows: Sequence[Mapping[str, Any]], path: str | os.PathLike[str]) -> Path:
    """Write ``rows`` (in their order) to ``path``: Parquet or CSV by the extension.

    The file is written to a temporary name in the same folder and renamed into place, so a
    reader never sees half a file. In CSV, missing values are empty and booleans read
    ``true``/``false``.
    """
    path = Path(path)
    fmt = results_format(path)
    _check_writer(fmt)
    frame = _frame(rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if fmt == "parquet":
            frame.to_parquet(tmp, index=False, engine="pyarrow")
        else:
            out = frame.copy()
            for col in out.columns:
                if str(out[col].dtype) == "boolean":
                    out[col] = [_csv_bool(v) for v in frame[col].astype(object)]
            out.to_csv(tmp, index=False)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return path


def read_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a results file written by :func:`run_batch`, with the standard column types.

    >>> import tempfile
    >>> from solver.analysis._testing import fake_analyse
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = run_batch(Job.generated(3, size=(5, 5)), fake_analyse,
    ...                     out=Path(tmp) / "r.csv", progress=False)
    ...     frame = read_results(out)
    >>> list(frame["source"]), list(frame.columns[:4])
    (['seed:0', 'seed:1', 'seed:2'], ['source', 'width', 'height', 'class'])
    """
    import pandas as pd

    path = Path(path)
    fmt = results_format(path)
    _check_writer(fmt)
    if not path.exists():
        raise FileNotFoundError(2, "No such file or directory", os.fspath(path))
    if fmt == "parquet":
        frame = pd.read_parquet(path, engine="pyarrow")
    else:
        frame = pd.read_csv(
            path, dtype=object, keep_default_na=False, na_values=[""], on_bad_lines="error"
        )
        frame = frame.astype(object).where(frame.notna(), None)
        for col in frame.columns:
            if col in _DTYPES:
                continue
            frame[col] = _typed(frame[col].map(_number_or_text), None)
    for col, dtype in _DTYPES.items():
        if col not in frame.columns:
            frame[col] = pd.Series([None] * len(frame), dtype=object)
        frame[col] = _typed(frame[col].astype(object), dtype)
    ordered = list(BASE_COLUMNS) + [c for c in frame.columns if c not in _DTYPES]
    return frame[ordered]


def _number_or_text(value: Any) -> Any:
    """A CSV cell of an extra column: a bool, an int, a float, or the text itself."""
    if not isinstance(value, str):
        return value
    if value in ("true", "false", "True", "False"):
        return value in ("true", "True")
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def without_timing(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without the columns that measure time: what must agree between runs.

    >>> import pandas as pd
    >>> list(without_timing(pd.DataFrame({"source": ["seed:1"], "seconds": [0.2]})).columns)
    ['source']
    """
    return frame.drop(columns=[c for c in TIMING_COLUMNS if c in frame.columns])


# -- the batch -----------------------------------------------------------------------------------
def run_batch(
    sources: Job | Sequence[Source],
    analyse_fn: AnalyseFn,
    *,
    out: str | os.PathLike[str],
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    dask_local: int | None = None,
    chunk_size: int | None = None,
    resume: bool = False,
    progress: bool = True,
    notify: Notify | None = None,
) -> Path:
    """Analyse every source with ``analyse_fn`` and write the results file ``out``; return it.

    ``backend="local"`` runs ``jobs`` worker processes (``jobs=1``: in this process);
    ``backend="dask"`` runs on the Dask scheduler at ``scheduler`` or on a new ``LocalCluster``
    of ``dask_local`` worker processes (default: ``jobs``), one thread each. ``chunk_size`` is the
    number of forests per task (default: about four chunks per worker, at most 32 locally and 256
    on Dask). ``resume=True`` continues from the journal an interrupted run left (see the module
    docstring). ``progress`` shows a tqdm bar on stderr when stderr is a terminal. ``notify``
    receives one-line notes (resuming, starting afresh). Impossible options raise
    :class:`~solver.errors.OptionError` before anything runs.

    >>> import tempfile
    >>> from solver.analysis._testing import fake_analyse
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = run_batch(Job.generated(4, size=(6, 6), seed=3), fake_analyse,
    ...                     out=Path(tmp) / "r.parquet", jobs=1, progress=False)
    ...     out.name, journal_path(out).exists(), len(read_results(out))
    ('r.parquet', False, 4)
    >>> run_batch([], fake_analyse, out="r.csv", jobs=0)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: --jobs must be at least 1, not 0
    """
    notify = notify if notify is not None else (lambda message: None)
    # 1. The options, all checked before anything runs.
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {jobs!r}")
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
    if scheduler is not None and (not isinstance(scheduler, str) or "://" not in scheduler):
        raise OptionError(
            f"--scheduler must be a scheduler address such as tcp://host:8786, not {scheduler!r}"
        )
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise OptionError(f"--chunk-size must be at least 1, not {chunk_size!r}")
    if not callable(analyse_fn):
        raise OptionError(f"the analysis must be a function, not {analyse_fn!r}")
    out = Path(out)
    fmt = results_format(out)
    _check_writer(fmt)
    if backend == "dask":
        _require("distributed", "dask", "Dask runs (--scheduler, --dask-local)")
    elif jobs > 1:
        _require("joblib", "analysis", "--jobs above 1")
    items = sources.sources() if isinstance(sources, Job) else list(sources)
    for item in items:
        if not isinstance(item, Source):
            raise OptionError(f"a batch holds Source descriptors, not {type(item).__name__}")
    if not items:
        raise OptionError("nothing to analyse: the batch has no forests")

    # 2. The journal: what is done already.
    out.parent.mkdir(parents=True, exist_ok=True)
    journal = _Journal(
        journal_path(out), _fingerprint(items, analyse_fn), len(items), _function_name(analyse_fn)
    )
    done = journal.open(resume, items, notify)
    executor: _Local | _Dask | None = None
    bar = None
    try:
        pending = [(i, s) for i, s in enumerate(items) if i not in done]
        if pending:
            # 3. The work, chunk by chunk, journaled as each chunk finishes.
            if backend == "dask":
                executor = _Dask(scheduler, None if scheduler is not None else dask_local or jobs)
                size = chunk_size or _auto_chunk_size(len(pending), executor.workers, executor.cap)
            else:  # no more worker processes than chunks
                workers = min(jobs, len(pending))
                size = chunk_size or _auto_chunk_size(len(pending), workers, _Local.cap)
                executor = _Local(min(workers, math.ceil(len(pending) / size)))
            bar = _progress_bar(len(items), len(done), progress)
            results = executor.run(analyse_fn, _chunks(pending, size))
            with contextlib.closing(results):  # type: ignore[arg-type]
                for chunk_rows in results:
                    journal.append(chunk_rows)
                    for index, row in chunk_rows:
                        done[index] = row
                    if bar is not None:
                        bar.update(len(chunk_rows))
    except KeyboardInterrupt:
        notify(
            f"interrupted: {len(done)} of {len(items)} forests are journaled in {journal.path}; "
            "run again with --resume to continue"
        )
        raise
    finally:
        if bar is not None:
            bar.close()
        if executor is not None:
            executor.close()
        journal.close()

    # 4. The final file, in source order; then the journal goes.
    write_results([done[i] for i in range(len(items))], out)
    with contextlib.suppress(FileNotFoundError):
        journal.path.unlink()
    return out


def _progress_bar(total: int, initial: int, wanted: bool) -> Any:
    if not wanted or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # the bar is a nicety
        return None
    return tqdm(
        total=total, initial=initial, unit="forest", desc="analyse", file=sys.stderr, leave=False
    )
