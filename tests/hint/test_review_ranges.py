"""The analysis board's review (issue 21 §3): a ranged review is the whole review cut into pieces
(same exact values, same decisions), Lichess's accuracy per move and per player, every seat's
value on the curve; the table's position carries its line (labels, who moved)."""

from __future__ import annotations

import math

import pytest

import solver
from solver.agents import make_agent
from solver.errors import OptionError
from solver.hint.limits import Caps
from solver.play import play_game
from solver.review import accuracy_of, mean_accuracy, review_record

pytest.importorskip("pydantic")

PUZZLE = "dog/another-dog"


def _record(seed: int) -> dict:
    game = solver.load_game("dog", forest=PUZZLE)
    played = play_game(game, [make_agent("random", game, seed=seed)], seed=seed)
    return {"game": "dog", "options": {"forest": PUZZLE}, "seed": seed, "actions": played.actions}


def test_the_accuracy_curve_is_lichess_s() -> None:
    for loss in (0.0, 0.01, 0.05, 0.1, 0.2, 0.5, 0.9, 1.0):
        delta = 100.0 * loss
        expected = min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * delta) - 3.1669))
        assert accuracy_of(loss) == pytest.approx(expected, abs=1e-4)
    assert accuracy_of(-0.5) == accuracy_of(0.0)  # Δ clamped to [0, 100]
    assert accuracy_of(3.0) == accuracy_of(1.0) == 0.0
    assert accuracy_of(None) is None
    decisions = [{"player": 0, "accuracy": 90.0}, {"player": 1, "accuracy": 50.0},
                 {"player": 0, "accuracy": 70.0}, {"player": 1, "accuracy": None}]  # fmt: skip
    assert mean_accuracy(decisions) == {"0": 80.0, "1": 50.0}


def test_a_ranged_review_is_the_whole_review_in_pieces() -> None:
    record = _record(seed=3)
    total = len(record["actions"])
    assert total >= 4
    whole = review_record(record, exact=True)
    cut = total // 2
    pieces = [review_record(record, exact=True, start=0, stop=cut),
              review_record(record, exact=True, start=cut, stop=total)]  # fmt: skip
    assert pieces[0]["stop"] == cut and pieces[1]["start"] == cut
    curve = {p["ply"]: p["value"] for piece in pieces for p in piece["curve"]}
    assert curve == {p["ply"]: p["value"] for p in whole["curve"]}
    decisions = [d for piece in pieces for d in piece["decisions"]]
    assert decisions == whole["decisions"]
    for decision in whole["decisions"]:
        assert decision["accuracy"] == accuracy_of(decision["loss"])
    assert whole["accuracy"] == mean_accuracy(whole["decisions"])
    assert all(p["values"] == [p["value"]] for p in whole["curve"])  # one seat: its value
    with pytest.raises(OptionError, match="plies to review"):
        review_record(record, exact=True, start=total, stop=total + 1)


def test_the_review_endpoint_takes_a_range() -> None:
    from solver.hint.jobs import review_job

    record = _record(seed=5)
    reply = review_job({**record, "fromPly": 1, "toPly": 3, "exact": True}, Caps())
    assert [p["ply"] for p in reply["curve"]] == [1, 2, 3]
    assert reply["start"] == 1 and reply["stop"] == 3 and reply["complete"]
    assert set(reply["accuracy"]) <= {"0"}


def test_a_range_outside_the_record_names_its_field() -> None:
    """Found by attack: fromPly 5 of a 2-action record, or toPly past its end, answered
    invalid_request with field null; the field at fault is named."""
    from solver.hint.jobs import guarded, review_job

    record = _record(seed=5)
    total = len(record["actions"])
    for asked, field in (({"fromPly": total + 1}, "fromPly"), ({"toPly": total + 1}, "toPly"),
                         ({"fromPly": 3, "toPly": 1}, "fromPly")):  # fmt: skip
        reply = guarded(review_job, {**record, **asked, "exact": True}, Caps())
        assert (reply["code"], reply["field"]) == ("invalid_request", field), reply
        assert reply["error"].startswith(f"{field}: the plies to review"), reply


