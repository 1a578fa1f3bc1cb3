"""The OpenSpiel interop under hidden information: this library's ISMCTS as a ``pyspiel.Bot``
(the compiled loop on a kernel with the hidden-information slots) and a resampler for
OpenSpiel's own ``ISMCTSBot``, on the high-cards test kernel registered by its ``GameSpec``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from solver.interop import openspiel  # noqa: E402
from solver.rng import SplitMix64  # noqa: E402
from solver.testing import uniform_action  # noqa: E402


def _dealt(game: Any, seed: int) -> Any:
    state = game.new_initial_state()
    rng = SplitMix64(seed)
    while state.is_chance_node():
        state.apply_action(uniform_action(state, rng))
    return state


def test_a_game_between_our_ismcts_and_openspiels(cards, cards_twin):
    from open_spiel.python.algorithms import ismcts as os_ismcts
    from open_spiel.python.algorithms import mcts as os_mcts

    short = openspiel.register_spec(cards_twin.cards_spec(cards))
    assert openspiel.register_spec(cards_twin.cards_spec(cards)) == short  # idempotent
    game = pyspiel.load_game(short)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    ours = openspiel.ismcts_bot(0, seed=3, iterations=400, evaluator="rollout")
    theirs = os_ismcts.ISMCTSBot(
        game,
        os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        1.4,
        200,
        random_state=np.random.RandomState(1),
        allow_inconsistent_action_sets=True,
    )
    theirs.set_resampler(openspiel.resampler(5))
    state = _dealt(game, 2)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[0][0])
            continue
        bot = ours if state.current_player() == 0 else theirs
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
    assert ours.last_result.extra["compiled"] and ours.last_result.extra["observer"] == 0
    # the game is declared by register_spec alone (not in the registry): its declaration is still
    # what the search reads, so it redeals what the seat cannot see
    assert ours.last_result.extra["hidden_information"]


def test_the_resampler_keeps_the_players_view(cards, cards_twin):
    game = pyspiel.load_game(openspiel.register_spec(cards_twin.cards_spec(cards)))
    state = _dealt(game, 4)
    resample = openspiel.resampler(1)
    deals = set()
    for _ in range(30):
        world = resample(state, 0)
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.legal_actions() == state.legal_actions()
        deals.add(tuple(world._inner.hand_of(1)))
    assert len(deals) > 1


@pytest.mark.parametrize(
    ("player", "keywords", "said"),
    [
        (-1, {}, "player must be a whole number"),
        (None, {}, "player must be a whole number"),
        (0, {"seed": -1}, "seed must be a whole number"),
        (0, {"iterations": 0}, "iterations must be a whole number"),
        (0, {"seconds": float("nan")}, "seconds must be a finite number"),
        (0, {"evaluator": "nope"}, "unknown evaluator 'nope'"),
        (0, {"bogus": 1}, "unknown option 'bogus'"),
    ],
)
def test_the_bot_refuses_a_bad_seat_seed_or_option_when_made(player, keywords, said):
    # Found by attack: ismcts_bot(-1), seed=-1, iterations=0 or an unknown option were taken, and
    # refused only once a game called the bot (player=None then searched from the mover's view)
    from solver.errors import OptionError

    with pytest.raises(OptionError, match=said):
        openspiel.ismcts_bot(player, **keywords)


def test_the_bot_and_the_resampler_refuse_another_game_s_state_and_chance_by_name():
    # Found by attack: a state of another pyspiel game raised AttributeError ('_inner'), and the
    # bot asked at a chance node raised TypeError (int(None))
    from solver.errors import OptionError

    (short,) = openspiel.register("trial")
    chance = pyspiel.load_game(short, {"players": 2}).new_initial_state()
    other = pyspiel.load_game("tic_tac_toe").new_initial_state()
    bot = openspiel.ismcts_bot(0, iterations=10)
    with pytest.raises(OptionError, match=r"forest_\* game .*not TicTacToeState"):
        bot.step(other)
    with pytest.raises(OptionError, match="resampler plays the states of a forest_"):
        openspiel.resampler(1)(other, 0)
    assert chance.is_chance_node()
    with pytest.raises(OptionError, match="never at a chance node"):
        bot.step(chance)
