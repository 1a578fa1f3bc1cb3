"""The pruning search on a two-player constant-sum kernel (``duel_kernel.pyx``, built out of tree).

Player 0 maximises its return, player 1 minimises it (alpha-beta windows at both players'
nodes, Star1 at chance nodes, bounds in the table). Held to a Python recursion over the duel's
rules (``_twin``) and to the plain compiled expectimax (``prune=False``: every player maximises
its own return, which for a constant-sum game is the same value).
"""

from __future__ import annotations

from functools import cache

import pytest

from solver.errors import OptionError, SearchBudgetError, SolverError
from solver.rng import SplitMix64
from solver.search import expectimax, solve
from solver.testing import decision_nodes, uniform_action

CONFIGS = [(4, 6), (5, 8), (6, 9), (8, 10)]  # (target, plies)


@cache
def _twin(bank0: int, bank1: int, total: int, mover: int, left: int, phase: int, target: int):
    """Player 0's exact value of a duel state, by the rules in ``duel_kernel.pyx``."""
    if phase == 2:
        return 1.0 if bank0 > bank1 else 0.0 if bank1 > bank0 else 0.5

    def after_pass(b0: int, b1: int, n: int) -> float:
        return _twin(b0, b1, 0, 1 - mover, n, 2 if n <= 0 else 0, target)

    if phase == 1:
        bust = after_pass(bank0, bank1, left)
        grow = [
            _twin(bank0, bank1, total + face, mover, left, 2 if left <= 0 else 0, target)
            for face in (2, 3)
        ]
        return (bust + grow[0] + grow[1]) / 3.0
    n = left - 1
    banks = [bank0, bank1]
    banks[mover] += total
    if banks[mover] >= target:
        hold = _twin(banks[0], banks[1], 0, mover, n, 2, target)
    else:
        hold = after_pass(banks[0], banks[1], n)
    roll = _twin(bank0, bank1, total, mover, n, 1, target)
    return max(hold, roll) if mover == 0 else min(hold, roll)


def _value(state, target):
    return _twin(*state.fields(), target)


def _states(game, seed, count=8):
    """States along one seeded random game (both players to move, chance nodes too)."""
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < count:
        out.append(state.clone())
        state.apply_action(uniform_action(state, rng))
    return out


@pytest.mark.parametrize(("target", "plies"), CONFIGS)
def test_equals_the_twins(duel, target, plies):
    from solver._ext.expectimax import ExpectimaxTable
    from solver._ext.pruning import PruningSearch

    game = duel.DuelGame(target, plies)
    for seed in range(4):
        for state in _states(game, seed):
            exact = _value(state, target)
            for kwargs in ({}, {"memo": "all"}, {"order": False}):
                search = PruningSearch(game, 1 << 22, **kwargs)
                assert search.value(state) == pytest.approx(exact, abs=1e-12)
            plain = ExpectimaxTable(game, 1 << 26).search(state, 10**6)[0]
            assert plain[2][0] == pytest.approx(exact, abs=1e-12)
            assert plain[2][0] + plain[2][1] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("target", "plies"), CONFIGS[1:])
def test_windows_fail_soft_around_the_exact_value(duel, target, plies):
    # (lo, hi) holds the value, and is exact, or at/below alpha, or at/above beta
    from solver._ext.pruning import PruningSearch

    game = duel.DuelGame(target, plies)
    rng = SplitMix64(target * 100 + plies)
    for state in _states(game, plies, count=10):
        exact = _value(state, target)
        search = PruningSearch(game, 1 << 22)
        for _ in range(6):
            a, b = sorted((rng.below(1001) / 1000.0, rng.below(1001) / 1000.0))
            if b - a < 1e-3:
                continue
            lo, hi = search.interval(state, -1, a, b)
            assert lo - 1e-12 <= exact <= hi + 1e-12
            assert hi - lo <= 1e-12 or hi <= a + 1e-12 or lo >= b - 1e-12
        for depth in (1, 3, 6):  # depth-limited: a proven interval
            lo, hi = PruningSearch(game, 1 << 22).interval(state, depth)
            assert lo - 1e-12 <= exact <= hi + 1e-12


def test_prunes_where_the_plain_search_expands_everything(duel):
    from solver._ext.expectimax import ExpectimaxTable
    from solver._ext.pruning import PruningSearch

    # memoising every node (the two-player default of expectimax): 10,344 nodes against 27,450
    game = duel.DuelGame(10, 14)
    state = game.new_initial_state()
    search = PruningSearch(game, 1 << 24, memo="all")
    assert search.value(state) == pytest.approx(_value(state, 10), abs=1e-12)
    _entry, _children, plain_expanded, _ = ExpectimaxTable(game, 1 << 26).search(state, 10**6)
    assert 2 * search.expanded < plain_expanded


