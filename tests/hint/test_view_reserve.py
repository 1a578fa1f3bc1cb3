"""A table step keeps from its engines' searches what its session's last view took to draw.

The reserve was fixed (a quarter of the seconds, at most 0.25 s): a view that draws more slowly
than that (a loaded machine, a game whose picture is costly) ran the step past its seconds. Now
each step times its view (``viewSeconds``), the session keeps it, and the next step's searches
stop :data:`~solver.hint.session.VIEW_MARGIN` times that before the deadline (never more than
the step's seconds). No assertion reads the wall clock: the view is slowed on a fake clock, and
a reserve of the whole seconds stands for a step with no time left to search.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from solver.hint import session as sessions
from solver.hint.session import VIEW_MARGIN, Session, advance_job, view_reserve

from .test_table_step_clock import STEP, _decisions

SLOW = 50.0
"""Seconds a slowed view takes on the fake clock."""


@pytest.fixture
def slow_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Views that take :data:`SLOW` seconds of a fake clock, which stands still otherwise."""
    now = [1000.0]
    drawn = sessions.seat_view

    def slow(*args: Any, **how: Any) -> dict[str, Any]:
        now[0] += SLOW
        return drawn(*args, **how)

    monkeypatch.setattr(sessions, "_clock", lambda: now[0])
    monkeypatch.setattr(sessions, "seat_view", slow)


def test_a_step_times_its_view(slow_view: None) -> None:
    reply = advance_job({**STEP, "seconds": 600.0}, None)
    assert reply["viewSeconds"] == SLOW


def test_the_reserve_follows_the_last_view() -> None:
    assert view_reserve(10.0, None) == view_reserve(10.0) == 0.25  # no view yet: the share
    assert view_reserve(10.0, 0.01) == 0.25  # a quick view: the share still
    assert view_reserve(10.0, 2.0) == pytest.approx(VIEW_MARGIN * 2.0)
    assert view_reserve(1.0, 2.0) == 1.0  # never more than the step's seconds


def test_a_slow_last_view_leaves_the_engines_one_decision() -> None:
    raw = {**STEP, "seconds": 60.0}
    quick = advance_job({**raw, "viewSeconds": 0.01}, None)
    assert not quick["view"]["enginePending"] and _decisions(raw, quick["actions"]) == 3
    slow = advance_job({**raw, "viewSeconds": 60.0}, None)  # its view would take it all
    assert slow["view"]["enginePending"] and _decisions(raw, slow["actions"]) == 1


def test_the_session_keeps_its_last_view_for_the_next_step(slow_view: None) -> None:
    from solver.hint.engine import Caps
    from solver.hint.routes import Service, TableRoutes

    class Pool:
        busy, alive = 0, 1

        async def run(self, job: Any, *args: Any, timeout: float, **_: Any) -> Any:
            return job(*args)

    service = Service(Caps(), workers=1, queue=0)
    service.pool = Pool()  # type: ignore[assignment]
    session = Session("trial", {"players": 4}, [3], "ismcts", 300, 3, seconds=600.0)
    response = asyncio.run(TableRoutes(service).step("s", session, starting=True))
    assert response.status_code == 200 and session.view_seconds == SLOW
    assert session.as_job()["viewSeconds"] == SLOW


def test_the_labels_after_the_last_search_count_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The work after the searches is the last move's labels as well as the view: labels that
    take :data:`SLOW` seconds each (the fake clock) make the step's measure at least that."""
    now = [1000.0]
    labelled = sessions._played

    def slow(*args: Any) -> dict[str, Any]:
        now[0] += SLOW
        return labelled(*args)

    monkeypatch.setattr(sessions, "_clock", lambda: now[0])
    monkeypatch.setattr(sessions, "_played", slow)
    reply = advance_job({**STEP, "seconds": 600.0}, None)
    assert reply["viewSeconds"] >= SLOW and reply["view"]["played"]