def test_the_table_s_position_carries_its_line() -> None:
    from solver.hint.jobs import position_job

    record = _record(seed=7)
    game = solver.load_game("dog", forest=PUZZLE)
    state = game.new_initial_state()
    expected = []
    for action in record["actions"][:4]:
        expected.append({"action": action, "label": state.action_to_string(action),
                         "player": state.current_player()})  # fmt: skip
        state.apply_action(action)
    reply = position_job({"game": "dog", "options": {"forest": PUZZLE},
                          "actions": record["actions"][:4]})  # fmt: skip
    assert reply["line"] == expected and reply["players"] == 1
    assert reply["state"] == state.to_json()  # a saved position, where nothing is hidden
    again = position_job({"game": "dog", "options": {"forest": PUZZLE}, "state": reply["state"]})
    assert again["moves"] == reply["moves"] and again["line"] == []
    for start in (0, 2, 4):  # the labels the page has not got: from labelsFrom on
        part = position_job({"game": "dog", "options": {"forest": PUZZLE}, "labelsFrom": start,
                             "actions": record["actions"][:4]})  # fmt: skip
        assert part["line"] == expected[start:] and part["lineFrom"] == start
        assert part["moves"] == reply["moves"]
    # a labelsFrom past the line was echoed back as lineFrom (99 of a 4-action line): it is
    # capped at the actions replayed, where the (empty) line starts
    past = position_job({"game": "dog", "options": {"forest": PUZZLE}, "labelsFrom": 99,
                         "actions": record["actions"][:4]})  # fmt: skip
    assert past["line"] == [] and past["lineFrom"] == 4 and past["moves"] == reply["moves"]


def test_only_the_table_s_position_labels_the_actions_it_replays() -> None:
    """Hints, reviews and sessions replay a line without labelling it (a Trial label decodes the
    compiled state: labels cost a review of a long game ten times its searches); the position
    answer labels what it is asked to."""
    from solver.hint.position import open_position
    from solver.hint.schema import HintRequest

    record = _record(seed=7)
    request = HintRequest.model_validate({"id": "h", "game": "dog", "options": {"forest": PUZZLE},
                                          "actions": record["actions"][:4]})  # fmt: skip
    plain = open_position(request)
    labelled = open_position(request, labels_from=1)
    assert plain.line == [] and plain.actions == labelled.actions == record["actions"][:4]
    assert [e["action"] for e in labelled.line or []] == record["actions"][1:4]


def test_a_hidden_information_position_is_not_saved() -> None:
    from solver.hint.jobs import position_job

    hidden = [name for name in solver.registered_games()
              if solver.registry.game_spec(name).hidden_information]  # fmt: skip
    assert hidden
    for name in hidden:
        assert position_job({"game": name})["state"] is None


def test_the_table_s_code_names_no_game() -> None:
    """solver/hint/ holds no per-game code: the page's files name no registered game (what a
    game shows comes from the server: /v1/games, /v1/position, /v1/table/*)."""
    import re

    from solver.hint.routes import static_dir

    folder = static_dir()
    for path in ("app.js", "index.html", "style.css"):
        text = (folder / path).read_text(encoding="utf-8").lower()
        for name in solver.registered_games():
            assert not re.search(rf"\b{re.escape(name.lower())}\b", text), (path, name)


@pytest.mark.parametrize(
    "record",
    [
        {"game": "trial", "options": {"players": 2}, "actions": [], "exact": True},
        {"game": "guardians", "options": {"players": 2}, "actions": [], "exact": True},
    ],
)
def test_a_review_refused_as_a_hint_is_says_the_hint_s_code_and_field(record) -> None:
    """Found by attack: an exact review of the Trial answered invalid_request with field null
    ('cannot review this record: exact search is not offered for trial'), where the hint of the
    same position says unsupported on exact; the review says what the hint says."""
    from solver.hint.engine import answer
    from solver.hint.jobs import guarded, review_job

    reply = guarded(review_job, record, Caps())
    hinted = answer({"id": "h", **record})
    assert (reply["code"], reply["field"]) == (hinted["code"], hinted["field"]), (reply, hinted)
    assert (reply["code"], reply["field"]) == ("unsupported", "exact")
    assert hinted["error"] in reply["error"]
