"""The ``lookahead`` agent (``solver.games.guardians.lookahead``) and the planner pieces it plays
with: the planner's contexts shared within a state, its player object, its projected scores."""

from __future__ import annotations

from dataclasses import fields

import pytest

import solver
from solver.agents import make_agent
from solver.game import sample_chance
from solver.games.guardians import lookahead as L
from solver.games.guardians import planner as P
from solver.games.guardians.actions import RESET
from solver.games.guardians.broad import DEFAULT_BREADTH, breadth_for
from solver.games.guardians.rules import Phase
from solver.games.guardians.solo_runs import solo_game
from solver.rng import SplitMix64
from solver.testing import decision_nodes


def _states(players: int, count: int, seed: int, engine: str = "kernel") -> list:
    """Decision states of planner-played games (a few of every phase)."""
    game = solver.load_game("guardians", players=players, engine=engine)
    agents = [make_agent("planner", game, seed=seed + p) for p in range(players)]
    out = []
    for state in decision_nodes(game.new_initial_state(), SplitMix64(seed)):
        if len(out) == count:
            break
        if state.phase in (Phase.GROW, Phase.MISSIONS):
            out.append(state.clone())
        state.apply_action(agents[state.current_player()](state))
    return out


def _fields(ctx: P.Context) -> dict:
    return {f.name: getattr(ctx, f.name) for f in fields(ctx) if f.name != "cache"}


def test_a_shared_context_memo_gives_the_contexts_computed_alone():
    for state in _states(2, 6, seed=3):
        pool = list(state.pool)
        for aware in (False, True):
            memo: dict = {"aware": aware}
            for k in range(len(pool) + 1):
                left = pool[k:]
                alone = P._context(state, left, {"aware": aware})
                assert _fields(P._context(state, left, memo)) == _fields(alone)


def test_the_planner_plays_the_games_it_played_before_it_became_a_player_object():
    # solo level 1, seed 0, game 1: the score the planner's calibration recorded before
    # TurnPlayer and the shared contexts (main at 86bd6e7, bench/guardians_levels.py)
    assert solo_game(1, "planner", 0, 1, iterations=None) == 74


def test_in_solo_the_lookahead_plays_the_solo_endgame_players_game():
    # its budget is not used in solo (the endgame player's game, held to it in test_endgame.py)
    assert solo_game(1, "lookahead", 4, 0, iterations=8) == solo_game(1, "lookahead", 4, 0, None)


def test_a_budget_of_one_is_the_planner_in_its_two_player_reading():
    game = solver.load_game("guardians", players=2)
    agent = L.lookahead_agent(game, seed=3, iterations=1, breadth=1)
    aware = P.TurnPlayer(3, aware=True)
    for state in _states(2, 12, seed=4):
        if state.phase != Phase.GROW:
            continue
        assert agent(state) == aware.choose(state)


def test_one_candidate_is_the_planner_in_its_two_player_reading_whatever_the_budget():
    game = solver.load_game("guardians", players=2)
    agent = L.lookahead_agent(game, seed=3, iterations=8, candidates=1, breadth=1)
    aware = P.TurnPlayer(3, aware=True)
    for state in _states(2, 12, seed=4):
        if state.phase == Phase.GROW:
            assert agent(state) == aware.choose(state)


def _placements(state, choose) -> list[int]:
    """The actions ``choose`` plays from a growth step until a chance node or the mission step."""
    here, actions = state.clone(), []
    while not here.is_chance_node() and here.phase != Phase.MISSIONS and not here.is_terminal():
        actions.append(choose(here))
        here.apply_action(actions[-1])
    return actions


def test_by_default_one_candidate_plays_the_best_turn_of_the_broad_lists():
    # the default breadth: the planner's candidate lists four times as long (the broad agent's)
    assert L.BREADTH == DEFAULT_BREADTH
    game = solver.load_game("guardians", players=2)
    broad = breadth_for(L.BREADTH)
    differ = 0
    for state in _states(2, 60, seed=7):  # 12 growth steps, 2 where the lists differ
        if state.phase != Phase.GROW or RESET in state.legal_actions():
            continue  # the reset is judged on the planner's lists
        agent = make_agent("lookahead", game, seed=3, iterations=1)
        played = _placements(state, agent)
        assert played == _placements(state, P.TurnPlayer(3, aware=True, breadth=broad).choose)
        differ += played != _placements(state, P.TurnPlayer(3, aware=True).choose)
    assert differ > 0  # the longer lists find other turns than the planner's


def test_the_breadth_must_be_a_factor_the_broad_agent_accepts():
    game = solver.load_game("guardians", players=2)
    for bad in (0, 17, 1.5, True):
        with pytest.raises(solver.errors.OptionError, match="breadth"):
            L.lookahead_agent(game, breadth=bad)  # type: ignore[arg-type]


def test_the_lookahead_is_deterministic_and_plays_alike_on_both_engines():
    runs = []
    for engine in ("kernel", "reference"):
        game = solver.load_game("guardians", players=2, engine=engine)
        agents = [make_agent("lookahead", game, seed=9, iterations=2),
                  make_agent("planner", game, seed=1)]  # fmt: skip
        rng = SplitMix64(21)
        state = game.new_initial_state()
        actions = []
        while state.round <= 2 and not state.is_terminal():
            if state.is_chance_node():
                action = sample_chance(state, rng)
            else:
                action = agents[state.current_player()](state)
                actions.append(action)
            state.apply_action(action)
        assert all(a in range(game.num_distinct_actions()) for a in actions)
        runs.append(actions)
    assert runs[0] == runs[1]


