"""``forest serve`` as a real uvicorn process on 127.0.0.1: every endpoint, every error status."""

from __future__ import annotations

import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import solver
from solver.files import bytes_said
from solver.hint.engine import Caps, answer

from .conftest import TIMEOUT, Server

DOG = {"game": "dog", "options": {"forest": "dog/another-dog"}}
EXAMPLE = {"id": "q1", **DOG, "actions": [], "limit": {"iterations": 2000}, "exact": True,
           "top_k": 3}  # fmt: skip


def post(server: Server, path: str, body: object, **kw: object) -> httpx.Response:
    return httpx.post(f"{server.url}{path}", json=body, timeout=60, **kw)


def test_health_games_schema_openapi(server: Server) -> None:
    health = httpx.get(f"{server.url}/health", timeout=10).json()
    assert health["status"] == "ok" and health["capacity"] == 10
    games = httpx.get(f"{server.url}/v1/games", timeout=10).json()
    dog = next(g for g in games if g["name"] == "dog")
    assert "dog/another-dog" in dog["puzzles"] and dog["sourceOption"] == "forest"
    assert {g["name"] for g in games} == set(solver.registered_games())
    schema = httpx.get(f"{server.url}/v1/schema", timeout=10).json()
    assert "HintRequest" in schema["$defs"]
    openapi = httpx.get(f"{server.url}/openapi.json", timeout=10).json()
    for path in ("/v1/hint", "/v1/analyse", "/v1/review", "/v1/games", "/health"):
        assert path in openapi["paths"]
    assert "400" in openapi["paths"]["/v1/hint"]["post"]["responses"]


def test_the_issue_example_over_http(server: Server) -> None:
    response = post(server, "/v1/hint", EXAMPLE)
    assert response.status_code == 200
    assert round(response.json()["rootInfo"]["value"], 6) == 0.962963
    after = post(server, "/v1/hint", {**EXAMPLE, "actions": [10]}).json()
    rows = [(m["label"], round(m["value"], 6)) for m in after["moveInfos"]]
    assert sorted(rows[:2]) == [("N", 0.888889), ("W", 0.888889)] and rows[2] == ("E", 0.333333)


def test_http_answer_equals_the_in_process_engine(server: Server) -> None:
    request = {**EXAMPLE, "exact": False, "actions": [11], "limit": {"iterations": 500}}
    over_http = post(server, "/v1/hint", request).json()
    here = answer(request, caps=Caps(max_seconds=2, max_iterations=20000))
    strip = ("elapsed", "queued")  # the clock's: the wait for a worker, the work
    assert {k: v for k, v in over_http.items() if k not in strip} == {
        k: v for k, v in here.items() if k not in strip
    }


def test_inline_text_but_never_a_path(server: Server) -> None:
    path = solver.puzzles.path("dog/another-dog")
    inline = post(server, "/v1/hint", {**EXAMPLE, "options": {"forest": path.read_text()}})
    assert round(inline.json()["rootInfo"]["value"], 6) == 0.962963
    refused = post(server, "/v1/hint", {**EXAMPLE, "options": {"forest": str(path)}})
    assert refused.status_code == 400 and refused.json()["field"] == "options.forest"


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({**EXAMPLE, "limit": {"iterations": "many"}}, "limit.iterations", "invalid_request"),
        ({**EXAMPLE, "top_k": 0}, "top_k", "invalid_request"),
        ({k: v for k, v in EXAMPLE.items() if k != "game"}, "game", "invalid_request"),
        ({**EXAMPLE, "game": "chess"}, "game", "unknown_game"),
        ({**EXAMPLE, "actions": [2]}, "actions.0", "illegal_action"),
        ({**EXAMPLE, "state": {"pos": []}}, "state", "bad_state"),
        ({**EXAMPLE, "game": "trial", "options": {}, "exact": True}, "exact", "unsupported"),
    ],
)
def test_errors_are_400_with_id_error_field(server: Server, body: dict, field: str, code: str):
    response = post(server, "/v1/hint", body)
    assert response.status_code == 400
    reply = response.json()
    assert (reply["id"], reply["field"], reply["code"]) == ("q1", field, code)
    assert reply["error"]


def test_malformed_json_is_400(server: Server) -> None:
    response = httpx.post(f"{server.url}/v1/hint", content=b"{not json",
                          headers={"content-type": "application/json"}, timeout=30)  # fmt: skip
    assert response.status_code == 400
    assert response.json()["code"] == "malformed" and response.json()["field"] is None


