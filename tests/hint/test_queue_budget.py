"""A request's seconds run from its admission: the wait for a worker is spent from them.

``limit.seconds: 1`` sent to a busy ``forest serve`` answered 2.9 s after admission (its
search had its whole second after waiting behind two others); the stdio engine's thread pool
queued the same way. Now :func:`solver.hint.engine.answer` takes the admission time, and a
wait that took the whole budget is answered as a tiny budget is, with a note. No assertion
reads the wall clock: an admission already far in the past stands for the queue.
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
import time
from typing import Any

import pytest

from solver.hint import jobs
from solver.hint.engine import Caps, RequestClock, answer
from solver.hint.stdio import _Requests

LONG_AGO = 100.0
"""Seconds the queue took, in these tests: far more than any budget asked here."""

REQUESTS = [
    {"id": "d", "game": "dog", "options": {"forest": "dog/big-12x12"}, "actions": [10],
     "exact": False},  # MCTS at a decision root
    {"id": "x", "game": "dog", "options": {"forest": "dog/another-dog"}, "actions": [10]},
    {"id": "t", "game": "trial"},  # ISMCTS, a chance root
]  # fmt: skip


def _same_search(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a["moveInfos"], a["rootInfo"]) == (b["moveInfos"], b["rootInfo"])


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r["id"])
def test_a_queue_that_took_the_budget_gets_the_tiny_budget_answer(request_: dict) -> None:
    tiny = answer({**request_, "limit": {"seconds": 1e-300}})
    late = answer({**request_, "limit": {"seconds": 1.0}}, admitted=time.monotonic() - LONG_AGO)
    assert "error" not in late
    assert _same_search(late, tiny)  # the same least work, seeded alike
    assert late["queued"] >= LONG_AGO
    assert any("waited" in note and "all of its 1 s" in note for note in late["notes"])


def test_a_request_without_an_admission_has_waited_for_nothing() -> None:
    reply = answer({**REQUESTS[0], "limit": {"iterations": 50}})
    assert reply["queued"] == 0.0 and reply["rootInfo"]["visits"] == 50
    assert not any("waited" in note for note in reply["notes"])


def test_a_clock_reading_later_than_now_is_read_as_now() -> None:
    clock = RequestClock.since(time.monotonic() + LONG_AGO)
    assert clock.queued == 0.0 and clock.deadline(2.0) == clock.started + 2.0


def test_the_deadline_runs_from_the_admission() -> None:
    clock = RequestClock(admitted=10.0, started=12.5)
    assert clock.queued == 2.5 and clock.deadline(1.0) == 11.0


class _QueuedPool:
    """A pool whose queue took :data:`LONG_AGO` seconds: it runs the job at once, with the
    admission it was given moved that far back; it keeps the arguments it was given."""

    busy = 0
    alive = 1

    def __init__(self) -> None:
        self.given: tuple[object, ...] = ()

    async def run(self, job: Any, *args: Any, timeout: float, **_: Any) -> Any:
        self.given = args
        *rest, last = args
        if isinstance(last, float):  # a timed job's admission
            return job(*rest, last - LONG_AGO)
        return job(*args)


def test_the_service_hands_a_hint_its_admission() -> None:
    from solver.hint.routes import Service

    service = Service(Caps(), workers=1, queue=0)
    service.pool = _QueuedPool()  # type: ignore[assignment]
    before = time.monotonic()
    raw = {**REQUESTS[0], "limit": {"seconds": 1.0}}
    reply, _ = asyncio.run(service.call(jobs.hint_job, raw, Caps(), timeout=5, timed=True))
    admitted = service.pool.given[-1]  # type: ignore[attr-defined]
    assert isinstance(admitted, float) and before <= admitted <= time.monotonic()
    tiny = answer({**REQUESTS[0], "limit": {"seconds": 1e-300}})
    assert _same_search(reply, tiny) and reply["queued"] >= LONG_AGO
    rolled = {"game": "dog", "seed": 1, "width": 6, "height": 6}
    untimed, _ = asyncio.run(service.call(jobs.roll_job, rolled, timeout=5))
    assert service.pool.given == (jobs.roll_job, rolled)  # type: ignore[attr-defined]
    assert "options" in untimed  # an untimed job is given no admission


def test_the_stdio_engine_spends_the_wait_from_the_budget() -> None:
    out = io.StringIO()
    requests = _Requests(out, Caps(), allow_paths=False)
    raw = {**REQUESTS[0], "limit": {"seconds": 1.0}}
    requests.run(raw, "d", threading.Event(), False, time.monotonic() - LONG_AGO)
    reply = json.loads(out.getvalue())
    assert reply["queued"] >= LONG_AGO
    assert _same_search(reply, answer({**REQUESTS[0], "limit": {"seconds": 1e-300}}))
