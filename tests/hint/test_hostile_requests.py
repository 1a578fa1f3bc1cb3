"""Hostile requests, sent the way a client sends them: real HTTP to a real ``forest serve``, and
real lines to a real ``forest hint --stdio``. Whatever the bytes, the answer is an error object
with a code (HTTP: a 4xx), never a 500, a traceback or a dropped connection, and the service
keeps serving.

The cases the issue met: a lone surrogate in ``id`` or in an ``options`` key (F2), in a Trial
state's ``log`` (F3), a ``state`` nested 500 deep (F4); then the class: every field of a
request replaced by each hostile value (surrogates, NaN, infinities, huge numbers, deep
nesting), and seeded random edits of whole requests, on both transports.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import httpx
import pytest

import solver
from solver.fuzzing import mutate_json

from .conftest import Engine, Server

DOG = {"game": "dog", "options": {"forest": "dog/another-dog"}}
BASE = {"id": "q1", **DOG, "actions": [10], "limit": {"iterations": 50}, "exact": False,
        "top_k": 2, "seed": 1}  # fmt: skip

# JSON texts (not Python values: NaN, Infinity and lone surrogates are what a client's bytes say)
HOSTILE = {
    "lone high surrogate": '"\\ud800"',
    "lone low surrogate": '"\\udfff"',
    "surrogate in a key": '{"\\ud800": 1}',
    "NaN": "NaN",
    "Infinity": "Infinity",
    "-Infinity": "-Infinity",
    "1e999": "1e999",
    "a 5000-digit integer": "9" * 5000,
    "2**64": str(2**64),
    "-1": "-1",
    "nested 500 deep": "[" * 500 + "]" * 500,
    "an object nested 200 deep": '{"a":' * 200 + "1" + "}" * 200,
}


def _body(base: dict[str, Any], path: tuple[Any, ...], text: str) -> bytes:
    """``base`` as JSON with the value at ``path`` replaced by the JSON text ``text``."""
    marker = "\x00HOSTILE\x00"
    value = copy.deepcopy(base)
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = marker
    return json.dumps(value).replace(json.dumps(marker), text).encode()


FIELDS = [("id",), ("game",), ("engine",), ("options", "forest"), ("options", "players"),
          ("state",), ("actions",), ("actions", 0), ("limit", "iterations"),
          ("limit", "seconds"), ("limit", "memoryMb"), ("top_k",), ("exact",), ("player",),
          ("seed",), ("version",), ("reportDuringSearchEvery",)]  # fmt: skip
CASES = [(path, name) for path in FIELDS for name in HOSTILE]


def _post(server: Server, body: bytes, path: str = "/v1/hint") -> httpx.Response:
    return httpx.post(f"{server.url}{path}", content=body,
                      headers={"content-type": "application/json"}, timeout=60)  # fmt: skip


def _check_error(reply: dict[str, Any]) -> None:
    assert set(reply) >= {"id", "error", "field", "code"}, reply
    assert reply["code"] not in ("internal", "timeout"), reply
    assert "Traceback" not in reply["error"]
    json.dumps(reply, ensure_ascii=False).encode("utf-8")  # every string is Unicode text


def test_f2_a_lone_surrogate_in_the_id_or_an_options_key_is_a_400(server: Server) -> None:
    for body in (
        b'{"id": "\\ud800", "game": "dog", "options": {"forest": "dog/another-dog"}}',
        b'{"id": "q", "game": "dog", "options": {"\\ud800": 1, "forest": "dog/another-dog"}}',
    ):
        response = _post(server, body)
        assert response.status_code == 400, response.text
        reply = response.json()
        _check_error(reply)
        assert reply["code"] == "invalid_request" and "surrogate" in reply["error"]
    assert reply["field"] == "options.\\ud800" and reply["id"] == "q"
    # the connection and the service are fine: the next request is answered
    assert _post(server, json.dumps(BASE).encode()).status_code == 200


def _trial_state_with(log_entry_json: str) -> str:
    game = solver.load_game("trial", players=2)
    state = json.loads(game.new_initial_state().to_json())
    state["state"]["history"] = ["\x00LOG\x00"]
    return json.dumps(state).replace(json.dumps("\x00LOG\x00"), log_entry_json)


def test_f3_a_trial_state_log_with_a_lone_surrogate_is_bad_state(server: Server) -> None:
    state_text = _trial_state_with('"\\ud800 camp"')
    as_object = ('{"id": "t", "game": "trial", "state": ' + state_text + "}").encode()
    as_string = json.dumps({"id": "t", "game": "trial", "state": "STATE"}).replace(
        '"STATE"', json.dumps(state_text)
    )
    for body in (as_object, as_string.encode()):
        response = _post(server, body)
        assert response.status_code == 400, response.text
        reply = response.json()
        assert (reply["id"], reply["code"]) == ("t", "bad_state") and "surrogate" in reply["error"]
    engine = Engine()
    try:
        engine.send(as_object.decode())
        engine.send(as_string)
        for _ in range(2):
            reply = engine.read()
            assert (reply["id"], reply["code"]) == ("t", "bad_state"), reply
    finally:
        assert engine.close()[0] == 0


def test_f4_a_state_nested_500_deep_is_bad_state_on_both_transports(server: Server) -> None:
    deep = "[" * 500 + "]" * 500
    body = ('{"id": "d", "game": "dog", "options": {"forest": "dog/another-dog"}, "state": '
            + '{"a": ' + deep + "}}").encode()  # fmt: skip
    response = _post(server, body)
    assert response.status_code == 400 and response.json()["code"] == "bad_state"
    engine = Engine()
    try:
        engine.send(body.decode())
        assert engine.read()["code"] == "bad_state"
    finally:
        assert engine.close()[0] == 0


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_constant_inside_a_state_given_as_text_is_bad_state_naming_its_field(constant) -> None:
    """Found by attack: a state sent as text with a NaN inside answered ``invalid_request`` on
    the field ``budget`` (the state's own key, as if it were the request's), where 1e999 at the
    same place answered ``bad_state`` on ``state.budget``."""
    from solver.hint.engine import answer

    game = solver.load_game("dog", forest="dog/another-dog")
    text = game.new_initial_state().to_json().replace('"budget":0', f'"budget":{constant}')
    assert constant in text
    reply = answer({"id": "n", "game": "dog", "options": {"forest": "dog/another-dog"},
                    "state": text})  # fmt: skip
    assert (reply["code"], reply["field"]) == ("bad_state", "state.budget"), reply
    reply = answer({"id": "n", "game": "dog", "options": {"forest": "dog/another-dog"},
                    "state": constant})  # fmt: skip
    assert (reply["code"], reply["field"]) == ("bad_state", "state"), reply


@pytest.mark.parametrize(("path", "name"), CASES, ids=[f"{'.'.join(map(str, p))}={n}"
                                                        for p, n in CASES])  # fmt: skip
def test_every_field_and_every_hostile_value_over_http(server: Server, path: tuple,
                                                       name: str) -> None:  # fmt: skip
    body = _body(BASE, path, HOSTILE[name])
    response = _post(server, body)
    assert response.status_code < 500, (response.status_code, response.text)
    reply = response.json()
    if response.status_code == 200:  # a value the field accepts (a huge seed is capped, ...)
        assert "moveInfos" in reply
        return
    assert 400 <= response.status_code < 500
    _check_error(reply)


def test_every_field_and_every_hostile_value_over_stdio() -> None:
    engine = Engine("--max-seconds", "5")
    try:
        for path, name in CASES:
            engine.send(_body({**BASE, "id": "s"}, path, HOSTILE[name]).decode())
            reply = engine.read()
            if "error" in reply:
                _check_error(reply)
            else:
                assert "moveInfos" in reply, reply
    finally:
        assert engine.close()[0] == 0


ODD = ["\ud800", "\udfff x", float("nan"), float("inf"), -float("inf"), 10**400, 2**64,
       -(2**63), "", None, True, [], {}, [[[[[[]]]]]], "x" * 5000]  # fmt: skip


def _fuzzed(seed: int) -> bytes:
    rng = random.Random(seed)
    request = copy.deepcopy(BASE)
    for _ in range(rng.randint(1, 3)):
        request = mutate_json(rng, request, odd=ODD, grow_strings=True)
    # Python writes NaN/Infinity and lone surrogates as a client's bytes would
    return json.dumps(request, allow_nan=True).encode()


def test_seeded_random_requests_over_both_transports(server: Server) -> None:
    bodies = [_fuzzed(seed) for seed in range(150)]
    for body in bodies:
        response = _post(server, body)
        assert response.status_code < 500, (body, response.text)
        if response.status_code != 200:
            _check_error(response.json())
    engine = Engine("--max-seconds", "5")
    try:
        for body in bodies:
            engine.send(body.decode())
            reply = engine.read()
            if "error" in reply:
                _check_error(reply)
    finally:
        assert engine.close()[0] == 0
    assert _post(server, json.dumps(BASE).encode()).status_code == 200


@pytest.mark.parametrize("endpoint", ["/v1/position", "/v1/review", "/v1/analyse", "/v1/roll"])
def test_the_other_endpoints_refuse_hostile_bodies_with_a_400(server: Server,
                                                              endpoint: str) -> None:  # fmt: skip
    for text in ('{"id": "\\ud800", "game": "dog"}', '{"game": "dog", "seed": NaN}',
                 '{"game": "dog", "options": ' + "[" * 300 + "]" * 300 + "}",
                 '{"game": "\\udfff"}'):  # fmt: skip
        response = _post(server, text.encode(), endpoint)
        assert response.status_code == 400, (endpoint, text[:40], response.text)
        _check_error(response.json())


@pytest.mark.parametrize("path", [("limit", "iterations"), ("seed",), ("actions", 0)])
def test_a_huge_integer_is_refused_naming_its_field_not_quoted(server: Server, path: tuple) -> None:
    """More than 4300 digits: the field and 'a number too large', not Python's advice about
    sys.set_int_max_str_digits, and never the digits themselves. The answer keeps the request's
    id (it was null: the id was read with a parser that refused the long number)."""
    reply = _post(server, _body(BASE, path, "9" * 5000)).json()
    _check_error(reply)
    assert reply["id"] == "q1", reply
    field = ".".join(map(str, path))
    assert reply["field"] == field and f"{field}: a number too large" in reply["error"], reply
    assert "set_int_max_str_digits" not in reply["error"] and "9999999999" not in reply["error"]


def test_an_illegal_action_of_4300_digits_is_not_echoed_whole(server: Server) -> None:
    reply = _post(server, _body(BASE, ("actions", 0), "9" * 4300)).json()
    assert (reply["code"], reply["field"]) == ("illegal_action", "actions.0"), reply
    assert len(reply["error"]) < 200, reply["error"]


@pytest.mark.parametrize("path", ["/", "/health", "/v1/games", "/v1/schema"])
def test_head_is_answered_wherever_get_is(server: Server, path: str) -> None:
    """Found by attack: ``HEAD /health`` (a monitor's probe) and ``HEAD /`` were 405 where GET
    answers (HTTP requires HEAD wherever GET is; /openapi.json and /static took it already)."""
    head = httpx.head(f"{server.url}{path}", timeout=30)
    get = httpx.get(f"{server.url}{path}", timeout=30)
    assert head.status_code == get.status_code == 200, (head.status_code, head.text)
    assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"]
    assert httpx.head(f"{server.url}/v1/hint", timeout=30).status_code == 405


def test_an_unknown_path_or_method_gets_the_error_object_with_a_code(server: Server) -> None:
    """404 and 405 carry a code like every other error (found by attack: they answered
    Starlette's bare ``{"detail": ...}``); 405 still says which method the path takes."""
    missing = httpx.post(f"{server.url}/v1/nope", json={}, timeout=30)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    wrong = httpx.get(f"{server.url}/v1/hint", timeout=30)
    assert wrong.status_code == 405 and wrong.json()["code"] == "method_not_allowed"
    assert wrong.headers["allow"] == "POST"
    assert set(wrong.json()) == {"id", "error", "field", "code", "version"}


def test_a_lower_interpreter_limit_on_digits_is_kept_by_name() -> None:
    """Under ``PYTHONINTMAXSTRDIGITS=640`` a 1000-digit action was 'not JSON: Exceeds the limit
    (640 digits) ... use sys.set_int_max_str_digits()': Python's advice, not the field."""
    import sys

    from solver.hint.errors import HintError
    from solver.hint.ingress import parse_request

    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        with pytest.raises(HintError) as refused:
            parse_request('{"id": "q", "game": "dog", "actions": [' + "9" * 1000 + "]}")
    finally:
        sys.set_int_max_str_digits(before)
    assert refused.value.field == "actions.0" and "a number too large" in str(refused.value)
    assert "set_int_max_str_digits" not in str(refused.value)
