"""A request naming a key twice is refused on every transport, naming the key and its field.

The HTTP service checks every POST body (``solver.hint.ingress.parse_request``, the one loader
``solver.json_objects.loads``) before FastAPI and pydantic parse it again, so a route never
sees a body whose meaning JSON leaves open: ``{"options": {"players": 2, "players": 4}}`` was
played by 4 (the last value, silently); a table session's ``{"session": A, "session": B}``
acted on B. Stdio reads each line through the same check.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from solver.hint.engine import answer
from solver.hint.errors import HintError
from solver.hint.ingress import ident_of, parse_request

from .conftest import Engine, Server

HINT = (
    '{"id": "q1", "game": "trial", "options": {"players": 2, "players": 4}, '
    '"limit": {"iterations": 10}}'
)
STATE = '{"id": "q2", "game": "trial", "state": {"players": [], "players": []}}'


def _post(server: Server, path: str, body: str) -> httpx.Response:
    return httpx.post(f"{server.url}{path}", content=body.encode(),
                      headers={"content-type": "application/json"}, timeout=60)  # fmt: skip


def _refused(reply: dict[str, Any], field: str, code: str) -> None:
    assert reply["field"] == field and reply["code"] == code, reply
    key = field.rsplit(".", 1)[-1]
    assert reply["error"].startswith(f"{field}: the key '{key}' is given twice"), reply


def test_parse_request_names_the_field_and_the_code() -> None:
    for text, field, code in ((HINT, "options.players", "invalid_request"),
                              (STATE, "state.players", "bad_state")):  # fmt: skip
        with pytest.raises(HintError) as caught:
            parse_request(text.encode())
        _refused({"field": caught.value.field, "code": caught.value.code,
                  "error": str(caught.value)}, field, code)  # fmt: skip
    state_text = {"id": "q", "game": "trial", "state": '{"a": 1, "a": 2}'}  # its own keys too
    reply = answer(parse_request(json.dumps(state_text)))
    assert (reply["field"], reply["code"]) == ("state.a", "bad_state"), reply
    assert ident_of(HINT) == "q1" and ident_of('{"id": "a", "id": "b"}') is None


def test_http_routes_and_table_sessions_refuse_a_repeated_key(server: Server) -> None:
    response = _post(server, "/v1/hint", HINT)
    assert response.status_code == 400, response.text
    assert response.json()["id"] == "q1"
    _refused(response.json(), "options.players", "invalid_request")
    response = _post(server, "/v1/hint", STATE)
    assert response.status_code == 400
    _refused(response.json(), "state.players", "bad_state")
    start = {
        "game": "trial",
        "options": {"players": 2},
        "humans": [0],
        "agent": "random",
        "seed": 3,
    }
    started = httpx.post(f"{server.url}/v1/table/start", json=start, timeout=120)
    assert started.status_code == 200, started.text
    session = started.json()["session"]
    body = f'{{"session": "{session}", "session": "no-such-session", "action": 0}}'
    for path in ("/v1/table/move", "/v1/table/view", "/v1/table/takeback"):
        response = _post(server, path, body)
        assert response.status_code == 400, (path, response.text)
        _refused(response.json(), "session", "invalid_request")
    response = _post(server, "/v1/table/start", json.dumps(start)[:-1] + ', "seed": 4}')
    assert response.status_code == 400
    _refused(response.json(), "seed", "invalid_request")


def test_stdio_refuses_a_repeated_key() -> None:
    engine = Engine()
    try:
        engine.send(HINT)
        _refused(engine.read_until("q1")[-1], "options.players", "invalid_request")
    finally:
        engine.close()


def test_a_long_key_or_option_text_is_quoted_short() -> None:
    """Defect (found by attack): a hint request naming a key of 200,000 characters twice was
    answered a 600 KB error (the key in the message twice and in the field); an option's
    unknown name or refused text of that size, 200 to 400 KB. Their start is quoted now."""
    key = "K" * 200_000
    shown = f"{'K' * 60}... (200000 characters)"
    text = f'{{"id": "q", "{key}": 1, "{key}": 2}}'
    with pytest.raises(HintError) as caught:
        parse_request(text.encode())
    assert caught.value.field == shown
    column = text.rindex(f'"{key}"') + 1
    assert str(caught.value) == (
        f"{shown}: the key '{shown}' is given twice in one object (line 1, column {column})"
    )
    for options, field, said in (
        ({"open_backs": key}, "options.open_backs",
         f'options.open_backs takes a boolean, true or false, not the text "{shown}"'),
        ({key: 1}, f"options.{shown}", f"guardians has no option '{shown}'; expected one of"),
    ):  # fmt: skip
        reply = answer({"id": "q", "game": "guardians", "options": options})
        assert reply["field"] == field and reply["error"].startswith(said), reply["error"][:200]
        assert len(reply["error"]) < 300
