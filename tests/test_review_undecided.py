"""Decisions an estimate cannot judge (``undecided``): the move played is one of several valued
alike with the best, so its loss is 0 whatever it was. The review counts them and gives the
accuracy over the others (a random player's guardians game read 99% accurate)."""

from __future__ import annotations

import json
import math
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
    assert note.endswith("over the other 2, leaving them out: player 0 50.0, player 1 80.0")
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


def _lichess(loss: float) -> float:
    """Lichess's accuracy curve written out again (docs/hint-engine.md's constants)."""
    delta = min(100.0, max(0.0, 100.0 * loss))
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * delta) - 3.1669))


def _tied_or_apart(base, position, ident, **kw):
    """A made-up search: at even plies every legal move valued 0.5 (the played one is tied with
    the best and others: undecided), at odd plies the first legal move 0.62 and the rest 0.5."""
    state = position.state
    if state.is_chance_node():
        root = {"value": 0.5, "valueKind": "win probability", "method": "mcts", "player": 0,
                "currentPlayer": -1, "visits": 100}  # fmt: skip
        return {"rootInfo": root, "moveInfos": []}
    ply = int(ident.rsplit("-", 1)[1])
    legal = state.legal_actions()
    values = [0.5] * len(legal) if ply % 2 == 0 else [0.62] + [0.5] * (len(legal) - 1)
    moves = [{"action": a, "label": state.action_to_string(a), "value": v, "visits": 10}
             for a, v in zip(legal, values, strict=True)]  # fmt: skip
    root = {"value": max(values, default=0.5), "valueKind": "win probability",
            "method": "mcts", "player": 0, "currentPlayer": state.current_player(),
            "visits": 100}  # fmt: skip
    return {"rootInfo": root, "moveInfos": moves}


def test_the_accuracy_line_and_the_note_say_which_decisions_each_counts(monkeypatch, capsys):
    """Defect: ``forest GAME review``'s last line (``accuracy (Lichess's curve, unweighted
    mean): player 0 99.1``) counted the decisions valued alike with the best as accurate and the
    closing note's accuracy over the others did not, with nothing on the line to say so: two
    accuracies of one player that read as a contradiction. Each now says what it counts; both
    figures are checked against Lichess's curve over the decisions each names."""
    import solver
    import solver.review
    from solver.agents import make_agent
    from solver.cli_human import Screen
    from solver.cli_review import _show_review
    from solver.play import play_game

    game = solver.load_game("dog", forest="dog/another-dog")
    played = play_game(game, [make_agent("random", game, seed=19)], seed=19)
    record = {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 19,
              "actions": played.actions}  # fmt: skip
    monkeypatch.setattr(solver.review, "_ask", _tied_or_apart)
    review = solver.review.review_record(record)
    decisions = review["decisions"]
    tied = [d for d in decisions if d["undecided"]]
    judged = [d for d in decisions if not d["undecided"]]
    assert tied and judged and any(d["loss"] > 0.1 for d in judged)
    _show_review(Screen(), review, record, "game.json")
    out = capsys.readouterr().out
    every = sum(_lichess(d["loss"]) for d in decisions) / len(decisions)
    others = sum(_lichess(d["loss"]) for d in judged) / len(judged)
    assert (
        f"accuracy (Lichess's curve, unweighted mean, counting the {len(tied)} decisions valued "
        f"alike with the best as accurate): player 0 {every:.1f}\n"
    ) in out, out
    assert (
        f"the accuracy shown counts them as accurate (loss 0); over the other {len(judged)}, "
        f"leaving them out: player 0 {others:.1f}\n"
    ) in out, out
