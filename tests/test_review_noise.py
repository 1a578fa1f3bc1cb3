"""A review's second look (solver.review_noise): a loss the first search gives is searched
again with other seeds and judged against the searches' spread; the review's value words name
the finished game's exact value as the end's; the fall note reads a hidden-card game's curve."""

from __future__ import annotations

from typing import Any

import pytest

from solver.review import _judged, fall_note, review_record
from solver.review_walk import Seen

ROOT = {"currentPlayer": 0, "player": 0, "method": "ismcts", "valueKind": "win probability",
        "visits": 300}  # fmt: skip


def _reply(best: float, played: float) -> dict[str, Any]:
    """A search's answer: move 0 (most simulated) valued ``best``, move 1 ``played``."""
    moves = [{"action": 0, "label": "a", "value": best, "visits": 200},
             {"action": 1, "label": "b", "value": played, "visits": 100}]  # fmt: skip
    return {"moveInfos": moves, "rootInfo": ROOT}


def _judge(first: dict[str, Any], *others: dict[str, Any]) -> dict[str, Any]:
    seeds: list[int] = []

    def again(ply: int, state: Any, seed: int) -> dict[str, Any]:
        seeds.append(seed)
        return others[seed - 1]

    class State:
        def clone(self) -> State:
            return self

    decision = _judged(Seen(4, first, 4, 0, 0), 1, State(), again)  # type: ignore[arg-type]
    assert seeds == ([1, 2] if others else [])
    return decision


def test_a_loss_every_search_agrees_on_is_judged() -> None:
    # each search: 0.6 against 0.5, no spread: the loss 0.1 stands (a mistake)
    d = _judge(_reply(0.6, 0.5), _reply(0.6, 0.5), _reply(0.6, 0.5))
    assert d["searches"] == 3 and not d["withinNoise"] and not d["undecided"]
    assert d["loss"] == pytest.approx(0.1) and d["mark"] == "mistake"
    assert d["lossError"] == pytest.approx(0.0, abs=1e-12)


def test_a_loss_within_the_searches_spread_is_undecided() -> None:
    # differences 0.12, -0.02, 0.05: pooled loss 0.05 (an inaccuracy by the first search's
    # 0.12 alone, a mistake); their standard deviation 0.07, its standard error 0.07/√3 =
    # 0.0404, and 0.05 < 2 x 0.0404: within the noise
    d = _judge(_reply(0.62, 0.5), _reply(0.5, 0.52), _reply(0.55, 0.5))
    assert d["loss"] == pytest.approx(0.05) and d["lossError"] == pytest.approx(0.07 / 3**0.5)
    assert d["withinNoise"] and d["undecided"]
    assert d["mark"] is None and d["accuracy"] == 99.9999


def test_a_move_played_as_the_best_is_not_searched_again() -> None:
    d = _judge(_reply(0.5, 0.7))  # the move played valued above the search's choice: loss 0
    assert d["loss"] == 0.0 and d["searches"] == 1 and not d["withinNoise"]


def test_a_hidden_card_game_s_fall_is_read_from_the_seat_s_own_points() -> None:
    """The Trial's points before its end carry only the value of the seat to move (no
    ``values``): the fall note read none of them, so it never spoke of a Trial."""
    curve = [{"ply": 0, "value": 0.6, "player": 0}, {"ply": 1, "value": 0.5, "player": 1},
             {"ply": 2, "value": 0.0, "player": 0, "values": [0.0, 1.0]}]  # fmt: skip
    decisions = [{"ply": 1, "player": 0, "loss": 0.05, "undecided": False},
                 {"ply": 2, "player": 1, "loss": 0.0, "undecided": False}]  # fmt: skip
    note = fall_note(decisions, curve, "win probability")
    assert note is not None and note.startswith(
        "player 0's win probability fell from 0.60 to 0.00 while their moves gave away 0.05"
    )
    # a loss within the noise (undecided, counted accurate) gives nothing away
    noisy = [{**decisions[0], "loss": 0.4, "undecided": True}, decisions[1]]
    assert "gave away 0.00" in (fall_note(noisy, curve, "win probability") or "")


def _first_option_solo_record() -> dict[str, Any]:
    """A solo guardians game to its end: the first outcome and the first move everywhere."""
    import solver

    record: dict[str, Any] = {"game": "guardians", "options": {"players": 1, "level": 1},
                              "seed": 0, "actions": []}  # fmt: skip
    state = solver.load_game("guardians", players=1, level=1).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.chance_outcomes()[0][0]
        else:
            action = state.legal_actions()[0]
        record["actions"].append(action)
        state.apply_action(action)
    return record


def test_a_last_range_of_the_end_alone_says_its_value_is_the_end_s() -> None:
    """The web table reviews six plies a request and joins the ranges' words: a guardians
    game's last range, valued only by the finished game, said "exact win probability" bare, and
    the graph read "heuristic estimate of the win probability / exact win probability at the
    game's end / exact win probability along the game" (a new user's pass). A range after ply 0
    says the end's value is the end's; a whole review of the end alone keeps the bare words."""
    record = _first_option_solo_record()
    last = len(record["actions"])
    tail = review_record(record, iterations=5, start=last - 1)
    assert tail["curve"][-1]["method"] == "exact", tail["curve"]
    assert tail["valueLabel"] == "exact win probability at the game's end"
    dog = {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 1,  # won at ply 8
           "actions": [11, 3, 0, 10, 0, 4, 11, 0]}  # fmt: skip
    assert review_record(dog, start=8)["valueLabel"] == "exact win probability at the game's end"
    assert review_record(dog)["valueLabel"] == "exact win probability"


def test_the_exact_value_of_the_game_s_end_is_said_as_the_end_s() -> None:
    """A guardians review's estimates and its finished game's exact value read "heuristic
    estimate of the win probability / exact win probability" as though some estimates were
    exact; an exact dog review keeps its one label."""
    record = _first_option_solo_record()
    review = review_record(record, iterations=5, start=len(record["actions"]) - 4)
    assert review["finished"] and review["curve"][-1]["method"] == "exact"
    labels = review["valueLabel"].split(" / ")
    assert labels[-1] == "exact win probability at the game's end", labels
    assert all("exact" not in label for label in labels[:-1]) and len(labels) > 1
    dog = review_record({"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 0,
                         "actions": [10, 1]})  # fmt: skip
    assert dog["valueLabel"] == "exact win probability"


def test_no_decision_within_the_noise_is_said_as_none() -> None:
    """A guardians solo review read "0 of the 7 decisions whose first search valued the move
    played below the best were within the search's noise ...: searched 3 times ..., so they
    are undecided (no mark, counted accurate)", words about decisions there were none of (a new
    user's pass). Where none was, the note says so and that the marks stand."""
    from solver.review_noise import noise_note

    again = [{"ply": p, "player": 0, "loss": 0.1, "searches": 3, "withinNoise": False}
             for p in (1, 2)]  # fmt: skip
    assert noise_note(again) == (
        "none of the 2 decisions whose first search valued the move played below the best was "
        "within the search's noise at this budget (searched 3 times with other seeds): their "
        "marks stand"
    )
    one = [{**again[0], "withinNoise": True}, again[1]]
    said = noise_note(one)
    assert said is not None and said.startswith("1 of the 2 decisions") and "undecided" in said
