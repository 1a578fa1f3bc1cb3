"""Decisions an estimate cannot judge (``undecided``): the move played is one of several valued
alike with the best, so its loss is 0 whatever it was. The review counts them and gives the
accuracy over the others (a random player's guardians game read 99% accurate)."""

from __future__ import annotations

import json

from solver.review import _decision, mean_accuracy, undecided_note

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


def test_a_guardians_review_notes_its_undecided_decisions(tmp_path) -> None:
    import subprocess
    import sys

    record = tmp_path / "game.json"
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
    review = json.loads(out.stdout)
    undecided = [d for d in review["decisions"] if d["undecided"]]
    for d in undecided:  # each is a loss-0 move of an estimate
        assert d["loss"] < 5e-5 and d["method"] != "exact"
    assert undecided, "a random player's solo game has placements its heuristic values alike"
    notes = [n for n in review["notes"] if "could not tell them apart" in n]
    assert notes == [undecided_note(review["decisions"])]
    assert notes[0].startswith(f"at {len(undecided)} of {len(review['decisions'])} ")
