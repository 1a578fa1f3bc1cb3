"""A review's whole budget: ``forest GAME review --total-seconds S`` (``--seconds`` stays a
position's, a contract), counted from the command's start; ``POST /v1/review``'s
``totalSeconds`` counted from the service's admission. Before, the command had no total cap at
all (``--seconds 1`` on a Trial record of 750 positions: 750 s, the progress line's estimate
the only word of it). No assertion reads the wall clock: a start long past stands for the time
spent, and what is checked is where the review stopped and what it said."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from solver import command_clock
from solver.cli import main
from solver.errors import OptionError
from solver.hint.engine import Caps
from solver.hint.jobs import review_job
from solver.review import RecordError, review_record

RECORD = {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 0,
          "actions": [12, 0, 4, 0, 11, 0, 1]}  # fmt: skip
LONG_AGO = 100.0


def _stopped_at_once(review: dict) -> None:
    assert review["complete"] is False and review["reviewed"] == 0
    assert any("ran out" in note for note in review["notes"])


def test_a_total_begun_long_ago_stops_the_review_at_its_first_position() -> None:
    whole = review_record(RECORD, exact=False, total_seconds=30.0)
    assert whole["complete"] is True
    late = review_record(RECORD, exact=False, total_seconds=30.0, since=time.monotonic() - 60)
    _stopped_at_once(late)
    # the first position is valued all the same (on its least share of time: its value may differ)
    assert [p["ply"] for p in late["curve"]] == [0] and 0.0 <= late["curve"][0]["value"] <= 1.0


def test_a_start_later_than_now_is_read_as_now() -> None:
    review = review_record(RECORD, exact=False, total_seconds=30.0,
                           since=time.monotonic() + LONG_AGO)  # fmt: skip
    assert review["complete"] is True


def test_the_service_s_review_spends_from_its_admission() -> None:
    raw = {"id": "r", **RECORD, "exact": False, "totalSeconds": 30}
    assert review_job(raw, Caps())["complete"] is True
    _stopped_at_once(review_job(raw, Caps(), time.monotonic() - LONG_AGO))


def _review(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> dict:
    assert main(["dog", "review", str(path), "--mcts", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_command_s_total_seconds_run_from_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    assert _review(capsys, path, "--total-seconds", "30")["complete"] is True
    monkeypatch.setattr(command_clock, "started", lambda: time.monotonic() - LONG_AGO)
    assert (
        _review(capsys, path, "--seconds", "30", "--iterations", "50")["complete"] is True
    )  # a position's: no cap
    _stopped_at_once(_review(capsys, path, "--total-seconds", "30"))


def test_total_seconds_is_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["dog", "review", "x.json", "--total-seconds", "0"])
    assert exc.value.code == 2 and "--total-seconds" in capsys.readouterr().err


def test_decisions_searched_less_than_asked_are_counted_in_a_note() -> None:
    """Found by a new user's pass: a review whose whole budget ran short searched some positions
    with fewer simulations than asked, and said nothing of it. The note counts exactly the
    decisions whose own ``simulations`` fall short (a budget-independent check: whatever the
    machine's speed, the note and the decisions agree)."""
    import re

    import solver
    from solver.review_notes import searched_less
    from solver.rng import SplitMix64
    from solver.testing import uniform_action

    state, rng, actions = (
        solver.load_game("trial", players=2).new_initial_state(),
        SplitMix64(4),
        [],
    )
    while len(actions) < 130 and not state.is_terminal():
        actions.append(uniform_action(state, rng))
        state.apply_action(actions[-1])
    record = {"game": "trial", "options": {"players": 2}, "seed": 0, "actions": actions}
    asked = 100_000  # more ISMCTS simulations of the Trial than 0.1 s a position holds here
    review = review_record(record, iterations=asked, total_seconds=2.0, start=100, stop=110)
    assert review["reviewed"] > 100
    short = [d for d in review["decisions"] if searched_less(d, asked)]
    said = [n for n in review["notes"] if "simulations asked" in n]
    if short:
        assert len(said) == 1, review["notes"]
        said_as = rf"{len(short)} of \d+ searched decisions?( \(moves forced aside\))? got fewer "
        assert re.match(rf"{said_as}than the {asked}", said[0])
    else:
        assert said == []
    # and never when every decision had its simulations
    full = review_record(record, iterations=8, start=100, stop=110)
    assert all(not searched_less(d, 8) for d in full["decisions"])
    assert not any("simulations asked" in n for n in full["notes"])


def test_searched_less_reads_the_decision_s_own_simulations() -> None:
    from solver.review_notes import searched_less, searched_less_note

    rows = [{"ply": 1, "method": "mcts", "simulations": 120, "forced": False},
            {"ply": 2, "method": "mcts", "simulations": 300, "forced": False},
            {"ply": 3, "method": "mcts", "simulations": 0, "forced": True},
            {"ply": 4, "method": "exact", "simulations": 0, "forced": False}]  # fmt: skip
    assert [searched_less(r, 300) for r in rows] == [True, False, False, False]
    assert searched_less_note(rows, 300) == (
        "1 of 3 searched decisions (moves forced aside) got fewer than the 300 simulations "
        "asked (the fewest 120): the review's time ran short there, so their values and marks "
        "are rougher estimates"
    )
    assert searched_less_note(rows, None) is None


@pytest.mark.parametrize(
    ("given", "refused"),
    [
        ({"total_seconds": float("nan")}, "total_seconds must be a finite number > 0"),  # no bound
        ({"total_seconds": -1.0}, "total_seconds must be a finite number > 0"),
        ({"total_seconds": True}, "total_seconds must be a finite number > 0"),
        ({"total_seconds": "3"}, "total_seconds must be a finite number > 0"),  # a TypeError
        ({"total_seconds": 10**400}, "total_seconds must be a finite number > 0"),  # Overflow
        ({"exact": "yes"}, "exact must be True, False or None"),  # it was taken as true
        ({"start": 1.5}, "start must be a ply"),  # a TypeError
        ({"stop": "3"}, "stop must be a ply"),  # a TypeError
        ({"since": float("nan")}, "since must be a time.monotonic() reading"),
    ],
)
def test_the_api_refuses_a_bad_argument_by_name(given, refused):
    """Found by attack: review_record ran a review of no bound for a total_seconds of NaN (and
    took -1, True or exact="yes" as given), and raised TypeError or OverflowError for a text, a
    fraction or a huge number: the API raises only the library's errors."""
    with pytest.raises(OptionError, match=refused.replace("(", r"\(").replace(")", r"\)")):
        review_record(RECORD, iterations=5, **given)


@pytest.mark.parametrize("record", [None, [], "x", 5])
def test_the_api_refuses_a_record_that_is_no_object(record):
    with pytest.raises(RecordError, match="a game record is a JSON object"):
        review_record(record, iterations=5)  # it raised AttributeError: no attribute 'get'
