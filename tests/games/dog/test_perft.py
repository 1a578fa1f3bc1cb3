"""Perft for the dog game: count the game tree from the start of every curated puzzle.

``perft(state, d)`` walks every action sequence of up to ``d`` actions from ``state`` through the
protocol only (``legal_actions`` lists the chance outcomes at a chance node, so every chance
outcome and every decision is a branch). A sequence stops at depth ``d`` or at a terminal state;
each such leaf is counted once. It returns ``(leaves, won leaves, open leaves)``: the open leaves
are the non-terminal ones at depth ``d`` (0 means ``d`` reaches the end of every game, the whole
tree).

The literals below were computed once with the reference engine (``d`` about as large as stays
well under a second there); both engines must reproduce them.
"""

from __future__ import annotations

import pytest

from solver import puzzles
from solver.games.dog.kernel import KernelDogGame
from solver.games.dog.rules import DogGame

# name: (depth, leaves, won leaves, open leaves)
PERFT = {
    "dog/another-dog": (15, 2238, 261, 0),  # the whole tree
    "dog/big-12x12": (9, 4472, 0, 4472),
    "dog/corridor": (12, 257, 22, 0),  # the whole tree
    "dog/open-meadow-9x9": (9, 7136, 0, 7136),
    "dog/puddles": (9, 3794, 84, 3710),
    "dog/rolled-9x9-seed7": (12, 4211, 0, 4211),
    "dog/scent-shortcut": (10, 8828, 700, 8128),
    "dog/shout-gauntlet": (11, 5626, 518, 5108),
    "dog/squirrel-corner": (15, 2916, 235, 0),  # the whole tree
    "dog/stick": (15, 2955, 231, 0),  # the whole tree
    "dog/tiny-2x2": (3, 6, 4, 0),  # the whole tree
    "dog/tiny-3x3": (7, 30, 28, 0),  # the whole tree
    "dog/tiny-example": (9, 3477, 162, 3315),
    "dog/tiny-shout": (16, 5035, 452, 0),  # the whole tree
    "dog/trail-crossing": (18, 3858, 772, 2996),
    "dog/walled-in": (3, 27, 0, 0),  # the whole tree
}
# Puzzles added after the literals were taken are compared engine against engine at this depth.
NEW_PUZZLE_DEPTH = 8


def perft(state, depth: int) -> tuple[int, int, int]:
    """(leaves, won leaves, open leaves) of the tree below ``state`` cut at ``depth`` actions."""
    if state.is_terminal():
        return (1, 1 if state.returns()[0] == 1.0 else 0, 0)
    if depth == 0:
        return (1, 0, 1)
    leaves = won = open_ = 0
    for action in state.legal_actions():
        sub = perft(state.child(action), depth - 1)
        leaves += sub[0]
        won += sub[1]
        open_ += sub[2]
    return (leaves, won, open_)


def test_perft_by_hand_on_the_smallest_puzzle():
    # tiny-2x2, one turn: a roll of 1 (one step W or N, then the turn and the game are over),
    # a roll of 2 or 3 (W then N or N then W: the human, a win either way; the overshoot is
    # fine): 2 + 2 + 2 leaves, 4 of them won.
    state = KernelDogGame(puzzles.load("dog/tiny-2x2")).new_initial_state()
    assert perft(state, 1) == (3, 0, 3)
    assert perft(state, 3) == (6, 4, 0)


@pytest.mark.parametrize("name", sorted(set(PERFT) | set(puzzles.names("dog"))))
def test_perft_matches_in_both_engines(name):
    forest = puzzles.load(name)
    depth = PERFT[name][0] if name in PERFT else NEW_PUZZLE_DEPTH
    kernel = perft(KernelDogGame(forest).new_initial_state(), depth)
    reference = perft(DogGame(forest).new_initial_state(), depth)
    assert kernel == reference
    if name in PERFT:
        assert (depth, *reference) == PERFT[name]
