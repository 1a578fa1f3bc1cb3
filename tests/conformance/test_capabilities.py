"""Every registered game's declared capabilities hold on its states, with every engine.

The spec says once what a game can do (hidden information, a heuristic, the utility range,
constant sum); the shared machinery reads that and never probes. These tests are the probe,
done once, against the declaration: what the states actually offer, and what random games from
many seeds actually return.
"""

from __future__ import annotations

import math

import pytest

from solver.kernels import kernel_of
from solver.registry import game_spec
from solver.rng import SplitMix64
from solver.testing import game_cases

CASES = [pytest.param(*case, id="-".join(map(str, case))) for case in game_cases(1)]


def _open(name: str, engine: str, source: str | None, players: int | None = None):
    return game_spec(name).open(source, engine=engine, players=players)


def _has_heuristic(state) -> bool:
    capsules = kernel_of(state)
    if capsules is not None:
        from solver._ext import mcts

        return bool(mcts.kernel_has_heuristic(capsules.handle))
    return callable(getattr(state, "heuristic", None))


@pytest.mark.parametrize(("name", "engine", "source"), CASES)
def test_declared_hidden_information_and_heuristic_match_the_states(name, engine, source):
    spec = game_spec(name)
    state = _open(name, engine, source).state
    hidden_methods = ("resample_hidden", "information_state_string", "observation")
    offered = [callable(getattr(state, method, None)) for method in hidden_methods]
    assert offered == [spec.hidden_information] * 3
    assert _has_heuristic(state) == spec.has_heuristic(engine)
    assert ("mcts" in spec.agent_names()) == (not spec.hidden_information or "mcts" in spec.agents)
    assert ("ismcts" in spec.agent_names()) == spec.hidden_information
    assert ("exact" in spec.agent_names()) == spec.exact
    assert spec.strongest_agent in spec.agent_names()


def _final_returns(name: str, engine: str, source: str | None, players: int | None, seeds):
    for seed in seeds:
        state = _open(name, engine, source, players).state
        rng = SplitMix64(seed)
        for _ in range(20_000):
            if state.is_terminal():
                break
            if state.is_chance_node():
                from solver.game import sample_chance

                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.pick(state.legal_actions()))
        assert state.is_terminal(), f"{name} seed {seed}: no end within 20000 actions"
        yield state.returns()


@pytest.mark.parametrize(
    ("name", "players"),
    [(name, players) for name in ("dog", "guardians", "trial") for players in (None, 2)],
)
def test_returns_lie_in_the_utility_range_and_sum_as_declared(name, players):
    spec = game_spec(name)
    if players is not None and players not in spec.players:
        pytest.skip(f"{name} is not played by {players}")
    source = spec.example if not spec.default_source else None
    low, high = spec.utility_range
    engine = spec.engine_names()[-1]  # the reference engine where there are two
    sums = set()
    for returns in _final_returns(name, engine, source, players, range(6)):
        assert all(low <= r <= high for r in returns), returns
        sums.add(round(math.fsum(returns), 9))
    if spec.constant_sum and len(returns) >= 2:
        assert sums == {high}