@pytest.mark.parametrize("sent", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_json_body_sent_as_another_type_is_refused_saying_so(server: Server, sent) -> None:
    """A JSON body with a non-JSON Content-Type (or none): 415, code ``content_type``, the type
    named (found by attack: "Input should be a valid dictionary", nothing about the header)."""
    headers = {"content-type": sent} if sent else {}
    response = httpx.post(f"{server.url}/v1/hint", content=json.dumps(EXAMPLE).encode(),
                          headers=headers, timeout=30)  # fmt: skip
    reply = response.json()
    assert response.status_code == 415 and reply["code"] == "content_type", reply
    assert reply["id"] == "q1" and "application/json" in reply["error"]
    assert (sent or "no Content-Type") in reply["error"]


@pytest.mark.parametrize(("sent", "named"), [
    ("application/json; charset=latin-1", "latin-1"),
    ('application/json; Charset="ISO-8859-1"', "ISO-8859-1"),
    ("application/json", None),
    ("application/json; charset=utf-8", None),
])  # fmt: skip
def test_a_body_not_utf8_names_the_charset_it_was_declared_in(server: Server, sent, named):
    """Found by attack (h117): a latin-1 body declared ``charset=latin-1`` was refused as "not
    UTF-8" without a word of the declared charset. The refusal (400 malformed, as before) names
    it, and says the service reads UTF-8 only; a body declared UTF-8, or nothing, is told as
    before."""
    body = json.dumps({**EXAMPLE, "id": "café"}, ensure_ascii=False).encode("latin-1")
    response = httpx.post(f"{server.url}/v1/hint", content=body, headers={"content-type": sent},
                          timeout=30)  # fmt: skip
    reply = response.json()
    assert response.status_code == 400 and reply["code"] == "malformed", reply
    assert reply["error"].startswith("the request is not UTF-8 text (byte ")
    declared = f"the body is declared {named}; this service reads JSON as UTF-8 only"
    assert reply["error"].endswith(declared) if named else "declared" not in reply["error"]


@pytest.mark.parametrize(
    "encodings", [["gzip"], ["GZIP"], ["identity, gzip"], ["gzip", "identity"], ["br"]]
)
def test_a_coded_body_is_refused_never_read_as_plain(server: Server, encodings) -> None:
    """A body sent with a Content-Encoding other than identity: 415, code ``content_encoding``,
    the coding named (it was parsed as if plain: a gzipped request was a ``malformed`` 400
    saying nothing of the header, and the service never decodes a body, so a zip bomb cannot
    expand past the body limit). Each header counts, not the last only."""
    import gzip

    body = gzip.compress(json.dumps(EXAMPLE).encode())
    headers = [("content-type", "application/json")]
    headers += [("content-encoding", value) for value in encodings]
    response = httpx.post(f"{server.url}/v1/hint", content=body, headers=headers, timeout=30)
    reply = response.json()
    assert response.status_code == 415 and reply["code"] == "content_encoding", reply
    assert reply["field"] is None and "Content-Encoding" in reply["error"]
    named = "br" if encodings == ["br"] else "gzip"
    assert named in reply["error"].lower(), reply


@pytest.mark.parametrize("encodings", [[], ["identity"], ["Identity", ""]])
def test_an_uncoded_body_is_read(server: Server, encodings: list[str]) -> None:
    headers = [("content-type", "application/json")]
    headers += [("content-encoding", value) for value in encodings]
    response = httpx.post(f"{server.url}/v1/hint", content=json.dumps(EXAMPLE).encode(),
                          headers=headers, timeout=30)  # fmt: skip
    assert response.status_code == 200, response.text
    assert round(response.json()["rootInfo"]["value"], 6) == 0.962963


@pytest.mark.parametrize("sent", ["application/json; charset=utf-8", "application/vnd.a+json"])
def test_json_types_with_parameters_or_a_suffix_are_json(server: Server, sent: str) -> None:
    response = httpx.post(f"{server.url}/v1/hint", content=json.dumps(EXAMPLE).encode(),
                          headers={"content-type": sent}, timeout=30)  # fmt: skip
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("path", ["/v1/hint", "/v1/review", "/v1/table/hint"])
def test_an_unknown_field_in_limit_is_refused_by_name(server: Server, path: str) -> None:
    """``limit`` takes iterations, seconds and memoryMb; anything else is a 400 naming it (it was
    ignored: ``{"limit": {"iterations": 10, "depht": 3}}`` ran a search nobody asked for).
    Unknown top-level fields stay ignored (docs/hint-engine.md: newer clients may send more)."""
    limit = {"iterations": 10, "depth": 3}
    if path == "/v1/table/hint":
        started = post(server, "/v1/table/start", {"game": "dog", "options": EXAMPLE["options"],
                                                   "agent": "random"}).json()  # fmt: skip
        body = {"session": started["session"], "limit": limit}
    else:
        body = {**EXAMPLE, "limit": limit}
    response = post(server, path, body)
    reply = response.json()
    assert response.status_code == 400 and reply["code"] == "invalid_request", reply
    assert reply["field"] == "limit.depth" and "iterations" in reply["error"]
    ignored = post(server, "/v1/hint", {**EXAMPLE, "limit": {"iterations": 10}, "colour": "red"})
    assert ignored.status_code == 200
    assert [n for n in ignored.json()["notes"] if "unknown fields" in n] == [
        "unknown fields ignored: 'colour' (a newer client's, or misspelt?)"
    ]


def test_a_huge_budget_is_capped(server: Server) -> None:
    reply = post(server, "/v1/hint", {**EXAMPLE, "exact": False, "actions": [10],
                                      "limit": {"iterations": 10**12}}).json()  # fmt: skip
    assert reply["limitApplied"]["iterations"] == 20000 and reply["limitApplied"]["capped"]


def test_a_large_body_is_413(server: Server) -> None:
    body = {**EXAMPLE, "padding": "x" * 70_000}
    response = post(server, "/v1/hint", body)
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    # the limit in bytes and in the words the command line uses for it (the web table shows
    # them: it worded the bytes itself before)
    assert response.headers["x-max-body-bytes"] == "65536"
    assert response.headers["x-max-body-said"] == bytes_said(65536) == "64 KiB"
    chunked = httpx.post(f"{server.url}/v1/hint", content=iter([b"{" + b" " * 40_000] * 3),
                         headers={"content-type": "application/json"}, timeout=30)  # fmt: skip
    assert chunked.status_code == 413 and chunked.headers["x-max-body-said"] == "64 KiB"


def test_analyse(server: Server) -> None:
    refused = post(server, "/v1/analyse", {"game": "trial"})
    assert refused.status_code == 400 and refused.json()["code"] == "unsupported"
    # it said "analysis is not supported for trial", which `forest analyse --game trial` is
    assert "forest analyse --game trial" in refused.json()["error"]
    no_file = post(server, "/v1/analyse", {"game": "dog", "options": {"forest": "/etc/hosts"}})
    assert no_file.status_code == 400 and no_file.json()["field"] == "options.forest"
    response = post(server, "/v1/analyse", {"game": "dog", "options": {"forest": "dog/tiny-2x2"}})
    assert response.status_code in (200, 400), response.text
    if response.status_code == 200:
        assert "class" in response.json()["row"]


def test_review(server: Server) -> None:
    body = {**DOG, "seed": 0, "actions": [10, 1]}
    reply = post(server, "/v1/review", body).json()
    assert reply["exact"] is True
    assert [(d["label"], d["mark"]) for d in reply["decisions"]] == [("E", "blunder")]
    assert round(reply["curve"][0]["value"], 6) == 0.962963
    bad = post(server, "/v1/review", {**DOG, "actions": [10, 2]})
    assert bad.status_code == 400 and "actions.1" in bad.json()["error"]


@pytest.mark.parametrize("seed", ["x", -1, 2**64, 1.5, True, None])
def test_a_review_s_seed_is_checked_as_a_hint_s(server: Server, seed: object) -> None:
    """A record's seed is refused as a hint request's is (400, invalid_request, field seed),
    though the review reads none: both are the same request field, checked alike."""
    for path, body in (("/v1/review", {**DOG, "actions": [10, 1]}), ("/v1/hint", {**EXAMPLE})):
        reply = post(server, path, {**body, "seed": seed})
        assert reply.status_code == 400, (path, reply.text)
        assert (reply.json()["code"], reply.json()["field"]) == ("invalid_request", "seed")


ILLEGAL_RECORD = {"game": "trial", "options": {"players": 2}, "seed": 0, "actions": [5, 5, 5],
                  "totalSeconds": 30}  # fmt: skip


def test_a_review_of_illegal_actions_is_refused_before_any_search(server: Server) -> None:
    """The record is replayed before any position is searched: refused at once (it took the whole
    review budget, 10 s, tying up a worker), with the hint's code and field, the field said once.
    That no search ran is checked in-process (the next test), not on the clock."""
    bad = post(server, "/v1/review", ILLEGAL_RECORD)
    reply = bad.json()
    assert bad.status_code == 400, reply
    assert (reply["code"], reply["field"]) == ("illegal_action", "actions.0"), reply
    assert reply["error"].count("actions.0") == 1, reply


def test_a_review_of_illegal_actions_searches_no_position(monkeypatch) -> None:
    """What the service's review runs (:func:`solver.review.review_record`) refuses the record
    without asking the hint engine for a single position (a search before the replay is what took
    the whole budget)."""
    import solver.hint.engine
    from solver.review import RecordError, review_record

    asked: list[object] = []
    monkeypatch.setattr(solver.hint.engine, "answer", lambda *a, **k: asked.append(a))
    record = {k: v for k, v in ILLEGAL_RECORD.items() if k != "totalSeconds"}
    with pytest.raises(RecordError) as refused:
        review_record(record, total_seconds=ILLEGAL_RECORD["totalSeconds"])
    assert (refused.value.field, refused.value.code) == ("actions.0", "illegal_action")
    assert asked == []


def test_position_and_the_web_table(server: Server) -> None:
    reply = post(server, "/v1/position", {**DOG, "actions": [10], "pv": [3]}).json()
    assert {m["label"] for m in reply["moves"]} == {"N", "E", "W"}
    assert reply["svg"].lstrip().startswith("<?xml") and len(reply["pvPoints"]) == 2
    page = httpx.get(f"{server.url}/", timeout=10)
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert httpx.get(f"{server.url}/static/app.js", timeout=10).status_code == 200


def test_favicon_ico_is_the_page_s_icon(server: Server) -> None:
    """``/favicon.ico``, which browsers and tools ask whatever the page links, was 404: it is the
    icon the page links (``/static/favicon.svg``), the same bytes with the SVG content type, for
    GET and HEAD."""
    linked = httpx.get(f"{server.url}/static/favicon.svg", timeout=10)
    icon = httpx.get(f"{server.url}/favicon.ico", timeout=10)
    assert icon.status_code == 200 and icon.content == linked.content != b""
    assert icon.headers["content-type"] == "image/svg+xml"
    head = httpx.head(f"{server.url}/favicon.ico", timeout=10)
    assert head.status_code == 200 and head.content == b""


@pytest.mark.parametrize("path", ["/static/app.js", "/", "/favicon.ico"])
@pytest.mark.parametrize("asked", ["bytes=5-1", "bytes=999999999-", "pages=0-1", "bytes=0-1,2-3"])
def test_a_range_is_ignored_and_the_file_sent_whole(server: Server, path: str, asked: str) -> None:
    """A ``Range`` header (which the web table never sends) was served by Starlette: a bad one
    was a text 400 ('Range header: start must be less than end'), one past the end an empty
    416, a 4xx without the service's JSON error and code. Now every range is ignored (HTTP lets
    a server): the file, whole, 200."""
    whole = httpx.get(f"{server.url}{path}", timeout=10)
    ranged = httpx.get(f"{server.url}{path}", headers={"Range": asked}, timeout=10)
    assert ranged.status_code == 200, (ranged.status_code, ranged.text[:100])
    assert ranged.content == whole.content != b""


@pytest.mark.parametrize("path", ["/static/app.js", "/", "/favicon.ico"])
def test_a_file_says_it_takes_no_range(server: Server, path: str) -> None:
    """Found by attack: the files said ``Accept-Ranges: bytes`` though every range is ignored
    (above), inviting a resuming client to ask for one. HTTP's word for a server that takes no
    range is ``none``."""
    for reply in (httpx.get(f"{server.url}{path}", timeout=10),
                  httpx.head(f"{server.url}{path}", timeout=10)):  # fmt: skip
        assert reply.status_code == 200
        assert reply.headers.get("accept-ranges", "none") == "none", reply.headers


def test_a_line_not_of_the_position_is_illegal_line(server: Server) -> None:
    """A hint's line asked for after the position moved on (a stale ``pv``) was 400
    ``invalid_request``, the code of a malformed field; it is 400 ``illegal_line``, naming the
    first action of the line that is not legal where it falls, on the stateless table and on a
    table session alike."""
    reply = post(server, "/v1/position", {**DOG, "actions": [10], "pv": [3, 99]})
    assert reply.status_code == 400
    assert (reply.json()["code"], reply.json()["field"]) == ("illegal_line", "pv.1")
    start = post(server, "/v1/table/start", {**DOG, "humans": [0], "seed": 0}).json()
    ident = start["session"]
    legal = [m["action"] for m in start["moves"]]
    stale = next(a for a in range(64) if a not in legal)
    line = post(server, "/v1/table/line", {"session": ident, "pv": [legal[0], stale]})
    assert line.status_code == 400, line.text
    error = line.json()
    assert (error["code"], error["field"]) == ("illegal_line", "pv.1"), error
    assert "not legal there" in error["error"] and "new hint" in error["error"]
    drawn = post(server, "/v1/table/line", {"session": ident, "pv": [legal[0]]})
    assert drawn.status_code == 200, drawn.text


def test_a_line_not_of_a_hidden_information_session_is_illegal_line(server: Server) -> None:
    """Found by attack: on a Trial session (a hidden-information game, where only the seat's
    own decisions of the line are drawn) a stale ``pv`` was still 400 ``invalid_request``."""
    start = post(server, "/v1/table/start", {"game": "trial", "humans": [0], "seed": 0}).json()
    legal = [m["action"] for m in start["moves"]]
    stale = next(a for a in range(1000) if a not in legal)
    line = post(server, "/v1/table/line", {"session": start["session"], "pv": [stale]})
    assert line.status_code == 400, line.text
    error = line.json()
    assert (error["code"], error["field"]) == ("illegal_line", "pv.0"), error
    assert "not legal there" in error["error"] and "new hint" in error["error"]
    drawn = post(server, "/v1/table/line", {"session": start["session"], "pv": legal[:1]})
    assert drawn.status_code == 200, drawn.text


@pytest.mark.parametrize("extra", [{"actions": [10]}, {"state": "{}"}, {"state": {}}])
def test_an_analysis_refuses_a_position_it_would_not_analyse(extra: dict) -> None:
    """Found by attack: POST /v1/analyse took ``actions`` and ``state`` (its model shares the
    hint's position fields) and answered the file's row from its start, as if of the position
    asked for. They are refused by name; the file alone is analysed as before."""
    from solver.hint.jobs import analyse_job, guarded

    body = {"game": "dog", "options": {"forest": "dog/another-dog"}}
    reply = guarded(analyse_job, {**body, **extra})
    (name,) = extra
    assert (reply.get("code"), reply.get("field")) == ("invalid_request", name), reply
    assert guarded(analyse_job, body)["row"]["class"] == "uncertain"


@pytest.mark.parametrize(
    ("game", "extra", "field"),
    [
        ("dog", {"options": {"bogus": 1}}, "options.bogus"),
        ("dog", {"options": {"turns": -1}}, "options.turns"),
        ("dog", {"options": {"players": 3}}, "options.players"),
        ("guardians", {"options": {"level": 99}}, "options.level"),
        ("guardians", {"options": {"tiles": {"x": 1}}}, "options.tiles"),
        ("dog", {"engine": "nope"}, "engine"),
    ],
)
def test_an_analysis_refuses_options_it_would_not_read(game: str, extra: dict, field: str) -> None:
    """Found by attack: POST /v1/analyse answered 200 with the file's row whatever else
    ``options`` held (an unknown ``bogus``, ``turns: -1``, ``players: 3``, guardians'
    ``level: 99`` and a broken ``tiles``) and whatever ``engine`` named: values a client sent
    and believed used went unread. They are refused by name, as a hint refuses them."""
    from solver.hint.jobs import analyse_job, guarded

    source = {
        "dog": ("forest", "dog/another-dog"),
        "guardians": ("position", "guardians/order-matters"),
    }
    name, puzzle = source[game]
    body = {"game": game, "options": {name: puzzle, **extra.get("options", {})}}
    if "engine" in extra:
        body["engine"] = extra["engine"]
    reply = guarded(analyse_job, body)
    assert (reply.get("code"), reply.get("field")) == ("invalid_request", field), reply
    assert field in reply["error"], reply
    clean = guarded(analyse_job, {"game": game, "engine": "reference", "options": {name: puzzle}})
    assert "row" in clean, clean


def test_every_error_code_is_documented_with_its_status() -> None:
    from solver.hint.routes import STATUS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "hint-engine.md").read_text()
    rows = {}
    for line in doc.split("## Errors")[1].split("## Limits")[0].splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 3:
            rows[cells[0].strip("`")] = cells[2]
    for code, status in STATUS.items():
        if code in ("unknown_session", "session_busy", "game_not_over", "game_over",
                    "engine_pending"):  # fmt: skip
            assert f"{status} {code}" in doc, code  # the table endpoints' row names these
        else:
            assert rows.get(code) == str(status), code


