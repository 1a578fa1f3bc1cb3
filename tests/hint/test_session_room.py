"""Found by review: the server kept at most 256 table sessions and dropped the least recently
used past them, so 256 starts from one client dropped every other user's game in play. A
session in use is never dropped for a new one now: only one unused for the store's idle age
makes room; while every session is in use a new one is refused (``too_many_sessions``, 503, with
the seconds until the least recently used reaches that age in ``Retry-After``). The store's
clock is the test's own (no sleeping); the expected seconds are worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from solver.hint.engine import Caps
from solver.hint.errors import HintError
from solver.hint.routes import Service, table_router
from solver.hint.session import Session, Sessions, SessionsFull


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _session(text_bytes: int = 10) -> Session:
    return Session("dog", {"forest": "x" * text_bytes}, [0], "random", None, 0)


def _gone(store: Sessions, ident: str) -> bool:
    try:
        store.get(ident)
    except HintError as exc:
        return exc.code == "unknown_session"
    return False


def test_a_session_in_use_is_never_dropped_for_a_new_one() -> None:
    clock = Clock()
    store = Sessions(capacity=2, idle_seconds=60, clock=clock)
    first = store.add(_session())  # used at 1000
    clock.now = 1010
    second = store.add(_session())  # used at 1010
    clock.now = 1020
    with pytest.raises(SessionsFull) as full:
        store.add(_session())
    assert (full.value.code, full.value.retry_after) == ("too_many_sessions", 40)  # 1000+60-1020
    clock.now = 1030
    store.get(first)  # in use again: the second is now the least recently used (1010)
    clock.now = 1065
    with pytest.raises(SessionsFull) as full:
        store.check_room(_session())
    assert full.value.retry_after == 5  # 1010 + 60 - 1065
    assert len(store) == 2 and store.refused == 2
    clock.now = 1070  # the second has been idle 60 s: it makes room, the first stays
    third = store.add(_session())
    assert _gone(store, second) and store.get(first) and store.get(third)
    clock.now = 1070.5  # a fraction of a second is rounded up, never to 0
    with pytest.raises(SessionsFull) as full:
        store.add(_session())
    assert full.value.retry_after == 60  # the first, used at 1070: ceil(59.5)


def test_the_bytes_make_room_only_from_idle_sessions_too() -> None:
    clock = Clock()
    store = Sessions(capacity=10, max_bytes=100, idle_seconds=60, clock=clock)
    big = store.add(_session(60))  # 73 bytes as JSON: {"forest":"x...x"}
    clock.now = 1030
    with pytest.raises(SessionsFull) as full:
        store.add(_session(20))  # 33 more: 106 > 100
    assert full.value.retry_after == 30
    small = store.add(_session(10))  # 23 more: 96 fits
    clock.now = 1060  # the big one idle 60 s: dropped for room; the small one, 30 s, stays
    store.add(_session(20))
    assert _gone(store, big) and store.get(small)
    alone = Sessions(max_bytes=100, clock=clock)
    assert alone.get(alone.add(_session(500)))  # alone, kept whatever its bytes (as before)


def test_a_start_refused_for_room_is_a_503_with_retry_after() -> None:
    """Over HTTP: the second start on a store of one session in use is refused before its step
    runs (no worker is asked), with a code and the seconds to wait."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    steps: list[Any] = []

    class _Stepper(Service):
        async def call(self, job: Any, raw: Any, *args: Any, **how: Any) -> Any:
            steps.append(job)
            view = {"actions": [], "viewSeconds": 0.0, "view": {"terminal": False,
                    "enginePending": False, "notes": []}}  # fmt: skip
            return view, {}

    clock = Clock()
    service = _Stepper(Caps(), workers=1, queue=1)
    service.sessions = Sessions(capacity=1, idle_seconds=600, clock=clock)
    app = FastAPI()
    app.include_router(table_router(service))
    client = TestClient(app)
    start = {"game": "dog", "options": {"forest": "dog/another-dog"}}
    first = client.post("/v1/table/start", json=start)
    assert first.status_code == 200, first.text
    clock.now += 100
    refused = client.post("/v1/table/start", json=start)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "500", refused.text
    assert refused.json()["code"] == "too_many_sessions" and len(steps) == 1
    assert (
        client.post("/v1/table/view", json={"session": first.json()["session"]}).status_code == 200
    )
    clock.now += 599  # the view used it at +100: 599 s idle, still in use
    assert client.post("/v1/table/start", json=start).headers["Retry-After"] == "1"
    clock.now += 1
    assert client.post("/v1/table/start", json=start).status_code == 200


