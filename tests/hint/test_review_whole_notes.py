"""A review's closing notes over the whole review, for a client that reviews a range at a time
(``POST /v1/review``'s ``earlier`` and ``wholeNotes``). The web table reviews six plies a request
and worded the undecided note itself, from each answer's decisions; it never showed the fall note
(``solver.review.fall_note``), which speaks of the whole curve. Now the last range's answer says
the notes the command line's review of the whole game says."""

from __future__ import annotations

import httpx
import pytest

from solver.hint.limits import Caps
from solver.review import (
    accuracy_title,
    closing_notes,
    fall_note,
    lost_note,
    review_record,
    undecided_note,
)
from solver.review_notes import searched_less_note

from .conftest import Server
from .test_review_ranges import _record

pytest.importorskip("pydantic")


def _review(body: dict) -> dict:
    from solver.hint.jobs import review_job

    return review_job(body, Caps())


def test_the_last_range_says_the_whole_review_s_closing_notes() -> None:
    """Seed 19's 10 plies, reviewed exactly: player 0's win probability falls from 1 to 0 while
    their moves give away 0.67 (chance took the rest), and 3 of their 7 decisions come with the
    game lost. In three ranges, the last one told of the
    earlier two says the whole review's notes, the fall note among them; told nothing, its
    notes speak of its own plies, and the fall is not among them."""
    record = _record(seed=19)
    total = len(record["actions"])
    assert total == 10
    whole = review_record(record, exact=True)
    kind = whole["valueKind"]
    fall = fall_note(whole["decisions"], whole["curve"], kind, exact=True)
    assert fall is not None and fall.startswith("player 0's win probability fell from 1.00 to 0.00")
    # the positions before player 0's decisions at plies 7, 9 and 10 are lost (exact 0):
    # 3 of their 7 decisions, at least a quarter (solver.review_accuracy.LOST_SHARE)
    lost = lost_note(whole["decisions"], whole["curve"], kind)
    assert lost is not None and lost.startswith("player 0 came to 3 of their 7 decisions with")
    assert whole["notes"][-2:] == [fall, lost]  # the command line's review closes with them
    earlier: dict = {"decisions": [], "curve": []}
    for start, stop in ((0, 4), (4, 8), (8, total)):
        answer = _review({**record, "exact": True, "fromPly": start, "toPly": stop,
                          "earlier": earlier})  # fmt: skip
        earlier["decisions"] += answer["decisions"]  # whole decisions: extra fields ignored
        earlier["curve"] += answer["curve"]
    assert answer["wholeNotes"] == [fall, lost]  # the earlier curve's lost positions counted
    assert answer["wholeNotes"] == closing_notes(whole["decisions"], whole["curve"], kind, None)
    assert answer["accuracyTitle"] == accuracy_title(whole["decisions"])  # the command line's
    alone = _review({**record, "exact": True, "fromPly": 8, "toPly": total})
    assert fall not in alone["wholeNotes"]
    assert alone["wholeNotes"] == [n for n in alone["notes"] if n in alone["wholeNotes"]]


def test_the_notes_of_a_hand_built_review() -> None:
    """Earlier decisions made up by hand (two undecided, one searched with 5 of the 1000
    simulations asked, values from 0.9 down), then the record's last position reviewed: the
    notes are solver.review's own over the same decisions and curve, their numbers as derived
    by hand. Decisions and points sent at the plies the answer reviews itself are not counted."""
    record = _record(seed=19)
    total = len(record["actions"])
    made = [
        {"ply": 1, "player": 0, "loss": 0.0, "accuracy": 100.0, "undecided": True,
         "method": "mcts", "simulations": 1000},
        {"ply": 2, "player": 0, "loss": 0.1, "accuracy": 63.58, "method": "mcts",
         "simulations": 5},
        {"ply": 3, "player": 0, "loss": 0.0, "accuracy": 100.0, "undecided": True,
         "method": "mcts", "simulations": 1000},
        {"ply": 4, "player": 0, "loss": 0.0, "accuracy": 80.0, "method": "mcts",
         "simulations": 1000},
    ]  # fmt: skip
    curve = [{"ply": ply, "method": "mcts", "values": [0.9 - 0.1 * ply]} for ply in range(5)]
    # past the range's first ply: the answer's own plies (the decision at ply `total` is
    # the last range's, as the point at its first ply is)
    beyond = {"ply": total + 1, "player": 0, "loss": 0.9, "undecided": True, "method": "mcts"}
    stale = {"ply": total, "method": "mcts", "values": [0.99]}
    earlier = {"decisions": [*made, beyond], "curve": [*curve, stale]}
    answer = _review({**record, "exact": True, "fromPly": total, "toPly": total,
                      "limit": {"iterations": 1000}, "earlier": earlier})  # fmt: skip
    assert answer["decisions"] == [] and len(answer["curve"]) == 1
    end = answer["curve"][0]["values"][0]
    assert end == 0.0  # seed 19's game is lost
    whole_curve = [*curve, answer["curve"][0]]
    expected = [
        undecided_note(made),
        fall_note(made, whole_curve, "win probability", exact=False),
        searched_less_note(made, 1000),
    ]
    assert answer["wholeNotes"] == expected
    undecided, fall, short = expected
    assert undecided is not None and undecided.startswith("at 2 of 4 decisions")
    # (63.58 + 80) / 2
    assert undecided.endswith("over the other 2, leaving them out: player 0 71.8")
    assert fall is not None and fall.startswith(
        "player 0's win probability fell from 0.90 to 0.00 while their moves gave away 0.10"
    )
    assert "estimates' drift" in fall  # mcts points: not put down to chance alone
    assert short is not None and short.startswith(
        "1 of 4 searched decisions got fewer than the 1000 simulations asked (the fewest 5)"
    )
    # the accuracy's words (the command line's line) count the earlier decisions too: the
    # undecided at plies 1 and 3, not the one sent past the range's first ply
    assert answer["accuracyTitle"] == (
        "accuracy (Lichess's curve, unweighted mean, counting the 2 decisions valued alike "
        "with the best as accurate)"
    )
    alone = _review({**record, "exact": True, "fromPly": total, "toPly": total})
    assert alone["accuracyTitle"] == "accuracy (Lichess's curve, unweighted mean)"