def test_roll_a_new_forest(server: Server) -> None:
    rolled = post(server, "/v1/roll", {"game": "dog", "seed": 7, "width": 5, "height": 4})
    assert rolled.status_code == 200
    from solver.games.dog.format import parse_forest

    forest = parse_forest(rolled.json()["options"]["forest"])
    from solver.games.dog.generator import roll_forest

    assert (forest.width, forest.height) == (5, 4)
    assert forest.cells == roll_forest(5, 4, seed=7).cells
    reply = post(server, "/v1/hint", {"id": "r", "game": "dog", **rolled.json(),
                                      "limit": {"iterations": 50}})  # fmt: skip
    assert reply.status_code == 200
    for body, field in (({"game": "dog", "width": 99}, "width"), ({"game": "trial"}, "game")):
        refused = post(server, "/v1/roll", body)
        assert refused.status_code == 400 and refused.json()["field"] == field


def test_a_roll_refuses_turns_its_game_does_not_read() -> None:
    """Found by attack: POST /v1/roll of guardians with turns 1, 1000 or none answered the same
    position (guardians' generator has no turn limit), the value silently unread, where
    `forest analyse --game guardians --turns 5` refuses it; it is refused by name now."""
    from solver.hint.jobs import guarded, roll_job

    body = {"game": "guardians", "width": 4, "height": 4}
    for turns in (1, 1000):
        reply = guarded(roll_job, {**body, "turns": turns})
        assert (reply.get("code"), reply.get("field")) == ("invalid_request", "turns"), reply
        assert "no turn limit" in reply["error"]
    assert "options" in guarded(roll_job, body)
    assert "options" in guarded(roll_job, {"game": "dog", "width": 4, "height": 4, "turns": 5})


