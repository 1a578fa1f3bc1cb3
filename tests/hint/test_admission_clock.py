"""Every route's job is timed from the request's admission, not from when a worker takes it.

A hint's and a table step's seconds ran from the admission already (3c0460f, bfbe3b1); the
analysis's own 30 s ran from the start of its job, and every route's job timeout (position,
roll, the table's line: their only bound) from the moment a worker took it, so a request that
waited for a worker could answer long after its timeout. Now the service hands the pool the
admission (``WorkerPool.run(since=...)``), so the timeout of every route counts from there, and
the analysis's searches stop :data:`jobs.ANALYSIS_SECONDS` after it. No assertion reads the wall
clock: an admission far in the past stands for a long queue.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import pytest

from solver.hint import jobs
from solver.hint.engine import Caps
from solver.hint.pool import JobTimeout, JobUnrun
from solver.hint.routes import Service

from .conftest import one_worker

LONG_AGO = 100.0
"""Seconds the queue took, in these tests: far more than the timeouts asked here."""


def test_a_job_whose_wait_took_its_timeout_is_not_run_and_keeps_its_worker() -> None:
    async def scenario() -> None:
        async with one_worker() as pool:
            first = await pool.run(os.getpid, timeout=60)
            with pytest.raises(JobTimeout, match="not run"):
                await pool.run(os.getpid, timeout=60, since=time.monotonic() - LONG_AGO)
            assert pool.recycled == 0 and pool.busy == 0
            # the wait took all but half a second of its timeout: a longer job is stopped
            with pytest.raises(JobTimeout):
                await pool.run(time.sleep, 120.0, timeout=LONG_AGO + 0.5,
                               since=time.monotonic() - LONG_AGO)  # fmt: skip
            assert pool.recycled == 1
            second = await pool.run(os.getpid, timeout=120, since=time.monotonic() - LONG_AGO)
            assert second != first  # a wait shorter than the timeout runs

    asyncio.run(scenario())


class _Pool:
    """A pool that runs the job at once and keeps the admission it was told to time it from."""

    busy = 0
    alive = 1

    def __init__(self) -> None:
        self.since: list[float | None] = []

    async def run(self, job: Any, *args: Any, timeout: float, since: Any = None, **_: Any) -> Any:
        self.since.append(since)
        return job(*args)


ROUTE_JOBS = [
    (jobs.position_job, {"game": "dog", "options": {"forest": "dog/another-dog"}}),
    (jobs.roll_job, {"game": "dog", "seed": 1, "width": 6, "height": 6}),
]


@pytest.mark.parametrize("job, raw", ROUTE_JOBS, ids=["position", "roll"])
def test_the_service_times_every_job_from_its_admission(job: Any, raw: dict) -> None:
    service = Service(Caps(), workers=1, queue=0)
    pool = _Pool()
    service.pool = pool  # type: ignore[assignment]
    before = time.monotonic()
    reply, _ = asyncio.run(service.call(job, raw, timeout=5))
    assert "error" not in reply
    (since,) = pool.since
    assert since is not None and before <= since <= time.monotonic()


def test_an_analysis_spends_its_seconds_from_its_admission() -> None:
    from solver.games.guardians.analysis import roll_grove
    from solver.games.guardians.grove_format import format_grove

    raw = {"game": "guardians", "options": {"position": format_grove(roll_grove(1, 6, 5))}}
    assert jobs.analyse_job(raw)["row"]["class"] == "trap"  # admitted now: it has its 30 s
    row = jobs.analyse_job(raw, time.monotonic() - LONG_AGO)["row"]
    assert row["class"] == "unsolved" and row["exact"] is False, row


class _RaisingPool(_Pool):
    """A pool whose every job ends as ``error`` does (a timeout of one kind or the other)."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    async def run(self, job: Any, *args: Any, timeout: float, since: Any = None, **_: Any) -> Any:
        raise self.error


@pytest.mark.parametrize(("error", "said"), [
    (JobUnrun("no worker"), "no worker was free in that time: it was not run"),
    (JobTimeout("ran over"), "its work was stopped"),
])  # fmt: skip
def test_a_timeout_says_whether_the_request_ran(error: Exception, said: str) -> None:
    # Defect: a request refused unrun (its wait took its whole timeout) was told "its work was
    # stopped", as a job cut while running is
    service = Service(Caps(), workers=1, queue=0)
    service.pool = _RaisingPool(error)  # type: ignore[assignment]
    reply, _ = asyncio.run(service.call(jobs.position_job, ROUTE_JOBS[0][1], timeout=5))
    assert reply["code"] == "timeout" and reply["error"].endswith(said), reply