def test_threads_and_tiny_caps(duel):
    from solver._ext.pruning import PruningSearch

    game = duel.DuelGame(8, 12)
    states = [s for seed in range(3) for s in _states(game, seed, count=6)]
    exact = [_value(s, 8) for s in states]
    for threads in (2, 3):
        shared = PruningSearch(game, 1 << 22, threads=threads)
        assert shared.values(states) == pytest.approx(exact, abs=1e-12)
    answered = 0
    for cap in (20_000, 150_000, 200_000, 400_000):  # (a thread keeps 32 KB of marks)
        try:
            found = PruningSearch(game, cap, threads=2).values(states)
        except SearchBudgetError as err:
            assert "memory cap" in str(err)
            continue
        assert found == pytest.approx(exact, abs=1e-12)
        answered += 1
    assert answered


@pytest.mark.parametrize("threads", [1, 2])
def test_expectimax_uses_it_for_either_player(duel, threads):
    game = duel.DuelGame(6, 9)
    seen = set()
    for seed in range(6):
        for state in _states(game, seed):
            if state.is_chance_node():
                continue
            mover = state.current_player()
            seen.add(mover)
            pruned = expectimax(state, threads=threads)
            plain = expectimax(state, prune=False)
            assert pruned.extra["algorithm"] == "pruning" and plain.extra["algorithm"] == "plain"
            assert pruned.extra["tie_break"] == "heuristic"
            assert pruned.value == pytest.approx(plain.value, abs=1e-12)  # the mover's value
            assert pruned.extra["values"] == pytest.approx(plain.extra["values"], abs=1e-12)
            assert {m.action: m.value for m in pruned.moves} == pytest.approx(
                {m.action: m.value for m in plain.moves}, abs=1e-12
            )
            assert pruned.moves[0].action == pruned.best_action
            assert pruned.moves[0].value == pytest.approx(plain.value, abs=1e-12)  # optimal
    assert seen == {0, 1}


def test_solution_plays_optimally_for_both_players(duel):
    # solve() keeps the searcher: along a game, each mover's chosen move keeps its own value
    game = duel.DuelGame(7, 10)
    solution = solve(game.new_initial_state())
    assert solution.result.extra["algorithm"] == "pruning"
    for state in decision_nodes(game.new_initial_state(), SplitMix64(3), uniform_action):
        mover = state.current_player()
        value = solution.value(state)
        exact = _value(state, 7)
        assert value == pytest.approx(exact if mover == 0 else 1.0 - exact, abs=1e-12)
        state.apply_action(solution.best_action(state))
        after = _value(state, 7)
        assert (after if mover == 0 else 1.0 - after) == pytest.approx(value, abs=1e-12)


def test_refuses_what_is_not_constant_sum(duel):
    from solver._ext.pruning import PruningSearch, pruning_supported

    skewed = duel.DuelGame(4, 6, tie_other=0.4)  # a shared result pays 0.5 + 0.4
    with pytest.raises(SolverError, match="constant-sum"):
        PruningSearch(skewed, 1 << 20).value(skewed.new_initial_state())
    undeclared = duel.DuelGame(4, 6)
    undeclared.constant_sum = False
    assert pruning_supported(duel.DuelGame(4, 6)) and not pruning_supported(undeclared)
    with pytest.raises(OptionError, match="constant_sum"):
        PruningSearch(undeclared, 1 << 20)
    state = undeclared.new_initial_state()
    assert expectimax(state).extra["algorithm"] == "plain"  # the others keep the plain search
    with pytest.raises(OptionError, match="one-player"):
        PruningSearch(duel.DuelGame(4, 6), 1 << 20).fastest(state)


def test_refuses_more_actions_than_its_buffers(duel):
    from solver._ext.expectimax import SEARCH_CONSTANTS
    from solver._ext.pruning import PruningSearch, pruning_supported

    game = duel.DuelGame(4, 6)
    duel._declare_max_actions(SEARCH_CONSTANTS["KERNEL_MAX_ACTIONS"] + 1)
    try:
        assert not pruning_supported(game)
        with pytest.raises(OptionError, match="exceeds KERNEL_MAX_ACTIONS"):
            PruningSearch(game, 1 << 20)
    finally:
        duel._declare_max_actions(3)
    assert PruningSearch(game, 1 << 20).value(game.new_initial_state()) == pytest.approx(
        _value(game.new_initial_state(), 4), abs=1e-12
    )