def test_cors_is_off_by_default(server: Server) -> None:
    response = httpx.get(f"{server.url}/v1/games", headers={"Origin": "http://example.org"},
                         timeout=10)  # fmt: skip
    assert "access-control-allow-origin" not in response.headers


def test_access_logs_are_json_lines(server: Server) -> None:
    httpx.get(f"{server.url}/health", timeout=10)
    lines = [json.loads(line) for line in server.logs().splitlines() if line.startswith("{")]
    assert any(entry["path"] == "/health" and entry["status"] == 200 for entry in lines)
    assert all({"method", "path", "status", "ms"} <= set(entry) for entry in lines)


def test_requests_the_ingress_refuses_are_logged_too(server: Server) -> None:
    # Defect: a body that was not JSON (400 malformed), not sent as JSON (415) or too large
    # (413) got its answer but no line in the access log, which promises one per request
    headers = {"content-type": "application/json"}
    refused = [
        httpx.post(f"{server.url}/v1/hint", content=b"nope", headers=headers, timeout=10),
        httpx.post(f"{server.url}/v1/hint", content=b"{}", timeout=10),
        httpx.post(f"{server.url}/v1/hint", content=b"a" * (2 << 20), headers=headers, timeout=10),
    ]
    assert [r.status_code for r in refused] == [400, 415, 413]
    lines = []
    for _ in range(50):  # the log is written as the answer goes out: give it a moment
        lines = [json.loads(line) for line in server.logs().splitlines() if line.startswith("{")]
        if {413, 415} <= {entry["status"] for entry in lines}:
            break
        time.sleep(0.1)
    statuses = [entry["status"] for entry in lines if entry["path"] == "/v1/hint"]
    assert {400, 413, 415} <= set(statuses), statuses


