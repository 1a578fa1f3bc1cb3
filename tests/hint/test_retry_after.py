"""A full queue's 503 says when to retry from what is inside (``Service.retry_seconds``): the
seconds the admitted requests have left of their budgets, or the seconds jobs take lately when
fewer, shared over the workers, at least 1 s. It said ``Retry-After: 1`` whatever was queued."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from solver.hint.engine import Caps
from solver.hint.routes import GRACE_SECONDS, SafeJSONResponse, Service


class _HeldPool:
    """A pool whose jobs run until :attr:`done` is set (none finishes early)."""

    busy = 0
    alive = 1

    def __init__(self) -> None:
        self.done = asyncio.Event()

    async def run(self, job: Any, *args: Any, **_: Any) -> Any:
        await self.done.wait()
        return {"ok": True}


def _refusal(workers: int, budgets: list[float | None], timeout: float = 60.0) -> dict[str, str]:
    """The headers of the request refused once requests of ``budgets`` fill the service."""

    async def scenario() -> dict[str, str]:
        service = Service(Caps(), workers=workers, queue=len(budgets) - workers)
        pool = _HeldPool()
        service.pool = pool  # type: ignore[assignment]
        inside = [asyncio.ensure_future(service.call(print, {}, timeout=timeout, budget=b))
                  for b in budgets]  # fmt: skip
        await asyncio.sleep(0.01)  # every one admitted
        reply, headers = await service.call(print, {"id": "late"}, timeout=timeout, budget=1.0)
        assert reply["code"] == "overloaded"
        pool.done.set()
        await asyncio.gather(*inside)
        assert not service.inside  # each left the count as it left the service
        return headers

    return asyncio.run(scenario())


def test_retry_after_counts_the_budgets_queued_and_running() -> None:
    # one worker: 3 s running, 4 s and 5 s queued: the queue drains in 12 s at most
    assert int(_refusal(1, [3.0, 4.0, 5.0])["Retry-After"]) in (11, 12)
    # two workers share them: 6 s
    assert int(_refusal(2, [3.0, 4.0, 5.0])["Retry-After"]) in (5, 6)


def test_retry_after_is_at_least_one_second() -> None:
    assert _refusal(1, [0.0, 0.0])["Retry-After"] == "1"


def test_a_job_without_a_budget_counts_its_timeout_less_the_grace() -> None:
    headers = _refusal(1, [None], timeout=GRACE_SECONDS + 7)
    assert int(headers["Retry-After"]) in (6, 7)


class _Clock:
    """``time.monotonic`` for the service: it moves only when a job runs."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class _TimedPool(_HeldPool):
    """A pool whose jobs take ``seconds`` of the fake clock once a worker takes them; held ones
    wait for :attr:`done` first, unstarted."""

    def __init__(self, clock: _Clock, seconds: float) -> None:
        super().__init__()
        self.clock, self.seconds = clock, seconds

    async def run(self, job: Any, *args: Any, started: Any = None, **_: Any) -> Any:
        if args[1:2] == ({"held": True},):  # (the job, its request, ...)
            await self.done.wait()
            return {"ok": True}
        started()
        self.clock.now += self.seconds
        return {"ok": True}


def test_retry_after_counts_the_seconds_jobs_take_lately_when_fewer(monkeypatch) -> None:
    """A hint bounded by its iterations ends long before its seconds: with jobs taking 2 s of
    late, three 10 s budgets inside on one worker say 6 s, not 30; jobs taking 0.01 s say 1."""
    import solver.hint.routes as routes

    assert asyncio.run(_scenario(monkeypatch, routes, 2.0)) == "6"
    assert asyncio.run(_scenario(monkeypatch, routes, 0.01)) == "1"


async def _scenario(monkeypatch: Any, routes: Any, seconds: float, whole: bool = False) -> str:
    """The Retry-After refused once three jobs taking ``seconds`` ran, one after another, and
    three of 10 s budgets (``whole``: spent whole) fill a worker and its queue of 2."""
    clock = _Clock()
    monkeypatch.setattr(routes, "time", clock)
    service = Service(Caps(), workers=1, queue=2)
    pool = _TimedPool(clock, seconds)
    service.pool = pool  # type: ignore[assignment]
    for _ in range(3):  # jobs run one after another: the typical job's seconds
        await service.call(print, {}, timeout=60, budget=10.0)
    assert service.typical == {"print": pytest.approx(seconds)}
    return await _held_refusal(service, pool, print, whole)


async def _held_refusal(service: Service, pool: _HeldPool, job: Any, whole: bool = False) -> str:
    """The Retry-After refused once three held ``job`` requests of 10 s budgets (``whole``:
    spent whole) fill a worker and its queue of 2."""
    held = [asyncio.ensure_future(service.call(job, {"held": True}, timeout=60,
                                               budget=10.0, whole=whole))
            for _ in range(3)]  # fmt: skip
    await asyncio.sleep(0.01)
    reply, headers = await service.call(job, {}, timeout=60, budget=10.0)
    assert reply["code"] == "overloaded"
    pool.done.set()
    await asyncio.gather(*held)
    return headers["Retry-After"]


