"""The hint engine in-process: the issue's example values, budgets, errors, hidden information."""

from __future__ import annotations

import json
import threading

import pytest
from pydantic import ValidationError

import solver
from solver.hint.engine import Caps, answer
from solver.hint.schema import HintAnswer, json_schema
from solver.registry import load_game
from solver.rng import SplitMix64
from solver.search import best_move, expectimax

EXAMPLE = {
    "id": "q1",
    "game": "dog",
    "options": {"forest": "dog/another-dog"},
    "actions": [],
    "limit": {"iterations": 2000},
    "exact": True,
    "top_k": 3,
}


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_the_issue_example_from_the_start(engine: str) -> None:
    reply = answer({**EXAMPLE, "engine": engine})
    assert reply["id"] == "q1" and reply["isDuringSearch"] is False
    assert reply["moveInfos"] == []  # a chance node
    assert round(reply["rootInfo"]["value"], 6) == 0.962963
    assert reply["rootInfo"]["exact"] is True
    assert reply["rootInfo"]["valueKind"] == "win probability"
    HintAnswer.model_validate(reply)


@pytest.mark.parametrize("actions", [[10], ["roll: 1 step"]])
def test_the_issue_example_after_a_roll_of_one(actions: list) -> None:
    reply = answer({**EXAMPLE, "actions": actions})
    rows = [(m["label"], round(m["value"], 6)) for m in reply["moveInfos"]]
    assert sorted(rows[:2]) == [("N", 0.888889), ("W", 0.888889)]
    assert rows[2] == ("E", 0.333333)
    assert [m["order"] for m in reply["moveInfos"]] == [0, 1, 2]
    # the principal variation as ids replays to the labels it names
    game = solver.load_game("dog", forest="dog/another-dog")
    for move in reply["moveInfos"]:
        state = game.new_initial_state()
        state.apply_action(10)
        assert move["pv"][0] == move["action"]
        for action, label in zip(move["pv"], move["pvLabels"], strict=True):
            assert state.action_to_string(action) == label
            state.apply_action(action)


def test_mcts_answer_equals_the_search_api_on_the_same_position() -> None:
    reply = answer({**EXAMPLE, "exact": False, "actions": [11], "top_k": None,
                    "limit": {"iterations": 200}})  # fmt: skip
    assert reply["rootInfo"]["visits"] == 200
    game = solver.load_game("dog", forest="dog/another-dog")
    state = game.new_initial_state()
    state.apply_action(11)
    exact = best_move(state, exact=True)
    assert reply["moveInfos"][0]["action"] == exact.best_action
    assert sorted(m["action"] for m in reply["moveInfos"]) == sorted(state.legal_actions())


def test_inline_forest_text_equals_the_puzzle() -> None:
    text = solver.puzzles.path("dog/another-dog").read_text()
    reply = answer({**EXAMPLE, "options": {"forest": text}})
    assert round(reply["rootInfo"]["value"], 6) == 0.962963


def test_a_state_json_then_actions() -> None:
    game = solver.load_game("dog", forest="dog/another-dog")
    state = game.new_initial_state()
    state.apply_action(10)
    reply = answer({**EXAMPLE, "state": json.loads(state.to_json())})
    direct = expectimax(state, exact=True)
    assert reply["rootInfo"]["value"] == pytest.approx(direct.value)
    as_text = answer({**EXAMPLE, "state": state.to_json()})
    assert as_text["rootInfo"]["value"] == reply["rootInfo"]["value"]


def test_a_huge_budget_is_capped_and_said_so() -> None:
    caps = Caps(max_iterations=300, max_seconds=5.0)
    reply = answer({**EXAMPLE, "exact": False, "actions": [10],
                    "limit": {"iterations": 10**9, "seconds": 1e6}}, caps=caps)  # fmt: skip
    applied = reply["limitApplied"]
    assert applied["iterations"] == 300 and applied["seconds"] == 5.0
    assert set(applied["capped"]) == {"iterations", "seconds"}
    assert reply["rootInfo"]["visits"] == 300


def test_top_k() -> None:
    reply = answer({**EXAMPLE, "actions": [10], "top_k": 1})
    assert len(reply["moveInfos"]) == 1


