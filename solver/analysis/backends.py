"""Where chunks run: this process, local worker processes (joblib/loky), or a Dask cluster.

A backend takes an iterator of chunks (consumed lazily: only a few chunks per worker are in flight,
so a batch of any size is streamed) and yields each chunk's rows as it finishes, in any order.
Local workers and the workers of a ``LocalCluster`` watch the run's process and end with it
(:func:`solver.analysis.worker.watch_parent`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import warnings
from collections.abc import Generator, Iterator, Mapping
from itertools import islice
from typing import TYPE_CHECKING, Any

from solver.analysis.results import require
from solver.analysis.worker import AnalyseFn, Chunk, describe, run_chunk
from solver.errors import SolverError

if TYPE_CHECKING:  # pragma: no cover
    from solver.analysis.sources import Source

__all__ = ["Dask", "Local", "auto_chunk_size", "chunks"]

Rows = list[tuple[int, dict[str, Any]]]


def chunks(items: Iterator[tuple[int, Source]], size: int) -> Iterator[Chunk]:
    """``items`` cut into lists of ``size`` (the last may be shorter), lazily."""
    while True:
        chunk = list(islice(items, size))
        if not chunk:
            return
        yield chunk


def auto_chunk_size(pending: int, workers: int, cap: int) -> int:
    """About four chunks per worker, at most ``cap`` instances each.

    >>> auto_chunk_size(200, 2, 32), auto_chunk_size(10**9, 2, 32), auto_chunk_size(3, 8, 32)
    (25, 32, 1)
    """
    return max(1, min(cap, math.ceil(pending / (4 * max(1, workers)))))


class Local:
    """Worker processes on this machine (joblib/loky), or this process alone for one job."""

    cap = 32  # the most instances in one automatic chunk

    def __init__(self, jobs: int):
        self.workers = jobs

    def run(
        self, fn: AnalyseFn, todo: Iterator[Chunk], types: Mapping[str, str]
    ) -> Generator[Rows, None, None]:
        if self.workers == 1:
            for chunk in todo:
                yield run_chunk(fn, chunk, types)
            return
        joblib = require("joblib", "analysis", "--jobs above 1")
        parent = os.getpid()
        try:
            with joblib.Parallel(
                n_jobs=self.workers, backend="loky", return_as="generator_unordered"
            ) as parallel:
                rows = parallel(
                    joblib.delayed(run_chunk)(fn, chunk, types, parent) for chunk in todo
                )
                try:  # a loop, not yield from, which would close rows before the filter is on
                    for chunk_rows in rows:  # noqa: UP028
                        yield chunk_rows
                except GeneratorExit:  # the run stopped (Ctrl-C, SIGTERM): its one line says so
                    with warnings.catch_warnings():  # not joblib's about the chunks dropped
                        warnings.filterwarnings("ignore", CANCELLED, UserWarning)
                        rows.close()
                    raise
        except Exception as exc:  # a worker died (a crash in compiled code, out of memory...)
            if isinstance(exc, SolverError):
                raise
            raise SolverError(
                f"a worker process failed ({describe(exc)}); the finished instances are "
                "journaled: run again with --resume"
            ) from exc

    def close(self) -> None:
        pass


CANCELLED = r".* tasks which were still being processed by the workers have been cancelled"
"""joblib's warning when a run's unfinished generator is closed (a stopped run)."""


CONNECT_TIMEOUT = "20s"
"""How long a Dask scheduler's address is tried before the run is refused."""


def handshake(scheduler: str) -> None:
    """Refuse ``scheduler`` unless a Dask scheduler answers there: one connection and Dask's
    handshake, closed again, before any ``Client`` exists. A server that is not Dask's (a web
    server, a proxy) answers the handshake with bytes Dask reads as an absurd frame length;
    inside ``Client`` that raised a ``MemoryError`` (a traceback) and left a half-made client
    whose finaliser waited 40 s at exit."""
    from distributed.comm import connect

    async def shake() -> None:
        comm = await connect(scheduler, timeout=CONNECT_TIMEOUT)
        await comm.close()

    try:
        asyncio.run(shake())
    except (OSError, TimeoutError) as exc:
        raise SolverError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from exc
    except Exception as exc:  # anything else: whatever answered is not a Dask scheduler
        raise SolverError(
            f"cannot reach the Dask scheduler at {scheduler}: what answered there does not "
            f"speak Dask's protocol ({describe(exc)})"
        ) from exc


class Dask:
    """A Dask distributed cluster: a scheduler's address, or a LocalCluster of worker processes.

    ``threads``: the instances each task analyses at once, on threads of the worker running it
    (``forest analyse --jobs J`` with ``--dask-local`` or ``--scheduler``; 1: one at a time)."""

    cap = 256  # the most instances in one automatic chunk

    def __init__(self, scheduler: str | None, workers: int | None, threads: int = 1):
        self.threads = threads
        distributed = require("distributed", "dask", "a Dask run (--scheduler, --dask-local)")
        self.distributed = distributed
        self.cluster: Any = None
        self.client: Any = None
        self.parent = None if scheduler is not None else os.getpid()
        if scheduler is not None:
            handshake(scheduler)
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

    def run(
        self, fn: AnalyseFn, todo: Iterator[Chunk], types: Mapping[str, str]
    ) -> Generator[Rows, None, None]:
        client = self.client

        def submit(chunk: Chunk) -> Any:
            return client.submit(run_chunk, fn, chunk, types, self.parent, self.threads, pure=False)

        # About two chunks in flight per worker thread, so no worker waits; the count is read
        # again as chunks finish, so workers that join later get work too.
        in_flight = [submit(c) for c in islice(todo, 2 * self.workers)]
        pending = self.distributed.as_completed(in_flight, loop=client.loop)
        running = len(in_flight)
        for future in pending:
            running -= 1
            try:
                rows = future.result()
            except Exception as exc:
                raise SolverError(
                    f"a Dask task failed ({describe(exc)}); the finished instances are "
                    "journaled: run again with --resume"
                ) from exc
            future.release()
            window = 2 * max(1, sum(client.nthreads().values()))
            for following in islice(todo, max(1, window - running)):
                pending.add(submit(following))
                running += 1
            yield rows

    def close(self) -> None:
        with contextlib.suppress(Exception):
            if self.client is not None:
                self.client.close()
        with contextlib.suppress(Exception):
            if self.cluster is not None:
                self.cluster.close()
