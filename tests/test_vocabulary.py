"""One vocabulary for moves and values on every surface (issue 16 §3): ``forest GAME best-move
--json`` rows, hint ``moveInfos`` and review decisions name a move ``action`` / ``label`` with
its ``value``, ``visits``, ``order``, ``pvActions`` (ids) and ``pvLabels`` (labels), whatever
pinned names each surface keeps beside them (best-move's ``pv`` of labels, a hint's ``pv`` of
ids). Before, best-move rows had no ``order``, ``pvActions`` or ``pvLabels`` although
docs/hint-engine.md said they did.

Driven as a user meets it: ``best-move`` as a subprocess, the hint through the engine's one
function, on every game (the dog exactly, so the two surfaces' rows must be equal).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

import solver
from solver.hint.engine import answer
from solver.review import review_record

SHARED = {"action", "label", "order", "visits", "value", "pvActions", "pvLabels", "pvChance"}


def _decision_state(game: str, **options: Any) -> Any:
    state = solver.load_game(game, **options).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def _best_move(argv: list[str]) -> dict[str, Any]:
    run = subprocess.run([sys.executable, "-m", "solver.cli", *argv, "--json", "--no-progress"],
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


CASES = [
    ("dog", {"forest": "dog/tiny-2x2"}, ["dog/tiny-2x2"], {"exact": True}),
    ("guardians", {"players": 2}, ["--players", "2"], {"limit": {"iterations": 40}}),
    ("trial", {"players": 2}, ["--players", "2"], {"limit": {"iterations": 8}}),
]


@pytest.mark.parametrize(("game", "options", "where", "budget"), CASES, ids=[c[0] for c in CASES])
def test_best_move_rows_and_hint_move_infos_share_the_vocabulary(
    game: str, options: dict[str, Any], where: list[str], budget: dict[str, Any]
) -> None:
    state = _decision_state(game, **options)
    flags = ["--exact"] if budget.get("exact") else ["--iterations", "40"]
    if game == "trial":
        flags = ["--iterations", "8"]
    report = _best_move([game, "best-move", *where, "--state", state.to_json(), *flags])
    rows = report["moves"]
    assert rows and all(set(row) >= SHARED for row in rows), rows[:1]
    assert [row["order"] for row in rows] == list(range(len(rows)))
    for row in rows:
        assert row["pvActions"][0] == row["action"] and row["pvLabels"][0] == row["label"]
        assert row["pv"][: len(row["pvLabels"])] == row["pvLabels"]  # the pinned labels
        walker = state.clone()  # the ids replay the labels; pvChance marks the chance steps
        steps = zip(row["pvActions"], row["pvLabels"], row["pvChance"], strict=True)
        for action, label, chance in steps:
            assert walker.action_to_string(action) == label
            assert chance == walker.is_chance_node()
            walker.apply_action(action)
    hint = answer({"id": "v", "game": game, "options": options, "state": state.to_json(),
                   **budget})  # fmt: skip
    assert "error" not in hint, hint
    infos = hint["moveInfos"]
    assert infos and all(set(info) >= SHARED for info in infos)
    for info in infos:
        assert len(info["pvChance"]) == len(info["pvActions"]) and not info["pvChance"][0]
    assert hint["rootInfo"]["method"] == report["method"]
    if game == "dog":  # both exact: the same moves, values and lines
        assert [{k: r[k] for k in SHARED} for r in rows] == [
            {k: i[k] for k in SHARED} for i in infos
        ]


def test_review_decisions_share_the_vocabulary() -> None:
    record = {"game": "dog", "options": {"forest": "dog/tiny-2x2"}, "seed": 0,
              "actions": [11, 0, 3]}  # fmt: skip
    review = review_record(record)
    assert review["decisions"]
    for decision in review["decisions"]:
        assert {"action", "label", "value", "bestAction", "bestLabel", "bestValue", "method",
                "valueKind"} <= set(decision), decision  # fmt: skip


@pytest.mark.parametrize(
    ("game", "leaves"), [("trial", "heuristic-playout"), ("guardians", "heuristic")]
)
def test_a_value_at_a_new_game_says_it_is_an_estimate_and_what_it_rests_on(
    game: str, leaves: str
) -> None:
    """At a new game's chance root nobody has a move, and the value is an estimate whose
    simulations end where the heuristic values them, moves from the set-up: the text, the note
    and the JSON say so, with the simulations and the leaves, as a hint's answer says
    ``exact: false`` and its method (found by attack: the Trial's 0.2997, the guardians' 0.5000
    of the heuristic, were printed as the win probability)."""
    report = _best_move([game, "best-move", "--iterations", "8"])
    assert report["best_action"] is None and report["exact"] is False
    assert (report["simulations"], report["leaves"]) == (8, [leaves])
    (note,) = [note for note in report["notes"] if "nobody has a move" in note]
    assert "an estimate of player 0's win probability" in note and "8 simulations" in note
    assert "the heuristic's guess" in note
    text = subprocess.run(
        [sys.executable, "-m", "solver.cli", game, "best-move", "--iterations", "8",
         "--no-progress"], capture_output=True, text=True, timeout=300,
    ).stdout.splitlines()  # fmt: skip
    assert "estimate" in text[0] and "8 simulations" in text[0] and "heuristic" in text[0]
    hint = answer({"id": "h", "game": game, "limit": {"iterations": 8}, "exact": False})
    assert hint["rootInfo"]["exact"] is False and hint["rootInfo"]["method"] == report["method"]


def test_a_line_through_chance_marks_its_outcomes_in_text_and_json() -> None:
    # the dog's exact line from another-dog rolls the die: the roll is a chance step (the
    # outcome the search followed, not a prediction), in parentheses in the text, true in
    # pvChance; the moves are not (found by the new-user pass: a guardians hint's line
    # "reveal tile 70: P-R-Y-B-E" read as if the hidden mission were known)
    state = _decision_state("dog", forest="dog/another-dog")
    argv = ["dog", "best-move", "dog/another-dog", "--state", state.to_json(), "--exact"]
    row = _best_move(argv)["moves"][0]
    rolls = [i for i, label in enumerate(row["pvLabels"]) if label.startswith("roll")]
    assert rolls and [row["pvChance"][i] for i in rolls] == [True] * len(rolls)
    assert sum(row["pvChance"]) == len(rolls)
    text = subprocess.run(
        [sys.executable, "-m", "solver.cli", *argv, "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert text.returncode == 0, text.stderr
    # one possible outcome, not a known one: "(if roll: 1 step)", not "(roll: 1 step)"
    assert f"(if {row['pvLabels'][rolls[0]]})" in text.stdout
