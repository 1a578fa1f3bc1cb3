"""Any JSON given as a dog state either loads a state every protocol call and searcher handles,
or is a FormatError — on both engines (hypothesis).

Inputs: real states met in random play with one or two fields replaced by arbitrary JSON values,
and arbitrary JSON documents.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver
from solver.errors import FormatError
from solver.rng import SplitMix64
from solver.search import mcts
from solver.testing import check_state

FOREST = "dog/tiny-example"
SCALARS = st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False)
JSON_VALUES = st.recursive(
    SCALARS | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _states_met(engine: str, games: int = 8) -> list[dict]:
    game = solver.load_game("dog", forest=FOREST, engine=engine)
    found = []
    for seed in range(games):
        rng = SplitMix64(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            found.append(json.loads(state.to_json()))
            if state.is_chance_node():
                state.apply_action(rng.pick([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.pick(state.legal_actions()))
    return found


MET = _states_met("reference")
FIELDS = sorted(MET[0])


def _try(engine: str, text: str) -> None:
    game = solver.load_game("dog", forest=FOREST, engine=engine)
    try:
        state = game.state_from_json(text)
    except FormatError:
        return
    check_state(game, state, "a loaded state")
    if not state.is_terminal() and not state.is_chance_node():
        result = mcts(state, iterations=8, seed=0)
        assert result.best_action in state.legal_actions()


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_states(engine, data):
    state = dict(data.draw(st.sampled_from(MET)))
    for _ in range(data.draw(st.integers(1, 2))):
        field = data.draw(st.sampled_from([*FIELDS, "extra"]))
        if data.draw(st.integers(0, 9)) == 0:
            state.pop(field, None)
        else:
            state[field] = data.draw(JSON_VALUES)
    _try(engine, json.dumps(state))


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@settings(max_examples=100, deadline=None)
@given(document=JSON_VALUES)
def test_arbitrary_json(engine, document):
    _try(engine, json.dumps(document))


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=40))
def test_arbitrary_text(engine, text):
    _try(engine, text)


def test_every_state_met_loads_on_both_engines():
    for data in MET[:200]:
        text = json.dumps(data)
        for engine in ("kernel", "reference"):
            game = solver.load_game("dog", forest=FOREST, engine=engine)
            assert json.loads(game.state_from_json(text).to_json()) == data