def test_earlier_decisions_within_the_noise_are_said_as_the_review_says_them() -> None:
    """A decision a ranged answer gave a second look (``searches`` 3) whose loss was within the
    searches' noise (``withinNoise``) is counted so in the whole notes: the noise note and the
    undecided note's split, as the command line's review words them. Without the two fields the
    service's model dropped them and the web table's closing line said neither."""
    from solver.review_noise import noise_note

    record = _record(seed=19)
    total = len(record["actions"])
    made = [
        {"ply": 1, "player": 0, "loss": 0.06, "accuracy": 99.9999, "undecided": True,
         "method": "ismcts", "simulations": 300, "searches": 3, "withinNoise": True},
        {"ply": 2, "player": 0, "loss": 0.1, "accuracy": 63.58, "method": "ismcts",
         "simulations": 300, "searches": 3, "withinNoise": False},
    ]  # fmt: skip
    answer = _review({**record, "exact": True, "fromPly": total, "toPly": total,
                      "limit": {"iterations": 300}, "earlier": {"decisions": made}})  # fmt: skip
    noise = noise_note(made)
    assert noise is not None and noise.startswith("1 of the 2 decisions whose first search")
    assert noise in answer["wholeNotes"]
    undecided = undecided_note(made)
    assert undecided is not None and "1 below it by less than the search's noise" in undecided
    assert undecided in answer["wholeNotes"]


def test_earlier_points_with_only_their_own_seat_s_value_give_the_fall() -> None:
    """A hidden-card game's points carry only the value of the seat to move (``value`` and
    ``player``, no ``values``): sent back so, the whole notes give the fall the command line's
    review gives (the model kept ``values`` alone, and the fall note read nothing of a Trial)."""
    record = _record(seed=19)
    total = len(record["actions"])
    made = [{"ply": 1, "player": 0, "loss": 0.1, "accuracy": 63.58, "method": "ismcts"}]
    curve = [{"ply": 0, "method": "ismcts", "value": 0.9, "player": 0},
             {"ply": 1, "method": "ismcts", "value": 0.3, "player": 1}]  # fmt: skip
    answer = _review({**record, "exact": True, "fromPly": total, "toPly": total,
                      "earlier": {"decisions": made, "curve": curve}})  # fmt: skip
    assert answer["curve"][0]["values"][0] == 0.0  # seed 19's game is lost
    fall = [n for n in answer["wholeNotes"] if "fell from" in n]
    assert fall and fall[0].startswith(
        "player 0's win probability fell from 0.90 to 0.00 while their moves gave away 0.10"
    )


def test_without_earlier_the_whole_notes_are_the_answer_s_own() -> None:
    record = _record(seed=19)
    answer = _review({**record, "exact": True})
    mine = review_record(record, exact=True)
    assert answer["wholeNotes"] == answer["notes"][-len(answer["wholeNotes"]) :]
    assert answer["wholeNotes"] == closing_notes(mine["decisions"], mine["curve"],
                                                 mine["valueKind"], None)  # fmt: skip
    assert answer["wholeNotes"]  # seed 19's fall


