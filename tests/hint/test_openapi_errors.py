"""Found by review: ``/openapi.json`` listed a 422 "Validation Error" answer (FastAPI's
``HTTPValidationError``) for every POST, which the service never gives: a request that fails
validation gets 400 and the error object. The document, the ``/docs`` page built from it and any
client generated from it said an answer that never comes, and left out the 404/409 of a table
session and the ingress's 415. Now it declares the error statuses each route answers, and the
property below sends malformed requests to a real ``forest serve`` and checks that each answer's
status is one the route's own operation declares."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.hint.server import create_app

from .conftest import Server

ERROR_REF = "#/components/schemas/ErrorAnswer"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    answer = TestClient(create_app()).get("/openapi.json")  # no lifespan: no pool for a GET
    assert answer.status_code == 200
    return dict(answer.json())


def _posts(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {path: item["post"] for path, item in document["paths"].items() if "post" in item}


def test_no_route_declares_422_and_every_post_declares_400_with_the_error_object(
    document: dict[str, Any],
) -> None:
    posts = _posts(document)
    assert len(posts) >= 12
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert "422" not in operation["responses"], (method, path)
    assert "HTTPValidationError" not in document["components"]["schemas"]
    assert "HTTPValidationError" not in json.dumps(document)
    for path, operation in posts.items():
        errors = {s: r for s, r in operation["responses"].items() if s[0] in "45"}
        assert "400" in errors, path
        for status, response in errors.items():
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": ERROR_REF}, (path, status)
    error = document["components"]["schemas"]["ErrorAnswer"]
    assert {"id", "error", "field", "code"} <= set(error["required"])


def test_the_docs_page_lists_each_route_s_errors() -> None:
    page = TestClient(create_app()).get("/docs").text
    assert "422" not in page
    step = page.split("<code>/v1/table/move</code>", 1)[1].split("</tr>", 1)[0]
    listed = re.findall(r"<li><b>(\d+)</b>", step)  # each status with its codes (5c70fe9)
    assert listed == ["400", "404", "409", "413", "415", "500", "503", "504"]  # a session's step


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=8,
)  # fmt: skip


@st.composite
def _malformed(draw: st.DrawFn, document: dict[str, Any]) -> tuple[str, bytes, dict[str, str]]:
    """A POST path, a body and headers: random bytes, JSON that is no object, or an object of
    the route's own fields (and others) holding values of any type; sent as JSON or not, coded
    or not, or past the body limit; a session's name, mostly with other fields."""
    path = draw(st.sampled_from(sorted(_posts(document))))
    ref = _posts(document)[path]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = sorted(document["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"])
    keys = st.sampled_from(fields) | st.text(max_size=6)
    body = draw(
        st.binary(max_size=40)
        | JSON.filter(lambda v: not isinstance(v, dict)).map(lambda v: json.dumps(v).encode())
        | st.dictionaries(keys, JSON, max_size=4).map(lambda v: json.dumps(v).encode())
        | st.builds(
            lambda name, rest: json.dumps({**rest, "session": name}).encode(),
            st.text(min_size=1, max_size=12),
            st.dictionaries(keys, JSON, max_size=2),
        )
        | st.just(b'{"x": "' + b"a" * 70_000 + b'"}')  # past SERVE_OPTIONS' 65536 bytes
    )
    headers = {"content-type": draw(st.sampled_from(
        ["application/json", "application/json; charset=utf-8", "text/plain",
         "application/x-www-form-urlencoded"]))}  # fmt: skip
    if draw(st.booleans()) and draw(st.booleans()):
        headers["content-encoding"] = draw(st.sampled_from(["gzip", "br", "identity"]))
    return path, body, headers


def test_a_malformed_request_gets_a_status_its_route_declares(
    server: Server, document: dict[str, Any]
) -> None:
    posts = _posts(document)
    seen: set[tuple[str, int]] = set()

    @settings(max_examples=300, derandomize=True)
    @given(_malformed(document))
    def check(case: tuple[str, bytes, dict[str, str]]) -> None:
        path, body, headers = case
        answer = httpx.post(f"{server.url}{path}", content=body, headers=headers, timeout=60)
        declared = set(posts[path]["responses"])
        assert str(answer.status_code) in declared, (path, body[:200], answer.text[:300])
        assert answer.status_code < 500, (path, body[:200], answer.text[:300])
        if answer.status_code >= 400:
            assert {"error", "code"} <= set(answer.json()), answer.text[:300]
        seen.add((path, answer.status_code))

    check()
    statuses = {status for _, status in seen}
    assert {400, 413, 415} <= statuses, seen  # the property met the ingress's answers
    assert 404 in statuses, seen  # and a session's
