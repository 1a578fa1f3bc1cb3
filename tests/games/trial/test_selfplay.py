"""Random self-play from many seeds, with every invariant checked after every action, and
determinisations that never change what the observer sees."""

from __future__ import annotations

import random

import pytest

from solver.game import CHANCE
from solver.games.trial.invariants import Checker
from solver.games.trial.rules import TrialGame, TrialState
from solver.rng import SplitMix64
from solver.testing import random_action

GAMES = {n: TrialGame(players=n) for n in (2, 3, 4)}


def random_game(seed: int, players: int, check=None, every=None) -> TrialState:
    """Play a whole game with uniform random decisions and exact chance sampling."""
    rng = random.Random(seed)
    state = GAMES[players].new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            action = rng.choice(legal)
        state.apply_action(action)
        actions += 1
        assert actions < 20_000, "a game that does not end"
        if check is not None:
            check(state)
        if every is not None:
            every(state, rng)
    return state


def _finished(state: TrialState) -> None:
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-9 and all(r >= 0 for r in returns)
    assert all(
        not me["tents"] and not me["paws"] and not me["strong_paw"] for me in state.data["players"]
    )
    assert state.data["day"] == 4


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_every_invariant(seed):
    state = random_game(seed, 2 + seed % 3, check=Checker(observations=True))
    _finished(state)


@pytest.mark.parametrize("seed", range(12, 40))
def test_random_games_keep_the_component_invariants(seed):
    state = random_game(seed, 2 + seed % 3, check=Checker(observations=False))
    _finished(state)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40, 440))
def test_many_random_games(seed):
    state = random_game(seed, 2 + seed % 3, check=Checker(observations=seed % 4 == 0))
    _finished(state)


def _same_view(state: TrialState, rng: random.Random) -> None:
    if rng.random() > 0.05:
        return
    for p in range(state.data["player_count"]):
        twin = state.resample_hidden(p, SplitMix64(rng.getrandbits(64)))
        assert twin.observation(p) == state.observation(p)
        assert twin.information_state_string(p) == state.information_state_string(p)
        assert twin.legal_actions() == state.legal_actions() or state.current_player() != p
        Checker(observations=False)(twin)


@pytest.mark.parametrize("seed", range(4))
def test_resample_hidden_never_changes_what_the_observer_sees(seed):
    random_game(100 + seed, 2 + seed % 3, every=_same_view)


def test_a_determinisation_changes_hidden_cards():
    rng = random.Random(7)
    state = GAMES[4].new_initial_state()
    while state.data["day"] < 2 and not state.is_terminal():
        state.apply_action(random_action(state, rng))
    hands = [sorted(me["hand"]) for me in state.data["players"]]
    changed = False
    for k in range(5):
        twin = state.resample_hidden(0, SplitMix64(k))
        assert sorted(twin.data["players"][0]["hand"]) == hands[0]
        changed |= any(sorted(twin.data["players"][q]["hand"]) != hands[q] for q in (1, 2, 3))
    assert changed


def test_json_round_trip_mid_game():
    rng = random.Random(3)
    game = GAMES[3]
    state = game.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    twin = game.state_from_json(state.to_json())
    assert twin.to_json() == state.to_json()
    assert twin.legal_actions() == state.legal_actions()
    for p in range(3):  # the history comes back too
        assert twin.information_state_string(p) == state.information_state_string(p)
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        twin.action_to_string(a) for a in twin.legal_actions()
    ]


def test_a_bad_saved_state_is_a_format_error():
    import json

    from solver.errors import FormatError

    game = GAMES[2]
    good = json.loads(game.new_initial_state().to_json())
    state, fmt = good["state"], good["format"]
    for broken in (
        "{",
        json.dumps({"game": "dog", "state": {}}),
        json.dumps({"game": "trial", "format": fmt, "state": {**state, "player_count": 3}}),
        json.dumps({"game": "trial", "format": fmt, "state": {**state, "extra": 1}}),
        json.dumps(
            {"game": "trial", "format": fmt, "state": {**state, "stack": [{"step": "fly"}]}}
        ),
        json.dumps({"game": "trial", "format": fmt, "state": {**state, "players": [{}, {}]}}),
        json.dumps(
            {"game": "trial", "format": fmt, "state": {**state, "stack": [{"step": "turn"}]}}
        ),
        json.dumps({"game": "trial", "format": fmt, "state": {**state, "history": [["*", "a"]]}}),
        json.dumps({"game": "trial", "format": fmt, "state": {**state, "history": "history"}}),
    ):
        with pytest.raises(FormatError):
            game.state_from_json(broken)


def _grows(seen: dict[int, list[str]]):
    """A check that every player's information state keeps what it held (perfect recall): the
    history part of each new string starts with the previous one's."""

    def check(state: TrialState, rng: random.Random) -> None:
        for p in range(state.data["player_count"]):
            lines = state.information_state_string(p).split("\n")[:-1]
            before = seen.get(p, [])
            assert lines[: len(before)] == before, f"player {p} forgot part of the history"
            seen[p] = lines

    return check


@pytest.mark.parametrize("seed", range(2))
def test_an_information_state_never_forgets(seed):
    random_game(200 + seed, 2 + seed, every=_grows({}))