def test_a_finished_game() -> None:
    game = solver.load_game("dog", forest="dog/another-dog")
    state = game.new_initial_state()
    actions = []
    rng = solver.rng.SplitMix64(1)
    for _ in range(1000):
        if state.is_terminal():
            break
        action = rng.pick(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    reply = answer({**EXAMPLE, "actions": actions})
    assert reply["moveInfos"] == []
    assert reply["rootInfo"]["value"] == state.returns()[0]


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"game": "chess"}, "game", "unknown_game"),
        ({"game": 3}, "game", "invalid_request"),
        ({"actions": [3]}, "actions.0", "illegal_action"),
        ({"actions": [10, "fly"]}, "actions.1", "illegal_action"),
        ({"actions": [True]}, "actions.0", "invalid_request"),
        ({"state": {"pos": 1}}, "state", "bad_state"),
        ({"state": "{not json"}, "state", "bad_state"),
        ({"limit": {"iterations": 0}}, "limit.iterations", "invalid_request"),
        ({"limit": {"seconds": "NaN"}}, "limit.seconds", "invalid_request"),
        ({"limit": {"iterations": 10, "depth": 3}}, "limit.depth", "invalid_request"),
        ({"top_k": 0}, "top_k", "invalid_request"),
        ({"exact": "yes"}, "exact", "invalid_request"),
        ({"options": {"forest": "/etc/passwd"}}, "options.forest", "invalid_request"),
        ({"options": {"forest": "dog/no-such-forest"}}, "options.forest", "invalid_request"),
        ({"options": {"forest": "grid:\n?\n"}}, "options.forest", "bad_game"),
        ({"options": {"colour": "red"}}, "options.colour", "invalid_request"),
        ({"options": {}}, "options.forest", "invalid_request"),
        ({"engine": "gpu"}, "engine", "invalid_request"),
        ({"player": 3}, "player", "invalid_request"),
        ({"version": 2}, "version", "invalid_request"),
    ],
)
def test_errors_name_the_field(change: dict, field: str, code: str) -> None:
    reply = answer({**EXAMPLE, **change})
    assert set(reply) >= {"id", "error", "field", "code"}
    assert (reply["id"], reply["field"], reply["code"]) == ("q1", field, code), reply


def test_paths_only_where_allowed(tmp_path) -> None:
    target = tmp_path / "mine.forest"
    target.write_text(solver.puzzles.path("dog/another-dog").read_text())
    request = {**EXAMPLE, "options": {"forest": str(target)}}
    assert answer(request)["field"] == "options.forest"
    assert round(answer(request, allow_paths=True)["rootInfo"]["value"], 6) == 0.962963


def test_not_a_request() -> None:
    for raw in ("x", None, [1], {"game": "dog"}):
        reply = answer(raw)
        assert reply["id"] is None and reply["error"]


def test_cancel_answers_with_what_it_has() -> None:
    cancel = threading.Event()
    cancel.set()
    reply = answer({**EXAMPLE, "exact": False, "actions": [10],
                    "limit": {"iterations": 10**6}}, cancel=cancel)  # fmt: skip
    # stopped at once, after the floor: every legal move valued (one simulation a move at most),
    # so no value is invented
    assert reply["terminated"] is True and 1 <= reply["rootInfo"]["visits"] <= 3
    assert all(m["visits"] >= 1 for m in reply["moveInfos"]) and len(reply["moveInfos"]) == 3


def test_partial_reports() -> None:
    partials: list[dict] = []
    reply = answer(
        {**EXAMPLE, "exact": False, "actions": [10], "limit": {"iterations": 5000},
         "reportDuringSearchEvery": 1e-9},
        report=partials.append,
    )  # fmt: skip
    assert partials and all(p["isDuringSearch"] for p in partials)
    visits = [p["rootInfo"]["visits"] for p in partials]
    assert visits == sorted(visits) and visits[-1] <= reply["rootInfo"]["visits"] == 5000


def test_json_schema_is_published() -> None:
    schema = json_schema()
    request = schema["$defs"]["HintRequest"]
    assert {"id", "game", "options", "actions", "limit", "top_k", "exact", "player"} <= set(
        request["properties"]
    )
    answer_fields = set(schema["$defs"]["HintAnswer"]["properties"])
    assert {"moveInfos", "rootInfo", "limitApplied", "isDuringSearch", "elapsed"} <= answer_fields


def _first_decision(game_name: str, players: int) -> tuple[object, list[int]]:
    game = solver.load_game(game_name, players=players)
    state = game.new_initial_state()
    actions = []
    for _ in range(10_000):
        if not state.is_chance_node():
            break
        action = state.chance_outcomes()[0][0]
        actions.append(action)
        state.apply_action(action)
    return state, actions


def test_hidden_information_searches_the_observers_view_only() -> None:
    if "trial" not in solver.registered_games():
        pytest.skip("the trial is not registered")
    state, actions = _first_decision("trial", 2)
    request = {"id": "h", "game": "trial", "options": {"players": 2}, "actions": actions,
               "limit": {"iterations": 48}}  # fmt: skip
    reply = answer(request)
    assert reply["rootInfo"]["determinizations"] > 0
    assert {m["action"] for m in reply["moveInfos"]} <= set(state.legal_actions())
    assert all(len(m["pv"]) == 1 for m in reply["moveInfos"])
    # the answer depends only on what the observer sees: a state with the other seat's hidden
    # cards redealt gives the same answer

    other = state.resample_hidden(state.current_player(), SplitMix64(99))
    assert other.information_state_string(state.current_player()) == (
        state.information_state_string(state.current_player())
    )
    twin = answer({**request, "actions": [], "state": other.to_json()})
    assert [m["action"] for m in twin["moveInfos"]] == [m["action"] for m in reply["moveInfos"]]
    assert twin["rootInfo"]["value"] == pytest.approx(reply["rootInfo"]["value"])
    # another seat may ask too, as `forest trial best-move --player P` may: values from its view
    watcher = 1 - state.current_player()
    seen = answer({**request, "player": watcher})
    assert seen["rootInfo"]["player"] == watcher and seen["rootInfo"]["method"] == "ismcts"
    assert {m["action"] for m in seen["moveInfos"]} <= set(state.legal_actions())
    assert answer({**request, "exact": True})["field"] == "exact"


