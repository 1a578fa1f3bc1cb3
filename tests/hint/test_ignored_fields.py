"""Found by attack: a misspelt field of ``/v1/position``, ``/v1/roll``, ``/v1/analyse`` or
``/v1/review`` was dropped without a word (a review sent ``action`` for ``actions`` reviewed no
move and said nothing). A hint and a table start already named theirs in ``notes``; now these
routes do too, and a review whose ``actions`` are missing but misspelt is refused naming the
field sent and the one meant. The expected words are written by hand."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import Server

DOG = {"game": "dog", "options": {"forest": "dog/another-dog"}}


def _note(*names: str) -> str:
    said = ", ".join(repr(name) for name in names)
    return f"unknown fields ignored: {said} (a newer client's, or misspelt?)"


def _post(server: Server, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{server.url}{path}", json=body, timeout=120)


@pytest.mark.parametrize(
    ("path", "body", "misspelt"),
    [
        ("/v1/position", DOG, {"action": [0], "sate": None}),
        ("/v1/roll", {"game": "dog", "seed": 1, "width": 6, "height": 6}, {"seeed": 4}),
        ("/v1/analyse", DOG, {"optoins": {"forest": "dog/another-dog"}}),
        ("/v1/review", {**DOG, "actions": []}, {"totalSecond": 5, "fromPyl": 0}),
    ],
)
def test_the_fields_a_route_ignored_are_named_in_its_notes(
    server: Server, path: str, body: dict[str, Any], misspelt: dict[str, Any]
) -> None:
    plain = _post(server, path, body)
    assert plain.status_code == 200, plain.text
    assert not any("unknown fields" in note for note in plain.json()["notes"])
    answer = _post(server, path, {**body, **misspelt})
    assert answer.status_code == 200, answer.text
    assert _note(*sorted(misspelt)) in answer.json()["notes"]


def test_a_review_of_misspelt_actions_is_refused_naming_the_field(server: Server) -> None:
    """Without ``actions`` a review reviews no move: ``action`` is refused, not noted."""
    answer = _post(server, "/v1/review", {**DOG, "action": [0, 1]})
    assert answer.status_code == 400, answer.text
    refused = answer.json()
    assert (refused["code"], refused["field"]) == ("invalid_request", "action")
    assert refused["error"] == (
        "action: no field of this request; did you mean actions? (a review without its "
        "actions reviews no move)"
    )
    unrelated = _post(server, "/v1/review", {**DOG, "colour": "red"})  # nothing like actions
    assert unrelated.status_code == 200 and _note("colour") in unrelated.json()["notes"]
    both = _post(server, "/v1/review", {**DOG, "actions": [], "action": [0]})  # actions sent
    assert both.status_code == 200 and _note("action") in both.json()["notes"]


def test_the_table_s_requests_name_the_fields_they_ignored(server: Server) -> None:
    """A table move, view, take back and hint (their answers have ``notes``) named nothing they
    ignored (a misspelt ``acton`` was dropped without a word): now they say so, as a start does."""
    start = {"game": "dog", "options": {"forest": "dog/another-dog"}, "agent": "random"}
    view = _post(server, "/v1/table/start", start).json()
    ident = view["session"]
    assert not any("unknown fields" in note for note in view["notes"])
    steps: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("/v1/table/view", {"session": ident}, {"sesion": 1}),
        ("/v1/table/move", {"session": ident, "action": view["moves"][0]["action"]}, {"acton": 2}),
        ("/v1/table/takeback", {"session": ident}, {"all": True}),
        ("/v1/table/hint", {"session": ident, "limit": {"iterations": 8}}, {"topK": 2, "tp_k": 1}),
    ]
    for path, body, misspelt in steps:
        answer = _post(server, path, {**body, **misspelt})
        assert answer.status_code == 200, (path, answer.text)
        assert _note(*sorted(misspelt)) in answer.json()["notes"], path
    plain = _post(server, "/v1/table/hint", {"session": ident, "limit": {"iterations": 8}})
    assert not any("unknown fields" in note for note in plain.json()["notes"])


def test_a_table_line_and_record_name_the_fields_they_ignored(server: Server) -> None:
    """A table line's and record's requests dropped unknown fields without a word (their answers
    had no ``notes``): a line's answer now has ``notes``; a record's carries them only when
    something was ignored (otherwise it stays ``play --record``'s shape, the file the page
    saves). A record refused before the end, sent a misspelt ``unfinished``, names it."""
    start = {"game": "dog", "options": {"forest": "dog/another-dog"}, "agent": "random"}
    ident = _post(server, "/v1/table/start", start).json()["session"]
    plain = _post(server, "/v1/table/line", {"session": ident, "pv": []})
    assert plain.status_code == 200 and plain.json()["notes"] == [], plain.text
    line = _post(server, "/v1/table/line", {"session": ident, "pv": [], "pvs": [0]})
    assert line.status_code == 200 and line.json()["notes"] == [_note("pvs")], line.text
    misspelt = _post(server, "/v1/table/record", {"session": ident, "unfinshed": True})
    assert misspelt.status_code == 400, misspelt.text
    assert (misspelt.json()["field"], misspelt.json()["error"]) == (
        "unfinshed",
        "unfinshed: no field of this request; did you mean unfinished? (the record so far is "
        "given only with it)",
    )
    saved = _post(server, "/v1/table/record", {"session": ident, "unfinished": True})
    assert saved.status_code == 200 and "notes" not in saved.json(), saved.text
    record = _post(server, "/v1/table/record", {"session": ident, "unfinished": True, "fmt": 1})
    assert record.status_code == 200 and record.json()["notes"] == [_note("fmt")], record.text
    assert {k: v for k, v in record.json().items() if k != "notes"} == saved.json()


def test_a_review_names_the_fields_its_earlier_answers_ignored(server: Server) -> None:
    """``earlier`` (a ranged review's earlier answers) dropped its unknown fields silently: a
    misspelt ``decisons`` left the closing notes without the earlier decisions. Named now."""
    body = {**DOG, "actions": [], "earlier": {"decisions": [], "curve": []}}
    plain = _post(server, "/v1/review", body)
    assert plain.status_code == 200 and not any("unknown" in n for n in plain.json()["notes"])
    body["earlier"] = {"decisons": [], "curve": [], "Curve": []}
    answer = _post(server, "/v1/review", body)
    assert answer.status_code == 200, answer.text
    assert _note("earlier.Curve", "earlier.decisons") in answer.json()["notes"]


@pytest.mark.parametrize(
    ("sent", "said"),
    [("unfinished\u202e", "unfinished\\u202e"), ("unfinishe\nd", "unfinishe\\u000ad"),
     ("unfinshed", "unfinshed"), ("unfinish\u00e9d", "unfinish\u00e9d")],
)  # fmt: skip
def test_a_misspelt_field_s_name_is_shown_printable(sent: str, said: str) -> None:
    """Found by attack: the refusal's words quoted the misspelt name raw, so a bidi override
    (U+202E) reordered the words after it where they are shown, and a newline split them. Its
    controls and bidi are escaped in the words now (:func:`solver.errors.printable`, as an
    ``--option`` value's); ``field`` keeps the name as sent (a client matches on it)."""
    from solver.hint.engine import misspelt_refusal
    from solver.hint.errors import HintError
    from solver.hint.schema import TableRecordRequest

    request = TableRecordRequest.model_validate({"session": "x", sent: True})
    with pytest.raises(HintError) as refused:
        misspelt_refusal(request, "unfinished", "the record so far is given only with it")
    assert refused.value.field == sent
    assert str(refused.value) == (
        f"{said}: no field of this request; did you mean unfinished? (the record so far is "
        "given only with it)"
    )


def test_a_field_meaning_the_opposite_is_not_taken_for_a_misspelling() -> None:
    """Found by attack: a record asked with ``"finished": true`` before the end was refused
    "finished: no field of this request; did you mean unfinished?", pointing a client that
    wanted the finished record to the request that gives the record so far and, where the game
    hides cards, leaves the session for good. A name that is the needed one without its start
    is not offered as its misspelling (the request is then refused as not over, its field
    noted); a true misspelling still is."""
    from solver.hint.engine import misspelt_refusal
    from solver.hint.errors import HintError
    from solver.hint.schema import TableRecordRequest

    for sent in ("finished", "inished"):
        request = TableRecordRequest.model_validate({"session": "x", sent: True})
        misspelt_refusal(request, "unfinished", "the record so far is given only with it")
    request = TableRecordRequest.model_validate({"session": "x", "unfinishd": True})
    with pytest.raises(HintError, match=r"^unfinishd: no field of this request; did you mean"):
        misspelt_refusal(request, "unfinished", "the record so far is given only with it")
