"""``state.resample_hidden(player, rng)`` as issue 12 pins it, with the ``rng`` a caller has.

Python's ``random.Random`` was taken by the reference engine but refused with an
``AttributeError`` ('next_u64') by the compiled engine, the default since issue 19: the two
engines now take the same generators (a ``solver.rng.SplitMix64`` or a ``random.Random``) and
refuse anything else with an ``OptionError``. The checks are properties independent of the redeal
code: the observer's view is unchanged, the same generator seed gives the same world, and another
seat's view may differ.
"""

from __future__ import annotations

import random

import pytest

from solver.errors import OptionError
from solver.game import CHANCE
from solver.registry import load_game
from solver.rng import SplitMix64


def positions(engine: str, players: int, seed: int, every: int = 15) -> list:
    """Every ``every``-th decision of a seeded random game on ``engine`` (at most 6)."""
    rng = random.Random(seed)
    state = load_game("trial", players=players, engine=engine).new_initial_state()
    found, decisions = [], 0
    while not state.is_terminal() and len(found) < 6:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if decisions % every == 0:
            found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    return found


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_resample_hidden_takes_a_python_random(engine):
    for state in positions(engine, 3, seed=5):
        for p in range(3):
            world = state.resample_hidden(p, random.Random(11))
            assert world.observation(p) == state.observation(p)
            again = state.resample_hidden(p, random.Random(11))
            assert again.to_json() == world.to_json()


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_resample_hidden_still_takes_splitmix64(engine):
    state = positions(engine, 2, seed=8)[-1]
    world = state.resample_hidden(0, SplitMix64(4))
    assert world.observation(0) == state.observation(0)


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize("rng", [3, None, "seed", random.Random])
def test_resample_hidden_refuses_what_is_not_a_generator(engine, rng):
    state = positions(engine, 2, seed=8)[0]
    refused = r"rng must be a solver\.rng\.SplitMix64 or a random\.Random"
    with pytest.raises(OptionError, match=refused):
        state.resample_hidden(0, rng)
