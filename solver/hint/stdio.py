"""``forest hint --stdio``: the hint engine over JSON lines, in the manner of KataGo's engine.

One JSON object a line in, one a line out. Requests run concurrently on a pool of threads, so
answers come out as each search finishes, matched to requests by ``id``. A request with
``reportDuringSearchEvery: S`` gets partial answers (``isDuringSearch: true``) about every ``S``
seconds. ``{"id": "t1", "action": "terminate", "terminateId": "q1"}`` stops request ``q1``,
which answers soon with what it has (``terminated: true``; every search, the exact one
included, looks at the stop between slices or every few thousand nodes); the terminate request
itself is answered ``{"id": "t1", "action": "terminate", "terminateId": "q1", "found": true,
"notes": []}`` (``notes``: its unknown fields, named).
A line that is not JSON, or not a request, gets an error answer and the engine keeps serving.
At the end of the input the engine finishes the work in flight, then exits with status 0. On
SIGTERM or Ctrl-C (``forest hint --stdio``; before or after the end of the input) it reads no
more lines, stops every request in flight or queued, which answers at once with what it has
(``terminated: true``), and exits 0 once all have answered.

Lines are read in bytes, at most :data:`MAX_LINE_BYTES` of a line held at once: a longer line is
answered ``too_large`` and skipped in pieces, never read whole. Requests are checked as the HTTP
service checks them (:mod:`solver.hint.ingress`).

>>> import io, json
>>> out = io.StringIO()
>>> lines = ['{"id": "a", "game": "dog", "options": {"forest": "dog/another-dog"}, "exact": true}',
...          'not json']
>>> serve_lines(io.BytesIO(("\\n".join(lines) + "\\n").encode()), out, workers=1)
0
>>> sorted((str(r["id"]), "error" in r) for r in map(json.loads, out.getvalue().splitlines()))
[('None', True), ('a', False)]
"""

from __future__ import annotations

import io
import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import IO, Any

from solver.errors import OptionError
from solver.hint.engine import answer, error_answer, ignored_note
from solver.hint.errors import HintError
from solver.hint.ingress import ident_of, parse_request
from solver.hint.limits import Caps
from solver.hint.schema import TerminateRequest, ValidationError, error_from_validation

__all__ = ["MAX_LINE_BYTES", "MAX_PENDING", "read_lines", "serve_lines"]

MAX_LINE_BYTES = 4 << 20
"""The longest request line read, in bytes (longer ones are answered with an error, unread)."""

MAX_PENDING = 256
"""Requests queued or running at once; reading waits while this many are in flight (but not past
a stop signal)."""

SLOT_POLL = 0.05
"""Seconds between looks at the stop while reading waits for a free slot."""

READ_CHUNK = 1 << 16
"""Bytes read at a time while skipping an over-long line."""


class _Writer:
    """Whole lines to the output, one writer at a time. A write that fails (the reader gone, a
    full disk, ``/dev/full``) is kept in :attr:`failed` and calls ``on_failure`` once; later
    answers are dropped. Most answers are written on the pool's threads, where an exception
    went unseen: the engine went on reading and searching, answering nobody, and exited 0; one
    written on the main thread (a malformed line's) raised through to a traceback."""

    def __init__(self, out: IO[str]) -> None:
        self._out = out
        self._lock = threading.Lock()
        self.failed: OSError | None = None
        self.on_failure: Callable[[], object] = lambda: None

    def __call__(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, separators=(",", ":"), allow_nan=False)  # ASCII: always valid
        with self._lock:
            if self.failed is not None:
                return
            try:
                self._out.write(line + "\n")
                self._out.flush()
            except OSError as exc:
                self.failed = exc
            else:
                return
        self.on_failure()

    def check(self) -> None:
        """Raise for a failed output: :class:`BrokenPipeError` where the reader has gone (the
        command line's quiet exit, as for ``forest ... | head``), else
        :class:`~solver.errors.OptionError` naming why the answers could not be written."""
        if self.failed is None:
            return
        if isinstance(self.failed, BrokenPipeError):
            raise self.failed
        why = getattr(self.failed, "reason", None) or self.failed.strerror or str(self.failed)
        raise answers_unwritable(why) from None


