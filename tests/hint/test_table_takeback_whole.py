"""A take back is all or nothing: where the step after the cut gets no view (a full queue's 503, a
timeout, a client gone), the session keeps every move. It kept the cut, so a client retrying
the 503 after its ``Retry-After`` took back a second move."""

from __future__ import annotations

import asyncio
from typing import Any

from solver.hint.engine import Caps, error_answer
from solver.hint.routes import Service, TableRoutes
from solver.hint.schema import TableSessionRequest
from solver.hint.session import Session, advance_job, takeback_job, takeback_point

START = Session("dog", {"forest": "dog/another-dog"}, [0], "random", None, 1)


class _Client:
    """The request's client, never gone."""

    async def is_disconnected(self) -> bool:
        return False


def _played(moves: int) -> list[int]:
    """The actions of a session whose human seat made ``moves`` moves (the first legal each)."""
    reply = advance_job(START.as_job(), None)
    for _ in range(moves):
        job = {**START.as_job(), "actions": reply["actions"]}
        reply = advance_job(job, reply["view"]["moves"][0]["action"])
    return list(reply["actions"])


def _take_back(actions: list[int], step_refused: bool) -> tuple[int, list[int]]:
    """The take back's status and the session's actions after it, with the step after the cut
    refused as a full queue refuses it (or run for real)."""
    service = Service(Caps(), workers=1, queue=1)
    routes = TableRoutes(service)
    session = Session(**{**START.__dict__, "actions": list(actions)})
    ident = service.sessions.add(session)

    async def call(job: Any, raw: Any, *args: Any, **_: Any) -> tuple[dict[str, Any], dict]:
        if job is takeback_job:
            return takeback_job(raw), {}
        if step_refused:
            return error_answer(None, "the queue is full", None, "overloaded"), {"Retry-After": "3"}
        return job(raw, *args), {}

    service.call = call  # type: ignore[method-assign]
    request = TableSessionRequest(session=ident)
    answer = asyncio.run(routes.takeback(request, _Client()))  # type: ignore[arg-type]
    return answer.status_code, session.actions


def test_a_refused_step_leaves_the_moves_and_a_retry_takes_back_one() -> None:
    actions = _played(3)
    status, kept = _take_back(actions, step_refused=True)
    assert status == 503 and kept == actions  # it kept the cut: actions[:keep]
    status, after = _take_back(kept, step_refused=False)  # the client's retry
    keep = takeback_point({**START.as_job(), "actions": actions})
    assert status == 200 and after == actions[:keep]  # one move back, not two


def test_a_take_back_that_steps_cuts_the_moves() -> None:
    actions = _played(2)
    keep = takeback_point({**START.as_job(), "actions": actions})
    status, after = _take_back(actions, step_refused=False)
    assert status == 200 and after == actions[:keep]
