"""What runs in a worker: one instance's row, one chunk's rows, and the watch on the parent.

:func:`analyse_one` never raises for a bad instance: an exception becomes the row's ``error``.
:func:`run_chunk` is the task a backend ships; its ``parent`` argument lets a local worker process
end itself when the run that started it is gone (killed with SIGKILL, the parent cannot clean up;
joblib's workers would otherwise idle for minutes).
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from solver.analysis.results import value_fits
from solver.analysis.sources import Source
from solver.fields import JSONValue

__all__ = ["analyse_one", "describe", "run_chunk", "watch_parent"]

AnalyseFn = Callable[[Source], Mapping[str, Any]]
Chunk = list[tuple[int, Source]]

WATCH_INTERVAL = 0.5
"""Seconds between two looks at the parent process."""

_watching: int | None = None
_watch_lock = threading.Lock()


def analyse_one(
    analyse_fn: AnalyseFn, source: Source, types: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Run ``analyse_fn`` on one source and return its row, never raising for a bad instance.

    The row starts with ``source``, ``width`` and ``height`` from the descriptor (the analysis may
    fill in width and height), takes every key the analysis returned (lists and dicts as JSON
    text, NaN as missing) and ends with ``seconds``, the wall time of the call. An exception, or a
    value that does not fit its declared column type (``types``), gives the row
    ``class = "error"`` and ``error = "ExceptionType: message"``.

    >>> from solver.analysis.sources import Source
    >>> def broken(source):
    ...     raise ValueError("no such instance")
    >>> row = analyse_one(broken, Source.file("missing.forest"))
    >>> row["class"], row["error"]
    ('error', 'ValueError: no such instance')
    >>> wrong = lambda source: {"class": "x", "par": "7"}
    >>> analyse_one(wrong, Source.file("a"), {"par": "Int64"})["error"]
    "TypeError: the analysis returned column 'par' as '7', not a value of type Int64"
    """
    start = time.perf_counter()
    try:
        result = analyse_fn(source)
        if not isinstance(result, Mapping):
            raise TypeError(f"the analysis returned a {type(result).__name__}, not a dict")
        fields = {str(key): _plain(key, value) for key, value in result.items()}
        for name, dtype in (types or {}).items():
            if name in fields and not value_fits(dtype, fields[name]):
                raise TypeError(
                    f"the analysis returned column {name!r} as {fields[name]!r}, not a value of "
                    f"type {dtype}"
                )
        error = None
    except Exception as exc:  # one bad instance must not stop the batch
        fields, error = {}, describe(exc)
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


def describe(exc: BaseException) -> str:
    """``"ExceptionType: message"`` on one line."""
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _plain(key: str, value: object) -> JSONValue:
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


def _json_default(value: object) -> JSONValue:
    """``json.dumps``' fallback: a numpy scalar or array as plain data; anything else refused."""
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return tolist()
    raise TypeError(f"{type(value).__name__} is not JSON data")


def run_chunk(
    analyse_fn: AnalyseFn,
    chunk: Chunk,
    types: Mapping[str, str] | None = None,
    parent: int | None = None,
    threads: int = 1,
) -> list[tuple[int, dict[str, Any]]]:
    """The rows of one chunk (the task a worker runs), in the chunk's order; ``parent``: see
    :func:`watch_parent`. ``threads`` above 1 analyses that many of the chunk's instances at
    once, on threads (``forest analyse --jobs J`` on Dask): each row depends on its instance
    alone, so the rows are the same as one at a time, ``seconds`` aside."""
    if parent is not None:
        watch_parent(parent)

    def row(item: tuple[int, Source]) -> tuple[int, dict[str, Any]]:
        return item[0], analyse_one(analyse_fn, item[1], types)

    if threads <= 1 or len(chunk) <= 1:
        return [row(item) for item in chunk]
    with ThreadPoolExecutor(max_workers=min(threads, len(chunk))) as pool:
        return list(pool.map(row, chunk))


def watch_parent(parent: int) -> bool:
    """In a worker process whose parent is ``parent``: end this process when the parent is gone.

    A daemon thread looks every :data:`WATCH_INTERVAL` seconds; when this process has been handed
    to another parent (the run was killed), it exits at once. Does nothing in the run's own
    process or in a process that is not the run's child (a worker on a remote cluster). Returns
    whether a watch is running.
    """
    global _watching
    if os.getpid() == parent or os.getppid() != parent:
        return False
    with _watch_lock:
        if _watching == parent:
            return True
        _watching = parent

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_INTERVAL)
        os._exit(70)  # the run is gone: nobody will read this worker's rows

    threading.Thread(target=watch, name="forest-parent-watch", daemon=True).start()
    return True
