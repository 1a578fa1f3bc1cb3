"""Sampled worlds (``solver.games.guardians.worlds``): a hidden-backs state dealt open, the
shown backs kept, the unseen ones drawn from what is unseen; and the endgame player's vote."""

from __future__ import annotations

import json
from typing import Any

import pytest

import solver
from solver.games.guardians import endgame as E
from solver.games.guardians.actions import TAKE_ONE
from solver.games.guardians.broad import broad_agent
from solver.games.guardians.planner import PLANNER_BREADTH, first_best, turn_options
from solver.games.guardians.rules import Phase
from solver.games.guardians.worlds import open_game_of, sample_world
from solver.rng import SplitMix64


def _grow_state(play_solo: Any, engine: str, seed: int = 5, at_round: int = 6) -> Any:
    """The broad planner's level-1 game (chance from ``seed``) at the growth step of a round."""
    return play_solo(
        broad_agent,
        seed,
        engine=engine,
        stop=lambda state: state.phase == Phase.GROW and state.round == at_round,
    )[1]


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_world_keeps_what_was_seen_and_draws_the_rest_from_the_unseen(engine, play_solo):
    state = _grow_state(play_solo, engine)
    game = state.get_game()
    open_game = open_game_of(game)
    assert open_game.open_backs and open_game.engine == game.engine
    hidden = json.loads(state.to_json())
    shown = dict((t, b) for t, b in hidden["backs"])
    assert shown  # some backs were seen by round 6
    truth = {tile.id: tile for tile in open_game.tiles.tiles}
    seen_backs: set[tuple[int, str]] = set()
    for k in range(12):
        world, back = sample_world(state, open_game, SplitMix64(k))
        assert world.scores() == state.scores() and world.round == state.round
        assert world.phase == Phase.GROW
        assert sorted(back[t] for t in world.pool) == sorted(state.pool)
        for u, t in back.items():
            if t == 0:
                continue
            assert truth[u].face == truth[t].face  # a tile is renamed within its face
            if t in shown:
                assert truth[u].sequence == shown[t]  # the back it showed
            else:
                assert truth[u].sequence in hidden["unseen"][truth[t].face]
                seen_backs.add((t, truth[u].sequence))
    pool_tile = next(t for t in state.pool if t not in shown)
    assert len({b for t, b in seen_backs if t == pool_tile}) > 1  # the worlds differ
    again, _ = sample_world(state, open_game, SplitMix64(3))
    assert again.to_json() == sample_world(state, open_game, SplitMix64(3))[0].to_json()


def test_no_worlds_for_a_position_or_an_open_game():
    opened = solver.game_spec("guardians").open("guardians/order-matters")
    assert open_game_of(opened.game) is None
    assert open_game_of(solver.load_game("guardians", players=1, open_backs=True)) is None


def test_one_world_votes_for_its_own_best_turn_in_the_states_tile_ids(play_solo):
    state = _grow_state(play_solo, "kernel", seed=8, at_round=4)
    open_game = open_game_of(state.get_game())
    rng = SplitMix64(E.derive_seed(E.derive_seed(3, E.WORLDS_KEY + 4), len(state.bag)))
    world, back = sample_world(state, open_game, rng)
    best = first_best(turn_options(world, False, PLANNER_BREADTH))
    voted = E.voted_turn(state, open_game, 1, 3)
    assert voted.growth == best.growth
    if voted.growth == TAKE_ONE:
        assert voted.picked in state.pool
    else:
        assert voted.placements == tuple((back[t], c) for t, c in best.placements)
        assert all(t in state.pool for t, _ in voted.placements)


def test_worlds_play_a_legal_game_and_only_before_the_last_rounds(monkeypatch, play_solo):
    voted: list[int] = []
    real = E.voted_turn

    def spy(state: Any, *args: Any) -> Any:
        voted.append(state.rounds() - state.round)
        return real(state, *args)

    monkeypatch.setattr(E, "voted_turn", spy)
    final = play_solo(lambda game, seed: E.endgame_agent(game, seed=seed, worlds=3), 2)[1]
    assert final.is_terminal()  # every move checked legal on the way
    assert len(voted) >= 8 and min(voted) >= E.ROUNDS