def test_a_two_player_margin_is_one_players_gain_and_the_others_loss():
    for state in _states(2, 8, seed=5):
        assert L.leaf_margin(state, 0) == pytest.approx(-L.leaf_margin(state, 1))


@pytest.mark.slow
def test_the_projected_score_is_the_score_once_the_game_is_over():
    game = solver.load_game("guardians", players=2)
    agents = [make_agent("planner", game, seed=p) for p in range(2)]
    state = game.new_initial_state()
    for node in decision_nodes(state, SplitMix64(2)):
        node.apply_action(agents[node.current_player()](node))
    assert [P.projected_score(state, p) for p in range(2)] == state.scores()
    won = state.returns()[0]
    margin = state.scores()[0] - state.scores()[1] + L.WIN_BONUS * (2 * won - 1)
    assert L.leaf_margin(state, 0) == pytest.approx(margin)


def test_keyed_draws_give_the_same_refill_to_states_with_the_same_bag():
    state = solver.load_game("guardians", players=2).new_initial_state()
    other = state.clone()
    assert L.keyed_outcome(state, 77) == L.keyed_outcome(other, 77)
    draws = {L.keyed_outcome(state, s) for s in range(40)}
    assert len(draws) > 1  # the sample seed chooses the draw


def test_a_continuation_leaves_the_state_alone_and_reaches_the_next_turn():
    state = next(s for s in _states(2, 10, seed=8) if s.phase == Phase.GROW)
    before = state.to_json()
    for turn in P.turn_options(state, True)[:3]:
        value = L.continuation_value(state, turn, 5)
        assert -1000 < value <= 0  # minus a projected score, in points
    assert state.to_json() == before


def test_iterations_must_be_a_whole_number():
    game = solver.load_game("guardians", players=2)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(solver.errors.OptionError):
            L.lookahead_agent(game, iterations=bad)  # type: ignore[arg-type]
        with pytest.raises(solver.errors.OptionError, match="candidates"):
            L.lookahead_agent(game, iterations=4, candidates=bad)  # type: ignore[arg-type]


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count the calls of ``module.name`` (wrapped in place); the count is ``calls[0]``."""
    calls = [0]
    real = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def _grow_states(count: int) -> list:
    return [s for s in _states(4, 3 * count, seed=5) if s.phase == Phase.GROW][:count]


def test_a_passed_deadline_plays_the_broad_lists_best_turn_with_no_continuation(monkeypatch):
    """Found by attack: in a table session at 0.05 s a step, a 4-player lookahead step took
    0.2-0.6 s (a full round of continuations, and the broad lists, whatever the clock said)."""
    import time

    from solver.search.limit import search_deadline

    states = _grow_states(4)
    continuations = _counting(monkeypatch, L, "_continuation")
    searched = _counting(monkeypatch, P._TurnSearch, "full")
    game = solver.load_game("guardians", players=4)
    for state in states:
        agent = L.lookahead_agent(game, seed=2)
        searched[0] = 0
        with search_deadline(time.monotonic() - 1.0):
            action = agent(state)
        assert action in state.legal_actions()
        assert continuations[0] == 0 and searched[0] == 1  # one turn searched, nothing played
        with search_deadline(time.monotonic() - 1.0):
            best = P.first_best(P.turn_options(state, True, breadth_for(DEFAULT_BREADTH)))
        assert action == best.growth  # the lists' first turn (no reset: no time to value one)


def test_a_deadline_passing_mid_search_plays_the_best_of_the_candidates_valued(monkeypatch):
    from solver.search import limit

    state = _grow_states(1)[0]
    game = state.get_game()
    top_k = 4
    options = P.turn_options(state, True, breadth_for(DEFAULT_BREADTH))
    ranked = sorted(options, key=lambda o: (o is not P.first_best(options), -o.value))[:top_k]
    finished = [0]  # continuations played to their end
    real = L._continuation

    def counted(*args: object, **kwargs: object) -> object:
        value = real(*args, **kwargs)
        finished[0] += value is not None
        return value

    monkeypatch.setattr(L, "_continuation", counted)
    for allowed in (2, 4, 6):  # the clock passes after this many continuations
        finished[0] = 0
        monkeypatch.setattr(limit, "deadline_passed", lambda n=allowed: finished[0] >= n)
        values = L.weigh(state, ranked, 8, 99)
        assert finished[0] == allowed
        # a cut first round values its prefix; a later cut keeps the whole rounds done
        assert len(values) == (allowed if allowed < top_k else top_k)
        agent = L.lookahead_agent(game, seed=2, iterations=32)
        finished[0] = 0
        assert agent(state) in state.legal_actions() and finished[0] == allowed


def test_a_deadline_far_off_plays_the_moves_of_no_deadline():
    """Without a deadline (the CLI, the benches) the search is unchanged; a deadline that never
    comes plays the same moves."""
    import time

    from solver.search.limit import search_deadline

    game = solver.load_game("guardians", players=4)
    for state in _grow_states(3):
        free = L.lookahead_agent(game, seed=2)(state)
        with search_deadline(time.monotonic() + 1e6):
            assert L.lookahead_agent(game, seed=2)(state) == free
