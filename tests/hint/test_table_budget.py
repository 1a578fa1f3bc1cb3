"""A table session's step keeps to its seconds, as a hint does (found by attack: with
``iterations`` near the schema's 100,000 a Trial step ran past its job's timeout, 504, and every
retry repeated it). The engines' searches stop at the step's deadline and play what they have
found (noted); once it has passed no further engine decision starts and the answer says the
engines are still to move (``enginePending``); the next view goes on. A start that fails takes
no session slot; a hint or a line asked while a step runs is ``409 session_busy``.

No test here reads the clock: the budgets are set so small against the work asked (100,000
simulations a decision) that the cut is certain, and what is checked is how the step ends.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

import solver
from solver.hint.session import advance_job

from .conftest import Server

httpx = pytest.importorskip("httpx")

HEAVY = {"game": "trial", "options": {"players": 4}, "humans": [3], "agent": "ismcts",
         "iterations": 100_000, "seed": 3}  # fmt: skip
"""Three engine seats before the human's first turn, each decision asking for 100,000
simulations: far more than any small budget allows."""


def _engine_decisions(raw: dict[str, Any], before: list[int], after: list[int]) -> int:
    """The engine seats' decisions among the actions ``after`` adds to ``before``."""
    game = solver.load_game(raw["game"], **raw["options"])
    state = game.new_initial_state()
    count = 0
    for ply, action in enumerate(after):
        if ply >= len(before) and not state.is_chance_node():
            count += state.current_player() not in raw["humans"]
        state.apply_action(action)
    return count


def test_a_step_stops_at_its_seconds_and_the_next_view_goes_on() -> None:
    raw = {**HEAVY, "actions": [], "seconds": 1e-3}
    reply = advance_job(raw, None)
    views = 1
    while reply["view"]["enginePending"]:
        view = reply["view"]
        assert view["moves"] == [] and view["currentPlayer"] not in raw["humans"]
        assert view["stepSeconds"] == 1e-3
        assert any("ran out" in note for note in view["notes"])  # the cut, in words
        before = reply["actions"]
        reply = advance_job({**raw, "actions": before}, None)
        assert _engine_decisions(raw, before, reply["actions"]) >= 1  # always progress
        views += 1
        assert views < 200
    assert views > 1  # the budget did cut the engines' turn into steps
    view = reply["view"]
    assert view["currentPlayer"] == 3 and view["moves"] and not view["enginePending"]
    # every step made exactly the one decision its budget allowed: as many steps as decisions
    assert _engine_decisions(raw, [], reply["actions"]) == views


def test_an_unbounded_step_plays_the_whole_turn() -> None:
    raw = {**HEAVY, "iterations": 10, "actions": []}  # no seconds: in-process, unbounded
    view = advance_job(raw, None)["view"]
    assert not view["enginePending"] and view["notes"] == [] and view["currentPlayer"] == 3


@pytest.mark.timeout(120)  # before the fix: 100,000 continuations a decision, hours
def test_guardians_lookahead_keeps_to_the_step_s_seconds() -> None:
    """guardians' lookahead searches no sampling budget: it weighs continuations, and stops
    them (after one round each) once the step's deadline has passed."""
    raw = {"game": "guardians", "options": {"players": 2}, "humans": [1], "agent": "lookahead",
           "iterations": 100_000, "seed": 1, "actions": [], "seconds": 1e-3}  # fmt: skip
    reply = advance_job(raw, None)
    for _ in range(60):
        if not reply["view"]["enginePending"]:
            break
        reply = advance_job({**raw, "actions": reply["actions"]}, None)
    assert reply["view"]["currentPlayer"] == 1 and reply["view"]["moves"]


def _post(server: Server, path: str, body: dict[str, Any]) -> Any:
    return httpx.post(f"{server.url}{path}", json=body, timeout=120)


def test_over_http_a_heavy_session_answers_in_steps_never_a_timeout(server: Server) -> None:
    answer = _post(server, "/v1/table/start", {**HEAVY, "seconds": 0.05})
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["stepSeconds"] == 0.05 and view["enginePending"]
    for _ in range(200):
        if not view["enginePending"]:
            break
        answer = _post(server, "/v1/table/view", {"session": view["session"]})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    assert view["currentPlayer"] == 3 and view["moves"]
    capped = _post(server, "/v1/table/start", {**HEAVY, "iterations": 1, "seconds": 1e6})
    assert capped.json()["stepSeconds"] == 2.0  # the server's --max-seconds (conftest)


def _sessions(server: Server) -> int:
    return int(httpx.get(f"{server.url}/health", timeout=30).json()["sessions"])


def test_a_start_that_fails_takes_no_session_slot(server: Server) -> None:
    kept = _sessions(server)
    for bad in ({"humans": [7]}, {"agent": "level11"}, {"options": {"players": 9}}):
        failed = _post(server, "/v1/table/start", {**HEAVY, **bad})
        assert failed.status_code == 400, failed.text
    assert _sessions(server) == kept
    started = _post(server, "/v1/table/start", {**HEAVY, "iterations": 1})
    assert started.status_code == 200 and _sessions(server) == kept + 1


def test_a_hint_or_a_line_while_a_step_runs_is_session_busy(server: Server) -> None:
    """The hint would be of the position the engines are leaving: 409 ``session_busy``, as a
    move or a view is (it was answered, from the stale position)."""
    started = _post(server, "/v1/table/start", {**HEAVY, "seconds": 2.0}).json()
    ident = started["session"]
    assert started["enginePending"]
    stepping = threading.Thread(target=_post, args=(server, "/v1/table/view", {"session": ident}))
    stepping.start()
    try:
        for _ in range(600):  # until the step is on a worker (its search runs to the deadline)
            if httpx.get(f"{server.url}/health", timeout=30).json()["busy"] >= 1:
                break
            time.sleep(0.01)
        hint = _post(server, "/v1/table/hint", {"session": ident, "limit": {"iterations": 8}})
        line = _post(server, "/v1/table/line", {"session": ident, "pv": []})
    finally:
        stepping.join(timeout=120)
    for refused in (hint, line):
        assert refused.status_code == 409 and refused.json()["code"] == "session_busy", refused.text


def test_no_hint_or_line_while_an_engine_seat_is_to_move(server: Server) -> None:
    """Found by attack: with ``enginePending`` the mover is an engine seat, and ``/v1/table/hint``
    answered from that seat's view (its legal moves: in the Trial, the cards in its hand). A hint
    or a line then is ``409 engine_pending``; once a view has let the engines play, the hint is
    the human seat's again."""
    view = _post(server, "/v1/table/start", {**HEAVY, "seconds": 1e-3}).json()
    assert view["enginePending"] and view["currentPlayer"] not in HEAVY["humans"]
    ident = view["session"]
    hint = _post(server, "/v1/table/hint", {"session": ident, "limit": {"iterations": 8}})
    line = _post(server, "/v1/table/line", {"session": ident, "pv": []})
    for refused in (hint, line):
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "engine_pending"
    for _ in range(200):
        if not view["enginePending"]:
            break
        view = _post(server, "/v1/table/view", {"session": ident}).json()
    assert view["currentPlayer"] == 3 and view["moves"]
    hint = _post(server, "/v1/table/hint", {"session": ident, "limit": {"iterations": 8}})
    assert hint.status_code == 200, hint.text
    assert hint.json()["rootInfo"]["player"] == 3
    assert {m["action"] for m in hint.json()["moveInfos"]} <= {m["action"] for m in view["moves"]}