def test_a_full_queue_is_503_with_retry_after_and_health_answers(tmp_path) -> None:
    busy = Server(tmp_path, "--workers", "1", "--queue", "1", "--max-seconds", "4")
    try:
        # a time budget only, so no machine answers early
        slow = {**EXAMPLE, "exact": False, "actions": [10], "limit": {"seconds": 3}}
        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            futures = [pool.submit(post, busy, "/v1/hint", {**slow, "id": f"s{n}"})
                       for n in range(6)]  # fmt: skip
            seen = []
            for _ in range(40):  # while saturated, /health answers (it says so: inside 2)
                health = httpx.get(f"{busy.url}/health", timeout=TIMEOUT)  # a hang guard
                assert health.status_code == 200
                seen.append(health.json()["inside"])
                if health.json()["refused"] == 4:
                    break
                time.sleep(0.05)
            assert max(seen) == 2
            statuses = sorted(f.result().status_code for f in futures)
        assert statuses.count(200) == 2 and statuses.count(503) == 4
        refused = next(f.result() for f in futures if f.result().status_code == 503)
        # the two 3 s hints inside, on one worker: at most 6 s (tests/hint/test_retry_after.py)
        assert 1 <= int(refused.headers["retry-after"]) <= 6
        assert refused.json()["code"] == "overloaded"
    finally:
        assert busy.stop() == 0


