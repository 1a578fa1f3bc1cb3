"""A record's ``labels`` and ``returns`` against its replay, on every surface: the replay decides.

Defect: a record whose labels or returns disagreed with the replayed game (edited by hand, or
written by another version of a game's content) was reviewed with no word of it, on the command
line and over HTTP (``/v1/review`` dropped both fields unread). Now a note names the first
difference, as for ``"finished"`` (``test_review_finished.py``), and a field of the wrong shape
is refused by name. The truth here is the game played move by move, its labels and returns
read as ``play --record`` reads them, independently of the review's replay.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import solver
from solver.review import review_record
from solver.testing import run_forest as forest

from .conftest import Server
from .test_review_finished import OPTIONS, _ended_game

httpx = pytest.importorskip("httpx")


def _told(name: str) -> dict[str, Any]:
    """A whole random game of ``name`` as ``play --record`` writes it: each action's label read
    before it is played, the returns at the end, ``finished`` true."""
    record, _ = _ended_game(name)
    state = solver.load_game(name, **OPTIONS[name]).new_initial_state()
    labels = []
    for action in record["actions"]:
        labels.append(state.action_to_string(action))
        state.apply_action(action)
    return {**record, "labels": labels, "returns": state.returns(), "finished": True}


def _last(record: dict[str, Any]) -> dict[str, Any]:
    """The review of the record's last position only (one simulation): its notes are the
    record's."""
    end = len(record["actions"])
    return review_record(record, iterations=1, start=end, stop=end)


def _relabelled(record: dict[str, Any], index: int) -> dict[str, Any]:
    """The record with action ``index``'s label replaced by another action's (one that differs)."""
    labels = list(record["labels"])
    other = next(label for label in labels if label != labels[index])
    labels[index] = other
    return {**record, "labels": labels}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_labels_and_returns_the_replay_contradicts_get_a_note(name: str) -> None:
    record = _told(name)
    n = len(record["actions"])
    assert _last(record)["notes"] == []  # as play --record writes it: nothing to say
    wrong = _relabelled(record, 1)
    notes = _last(wrong)["notes"]
    assert notes[0].startswith(f"the record's \"labels\" disagree with the replay of its "
                               f"actions: action 1 is labelled {wrong['labels'][1]!r} where the "
                               f"replay plays {record['labels'][1]!r}")  # fmt: skip
    assert len(notes) == 1
    assert "it has 2 labels" in _last({**record, "labels": record["labels"][:2]})["notes"][0]
    seats = len(record["returns"])
    other = [1.0 - value for value in record["returns"]]
    notes = _last({**record, "returns": other})["notes"]
    assert notes == [f'the record says "returns": {json.dumps(other)}, but the replay of its {n} '
                     f"actions ends with {json.dumps([round(v, 6) for v in record['returns']])}: "
                     "the review values the replayed game (the replay decides)"]  # fmt: skip
    assert _last({**record, "returns": record["returns"] + [0.5]})["notes"]  # a seat too many
    cut = {**record, "actions": record["actions"][:-1], "labels": record["labels"][:-1],
           "finished": False}  # fmt: skip
    notes = _last(cut)["notes"]
    assert len(notes) == 1 and f"but its {n - 1} actions stop before the game's end" in notes[0]
    assert seats == solver.load_game(name, **OPTIONS[name]).num_players()
    assert _last({**cut, "returns": None, "labels": [None] * (n - 1)})["notes"] == []


@pytest.mark.parametrize(
    ("field", "value"),
    [("labels", "W"), ("labels", [1]), ("returns", "won"), ("returns", [True]),
     ("returns", {"0": 1}), ("returns", [10**400]), ("returns", [float("nan")]),
     ("returns", [-float("inf"), 0.0])],
)  # fmt: skip
def test_labels_or_returns_of_the_wrong_shape_are_refused_by_name(field: str, value: Any) -> None:
    record = _told("dog")
    with pytest.raises(solver.errors.OptionError, match=f'"{field}" is a list of') as caught:
        review_record({**record, field: value}, iterations=1)
    assert caught.value.field == field  # type: ignore[attr-defined]


def test_the_command_line_says_the_replay_s_word(tmp_path) -> None:
    pytest.importorskip("pydantic")
    record = _relabelled(_told("dog"), 0)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = forest("dog", "review", str(path), "--iterations", "1", "--no-progress")
    assert run.returncode == 0, run.stderr
    assert 'note: the record\'s "labels" disagree with the replay of its actions' in run.stdout


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_the_service_reads_labels_and_returns(name: str, server: Server) -> None:
    """``POST /v1/review`` reads both fields (it dropped them unread) and answers the review in
    process's notes; a field of the wrong shape is ``invalid_request`` on it."""
    record = _relabelled(_told(name), 1)
    record["returns"] = [1.0 - value for value in record["returns"]]
    end = len(record["actions"])
    body = {**record, "limit": {"iterations": 1}, "fromPly": end, "toPly": end}
    reply = httpx.post(f"{server.url}/v1/review", json=body, timeout=120)
    assert reply.status_code == 200, reply.text
    assert reply.json()["notes"] == _last(record)["notes"] and len(reply.json()["notes"]) == 2
    for field, value in (("labels", [1]), ("returns", ["won"]), ("returns", [10**400])):
        reply = httpx.post(f"{server.url}/v1/review", json={**body, field: value}, timeout=120)
        assert reply.status_code == 400 and reply.json()["field"].startswith(field), reply.text
        # 10**400 (JSON's whole number past a float's range) was a 500: OverflowError


def test_the_command_line_refuses_returns_past_a_float_s_range(tmp_path) -> None:
    """A record's return of 1 and 400 zeros (JSON reads it whole) was a traceback
    (OverflowError comparing it with the replay's): one line, exit 2, naming the field."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**_told("dog"), "returns": [10**400]}), encoding="utf-8")
    run = forest("dog", "review", str(path), "--iterations", "1", "--no-progress")
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [
        f'forest: error: {path}: a game record\'s "returns" is a list of finite numbers (one a '
        "seat) or null"
    ]


def _renamed(record: dict[str, Any], old: Any) -> dict[str, Any]:
    """The record with each label ``old(label)`` renames (``None``: kept) renamed so."""
    labels = [old(label) or label for label in record["labels"]]
    assert labels != record["labels"], "the game held no label to rename"
    return {**record, "labels": labels}


def test_a_label_the_game_reads_as_the_action_played_gets_no_note() -> None:
    """Old records hold the labels of an earlier version of a game, which its string_to_action
    still reads as the same actions (the Trial's 'start_space: start-2', the step's name then
    the state-free label, for 'start on start-2'; the dog reads labels whatever their case):
    they name what was played, so the review has nothing to say. It said they disagreed with
    the replay. A label of another action still gets the note (the test above)."""
    trial = _renamed(_told("trial"), lambda label: label.startswith("start on ")
                     and label.replace("start on ", "start_space: ", 1))  # fmt: skip
    assert _last(trial)["notes"] == []
    dog = _renamed(_told("dog"), lambda label: label.isupper() and label.lower())
    assert _last(dog)["notes"] == []
