"""The ``broad`` agent (``solver.games.guardians.broad``): the planner with longer candidate lists,
held to the planner at a factor of 1, to the rules on both engines, and to its seed."""

from __future__ import annotations

import pytest

import solver
from solver.agents import make_agent
from solver.errors import OptionError
from solver.game import sample_chance
from solver.games.guardians import broad as B
from solver.games.guardians import planner as P
from solver.games.guardians.rules import Phase
from solver.rng import SplitMix64


def _by_name(agent: str, iterations: int | None = None) -> object:
    """A maker of the named agent at ``iterations`` (for ``play_solo``)."""
    return lambda game, seed: make_agent(agent, game, seed=seed, iterations=iterations)


def _rounds(last: int) -> object:
    """Stop once round ``last`` is over."""
    return lambda state: state.round > last


def test_a_factor_of_one_is_the_planner_move_for_move(play_solo):
    assert B.breadth_for(1) == P.PLANNER_BREADTH
    stop = _rounds(14)
    broad = play_solo(_by_name("broad", 1), 2, stop=stop)[0]
    assert broad == play_solo(_by_name("planner"), 2, stop=stop)[0]


def test_the_factor_lengthens_every_candidate_list_but_the_flipped_tiles():
    base, broad = P.PLANNER_BREADTH, B.breadth_for(4)
    assert (broad.singles, broad.pairs, broad.completing, broad.take_ones) == (
        4 * base.singles, 4 * base.pairs, 4 * base.completing, 4 * base.take_ones
    )  # fmt: skip
    assert broad.flip_cells == base.flip_cells


def test_a_broader_search_lists_every_placement_the_planner_pairs():
    # the singles the planner pairs are the first of the broad agent's: a longer prefix of one
    # order, so its candidate turns are searched from a superset of placements
    game = solver.load_game("guardians", players=1, level=1)
    state = game.new_initial_state()
    rng = SplitMix64(5)
    player = make_agent("planner", game, seed=5)
    checked = 0
    while not state.is_terminal() and checked < 4:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if state.phase == Phase.GROW:
            narrow = {o.placements for o in P.turn_options(state)}
            wide = {o.placements for o in P.turn_options(state, breadth=B.breadth_for(4))}
            assert len(wide) > len(narrow)
            best = P.plan_turn(state, breadth=B.breadth_for(4)).value
            assert best >= max(o.value for o in P.turn_options(state) if o.placements in wide)
            checked += 1
        state.apply_action(player(state))
    assert checked == 4


def test_it_plays_legal_moves_and_the_same_game_on_both_engines(play_solo):
    kernel = play_solo(_by_name("broad"), 11, stop=_rounds(3))[0]
    assert kernel == play_solo(_by_name("broad"), 11, engine="reference", stop=_rounds(3))[0]


def test_it_is_deterministic_given_its_seed(play_solo):
    first = play_solo(_by_name("broad", 2), 4, stop=_rounds(6))[0]
    assert first == play_solo(_by_name("broad", 2), 4, stop=_rounds(6))[0]


def test_in_solo_the_default_agent_plays_the_broad_agents_game(play_solo):
    from solver.games.guardians import SPEC

    default = play_solo(_by_name(SPEC.default_agent), 3, stop=_rounds(5))[0]
    assert default == play_solo(_by_name("broad"), 3, stop=_rounds(5))[0]


@pytest.mark.parametrize("factor", [0, 17, 2.5, True])
def test_a_bad_factor_is_refused_by_name(factor):
    with pytest.raises(OptionError, match="breadth factor"):
        B.breadth_for(factor)


def test_a_passed_deadline_searches_one_turn_and_values_no_reset(monkeypatch):
    """Under a search_deadline that has passed (a table session's step out of seconds) the
    planner and the broad agent search one candidate turn to its end (counted), not their lists
    nor the fresh pools a reset is valued with, and play it (a legal move)."""
    import time

    from solver.search.limit import search_deadline

    calls = [0]
    real = P._TurnSearch.full

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(P._TurnSearch, "full", counted)
    game = solver.load_game("guardians", players=4)
    rng = SplitMix64(4)
    state = game.new_initial_state()
    grown = 0
    while grown < 6 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if state.phase == Phase.GROW:
            for name in ("broad", "planner"):
                calls[0] = 0
                with search_deadline(time.monotonic() - 1.0):
                    action = make_agent(name, game, seed=1)(state)
                assert action in state.legal_actions() and calls[0] == 1
            calls[0] = 0
            make_agent("broad", game, seed=1)(state)
            assert calls[0] > 5  # unbounded, the lists are searched
            grown += 1
        state.apply_action(make_agent("planner", game, seed=1)(state))
