"""Saved Trial states that play cannot make are refused naming the field, on both engines (the
compiled one reads through the reference's loader); every state play makes still reads back.

Found by attack (h117): ``game_over: true`` and a ``turn_player`` in the middle of the set-up, and
any three texts as a history entry, loaded without a word."""

from __future__ import annotations

import json
import random

import pytest

from solver.errors import FormatError
from solver.games.trial.kernel import KernelTrialGame
from solver.games.trial.rules import TrialGame
from solver.rng import SplitMix64
from solver.testing import random_action

ENGINES = {"reference": TrialGame, "kernel": KernelTrialGame}


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_state_of_random_games_reads_back(engine):
    # the set-up, every turn and the end: each state saved and read again is the same state, and
    # so is a seat's redealt view (its history keeps only the hidden form of what it did not see)
    seen, views = set(), 0
    for seed, players in enumerate((2, 3, 4)):
        game = ENGINES[engine](players=players)
        state, rng = game.new_initial_state(), random.Random(seed)
        for step in range(100_000):
            text = state.to_json()
            assert game.state_from_json(text).to_json() == text
            if step % 11 == 0 and not state.is_terminal():
                seat = rng.randrange(players)
                view = state.resample_hidden(seat, SplitMix64(step)).to_json()
                assert game.state_from_json(view).to_json() == view
                views += 1
            data = json.loads(text)["state"]
            seen.add((data["game_over"], data["turn_player"] is None, "setup_pool" in data))
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
    assert {(False, True, True), (False, False, False), (True, True, False)} <= seen and views


def _mid_setup() -> dict:
    """A fresh game's saved document: the set-up under way (its tiles being placed)."""
    doc = json.loads(TrialGame(players=3).new_initial_state().to_json())
    assert any(f["step"] == "setup_done" for f in doc["state"]["stack"])
    return doc


def _refused(engine: str, doc: dict, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        ENGINES[engine](players=3).state_from_json(json.dumps(doc))


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_finished_game_with_steps_waiting_is_refused(engine):
    doc = _mid_setup()
    ENGINES[engine](players=3).state_from_json(json.dumps(doc))  # as saved, it reads
    doc["state"]["game_over"] = True
    _refused(engine, doc, r"state field game_over to be false while a step waits \(stack\[-1\]: "
             r"place_tile\), found true")  # fmt: skip


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize(("field", "value", "message"), [
    ("turn_player", 1, r"turn_player to be null during the set-up \(nobody's turn yet\), found 1"),
    ("day", 3, r"day to be 1 during the set-up, found 3"),
])  # fmt: skip
def test_a_turn_or_a_day_during_the_set_up_is_refused(engine, field, value, message):
    doc = _mid_setup()
    doc["state"][field] = value
    _refused(engine, doc, message)


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize(("entry", "message"), [
    (["*", "hello", "x"], r"a text 'ACTOR:STEP:ACTION' or a note"),
    (["*", "7:move:12", ""], r"an actor 'c' \(chance\) or a seat 0..2"),
    (["*", "0:teleport:12", ""], r"an action's step a step of the game"),
    (["10", "0:pick_tent:40", "0:pick_tent:?"], r"seen by '\*' or seats 0..2 in order"),
    (["*", "0:move:12", "secret"], r"a redacted text empty exactly when the entry is public"),
    (["0", "0:pick_tent:40", ""], r"a redacted text empty exactly when the entry is public"),
])  # fmt: skip
def test_a_history_entry_play_never_writes_is_refused(engine, entry, message):
    doc = _mid_setup()
    doc["state"]["history"] = [["*", "c:place_tile:85", ""], entry]  # after a first tile
    _refused(engine, doc, r"history\[1\] to be an entry play writes: " + message)