def test_a_session_whose_request_is_running_is_never_dropped() -> None:
    """Found by attack: idleness was counted from a request's arrival, so a step, take back,
    hint or line running longer than the idle age (``--max-seconds`` allows a day) left its
    session droppable mid-request: a new start took its place and the player's next request was
    ``unknown_session``. A session is in use while a request's job runs on it, and used until
    that job ends."""
    clock = Clock()
    store = Sessions(capacity=1, idle_seconds=60, clock=clock)
    playing = store.add(_session())  # used at 1000
    with store.using(playing):
        clock.now = 5000  # the job has run 4000 s
        with pytest.raises(SessionsFull) as full:
            store.add(_session())
        assert full.value.retry_after == 60  # at least the idle age after the job ends
    clock.now = 5059  # the job ended at 5000: idle 59 s
    with pytest.raises(SessionsFull):
        store.check_room(_session())
    clock.now = 5060
    newcomer = store.add(_session())
    assert _gone(store, playing) and store.get(newcomer)


@pytest.mark.parametrize("path", ["/v1/table/view", "/v1/table/hint", "/v1/table/line"])
def test_the_table_s_requests_hold_their_session_in_use(path: str) -> None:
    """Over HTTP: while a view's, hint's or line's job runs (here: the clock moves an hour on
    inside it, and a start comes meanwhile), the session it names is not dropped for another."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    clock = Clock()
    meanwhile: list[Any] = []

    class _Stepper(Service):
        async def call(self, job: Any, raw: Any, *args: Any, **how: Any) -> Any:
            if meanwhile:  # the first session's request: another start arrives an hour later
                clock.now += 3600
                try:
                    self.sessions.add(_session())
                    meanwhile.append("dropped")
                except SessionsFull:
                    meanwhile.append("refused")
            view = {"actions": [], "viewSeconds": 0.0, "view": {"terminal": False,
                    "enginePending": False, "notes": []}, "moves": [], "notes": []}  # fmt: skip
            return view, {}

    service = _Stepper(Caps(), workers=1, queue=1)
    service.sessions = Sessions(capacity=1, idle_seconds=600, clock=clock)
    app = FastAPI()
    app.include_router(table_router(service))
    client = TestClient(app)
    first = client.post("/v1/table/start", json={"game": "dog", "options": {"forest": "x"}})
    assert first.status_code == 200, first.text
    ident = first.json()["session"]
    meanwhile.append("asked")
    answer = client.post(path, json={"session": ident, "pv": [], "limit": {"iterations": 1}})
    assert answer.status_code == 200, answer.text
    assert meanwhile == ["asked", "refused"]
    assert client.post("/v1/table/view", json={"session": ident}).status_code == 200


def test_a_session_is_most_recently_used_when_its_job_ends() -> None:
    """The end of a job marks its session used then, and last in the order the room is made
    in: an idle session after it in that order still makes room (the least recently used
    first, never a refusal while one idle long enough is kept)."""
    clock = Clock()
    store = Sessions(capacity=2, idle_seconds=60, clock=clock)
    first = store.add(_session())  # used at 1000
    clock.now = 1010
    second = store.add(_session())  # used at 1010
    with store.using(first):
        clock.now = 1100  # the job on the first ends at 1100
    clock.now = 1075 + 60  # the second idle 125 s, the first 35 s
    third = store.add(_session())
    assert _gone(store, second) and store.get(first) and store.get(third)
