"""Every Trial engine against the reference, on every observable after every action
(:mod:`engines` says which): seeded 2-4-player games driven by the heuristic and random agents.

The default suite plays six games (every seat mix below, 2 to 4 players); ``make test-all``
plays 2,000 (slow). The ``kernel`` engine is the compiled Trial (``ext/trial_kernel/``): the
harness reads it only through the protocol, as any engine; ``test_kernel_engine.py`` compares
its decoded state with the reference's data and ``test_kernel_views.py`` its hidden-information
slots.
"""

from __future__ import annotations

import json

import pytest

import solver
from solver.errors import IllegalActionError

from .engines import SEATS as ENGINE_SEATS
from .engines import Mismatch, card_places, check_redeal, observables, side_by_side

ENGINES = ["kernel"]
SEATS = (
    *ENGINE_SEATS,
    ["random", "random"],
    ["heuristic", "heuristic", "heuristic"],
    ["random", "heuristic", "random", "heuristic"],
)


@pytest.fixture(scope="module")
def games(require_kernels: None) -> dict[tuple[str, int], object]:
    return {
        (engine, n): solver.load_game("trial", engine=engine, players=n)
        for engine in ["reference", *ENGINES]
        for n in (2, 3, 4)
    }


def _play(games: dict, engine: str, seat: list[str], seed: int, deep_every: int) -> int:
    n = len(seat)
    return side_by_side(games["reference", n], games[engine, n], seat, seed, deep_every)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seat", SEATS, ids=lambda s: ",".join(s))
def test_an_engine_agrees_with_the_reference_after_every_action(games, engine, seat):
    assert _play(games, engine, seat, seed=len(seat), deep_every=53) > 200


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(2000))
def test_two_thousand_games_agree_with_the_reference(games, engine, seed):
    _play(games, engine, SEATS[seed % len(SEATS)], seed, deep_every=101)


def _first_turn(game):
    """The first turn of a game (set-up with the first outcome and choice everywhere)."""
    state = game.new_initial_state()
    while state.data["turn_player"] is None:
        legal = [a for a, _ in state.chance_outcomes()] or state.legal_actions()
        state.apply_action(legal[0])
    return state


class _Wrapped:
    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)


class _Relabelled(_Wrapped):
    def action_to_string(self, action):
        return "x" + self.inner.action_to_string(action)


class _Swapping(_Wrapped):
    """A redeal that also swaps the first cards of player 1's hand and of the deed deck."""

    def resample_hidden(self, p, rng):
        world = self.inner.resample_hidden(p, rng)
        data = json.loads(world.to_json())
        hand = data["state"]["players"][1]["hand"]
        layer = data["state"]["decks"]["deeds"]["layers"][0]
        hand[0], layer[0] = layer[0], hand[0]
        return _Swapping(world.get_game().state_from_json(json.dumps(data)))


def test_the_harness_sees_a_wrong_label_and_a_redeal_moving_a_known_card(games):
    """The comparisons can fail: a relabelled action is caught, and so is a redeal that moves a
    card of player 1's hand that player 0 knows (recorded as known to both; player 1 sees its
    hand change), while the reference's redeal keeps it."""
    from .engines import compare

    ref = games["reference", 2]
    state = _first_turn(ref)
    with pytest.raises(Mismatch, match="labels differ"):
        compare("here", observables(_Relabelled(state)), observables(state))
    data = json.loads(state.to_json())
    card = data["state"]["players"][1]["hand"][0]
    data["state"]["card_knowledge"] = [*data["state"]["card_knowledge"], [card, "01"]]
    state = ref.state_from_json(json.dumps(data))
    cards = frozenset(ref.pack.cards)
    check_redeal("here", state, state, 0, 1, cards)  # the reference keeps the known card
    with pytest.raises(AssertionError, match=f"observer 0 knew where .*{card}"):
        check_redeal("here", _Swapping(state), state, 0, 1, cards)
    with pytest.raises(AssertionError, match="'here', 1"):  # player 1 sees its hand change
        check_redeal("here", _Swapping(state), state, 1, 1, cards)
    places = card_places(json.loads(state.to_json())["state"], cards)
    assert sorted(places) == sorted(cards)
    with pytest.raises(IllegalActionError):
        state.action_to_string(-1)
