"""Exact optimal win probabilities of tiny dog forests, by brute force over the game protocol.

The recursion is written here against the protocol only (``current_player``, ``legal_actions``,
``chance_outcomes``, ``apply_action``, ``clone``, ``returns``, ``to_json``): the maximum over the
player's decisions, the probability-weighted sum over chance outcomes, with exact fractions
(``Fraction(p).limit_denominator(36)``: every probability of the game is a multiple of 1/6 or 1/3).
Some values are derived by hand below (docs/rules/dog.md) and asserted exactly; every forest is
solved by both engines, which must agree (the compiled half needs ``solver._ext``: see
``require_kernels`` in ``tests/conftest.py``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import solver
from solver import CHANCE, TERMINAL
from solver.games.dog.forest import Forest, Shouter
from solver.games.dog.format import SYMBOLS

_SYMBOLS = SYMBOLS  # the sheet symbols of docs/rules/dog.md §9 ('@', 'H', 'Y' are open trail)


def make_forest(picture: str, *, turns: int, shouters: tuple[Shouter, ...] = ()) -> Forest:
    rows = [line.split() for line in picture.strip().splitlines()]
    find = {sym: (r, c) for r, row in enumerate(rows) for c, sym in enumerate(row) if sym in "@H"}
    return Forest(
        width=len(rows[0]),
        height=len(rows),
        cells=[[_SYMBOLS[s] for s in row] for row in rows],
        start=find["@"],
        human=find["H"],
        shouters=list(shouters),
        turns=turns,
    )


def optimal_value(state, cache: dict[str, Fraction]) -> Fraction:
    """The optimal win probability from ``state`` (exact)."""
    if state.is_terminal():
        assert state.current_player() == TERMINAL
        return Fraction(int(state.returns()[0]))
    key = state.to_json()
    if key in cache:
        return cache[key]
    if state.current_player() == CHANCE:
        outcomes = [(a, Fraction(p).limit_denominator(36)) for a, p in state.chance_outcomes()]
        assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
        assert [a for a, _ in outcomes] == state.legal_actions()
        value = Fraction(0)
        for action, p in outcomes:
            child = state.clone()
            child.apply_action(action)
            value += p * optimal_value(child, cache)
    else:
        actions = state.legal_actions()
        assert actions, f"a decision node without legal actions: {key}"
        value = Fraction(0)
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            value = max(value, optimal_value(child, cache))
    cache[key] = value
    return value


def solve(forest: Forest, engine: str) -> Fraction:
    game = solver.load_game("dog", forest=forest, engine=engine)
    return optimal_value(game.new_initial_state(), {})


# ---------------------------------------------------------------------------------------------
# The forests. ``expected`` is the hand-derived value, or None where only the engines' agreement
# is checked.
# ---------------------------------------------------------------------------------------------
FORESTS: dict[str, tuple[Forest, Fraction | None]] = {}

# (1) 2x3, the human 2 cells E of the start, turns=1. Budget 1: one step, no win. Budget 2: E, E
# wins. Budget 3: E, E wins on step 2 (overshoot). -> 2/3.
FORESTS["two-away-1-turn"] = (
    make_forest(
        """
        @ . H
        . . .
        """,
        turns=1,
    ),
    Fraction(2, 3),
)

# (2) 2x2, the human diagonal, turns=1: budget 1 reaches (0,1) or (1,0), no win; budgets 2 and 3
# win on step 2. -> 2/3.
FORESTS["diagonal-2x2-1-turn"] = (
    make_forest(
        """
        @ .
        . H
        """,
        turns=1,
    ),
    Fraction(2, 3),
)

# (3) 3x4 corridor along row 0 (row 1 all trees), two puddles, and shouter (2,2) N 2, whose
# arrow passes over the tree (1,2) and gives (0,2) the number 2; turns=2. The dog can only walk E.
# - budget 3 (1/3): E, E, E wins in turn 1 (the costs on the way do not matter).
# - budget 1 (1/3): (0,1) puddle, stamina 4; turn 2 wins with budget >= 2 (2/3). -> 2/9
# - budget 2 (1/3): (0,1) -2 = 4, (0,2) -2 = 2, then the shout (number 2): shrugged off 1/6
#   (stamina 2: turn 2 moves, any budget wins), hit 5/6 (stamina 0: turn 2 is a rest, then the
#   game is lost). -> 1/18
# Total 1/3 + 2/9 + 1/18 = 11/18.
FORESTS["corridor-shout-2"] = (
    make_forest(
        """
        @ ~ ~ H
        T T T T
        T T Y T
        """,
        turns=2,
        shouters=(Shouter(2, 2, "N", 2),),
    ),
    Fraction(11, 18),
)

# (4) 2x3, another dog between the start and the human, turns=2. Stepping onto the dog skips
# turn 2, the last one: a loss. The way round is S, E, E, N (4 steps); at (1,1) the dog (N) is
# offered on each arrival there; ignoring it (curiosity 2 -> 1, or 1 -> 0 on turn 2) keeps the
# way open, investigating would skip turn 2.
# - budget 1: S to (1,0); turn 2 needs E, E, N: budget 3 (1/3).
# - budget 2: S, E to (1,1) (offer: ignore); turn 2 needs E, N: budget >= 2 (2/3).
# - budget 3: S, E, E to (1,2); turn 2: N wins with any budget (1).
# Total (1/3)(1/3 + 2/3 + 1) = 2/3.
FORESTS["dog-in-the-way"] = (
    make_forest(
        """
        @ D H
        . . .
        """,
        turns=2,
    ),
    Fraction(2, 3),
)

# (5) 2x4, a scent trail marked E beside the human, turns=1. Budget 1: E to (0,1); the scent
# (0,2) is E of it and offered; investigate: the hop onto (0,2), the run E enters the human ->
# win. Budgets 2 and 3: E, E onto the scent, the run wins. -> 1.
FORESTS["scent-conveyor"] = (
    make_forest(
        """
        @ . > H
        . . . .
        """,
        turns=1,
    ),
    Fraction(1),
)

# (6) The same with the scent marked W, turns=1: the run always goes away from the human, and
# the way round (via (1,3)) takes at least 5 steps -> 0.
FORESTS["scent-backwards"] = (
    make_forest(
        """
        @ . < H
        . . . .
        """,
        turns=1,
    ),
    Fraction(0),
)

# (7) 2x3, the stick between the start and the human, turns=2: turn 1, E onto the stick (a
# complete move whatever the budget); turn 2 (budget 1 or 2): E enters the human. -> 1.
# With turns=1 nothing wins: the stick ends the move and the way round is 4 steps. -> 0.
STICK_PICTURE = """
@ I H
. . .
"""
FORESTS["stick-2-turns"] = (make_forest(STICK_PICTURE, turns=2), Fraction(1))
FORESTS["stick-1-turn"] = (make_forest(STICK_PICTURE, turns=1), Fraction(0))

# (8) A walled-in start never moves. -> 0.
FORESTS["walled-in"] = (
    make_forest(
        """
        @ T .
        T . H
        """,
        turns=4,
    ),
    Fraction(0),
)

# Richer forests, solved by both engines (values not derived by hand).
FORESTS["mixed-3x4-a"] = (
    make_forest(
        """
        . S . H
        , Y ~ .
        @ . D ,
        """,
        turns=3,
        shouters=(Shouter(1, 1, "E", 3),),
    ),
    None,
)
FORESTS["mixed-3x4-b"] = (
    make_forest(
        """
        H . v .
        I T . S
        . , @ ~
        """,
        turns=4,
    ),
    None,
)
FORESTS["mixed-3x3-c"] = (
    make_forest(
        """
        . Y H
        < . S
        @ I .
        """,
        turns=4,
        shouters=(Shouter(0, 1, "S", 2),),
    ),
    None,
)
FORESTS["mixed-2x4-d"] = (
    make_forest(
        """
        S ~ . H
        @ D , Y
        """,
        turns=4,
        shouters=(Shouter(1, 3, "W", 3),),
    ),
    None,
)

HAND_DERIVED = [name for name, (_, expected) in FORESTS.items() if expected is not None]


@pytest.mark.parametrize("name", HAND_DERIVED)
def test_reference_matches_hand_derived_value(name):
    forest, expected = FORESTS[name]
    assert solve(forest, "reference") == expected


@pytest.mark.parametrize("name", [n for n, (_, e) in FORESTS.items() if e is None])
def test_reference_value_is_a_probability(name):
    forest, _ = FORESTS[name]
    value = solve(forest, "reference")
    assert 0 <= value <= 1
    # every probability of the game is a multiple of 1/6 or 1/3: only 2s and 3s in the denominator
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 3 == 0:
        d //= 3
    assert d == 1


def test_more_turns_never_hurt():
    # A sanity relation that holds in the rules: the value is monotone in the number of turns.
    forest, _ = FORESTS["corridor-shout-2"]
    values = [solve(forest.replace(turns=t), "reference") for t in (1, 2, 3)]
    # turns=1: only budget 3 wins -> 1/3.
    assert values[0] == Fraction(1, 3)
    assert values[0] <= values[1] <= values[2]
    assert values[1] == Fraction(11, 18)


# ---------------------------------------------------------------------------------------------
# The compiled kernel must give the same exact values (and the same tree, node by node).
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(FORESTS))
def test_kernel_agrees_on_exact_value(name, require_kernels):
    forest, expected = FORESTS[name]
    kernel_value = solve(forest, "kernel")
    assert kernel_value == solve(forest, "reference")
    if expected is not None:
        assert kernel_value == expected


def _walk_both(ref, ker, seen: set[str]) -> int:
    """Visit the reachable tree of both engines together, comparing every observable."""
    key = ref.to_json()
    assert ker.to_json() == key
    if key in seen:
        return 0
    seen.add(key)
    assert ker.current_player() == ref.current_player()
    assert ker.is_terminal() == ref.is_terminal()
    assert ker.returns() == ref.returns()
    assert ker.legal_actions() == ref.legal_actions()
    ref_out = [(a, Fraction(p).limit_denominator(36)) for a, p in ref.chance_outcomes()]
    ker_out = [(a, Fraction(p).limit_denominator(36)) for a, p in ker.chance_outcomes()]
    assert ker_out == ref_out
    count = 1
    for action in ref.legal_actions():
        assert ker.action_to_string(action) == ref.action_to_string(action)
        r, k = ref.clone(), ker.clone()
        r.apply_action(action)
        k.apply_action(action)
        count += _walk_both(r, k, seen)
    return count


@pytest.mark.parametrize("name", list(FORESTS))
def test_kernel_agrees_node_by_node(name, require_kernels):
    forest, _ = FORESTS[name]
    ref = solver.load_game("dog", forest=forest, engine="reference").new_initial_state()
    ker = solver.load_game("dog", forest=forest, engine="kernel").new_initial_state()
    assert _walk_both(ref, ker, set()) > 1
