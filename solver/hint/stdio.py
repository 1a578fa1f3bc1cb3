"""``forest hint --stdio``: the hint engine over JSON lines, in the manner of KataGo's engine.

One JSON object a line in, one a line out. Requests run concurrently on a pool of threads, so
answers come out as each search finishes, matched to requests by ``id``. A request with
``reportDuringSearchEvery: S`` gets partial answers (``isDuringSearch: true``) about every ``S``
seconds. ``{"id": "t1", "action": "terminate", "terminateId": "q1"}`` stops request ``q1``,
which answers at once with what it has (``terminated: true``); the terminate request itself is
answered ``{"id": "t1", "action": "terminate", "terminateId": "q1", "found": true}``. A line that
is not JSON, or not a request, gets an error answer and the engine keeps serving. At the end of
the input the engine finishes the work in flight, then exits with status 0.

>>> import io, json
>>> out = io.StringIO()
>>> lines = ['{"id": "a", "game": "dog", "options": {"forest": "dog/another-dog"}, "exact": true}',
...          'not json']
>>> serve_lines(io.StringIO("\\n".join(lines) + "\\n"), out, workers=1)
0
>>> sorted((str(r["id"]), "error" in r) for r in map(json.loads, out.getvalue().splitlines()))
[('None', True), ('a', False)]
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

from solver.errors import OptionError
from solver.hint.engine import Caps, answer, error_answer
from solver.hint.schema import TerminateRequest, ValidationError, error_from_validation

__all__ = ["MAX_LINE_BYTES", "MAX_PENDING", "serve_lines"]

MAX_LINE_BYTES = 4 << 20
"""The longest request line read (longer ones are answered with an error, unread)."""

MAX_PENDING = 256
"""Requests queued or running at once; reading waits while this many are in flight."""


class _Writer:
    """Whole lines to the output, one writer at a time."""

    def __init__(self, out: IO[str]) -> None:
        self._out = out
        self._lock = threading.Lock()

    def __call__(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, separators=(",", ":"), allow_nan=False)
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()


def _read_line(source: IO[str]) -> str:
    try:
        return source.readline()
    except OSError as exc:  # a closed or captured input
        raise OptionError(f"cannot read the requests: {exc}") from None
    except UnicodeDecodeError as exc:
        raise OptionError(f"the requests are not UTF-8 text (byte {exc.start})") from None


def serve_lines(
    source: IO[str],
    out: IO[str],
    *,
    workers: int = 2,
    caps: Caps | None = None,
    allow_paths: bool = True,
) -> int:
    """Answer every request line of ``source`` on ``out``; returns the exit status (0)."""
    caps = caps or Caps()
    write = _Writer(out)
    running: dict[str, threading.Event] = {}
    lock = threading.Lock()
    slots = threading.BoundedSemaphore(MAX_PENDING)

    def run(raw: dict[str, Any], ident: str, cancel: threading.Event) -> None:
        try:
            write(answer(raw, caps=caps, allow_paths=allow_paths, report=write, cancel=cancel))
        except Exception as exc:  # a bug must not stop the engine: answer it and keep serving
            write(error_answer(ident, f"internal error: {type(exc).__name__}: {exc}", None,
                               "internal"))  # fmt: skip
        finally:
            with lock:
                running.pop(ident, None)
            slots.release()

    def terminate(raw: dict[str, Any]) -> None:
        try:
            request = TerminateRequest.model_validate(raw)
        except ValidationError as exc:
            write(error_from_validation(exc, raw).model_dump(by_alias=True))
            return
        with lock:
            event = running.get(request.terminate_id)
        if event is not None:
            event.set()
        write({"id": request.id, "action": "terminate", "terminateId": request.terminate_id,
               "found": event is not None})  # fmt: skip

    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="hint") as pool:
        for line in iter(lambda: _read_line(source), ""):
            if len(line) > MAX_LINE_BYTES:
                write(error_answer(None, f"a line longer than {MAX_LINE_BYTES} bytes", None,
                                   "too_large"))  # fmt: skip
                continue
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except (ValueError, RecursionError) as exc:
                write(error_answer(None, f"not a JSON line: {exc}", None, "malformed"))
                continue
            if not isinstance(raw, dict):
                write(error_answer(None, "a request is a JSON object", None, "malformed"))
                continue
            if raw.get("action") == "terminate":
                terminate(raw)
                continue
            ident = raw.get("id")
            if not isinstance(ident, str) or not ident:
                write(error_answer(None, "a request needs an 'id' string", "id"))
                continue
            with lock:
                busy = ident in running
            if busy:
                write(error_answer(ident, f"a request with id {ident!r} is in flight", "id",
                                   "duplicate_id"))  # fmt: skip
                continue
            slots.acquire()
            cancel = threading.Event()
            with lock:
                running[ident] = cancel
            pool.submit(run, raw, ident, cancel)
    return 0