def answers_unwritable(why: str) -> OptionError:
    """The one line of a hint engine whose answers cannot be written (a full disk, a closed
    standard output)."""
    return OptionError(f"cannot write the answers: {why}")


def _binary(source: IO[Any]) -> IO[bytes]:
    """The byte stream under ``source`` (a text stream's buffer; a text-only stream encoded)."""
    buffer = getattr(source, "buffer", None)
    if buffer is not None:
        return buffer
    if isinstance(source, io.TextIOBase):
        return io.BytesIO(source.read().encode("utf-8", "surrogateescape"))
    return source


def read_lines(source: IO[bytes], limit: int = MAX_LINE_BYTES) -> Iterator[bytes | None]:
    """The lines of ``source`` as bytes (newline stripped); ``None`` for a line longer than
    ``limit`` bytes, which is skipped in :data:`READ_CHUNK` pieces without being kept."""
    while True:
        try:
            line = source.readline(limit + 1)
        except OSError as exc:  # a closed or captured input
            raise OptionError(f"cannot read the requests: {exc}") from None
        if not line:
            return
        if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
            if not line.endswith(b"\n"):
                while True:  # skip the rest of the line, a piece at a time
                    piece = source.readline(READ_CHUNK)
                    if not piece or piece.endswith(b"\n"):
                        break
            yield None
            continue
        yield line.rstrip(b"\r\n")


class _Stop(Exception):
    """A stop signal came while the engine waited for a line."""


_STOPPED = _Stop()
"""What :meth:`_StopSignals.next_line` returns for a stop or the end of the input (made once: a
call in its ``except`` would be a point where Python runs a pending signal's handler)."""


class _StopSignals:
    """SIGTERM and Ctrl-C as a stop: no line is read after one. A signal that comes while a
    line is awaited interrupts the read (Python resumes an interrupted read after a handler
    that returns); one that comes at any other moment only marks the stop, so it never lands
    inside the engine's own bookkeeping."""

    def __init__(self) -> None:
        self.stopped = False
        self._reading = False

    def stop(self) -> None:
        """Stop as a signal does, from any thread: no line is read after the one awaited."""
        self.stopped = True

    def _handle(self, _signum: int, _frame: object) -> None:
        self.stopped = True
        if self._reading:
            self._reading = False  # one interruption a read: never a second in its except
            raise _Stop

    @contextmanager
    def installed(self, enabled: bool) -> Iterator[None]:
        """The handlers in force (only when ``enabled`` and on the main thread, where Python
        runs them), the previous ones restored after."""
        if not enabled or threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {n: signal.signal(n, self._handle) for n in (signal.SIGTERM, signal.SIGINT)}
        try:
            yield
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    def next_line(self, lines: Iterator[bytes | None]) -> bytes | _Stop | None:
        """The next line, or a :class:`_Stop` at the end of the input or after a stop."""
        try:
            self._reading = True
            if self.stopped:
                return _STOPPED
            return next(lines)
        except (StopIteration, _Stop):
            return _STOPPED
        finally:
            self._reading = False