@pytest.mark.parametrize(
    ("earlier", "field"),
    [
        ({"decisions": [{"ply": 1, "player": 0, "loss": "0.5"}]}, "earlier.decisions.0.loss"),
        ({"decisions": [{"ply": 1, "player": 0, "loss": -1}]}, "earlier.decisions.0.loss"),
        ({"decisions": [{"ply": 1, "player": 0, "undecided": 1}]}, "earlier.decisions.0.undecided"),
        ({"decisions": [{"player": 0}]}, "earlier.decisions.0.ply"),
        ({"decisions": [{"ply": 0, "player": 0}]}, "earlier.decisions.0.ply"),  # no move into 0
        ({"curve": [{"ply": -1}]}, "earlier.curve.0.ply"),
        ({"curve": [{"ply": 0, "values": [True]}]}, "earlier.curve.0.values.0"),
        ({"curve": {"ply": 0}}, "earlier.curve"),
        # the dog is a one-player game: 'player 1 ...' was said of it as sent
        ({"decisions": [{"ply": 1, "player": 1, "undecided": True}]}, "earlier.decisions.0.player"),
        ({"curve": [{"ply": 0, "values": [0.5, 0.5]}]}, "earlier.curve.0.values"),
        ([], "earlier"),
    ],
)
def test_a_bad_earlier_is_refused_by_its_field(server: Server, earlier: object, field: str) -> None:
    record = _record(seed=19)
    end = len(record["actions"])
    body = {**record, "exact": True, "fromPly": end, "earlier": earlier}
    reply = httpx.post(f"{server.url}/v1/review", json=body, timeout=120)
    assert reply.status_code == 400, reply.text
    assert (reply.json()["code"], reply.json()["field"]) == ("invalid_request", field), reply.text


def test_earlier_fields_left_out_are_not_made_up() -> None:
    """A decision sent back without ``simulations`` was taken as searched with 0 (the schema's
    default), so ``wholeNotes`` said '1 decision of 1 searched with fewer than the 1000
    simulations asked (the fewest 0)' of a search the client said nothing of; the same decision
    with its count searched less is still said so (the note's numbers by hand)."""
    record = _record(seed=19)
    total = len(record["actions"])
    bare = {"ply": 1, "player": 0, "loss": 0.0, "accuracy": 100.0, "method": "mcts"}
    body = {**record, "exact": True, "fromPly": total, "limit": {"iterations": 1000}}
    answer = _review({**body, "earlier": {"decisions": [bare]}})
    assert not [n for n in answer["wholeNotes"] if "simulations asked" in n], answer
    told = _review({**body, "earlier": {"decisions": [{**bare, "simulations": 7}]}})
    assert [n for n in told["wholeNotes"] if "simulations asked" in n] == [
        "1 of 1 searched decision got fewer than the 1000 simulations asked (the fewest 7): "
        "the review's time ran short there, so their values and marks are rougher estimates"
    ]


def test_a_record_s_own_claims_open_every_range_s_whole_notes() -> None:
    """A record whose "labels" and "returns" disagree with the replay of its actions (a label
    changed by hand, the returns made the other way round): the command line's review says so
    in its first notes; a ranged answer gives those notes first in its wholeNotes too, the last
    range's and a middle one's alike, since they speak of the whole record (the web table
    shows the last range's wholeNotes as its closing line, and showed no such note)."""
    record = _record(seed=19)
    total = len(record["actions"])
    plain = review_record(record, exact=True)
    game_labels = _labels(record)
    changed = 0 if game_labels[0] != "N" else 1
    claimed = {**record, "labels": [*game_labels[:changed], "nowhere", *game_labels[changed + 1:]],
               "returns": [1.0 - plain["curve"][-1]["values"][0]], "finished": True}  # fmt: skip
    whole = review_record(claimed, exact=True)
    said = whole["notes"][:2]
    assert said[0].startswith('the record\'s "labels" disagree with the replay of its actions: '
                              f"action {changed} is labelled 'nowhere'")  # fmt: skip
    assert said[1].startswith('the record says "returns"')
    for start, stop in ((0, 4), (8, total)):
        answer = _review({**claimed, "exact": True, "fromPly": start, "toPly": stop})
        assert answer["wholeNotes"][:2] == said
        assert answer["notes"][:2] == said
        assert "recordNotes" not in answer
    honest = _review({**record, "labels": game_labels, "exact": True, "fromPly": 8, "toPly": total})
    assert not any(note.startswith("the record") for note in honest["wholeNotes"])


def _labels(record: dict) -> list[str]:
    """The labels of the record's actions, read on a replay of its own."""
    import solver

    state = solver.load_game("dog", **record["options"]).new_initial_state()
    labels = []
    for action in record["actions"]:
        labels.append(state.action_to_string(action))
        state.apply_action(action)
    return labels


def test_the_whole_notes_description_names_every_closing_note() -> None:
    """``/openapi.json``'s ``wholeNotes`` named three of the five closing notes
    (:func:`solver.review.closing_notes`): not the noise note nor the lost note, which a client
    reading the schema could not expect. Each note's distinctive words are in it."""
    from solver.hint.schema import ReviewAnswer

    said = ReviewAnswer.model_json_schema(by_alias=True)["properties"]["wholeNotes"]
    words = " ".join(said["description"].split())
    for note in ("could not tell", "noise", "falling more than", "already lost", "fewer"):
        assert note in words, note
