"""The HTTP service's workers: processes that each run one job at a time, and can be recycled.

A ``concurrent.futures`` process pool cannot stop one job: after a timeout its worker kept
searching for minutes while ``/health`` said idle. Here every worker is a process of its own
with a pipe; :meth:`WorkerPool.run` sends a job to an idle worker and waits, without a thread,
for the answer. A job past its timeout has its process killed at once and a fresh one started
in its place, so the CPU it held is free again and the pool keeps its size. ``busy`` counts the
workers running a job (what ``/health`` reports), ``recycled`` the workers killed so far.

Jobs are top-level functions (picklable, as for any process pool); the worker processes are
started with ``spawn`` and import the engine once (``warm``).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from typing import Any

__all__ = ["JobTimeout", "JobUnrun", "WorkerDied", "WorkerPool"]

START_TIMEOUT = 120.0
"""Seconds a new worker may take to import the engine and say it is ready."""


_UNRUN = "no worker was free within {:g} s of the admission: the job was not run"


class JobTimeout(Exception):
    """A job ran past its timeout: its worker was killed and replaced."""


class JobUnrun(JobTimeout):
    """A job's timeout ran out while it waited for a worker: it was not run (no worker lost)."""


class WorkerDied(Exception):
    """A worker process ended while running a job (a crash: its job has no answer)."""


def _serve(conn: Connection, warm: Callable[[], Any] | None) -> None:
    """A worker's life: warm up, say so, then run jobs until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when workers stop
    if warm is not None:
        warm()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        except Exception as exc:  # a job this process cannot unpickle: answered, not fatal
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
        if message is None:
            return
        job, args = message
        try:
            reply = ("ok", job(*args))
        except BaseException as exc:  # a bug in a job: its answer, never the worker's end
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


class _Worker:
    def __init__(self, context: SpawnContext, warm: Callable[[], object] | None) -> None:
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(child, warm), daemon=True)
        self.process.start()
        child.close()

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        with contextlib.suppress(OSError):
            self.conn.close()

    def join(self, timeout: float) -> None:
        self.process.join(timeout)


class WorkerPool:
    """``size`` worker processes; see the module docstring."""

    def __init__(self, size: int, warm: Callable[[], Any] | None = None) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = size
        self._warm = warm
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._all: set[_Worker] = set()
        self.busy = 0
        self.recycled = 0
        self.crashed = 0
        self._closing = False
        self._reaping: set[asyncio.Future[None]] = set()

    async def start(self) -> None:
        """Start every worker and wait until each is warm."""
        await asyncio.gather(*(self._add() for _ in range(self.size)))

    async def _add(self) -> None:
        worker = _Worker(self._context, self._warm)
        self._all.add(worker)
        try:
            await asyncio.wait_for(self._receive(worker), START_TIMEOUT)
        except (TimeoutError, EOFError, OSError):
            self._drop(worker)
            raise RuntimeError("a hint worker did not start") from None
        if self._closing:
            self._drop(worker)
            return
        self._idle.put_nowait(worker)

    def _drop(self, worker: _Worker) -> None:
        worker.kill()
        self._all.discard(worker)

    async def _receive(self, worker: _Worker) -> Any:
        """The next message from ``worker``, awaited on the event loop (no thread)."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = worker.conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        try:
            await ready
        finally:
            loop.remove_reader(fd)
        return worker.conn.recv()

    async def run(
        self,
        job: Callable[..., Any],
        *args: object,
        timeout: float,
        started: Callable[[], None] | None = None,
        since: float | None = None,
    ) -> Any:
        """``job(*args)`` on an idle worker (waiting for one), its result; :class:`JobTimeout`
        past ``timeout`` seconds (the worker is recycled), :class:`WorkerDied` if the worker
        crashed, ``RuntimeError`` for an exception the job raised. ``started`` is called once a
        worker has taken the job (a caller may drop a job still waiting). ``since``: when the
        ``timeout`` began (``time.monotonic()``: the request's admission, so the wait for a
        worker is spent from it; ``None``: when a worker takes the job); a job whose wait took
        the whole ``timeout`` is not run (:class:`JobTimeout`, its worker kept)."""
        worker, left = await self._take(timeout, since)
        self.busy += 1
        if started is not None:
            started()
        try:
            try:
                worker.conn.send((job, args))
                kind, value = await asyncio.wait_for(self._receive(worker), left)
            except TimeoutError:
                self.recycled += 1
                self._recycle(worker)
                raise JobTimeout(f"no answer within {timeout:g} s") from None
            except (EOFError, OSError, BrokenPipeError):
                self.crashed += 1
                self._recycle(worker)
                raise WorkerDied("the worker ended while answering") from None
            except asyncio.CancelledError:  # the client went away: the worker cannot be trusted
                self._recycle(worker)
                raise
        finally:
            self.busy -= 1
        self._idle.put_nowait(worker)
        if kind == "error":
            raise RuntimeError(value)
        return value

    async def _take(self, timeout: float, since: float | None) -> tuple[_Worker, float]:
        """An idle worker and the seconds left of ``timeout`` counted from ``since`` (``None``:
        from now); :class:`JobUnrun` when they run out before a worker is free."""
        if since is None:
            return await self._idle.get(), timeout
        try:
            left = timeout - (time.monotonic() - since)
            worker = await asyncio.wait_for(self._idle.get(), max(left, 0.0))
        except TimeoutError:
            raise JobUnrun(_UNRUN.format(timeout)) from None
        left = timeout - (time.monotonic() - since)
        if left <= 0:
            self._idle.put_nowait(worker)
            raise JobUnrun(_UNRUN.format(timeout))
        return worker, left

    def _recycle(self, worker: _Worker) -> None:
        """Kill ``worker`` and start another in its place (in the background)."""
        self._drop(worker)
        loop = asyncio.get_running_loop()
        reaped = loop.run_in_executor(None, worker.join, 10.0)  # no zombie left behind
        if not self._closing:
            task = loop.create_task(self._replace())
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
        self._reaping.add(reaped)
        reaped.add_done_callback(self._reaping.discard)

    async def _replace(self) -> None:
        loop = asyncio.get_running_loop()
        for attempt in range(3):
            try:
                await self._add()
                return
            except RuntimeError:
                await asyncio.sleep(0.5 * (attempt + 1))
        _ = loop  # the pool runs one worker short; /health shows it

    @property
    def alive(self) -> int:
        """Workers started (idle, busy or warming up)."""
        return len(self._all)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop every worker: the idle ones at once, the busy ones after ``timeout`` seconds."""
        self._closing = True
        for worker in list(self._all):
            with contextlib.suppress(OSError, ValueError, BrokenPipeError):
                worker.conn.send(None)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        for worker in list(self._all):
            left = max(0.0, deadline - loop.time())
            await loop.run_in_executor(None, worker.join, left)
            worker.kill()
        self._all.clear()
