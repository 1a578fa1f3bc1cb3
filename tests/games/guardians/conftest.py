"""A seeded solo game of forest guardians, for the tests that follow an agent's play."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import solver
from solver.game import sample_chance
from solver.rng import SplitMix64

SoloPlay = Callable[..., tuple[list[int], Any]]


def _play_solo(
    make_player: Callable[..., Callable[[Any], int]],
    seed: int,
    *,
    engine: str = "kernel",
    stop: Callable[[Any], bool] = lambda state: False,
) -> tuple[list[int], Any]:
    """A level-1 solo game's actions and its last state: the player ``make_player(game, seed=seed)``
    moves (each move checked legal), chance is drawn from ``seed``, until the game ends or
    ``stop(state)`` holds."""
    game = solver.load_game("guardians", players=1, level=1, engine=engine)
    player = make_player(game, seed=seed)
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    actions: list[int] = []
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = player(state)
            assert action in state.legal_actions()
        state.apply_action(action)
        actions.append(int(action))
    return actions, state


@pytest.fixture
def play_solo() -> SoloPlay:
    """:func:`_play_solo`: a seeded level-1 solo game played by one agent."""
    return _play_solo
