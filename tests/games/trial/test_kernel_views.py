"""The compiled Trial's hidden-information slots against the reference.

- ``information_state_key(p)`` is equal for two states exactly when the reference's
  information-state strings are (over every seat of the states of seeded games, their redeals
  and what follows a redeal): a key of what ``p`` knows, as the compiled ISMCTS needs it;
- ``resample_hidden(p)`` keeps ``p``'s view and information state, conserves every component,
  leaves the cards ``p`` knows the place of, and moves the others (different deals for different
  seeds);
- ``playout_action`` (the C policy) plays what the Python heuristic agent plays as the playout
  evaluator's policy (``PlayoutEvaluator.policy``), leaving the generator in the same state, and
  ``heuristic_action`` what ``heuristic_agent``'s Python rules play with the same generator.
"""

from __future__ import annotations

import json

import pytest

from solver.rng import SplitMix64

from .engines import SEATS, actions, card_places, check_redeal

pytestmark = pytest.mark.usefixtures("require_kernels")


def _pairs(games, seed: int, every: int):
    """(kernel state, reference state) every ``every`` actions of a seeded game."""
    kinds = SEATS[seed % 3]
    ref, ker = games[len(kinds)]
    mine = ker.new_initial_state()
    for played, (theirs, action) in enumerate(actions(ref, kinds, seed)):
        if played % every == 0:
            yield mine, theirs
        if action < 0:
            return
        mine.apply_action(action)


class _Keys:
    """Keys and strings seen so far: each key names one string and each string one key."""

    def __init__(self) -> None:
        self.by_key: dict[int, str] = {}
        self.by_text: dict[str, int] = {}

    def add(self, state, p: int, where: str) -> None:
        key, text = state.information_state_key(p), state.information_state_string(p)
        assert self.by_key.setdefault(key, text) == text, f"{where}: one key, two strings"
        assert self.by_text.setdefault(text, key) == key, f"{where}: one string, two keys"


def _keys_over(games, seeds, every: int) -> int:
    keys = _Keys()
    for seed in seeds:
        for mine, _ in _pairs(games, seed, every):
            n = mine.get_game().num_players()
            for p in range(n):
                keys.add(mine, p, f"seed {seed}")
            if mine.is_terminal():
                continue
            for p in range(n):
                world = mine.resample_hidden(p, SplitMix64(seed * 7 + p))
                for q in range(n):
                    keys.add(world, q, f"seed {seed}, redealt for {p}")
                for _ in range(3):  # what follows a redeal
                    if world.is_terminal():
                        break
                    legal = [a for a, _ in world.chance_outcomes()] or world.legal_actions()
                    world.apply_action(legal[len(legal) // 2])
                    for q in range(n):
                        keys.add(world, q, f"seed {seed}, after a redeal for {p}")
    return len(keys.by_key)


def test_information_state_keys_are_equal_exactly_when_the_strings_are(games):
    assert _keys_over(games, range(3), every=29) > 300


@pytest.mark.slow
def test_information_state_keys_over_many_games(games):
    assert _keys_over(games, range(3, 24), every=7) > 5000


def test_redeals_keep_the_view_and_move_what_is_hidden(games):
    ref, _ = games[3]
    cards = frozenset(ref.pack.cards)
    moved = 0
    for seed in (1, 4):
        for mine, theirs in _pairs(games, seed, every=41):
            if mine.is_terminal():
                continue
            for p in range(mine.get_game().num_players()):
                check_redeal(f"seed {seed}", mine, theirs, p, seed * 31 + p, cards)
                deals = {
                    json.dumps(card_places(json.loads(w.to_json())["state"], cards), sort_keys=True)
                    for w in (mine.resample_hidden(p, SplitMix64(s)) for s in range(4))
                }
                moved += len(deals) > 1
    assert moved > 10  # the hidden cards vary with the seed


def test_the_c_policy_plays_the_python_heuristic_agent(games):
    from solver.games.trial.agents import heuristic_agent
    from solver.games.trial.playouts import PlayoutEvaluator

    policy = PlayoutEvaluator().policy
    decisions = 0
    for seed in range(3):
        for mine, theirs in _pairs(games, seed, every=3):
            if theirs.current_player() < 0 or len(theirs.legal_actions()) < 2:
                continue
            a, b = SplitMix64(seed * 1000 + decisions), SplitMix64(seed * 1000 + decisions)
            assert mine.playout_action(a) == policy(theirs, b) and a.state == b.state
            agent = heuristic_agent(None, seed=decisions)
            rng = SplitMix64(decisions)
            assert mine.heuristic_action(rng) == agent(theirs)
            decisions += 1
    assert decisions > 150


@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_mcts_searches_the_kernel_as_python_searches_the_reference(games, players):
    """The compiled MCTS takes the Trial's handle and states through the capsules (as every
    kernel's): it builds the tree the Python MCTS builds over the reference engine, with the
    heuristic leaves and with random rollouts (every card visible to both: this is the plain,
    perfect-information search)."""
    from solver.game import sample_chance
    from solver.search.mcts import mcts

    ref, ker = games[players]
    state, rng = ker.new_initial_state(), SplitMix64(players)
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else legal[rng.below(len(legal))]
        )
    twin = ref.state_from_json(state.to_json())
    for evaluator, iterations in (("heuristic", 300), ("rollout", 30)):
        mine = mcts(state, iterations=iterations, seed=5, evaluator=evaluator, clairvoyant=True)
        theirs = mcts(twin, iterations=iterations, seed=5, evaluator=evaluator, clairvoyant=True)
        assert mine.extra["engine"] == "kernel" and theirs.extra["engine"] == "python"
        assert mine.same_search(theirs)
