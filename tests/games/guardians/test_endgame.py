"""The solo endgame (``solver.games.guardians.endgame``): the broad planner until the last rounds,
then the turn that reaches the level's threshold in the most play-outs; held to the broad
planner before the endgame, to its pick rule, to the rules and to its seed."""

from __future__ import annotations

import pytest

import solver
from solver.game import sample_chance
from solver.games.guardians import endgame as E
from solver.games.guardians.actions import RESET
from solver.games.guardians.broad import broad_agent
from solver.games.guardians.planner import TurnPlan
from solver.games.guardians.rules import Phase
from solver.rng import SplitMix64


def _endgame_state(play_solo: object, seed: int) -> object:
    """A level-1 state at the growth step of the next to last round (the broad planner's game)."""
    return play_solo(  # type: ignore[operator]
        broad_agent,
        seed,
        stop=lambda state: state.phase == Phase.GROW and state.rounds() - state.round < E.ROUNDS,
    )[1]


def _rounds(last: int) -> object:
    """Stop once round ``last`` is over."""
    return lambda state: state.round > last


def test_before_the_last_rounds_it_plays_the_broad_planners_game(play_solo):
    before = play_solo(E.endgame_agent, 3, stop=_rounds(9))[0]
    assert before == play_solo(broad_agent, 3, stop=_rounds(9))[0]


def test_a_whole_game_is_legal_deterministic_and_the_default_agents_solo_game(play_solo):
    from solver.agents import make_agent

    first, final = play_solo(E.endgame_agent, 6)
    assert final.is_terminal()  # type: ignore[attr-defined]
    # a fresh agent with the same seed (the default agent's, in solo) plays the same game
    default = play_solo(lambda game, seed: make_agent("lookahead", game, seed=seed), 6)[0]
    assert default == first


def _brute_force(state: object, candidates: list, decision: int) -> tuple[list[int], list[int]]:
    """Every play-out of every candidate, counted as the endgame counts them (wins and score
    sums, the early stop included), without dropping a candidate: the brute-force twin."""
    samples, batch = E.budget(state).samples, E.budget(state).batch
    threshold = state.get_game().level.threshold  # type: ignore[attr-defined]
    full = [
        [E.playout_score(state, turn, E.derive_seed(decision, j)) for turn in candidates]
        for j in range(samples)
    ]
    early = [sum(row[i] >= threshold for row in full[:batch]) for i in range(len(candidates))]
    if len(set(early)) == 1 and early[0] in (0, batch):
        full = full[:batch]
    wins = [sum(row[i] >= threshold for row in full) for i in range(len(candidates))]
    return wins, [sum(row[i] for row in full) for i in range(len(candidates))]


def test_the_planners_pick_stands_unless_another_reaches_the_line_more_often(
    monkeypatch, play_solo
):
    state = _endgame_state(play_solo, 2)
    legal = state.legal_actions()  # type: ignore[attr-defined]
    assert RESET in legal
    breadth = E.breadth_for(E.DEFAULT_BREADTH)
    planner_pick = E.first_best(E.turn_options(state, False, breadth))
    counts: list[int] = []
    sums: list[int] = []

    def fake(
        _state: object, candidates: list[TurnPlan | None], _decision: int, weighed: E.Budget
    ) -> tuple:
        assert weighed == E.budget(state)
        assert len(candidates) == E.budget(state).candidates + 1 and candidates[-1] is None
        return counts[: len(candidates)], sums[: len(candidates)]

    monkeypatch.setattr(E, "reaching", fake)

    def pick(wins: list[int], scores: list[int]) -> object:
        counts[:], sums[:] = wins, scores
        return E.closing_turn(state, legal, 1, breadth)

    assert pick([3, 3, 3, 3], [200, 300, 300, 200]) == planner_pick  # ties: the planner's
    assert pick([2, 1, 1, 2], [200, 100, 100, 200]) == planner_pick  # the reset only ties
    assert pick([3, 3, 3, 3], [200, 200, 200, 201]) is None  # ties, the reset scores more
    assert pick([0, 0, 0, 1], [0, 0, 0, 0]) is None  # the reset reaches it more often
    third = pick([0, 2, 3, 3], [0, 0, 100, 100])
    assert third is not None and third != planner_pick


def test_equal_candidates_see_equal_play_outs_and_counts_are_play_out_wins(play_solo):
    state = _endgame_state(play_solo, 4)
    options = E.turn_options(state, False, E.breadth_for(E.DEFAULT_BREADTH))
    turn = E.first_best(options)
    wins, scores = E.reaching(state, [turn, turn], 77, E.budget(state))
    assert wins[0] == wins[1] and scores[0] == scores[1]  # common random numbers
    assert (wins, scores) == _brute_force(state, [turn, turn], 77)
    assert scores[0] >= E.budget(state).batch * state.scores()[0]  # type: ignore[attr-defined]