class _Requests:
    """The requests of one engine: each line taken in turn, answered on the pool, stoppable."""

    def __init__(self, out: IO[str], caps: Caps, allow_paths: bool) -> None:
        self.write = _Writer(out)
        self.caps, self.allow_paths = caps, allow_paths
        self.running: dict[str, threading.Event] = {}
        self.lock = threading.Lock()
        self.slots = threading.BoundedSemaphore(MAX_PENDING)

    def take(
        self, line: bytes | None, pool: ThreadPoolExecutor, stopped: Callable[[], bool]
    ) -> None:
        """One line: an error, a terminate, or a request started on ``pool`` (``stopped``: has a
        stop come, which ends a wait for a free slot). The request's seconds run from here, its
        reading: the waits for a slot and for a thread are spent from its budget."""
        arrived = time.monotonic()
        if line is None:
            self.write(error_answer(None, f"a line longer than {MAX_LINE_BYTES} bytes", None,
                                    "too_large"))  # fmt: skip
            return
        if not line.strip():
            return
        try:
            raw = parse_request(line)
        except HintError as exc:
            self.write(error_answer(ident_of(line), str(exc), exc.field, exc.code))
            return
        if "action" in raw:  # the only action is terminate: any other is named, not hinted
            self.terminate(raw)
            return
        ident = raw.get("id")
        if not isinstance(ident, str) or not ident:
            self.write(error_answer(None, "a request needs an 'id' string", "id"))
            return
        with self.lock:
            busy = ident in self.running
        if busy:
            self.write(error_answer(ident, f"a request with id {ident!r} is in flight", "id",
                                    "duplicate_id"))  # fmt: skip
            return
        slotted = self.slot(stopped)
        cancel = threading.Event()
        with self.lock:
            self.running[ident] = cancel
        pool.submit(self.run, raw, ident, cancel, slotted, arrived)

    def slot(self, stopped: Callable[[], bool]) -> bool:
        """A slot for one more request: waits while :data:`MAX_PENDING` are in flight, but not
        past a stop (whose handler only marks it: the wait would outlast the running searches'
        whole budgets); False then, and the request goes without one, stopped with the rest."""
        while not self.slots.acquire(timeout=SLOT_POLL):
            if stopped():
                return False
        return True

    def run(
        self,
        raw: dict[str, Any],
        ident: str,
        cancel: threading.Event,
        slotted: bool,
        arrived: float | None = None,
    ) -> None:
        paths = self.allow_paths
        try:
            reply = answer(raw, caps=self.caps, allow_paths=paths, report=self.write,
                           cancel=cancel, admitted=arrived)  # fmt: skip
        except Exception as exc:  # a bug must not stop the engine: answer it and keep serving
            reply = error_answer(ident, f"internal error: {type(exc).__name__}: {exc}", None,
                                 "internal")  # fmt: skip
        finally:
            with self.lock:  # the id is free before its answer goes out: a client may reuse it
                self.running.pop(ident, None)
            if slotted:
                self.slots.release()
        self.write(reply)

    def terminate(self, raw: dict[str, Any]) -> None:
        try:
            request = TerminateRequest.model_validate(raw)
        except ValidationError as exc:
            self.write(error_from_validation(exc, raw).model_dump(by_alias=True))
            return
        with self.lock:
            event = self.running.get(request.terminate_id)
        # the acknowledgement goes out first, so it always precedes the stopped request's answer
        self.write({"id": request.id, "action": "terminate", "terminateId": request.terminate_id,
                    "found": event is not None, "notes": ignored_note(request)})  # fmt: skip
        if event is not None:
            event.set()

    def drain(self, stopped: Callable[[], bool]) -> None:
        """Wait for the requests in flight to answer, or for a stop."""
        while not stopped():
            with self.lock:
                if not self.running:
                    return
            time.sleep(SLOT_POLL)

    def stop_all(self) -> None:
        """Every request in flight or queued answers now with what it has."""
        with self.lock:
            stopping = list(self.running.values())
        for event in stopping:
            event.set()


def serve_lines(
    source: IO[Any],
    out: IO[str],
    *,
    workers: int = 2,
    caps: Caps | None = None,
    allow_paths: bool = True,
    stop_on_signals: bool = False,
    prepare: Callable[[], object] | None = None,
) -> int:
    """Answer every request line of ``source`` (bytes, or text) on ``out``; returns the exit
    status (0). ``stop_on_signals``: SIGTERM and Ctrl-C stop the engine (the module's
    docstring); the command line's engine sets it. ``prepare()`` runs first, under the same
    stop: a signal during it (the command line's warm-up of every game, seconds under load)
    means no line is read, and the exit is 0 as after any stop, not death by the signal."""
    requests = _Requests(out, caps or Caps(), allow_paths)
    signals = _StopSignals()
    requests.write.on_failure = signals.stop  # no one reads the answers: stop, as a signal does
    lines = read_lines(_binary(source))
    with (
        ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="hint") as pool,
        signals.installed(stop_on_signals),  # restored once stopped: a second signal forces
    ):
        if prepare is not None:
            prepare()
        try:
            while not isinstance(line := signals.next_line(lines), _Stop) and not signals.stopped:
                requests.take(line, pool, lambda: signals.stopped)
            # at the end of the input the work in flight finishes, unless a stop comes meanwhile
            requests.drain(lambda: signals.stopped)
        except BaseException:  # e.g. the output closed: no one will read the searches' answers
            requests.stop_all()
            raise
        if signals.stopped:
            requests.stop_all()
    requests.write.check()
    return 0