def test_graceful_shutdown_finishes_the_work_in_flight(tmp_path) -> None:
    running = Server(tmp_path, "--workers", "1", "--max-seconds", "3")
    request = {**EXAMPLE, "exact": False, "actions": [10], "limit": {"seconds": 1.5}}
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        future = pool.submit(post, running, "/v1/hint", request)
        time.sleep(0.5)
        code = running.stop()
        response = future.result()
    assert code == 0
    assert response.status_code == 200 and response.json()["rootInfo"]["visits"] > 0


def test_serve_refuses_a_bad_port() -> None:
    out = subprocess.run([sys.executable, "-m", "solver.cli", "serve", "--port", "70000"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert out.returncode == 2 and "--port" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_serve_refuses_a_port_file_it_cannot_write(tmp_path: Path, where: str) -> None:
    """A folder, or a file in a folder that does not exist: one line and status 2 before
    binding (found by attack: a traceback and status 1 after the server announced itself)."""
    port_file = tmp_path if where == "folder" else tmp_path / "no" / "port.txt"
    out = subprocess.run([sys.executable, "-m", "solver.cli", "serve", "--port", "0",
                          "--port-file", str(port_file)],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1 and str(port_file) in out.stderr
    assert "http://" not in out.stderr  # refused before binding


def test_serve_says_why_a_port_file_fifo_nobody_reads_is_refused(tmp_path: Path) -> None:
    """Found by attack: a named pipe nobody reads, named by --port-file, was refused with 'already
    exists (forest serve writes its port file only where no file is...)', the words for a file
    someone else left. A pipe is written in place where someone reads it and is not probed
    before (a probe would end its reader's input), so it is refused once bound, saying why, in
    one line: no banner announces a server that does not start (found by attack: two lines)."""
    fifo = tmp_path / "port.fifo"
    os.mkfifo(fifo)
    out = subprocess.run([sys.executable, "-m", "solver.cli", "serve", "--port", "0",
                          "--workers", "1", "--port-file", str(fifo)],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    (line,) = out.stderr.splitlines()
    assert str(fifo) in line and "nothing reads this pipe" in line and "already" not in line
    assert fifo.exists()


@pytest.mark.parametrize("kind", ["file", "link"])
def test_serve_refuses_a_port_file_that_exists(tmp_path: Path, kind: str) -> None:
    """An existing file (or a link) named by --port-file is not the server's: one line, status 2,
    before binding, and the file is left as it was (found by attack: it was replaced, then
    deleted at exit)."""
    mine = tmp_path / "mine.txt"
    mine.write_text("someone else's\n")
    port_file = mine if kind == "file" else tmp_path / "link"
    if kind == "link":
        port_file.symlink_to(mine)
    out = subprocess.run([sys.executable, "-m", "solver.cli", "serve", "--port", "0",
                          "--port-file", str(port_file)],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1 and "already exists" in out.stderr
    assert "http://" not in out.stderr  # refused before binding
    assert mine.read_text() == "someone else's\n" and port_file.exists()


@pytest.mark.parametrize("replaced", [False, True])
def test_serve_removes_only_the_port_file_it_wrote(tmp_path: Path, replaced: bool) -> None:
    """At exit the server removes its port file, unless another file has taken its place since
    (a user's, another server's): that one stays, content and all."""
    running = Server(tmp_path, "--workers", "1", "--queue", "1")
    port_file = running.port_file
    assert port_file.read_text().strip().isdigit()
    if replaced:
        other = tmp_path / "other"
        other.write_text("another server's\n")
        other.replace(port_file)
    assert running.stop() == 0
    if replaced:
        assert port_file.read_text() == "another server's\n"
    else:
        assert not port_file.exists()


def test_schemathesis_finds_no_server_error(server: Server) -> None:
    """Property-based requests from /openapi.json (about 20 an operation): never a 5xx."""
    out = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run", f"{server.url}/openapi.json",
         "--checks", "not_a_server_error", "--max-examples", "20", "--seed", "1",
         "--request-timeout", "30", "--workers", "1",
         "--generation-database", ":memory:"],
        capture_output=True, text=True, timeout=170,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


@pytest.mark.parametrize(
    ("game", "option", "text"),
    [
        ("dog", "forest", "name: wide\nturns: 3\ngrid:\n" + " ".join("." * 40) + "\n"),
        ("dog", "forest", "name: x\nturns: 3\nbogus\n"),
        ("guardians", "position", "grid:\nQ:ZZ\n"),
    ],
)
def test_an_inline_file_s_error_names_no_server_path(game: str, option: str, text: str) -> None:
    """Found by attack: POST /v1/analyse of inline text with a parse error answered
    'options.forest: /tmp/tmpXXXX/inline.forest: line 4, ...', the server's scratch file, a path
    the client never gave; the error is the text's own, the same words a hint says of it."""
    from solver.hint.engine import answer
    from solver.hint.jobs import analyse_job, guarded

    reply = guarded(analyse_job, {"game": game, "options": {option: text}})
    hinted = answer({"id": "h", "game": game, "options": {option: text}})
    assert (reply.get("code"), reply.get("field")) == ("bad_game", f"options.{option}"), reply
    assert "/tmp" not in reply["error"] and "inline" not in reply["error"], reply
    assert reply["error"] == hinted["error"], (reply, hinted)


def test_serve_announces_an_ipv6_address_as_a_url(tmp_path: Path) -> None:
    """Found by attack: `forest serve --host ::1` announced http://::1:PORT/, which no browser or
    client reads as a URL (an IPv6 host is bracketed: http://[::1]:PORT/)."""
    import socket

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    argv = [sys.executable, "-m", "solver.cli", "serve", "--host", "::1", "--port", "0",
            "--workers", "1", "--quiet", "--port-file", str(tmp_path / "port")]  # fmt: skip
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("forest serve: http://[::1]:"), line
        url = line.split()[2]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the URL announced is one a client reaches
            try:
                if httpx.get(f"{url}health", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise AssertionError(f"no answer at {url}")
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _sent_on_a_socket(server: Server, path: str, body: object) -> socket.socket:
    """A raw socket that has sent one POST (the caller hangs up by closing it)."""
    data = json.dumps(body).encode()
    client = socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1])))
    head = b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" % path.encode()
    client.sendall(head + b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
    return client


def test_a_table_request_whose_client_hung_up_in_the_queue_is_dropped_unrun(tmp_path) -> None:
    """The table's session endpoints drop a queued request whose client hung up, as /v1/hint
    does (found by attack: a hung-up client's table hint ran its whole budget for nobody, and
    its view or move step held a worker); the session is as it was."""
    one = Server(tmp_path, "--workers", "1", "--queue", "4", "--max-seconds", "4")
    try:
        start = post(one, "/v1/table/start", {**DOG, "humans": [0], "agent": "random"})
        assert start.status_code == 200, start.text
        session, ply = start.json()["session"], start.json()["ply"]
        slow = {**EXAMPLE, "exact": False, "actions": [10], "limit": {"seconds": 2}}
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            first = pool.submit(post, one, "/v1/hint", {**slow, "id": "first"})
            while httpx.get(f"{one.url}/health", timeout=5).json()["busy"] < 1:
                time.sleep(0.02)
            hint = {"session": session, "limit": {"seconds": 2, "iterations": 10**6}}
            clients = [_sent_on_a_socket(one, "/v1/table/hint", hint),
                       _sent_on_a_socket(one, "/v1/table/view", {"session": session})]  # fmt: skip
            while httpx.get(f"{one.url}/health", timeout=5).json()["inside"] < 3:
                time.sleep(0.02)  # both admitted behind the first: then both hang up
            for client in clients:
                client.close()
            assert first.result().status_code == 200
        view = post(one, "/v1/table/view", {"session": session})
        assert view.status_code == 200 and view.json()["ply"] == ply, view.text
        health = httpx.get(f"{one.url}/health", timeout=5).json()
        assert health["abandoned"] == 2 and health["timeouts"] == 0, health
        assert health["inside"] == 0, health
    finally:
        assert one.stop() == 0


def test_a_request_whose_client_hung_up_in_the_queue_is_dropped_unrun(tmp_path) -> None:
    """A request waiting for a worker whose client has hung up is dropped, not run (found by
    attack: a hung-up client's hint kept its queue slot, then a worker for its whole budget,
    while the requests behind it waited); one a worker has taken runs to its budget."""
    import socket

    one = Server(tmp_path, "--workers", "1", "--queue", "4", "--max-seconds", "4")
    try:
        slow = {**EXAMPLE, "exact": False, "actions": [10], "limit": {"seconds": 2}}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            first = pool.submit(post, one, "/v1/hint", {**slow, "id": "first"})
            while httpx.get(f"{one.url}/health", timeout=5).json()["busy"] < 1:
                time.sleep(0.02)
            body = json.dumps({**slow, "id": "gone"}).encode()
            port = int(one.url.rsplit(":", 1)[1])
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Type: "
                               b"application/json\r\nContent-Length: %d\r\n\r\n%s"
                               % (len(body), body))  # fmt: skip
                while httpx.get(f"{one.url}/health", timeout=5).json()["inside"] < 2:
                    time.sleep(0.02)
            last = pool.submit(post, one, "/v1/hint", {**slow, "id": "last"})
            assert first.result().status_code == 200 and last.result().status_code == 200
        health = httpx.get(f"{one.url}/health", timeout=5).json()
        assert health["abandoned"] == 1 and health["timeouts"] == 0
        assert health["served"] == 3 and health["inside"] == 0
    finally:
        assert one.stop() == 0


def test_a_puzzle_opens_at_the_player_counts_the_catalog_gives(server: Server) -> None:
    """Found by a new user's pass: on the web table, guardians with Players 2-4 and a solo
    puzzle (``guardians/order-trap``) showed 'Error: ... is a solo position; it cannot be played
    by 2 players'. ``GET /v1/games`` now says each puzzle's counts (``puzzlePlayers``), from
    which the page opens a puzzle at its own count; ``/v1/position`` takes exactly those (the
    files' own ``mode:`` lines, independently: a solo position is played by 1, a multi by 2-4)."""
    games = httpx.get(f"{server.url}/v1/games", timeout=10).json()
    row = next(g for g in games if g["name"] == "guardians")
    own = row["puzzlePlayers"]
    assert own["guardians/order-trap"] == [1] and set(own) == set(row["puzzles"])
    folder = Path(solver.__file__).resolve().parents[1] / "puzzles" / "guardians"
    for name in row["puzzles"]:
        multi = "mode: multi" in (folder / f"{name.split('/')[1]}.grove").read_text()
        assert own[name] == ([2, 3, 4] if multi else [1]), name
        for count in row["players"]:
            options = {"position": name, "players": count}
            reply = post(server, "/v1/position", {"game": "guardians", "options": options})
            assert (reply.status_code == 200) == (count in own[name]), (name, count, reply.text)
            if reply.status_code == 200:
                assert reply.json()["players"] == count
    assert next(g for g in games if g["name"] == "dog")["puzzlePlayers"] == {}