def test_the_budget_is_smaller_before_the_last_round(play_solo):
    state = _endgame_state(play_solo, 4)
    assert state.rounds() - state.round == 1  # type: ignore[attr-defined]
    assert E.budget(state) == E.EARLIER
    last = play_solo(
        broad_agent, 4, stop=lambda s: s.phase == Phase.GROW and s.rounds() == s.round
    )[1]
    assert E.budget(last) == E.LAST
    assert E.EARLIER.candidates * E.EARLIER.samples < E.LAST.candidates * E.LAST.samples


def test_iterations_scale_the_play_outs(play_solo, monkeypatch):
    # Defect: the solo player took `iterations` and ignored it (`forest guardians solo
    # --iterations 1` and `--iterations 4` played the same games) while `--json` reported it
    state = _endgame_state(play_solo, 4)
    assert E.budget(state, E.SCALE) == E.EARLIER and E.budget(state) == E.EARLIER
    assert E.budget(state, 8) == E.Budget(3, 6, 4)  # twice the play-outs, batch rounded up
    assert E.budget(state, 1) == E.Budget(3, 1, 1)  # at least one play-out
    played: list[int] = []
    real = E.playout_score

    def counted(*args: object) -> int:
        played.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(E, "playout_score", counted)
    counts = []
    for iterations in (1, 4, 8):
        played.clear()
        E.endgame_agent(state.get_game(), seed=3, iterations=iterations)(state)  # type: ignore[attr-defined]
        counts.append(len(played))
    assert counts[0] < counts[1] < counts[2]
    with pytest.raises(solver.errors.OptionError, match="iterations"):
        E.endgame_agent(state.get_game(), iterations=0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("seed", "decision"), [(6, 92), (1, 91)])
def test_play_outs_stop_for_a_candidate_that_cannot_win_and_the_pick_stands(
    play_solo, seed, decision
):
    # against every play-out of every candidate: the candidates with the most wins keep their
    # count and score, the others stay below it (these decisions drop one early)
    state = _endgame_state(play_solo, seed)
    options = E.turn_options(state, False, E.breadth_for(E.DEFAULT_BREADTH))
    candidates: list[TurnPlan | None] = [*options[: E.budget(state).candidates], None]
    every, every_score = _brute_force(state, candidates, decision)
    wins, scores = E.reaching(state, candidates, decision, E.budget(state))
    top = max(every)
    assert max(wins) == top
    for i, (mine, all_of_them) in enumerate(zip(wins, every, strict=True)):
        if all_of_them == top:
            assert (mine, scores[i]) == (top, every_score[i])
        else:
            assert mine < top
    assert wins != every


@pytest.mark.parametrize("players", [2])
def test_with_more_players_it_is_the_broad_planner(players):
    game = solver.load_game("guardians", players=players)
    state = game.new_initial_state()
    rng = SplitMix64(1)
    mine, broad = E.endgame_agent(game, seed=1), broad_agent(game, seed=1)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        action = mine(state)
        assert action == broad(state)
        state.apply_action(action)


def test_rounds_zero_is_the_broad_planner_and_a_bad_count_is_refused(play_solo):
    zero = play_solo(lambda game, seed: E.endgame_agent(game, seed=seed, rounds=0), 5)[0]
    assert zero == play_solo(broad_agent, 5)[0]
    game = solver.load_game("guardians", players=1, level=1)
    for bad in (-1, 2.0, True, "3"):
        with pytest.raises(E.OptionError, match="rounds"):
            E.endgame_agent(game, rounds=bad)  # type: ignore[arg-type]
        with pytest.raises(E.OptionError, match="worlds"):
            E.endgame_agent(game, worlds=bad)  # type: ignore[arg-type]


def test_more_rounds_play_more_rounds_for_the_threshold(monkeypatch, play_solo):
    seen: list[tuple[int, int]] = []
    real = E.closing_turn

    def spy(state: object, *args: object) -> TurnPlan | None:
        seen.append((state.rounds(), state.round))  # type: ignore[attr-defined]
        return real(state, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(E, "closing_turn", spy)
    play_solo(lambda game, seed: E.endgame_agent(game, seed=seed, rounds=3), 3)
    left = [total - now for total, now in seen]
    assert left and all(0 <= n < 3 for n in left)
    assert 2 in left  # the round before the last two is now played for the threshold
