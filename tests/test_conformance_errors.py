"""``check_random_play`` names the invariant a broken game breaks.

A small correct game (a die rolls a target of 2 or 3; the player adds 1 or 2 until the total
reaches it, winning on an exact hit) passes; each variant breaks one invariant and the
:class:`~solver.testing.ConformanceError` names exactly that one.
"""

from __future__ import annotations

import json

import pytest

from solver.errors import FormatError, IllegalActionError
from solver.game import CHANCE, TERMINAL
from solver.testing import INVARIANTS, ConformanceError, check_random_play


class Game:
    name = "hit"
    engine = "reference"

    def new_initial_state(self):
        return State(self, None, 0)

    def num_players(self):
        return 1

    def num_distinct_actions(self):
        return 4

    def state_from_json(self, text):
        data = json.loads(text)
        return State(self, data["target"], data["total"])


class State:
    def __init__(self, game, target, total):
        self.game, self.target, self.total = game, target, total

    def get_game(self):
        return self.game

    def current_player(self):
        if self.target is None:
            return CHANCE
        return TERMINAL if self.total >= self.target else 0

    def is_chance_node(self):
        return self.current_player() == CHANCE

    def is_terminal(self):
        return self.current_player() == TERMINAL

    def legal_actions(self):
        if self.is_terminal():
            return []
        return [2, 3] if self.is_chance_node() else [0, 1]

    def chance_outcomes(self):
        return [(2, 0.5), (3, 0.5)] if self.is_chance_node() else []

    def apply_action(self, action):
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal")
        if self.is_chance_node():
            self.target = action
        else:
            self.total += action + 1

    def clone(self):
        return type(self)(self.game, self.target, self.total)

    def returns(self):
        return [1.0 if self.is_terminal() and self.total == self.target else 0.0]

    def action_to_string(self, action):
        return {0: "add 1", 1: "add 2", 2: "target 2", 3: "target 3"}[action]

    def string_to_action(self, label):
        return {"add 1": 0, "add 2": 1, "target 2": 2, "target 3": 3}[label]

    def to_json(self):
        return json.dumps({"target": self.target, "total": self.total}, sort_keys=True)


class BadSum(State):
    def chance_outcomes(self):
        return [(2, 0.5), (3, 0.4)] if self.is_chance_node() else []


class BadLabel(State):
    def string_to_action(self, label):
        return 0


class BadJson(State):
    def to_json(self):
        return "{not json"


class BadClone(State):
    def clone(self):
        return self  # not a copy: applying an action to it changes the original


class AcceptsIllegal(State):
    def apply_action(self, action):
        if self.is_chance_node():
            self.target = action
        else:
            self.total += action + 1


class EarlyReturns(State):
    def returns(self):
        return [0.5] if not self.is_terminal() else super().returns()


class Moody(State):
    """Each new game (the play, then its replay) offers other moves: not a function of the seed."""

    def legal_actions(self):
        if self.is_terminal() or self.is_chance_node():
            return super().legal_actions()
        return [0, 1] if self.game.plays % 2 else [1]


class MoodyGame(Game):
    plays = 0

    def new_initial_state(self):
        self.plays += 1
        return Moody(self, None, 0)


class BadJsonLoad(Game):
    def state_from_json(self, text):
        raise FormatError("a state", line=1, column=1)


def _game(state_class, game_class=Game):
    class Variant(game_class):
        def new_initial_state(self):
            return state_class(self, None, 0)

        def state_from_json(self, text):
            if game_class is not Game:
                return super().state_from_json(text)
            data = json.loads(text)
            return state_class(self, data["target"], data["total"])

    return Variant()


def test_the_correct_game_passes():
    report = check_random_play(Game(), seeds=range(30))
    assert report.games == 30 and report.chance_nodes == 30


@pytest.mark.parametrize(
    ("state_class", "game_class", "invariant"),
    [
        (BadSum, Game, "chance-probabilities"),
        (BadLabel, Game, "labels"),
        (BadJson, Game, "json-round-trip"),
        (State, BadJsonLoad, "json-round-trip"),
        (BadClone, Game, "clone-independent"),
        (AcceptsIllegal, Game, "illegal-refused"),
        (EarlyReturns, Game, "returns-at-end"),
    ],
)
def test_a_broken_invariant_is_named(state_class, game_class, invariant):
    with pytest.raises(ConformanceError) as caught:
        check_random_play(_game(state_class, game_class), seeds=range(10))
    error = caught.value
    assert error.invariant == invariant
    assert str(error).startswith("hit seed 0, after ")
    assert f"invariant {invariant!r} broken ({INVARIANTS[invariant]})" in str(error)


def test_a_game_that_does_not_replay_its_seed_is_named():
    with pytest.raises(ConformanceError) as caught:
        check_random_play(MoodyGame(), seeds=range(20), check_every=0)
    assert caught.value.invariant == "same-seed-same-game"
