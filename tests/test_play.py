"""solver.play: the shared game driver's action cap."""

from __future__ import annotations

import pickle

import pytest

import solver
from solver.agents import random_agent
from solver.errors import SearchBudgetError
from solver.play import play_game


def test_a_game_longer_than_its_action_cap_is_a_budget_error():
    # tiny-example lasts 20 turns, each at least a roll and a step: far more than 3 actions.
    game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
    with pytest.raises(SearchBudgetError, match="did not end within 3 actions") as caught:
        play_game(game, [random_agent(0)], seed=0, max_actions=3)
    error = caught.value
    assert (error.cap_bytes, error.entries) == (None, None)  # not a memory cap
    again = pickle.loads(pickle.dumps(error))  # worker processes send errors back pickled
    assert (str(again), again.cap_bytes, again.entries) == (str(error), None, None)


def test_the_cap_leaves_a_game_that_ends_in_time_alone():
    game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    record = play_game(game, [random_agent(0)], seed=0)
    assert record.final.is_terminal()
    capped = play_game(game, [random_agent(0)], seed=0, max_actions=len(record.actions))
    assert capped.actions == record.actions