def test_a_hint_for_a_seat_not_to_move_is_refused_as_on_the_command_line():
    # Defect: {"player": 1} with player 0 to move was silently answered from player 0's view
    # (rootInfo.player 0), where `forest guardians best-move --player 1` refuses.
    from solver.hint.engine import answer

    request = {"id": "q", "game": "guardians", "options": {"players": 3},
               "limit": {"iterations": 4}}  # fmt: skip
    game = load_game("guardians", players=3)
    state = game.new_initial_state()
    actions = []
    while state.is_chance_node():
        action = state.chance_outcomes()[0][0]
        state.apply_action(action)
        actions.append(action)
    mover = state.current_player()
    request["actions"] = actions
    wrong = answer({**request, "player": (mover + 1) % 3})
    assert (wrong.get("field"), wrong.get("code")) == ("player", "invalid_request"), wrong
    assert "not to move" in wrong["error"]
    right = answer({**request, "player": mover})
    assert right["rootInfo"]["player"] == mover


@pytest.mark.parametrize(("game", "option"), [("dog", "forest"), ("guardians", "position")])
def test_a_kernel_pseudo_file_is_never_read_as_a_game(game: str, option: str) -> None:
    """Found by attack: on stdio a path under ``/proc`` (``/proc/self/environ``, the engine's
    environment: a "regular" file to ``stat``) was opened and parsed; the command line refuses
    such files (``solver.files``), and so does the engine now, before opening them."""
    for path in ("/proc/self/environ", "/proc/self/status"):
        reply = answer({"id": "q", "game": game, "options": {option: path}}, allow_paths=True)
        assert reply["code"] == "bad_game" and reply["field"] == f"options.{option}", reply
        assert "kernel pseudo-file" in reply["error"] and path in reply["error"]


@pytest.mark.parametrize("value", [True, False, "1", "0.5", [1], {"s": 1}])
@pytest.mark.parametrize("field", ["seconds", "memoryMb"])
def test_a_budget_of_another_type_is_refused_not_coerced(field: str, value: object) -> None:
    """Found by attack: ``limit.seconds: true`` ran a 1-second search and ``"5"`` a 5 MB one
    (pydantic's lax floats), where ``iterations: true`` is refused; every float budget of a
    request (``limit``, ``reportDuringSearchEvery``, a review's ``totalSeconds``, a table
    session's ``seconds``) now takes JSON numbers only."""
    reply = answer({**EXAMPLE, "limit": {field: value}})
    assert (reply["code"], reply["field"]) == ("invalid_request", f"limit.{field}"), reply
    assert answer({**EXAMPLE, "limit": {field: 1}}).get("code") is None  # an integer is a number


def test_the_other_float_fields_take_numbers_only() -> None:
    from solver.hint.schema import ReviewRequest, TableStartRequest

    assert answer({**EXAMPLE, "reportDuringSearchEvery": True})["code"] == "invalid_request"
    for model, field in ((TableStartRequest, "seconds"), (ReviewRequest, "totalSeconds")):
        base = {"game": "dog"} if model is TableStartRequest else {"game": "dog", "actions": []}
        assert model.model_validate({**base, field: 2}) is not None
        for value in (True, "2"):
            with pytest.raises(ValidationError):
                model.model_validate({**base, field: value})


def test_unknown_fields_are_named_in_the_notes_not_refused() -> None:
    """A misspelt field (``limt``) used to vanish: the search ran at the default budget and
    nothing said why. It is still ignored (newer clients may send more) but named."""
    plain = answer({**EXAMPLE, "actions": [10], "exact": False, "limit": {"iterations": 50}})
    assert not any("unknown fields" in note for note in plain["notes"])
    request = {key: value for key, value in EXAMPLE.items() if key != "limit"}
    typo = answer({**request, "actions": [10], "exact": False, "limt": {"iterations": 50}})
    assert typo["limitApplied"]["iterations"] == 1000  # the default: limt was not the limit
    assert "unknown fields ignored: 'limt' (a newer client's, or misspelt?)" in typo["notes"]
    many = answer({**EXAMPLE, "exact": True, **{f"x{i:02}": i for i in range(10)}})
    notes = [note for note in many["notes"] if "unknown fields" in note]
    assert notes == [
        "unknown fields ignored: 'x00', 'x01', 'x02', 'x03', 'x04', 'x05', 'x06', 'x07' and 2 "
        "more (a newer client's, or misspelt?)"
    ]
