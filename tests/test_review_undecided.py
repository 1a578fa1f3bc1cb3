"""Decisions an estimate cannot judge (``undecided``): the move played is one of several valued
alike with the best, so its loss is 0 whatever it was. The review counts them and gives the
accuracy over the others (a random player's guardians game read 99% accurate)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from solver.review import _decision, fall_note, mean_accuracy, undecided_note


@pytest.fixture(scope="module")
def random_solo_review(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A random player's level-1 guardians game, recorded and reviewed through the command line
    (``--json``, 200 simulations a position): once for the tests that read it."""
    record = tmp_path_factory.mktemp("random-solo") / "game.json"
    subprocess.run(
        [sys.executable, "-m", "solver.cli", "guardians", "play", "--players", "1", "--option",
         "level=1", "--agents", "random", "--games", "1", "--record", str(record)],
        check=True, capture_output=True,
    )  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "guardians", "review", str(record), "--json",
         "--iterations", "200"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    review: dict = json.loads(out.stdout)
    return review


ROOT = {"currentPlayer": 0, "method": "mcts", "valueKind": "win probability", "visits": 900}


def _moves(*values: float) -> list[dict]:
    return [{"action": k, "label": f"m{k}", "value": v} for k, v in enumerate(values)]


def test_a_move_tied_with_the_best_and_others_is_undecided() -> None:
    assert _decision({"moveInfos": _moves(0.5, 0.5, 0.5), "rootInfo": ROOT}, 2, 1)["undecided"]
    # the best's value alike to four decimals
    assert _decision({"moveInfos": _moves(0.5, 0.49999, 0.1), "rootInfo": ROOT}, 1, 1)["undecided"]


def test_a_move_the_search_tells_apart_or_an_exact_value_is_judged() -> None:
    apart = {"moveInfos": _moves(0.6, 0.5), "rootInfo": ROOT}
    assert not _decision(apart, 0, 1)["undecided"] and not _decision(apart, 1, 1)["undecided"]
    exact = {"moveInfos": _moves(0.5, 0.5), "rootInfo": {**ROOT, "method": "exact"}}
    assert not _decision(exact, 1, 1)["undecided"]
    alone = {"moveInfos": _moves(0.5), "rootInfo": ROOT}
    assert not _decision(alone, 0, 1)["undecided"]
    # played below a tie of others: judged (a loss)
    below = _decision({"moveInfos": _moves(0.5, 0.5, 0.2), "rootInfo": ROOT}, 2, 1)
    assert not below["undecided"] and abs(below["loss"] - 0.3) < 1e-12


def test_the_note_counts_them_and_gives_the_others_accuracy() -> None:
    decisions = [
        {"player": 0, "accuracy": 100.0, "undecided": True},
        {"player": 0, "accuracy": 50.0, "undecided": False},
        {"player": 1, "accuracy": 80.0, "undecided": False},
        {"player": 1, "accuracy": 100.0, "undecided": True},
    ]
    note = undecided_note(decisions)
    assert note is not None and note.startswith("at 2 of 4 decisions the move played was one")
    assert note.endswith("over the other 2: player 0 50.0, player 1 80.0")
    assert undecided_note([{"player": 0, "accuracy": 90.0, "undecided": False}]) is None
    assert mean_accuracy(decisions) == {"0": 75.0, "1": 90.0}  # the pinned accuracy unchanged


def test_a_guardians_review_notes_its_undecided_decisions(random_solo_review: dict) -> None:
    review = random_solo_review
    undecided = [d for d in review["decisions"] if d["undecided"]]
    for d in undecided:  # each is a loss-0 move of an estimate
        assert d["loss"] < 5e-5 and d["method"] != "exact"
    assert undecided, "a random player's solo game has placements its heuristic values alike"
    notes = [n for n in review["notes"] if "could not tell them apart" in n]
    assert notes == [undecided_note(review["decisions"])]
    assert notes[0].startswith(f"at {len(undecided)} of {len(review['decisions'])} ")


def _curve(*values: float) -> list[dict]:
    return [{"ply": k, "value": v, "player": 0, "values": [v, 1 - v]} for k, v in enumerate(values)]


def test_a_fall_the_moves_did_not_give_away_is_said_per_player() -> None:
    # player 0 moves at plies 1 and 3 (positions 0 and 2), losing 0.05 in all; its value falls
    # 0.6 -> 0.1 (0.45 more than its moves gave away); player 1 rises: nothing to say of it
    curve = _curve(0.6, 0.55, 0.5, 0.3, 0.1)
    decisions = [{"ply": 1, "player": 0, "loss": 0.05}, {"ply": 3, "player": 0, "loss": 0.0},
                 {"ply": 2, "player": 1, "loss": 0.0}]  # fmt: skip
    note = fall_note(decisions, curve, "win probability")
    assert note is not None
    assert note.startswith("player 0's win probability fell from 0.60 to 0.10 while their moves "
                           "gave away 0.05: the rest fell between the moves")  # fmt: skip
    assert "player 1" not in note
    # a fall the moves account for, but for less than the margin: nothing said
    assert fall_note([{"ply": 1, "player": 0, "loss": 0.3}], curve, "win probability") is None
    assert fall_note([{"ply": 1, "player": 0, "loss": 0.26}], curve, "win probability") is None
    assert fall_note([{"ply": 1, "player": 0, "loss": 0.24}], curve, "win probability")
    assert fall_note(decisions, [], "win probability") is None


def test_a_random_players_guardians_review_says_its_fall_was_not_judged(
    random_solo_review: dict,
) -> None:
    review = random_solo_review
    assert review["curve"][-1]["values"] == [0.0]  # the random player lost
    lost = sum(d["loss"] for d in review["decisions"] if d["loss"] is not None)
    said = [n for n in review["notes"] if "fell between the moves" in n]
    assert said == [fall_note(review["decisions"], review["curve"], "win probability")]
    assert f"while their moves gave away {lost:.2f}" in said[0]


def test_a_tie_the_hint_agent_ordered_is_not_valued_above_its_choice() -> None:
    # the first listed move (the hint agent's) is within ALIKE of a move valued a hair higher:
    # playing that one is no move "valued above the search's choice"
    tied = _decision({"moveInfos": _moves(0.5, 0.50003), "rootInfo": ROOT}, 1, 1)
    assert tied["bestBy"] == "search" and tied["loss"] == 0 and tied["undecided"]
    above = _decision({"moveInfos": _moves(0.5, 0.6), "rootInfo": ROOT}, 1, 1)
    assert above["bestBy"] == "played" and above["loss"] == 0 and not above["undecided"]


def test_an_exact_reviews_fall_is_put_down_to_chance_alone() -> None:
    curve = _curve(0.6, 0.55, 0.5, 0.3, 0.1)
    decisions = [{"ply": 1, "player": 0, "loss": 0.0}]
    exact = fall_note(decisions, curve, "win probability", exact=True)
    estimated = fall_note(decisions, curve, "win probability")
    assert exact is not None and "(chance)" in exact and "drift" not in exact
    assert estimated is not None and "estimates' drift" in estimated