def test_a_search_bounded_by_its_seconds_alone_counts_them_whatever_others_took(
    monkeypatch,
) -> None:
    """Three hints of seconds 10 and no iterations inside one worker search 30 s whatever the
    jobs before them took: after quick iteration-bounded hints (0.01 s each) the typical cap
    made them say Retry-After 1 (a26f4cb's own case, 1 s for 6 s of hints, back again)."""
    import solver.hint.routes as routes

    assert asyncio.run(_scenario(monkeypatch, routes, 0.01, whole=True)) in ("29", "30")


def quick_job(*_: Any) -> None:
    """A job kind whose jobs take 0.01 s (:class:`_KindPool`)."""


def slow_job(*_: Any) -> None:
    """A job kind whose jobs take 2 s (:class:`_KindPool`)."""


class _KindPool(_TimedPool):
    """A pool whose jobs take the fake clock's seconds of their kind: quick_job 0.01 s,
    slow_job 2 s."""

    async def run(self, job: Any, *args: Any, started: Any = None, **kw: Any) -> Any:
        self.seconds = {"quick_job": 0.01, "slow_job": 2.0}[args[0].__name__]
        return await super().run(job, *args, started=started, **kw)


def test_retry_after_estimates_each_kind_of_job_from_its_own_kind(monkeypatch) -> None:
    """Quick jobs (0.01 s) and slow ones (2 s) take turns; then three slow jobs of 10 s budgets
    fill one worker and its queue: 6 s (three of 2 s), as if the quick ones had never run. One
    average over both kinds said 4 (the quick jobs shrank the slow ones' estimate); three quick
    jobs inside say 1 whatever the slow ones took."""
    import solver.hint.routes as routes

    async def scenario(held_job: Any) -> str:
        clock = _Clock()
        monkeypatch.setattr(routes, "time", clock)
        service = Service(Caps(), workers=1, queue=2)
        pool = _KindPool(clock, 0.0)
        service.pool = pool  # type: ignore[assignment]
        for _ in range(3):
            for job in (slow_job, quick_job):
                await service.call(job, {}, timeout=60, budget=10.0)
        assert service.typical == {"quick_job": pytest.approx(0.01), "slow_job": 2.0}
        return await _held_refusal(service, pool, held_job)

    assert asyncio.run(scenario(slow_job)) == "6"
    assert asyncio.run(scenario(quick_job)) == "1"


def test_a_job_admitted_earlier_counts_what_its_budget_has_left(monkeypatch) -> None:
    """A take back's step spends its seconds from the take back's admission (``admitted``):
    admitted 4 s before it entered, with 10 s, it has 6 left, and a request refused meanwhile
    is told 6 (it was told 10: the budget counted from the step's own entry)."""
    import solver.hint.routes as routes

    async def scenario() -> str:
        clock = _Clock()
        monkeypatch.setattr(routes, "time", clock)
        service = Service(Caps(), workers=1, queue=0)
        pool = _TimedPool(clock, 0.0)
        service.pool = pool  # type: ignore[assignment]
        held = asyncio.ensure_future(service.call(slow_job, {"held": True}, timeout=60,
                                                  budget=10.0, admitted=clock.now - 4))  # fmt: skip
        await asyncio.sleep(0.01)
        reply, headers = await service.call(slow_job, {}, timeout=60, budget=10.0)
        assert reply["code"] == "overloaded"
        pool.done.set()
        await held
        return headers["Retry-After"]

    assert asyncio.run(scenario()) == "6"


@pytest.mark.parametrize(
    ("limit", "whole"),
    [({"seconds": 3}, True), ({"seconds": 3, "iterations": 50}, False), ({}, False)],
)
def test_the_hint_route_says_which_hints_spend_their_seconds(limit: dict, whole: bool) -> None:
    """A hint of seconds alone searches all of them (no iterations end it sooner); one with
    iterations, or the default's, ends when they are done."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from solver.hint.routes import api_router

    seen: list[dict[str, Any]] = []

    class _Recorder(Service):
        async def run(self, job: Any, raw: Any, *args: object, **how: Any) -> Any:
            seen.append(how)
            return SafeJSONResponse({})

    app = FastAPI()
    app.include_router(api_router(_Recorder(Caps(), workers=1, queue=1)))
    body = {"id": "w", "game": "dog", "forest": "dog/another-dog", "limit": limit}
    assert TestClient(app).post("/v1/hint", json=body).status_code == 200
    assert seen[0]["whole"] is whole
