"""The compiled searchers on the guardians kernel.

MCTS on a kernel state runs the compiled loop (``ext/mcts.pyx``) with the kernel's C heuristic;
on a reference state it runs the Python path with ``heuristic.py``. The two use the same random
stream and the same arithmetic, so with an equal heuristic they must build the same tree: the
tests compare every root child's visits. Guardians nodes can have more children than a stack
buffer of ``KERNEL_MAX_ACTIONS`` (64) or a byte (255) holds; the exact search refuses the kernel
with a clear error instead.
"""

from __future__ import annotations

import pytest

import solver
from solver.errors import OptionError
from solver.games.guardians.actions import TAKE_TWO
from solver.games.guardians.agent import mcts_agent
from solver.games.guardians.board import frontier
from solver.games.guardians.grove_format import parse_grove
from solver.rng import SplitMix64
from solver.search import MCTSTree, mcts, strong_mcts_options

pytestmark = pytest.mark.usefixtures("require_kernels")


def _decision(players: int, engine: str, seed: int, position=None):
    game = solver.load_game("guardians", players=players, engine=engine, position=position)
    state = game.new_initial_state()
    rng = SplitMix64(seed)
    while state.is_chance_node():
        state.apply_action(rng.pick(state.legal_actions()))
    return state


def _visits(result):
    return [(m.action, m.visits) for m in result.moves]


@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize("strong", [True, False])
def test_compiled_and_python_mcts_build_the_same_tree(players, strong):
    kernel = _decision(players, "kernel", players)
    reference = _decision(players, "reference", players)
    assert kernel.to_json() == reference.to_json()
    results, engines = [], []
    for state in (kernel, reference):
        options = strong_mcts_options(state) if strong else None
        tree = MCTSTree()
        results.append(tree.search(state, iterations=150, seed=7, options=options))
        engines.append(tree.engine)
    assert engines == ["kernel", "python"]
    assert _visits(results[0]) == _visits(results[1])


def _comb_position():
    """A solo forest of three full rows of 16 tiles joined at the left: 70 frontier cells."""
    full = " ".join(["B:GG"] * 16)
    joint = " ".join(["B:GG"] + ["."] * 15)
    rows = ["[GR]b " + " ".join(["B:GG"] * 15), joint, full, joint, full]
    return parse_grove("grid:\n" + "\n".join(rows) + "\n")


def test_mcts_searches_a_node_with_hundreds_of_children():
    game = solver.load_game("guardians", players=1, engine="kernel", position=_comb_position())
    state = game.new_initial_state()
    rng = SplitMix64(1)
    while state.phase.name != "GROW":
        legal = state.legal_actions()
        state.apply_action(rng.pick(legal) if state.is_chance_node() else legal[0])
    state.apply_action(TAKE_TWO)
    legal = state.legal_actions()
    me = state.people[0]
    assert len(legal) == 6 * len(frontier(me.forest)) > 255
    result = mcts(state, iterations=len(legal) + 50, seed=3)
    assert result.best_action in legal
    assert sorted(m.action for m in result.moves) == legal
    reference = state.to_reference()
    python = mcts(reference, iterations=len(legal) + 50, seed=3)
    assert _visits(python) == _visits(result)


def test_the_mcts_agent_plays_the_same_game_on_both_engines():
    _same_game_on_both_engines(moves=12)


@pytest.mark.slow
def test_the_mcts_agent_plays_the_same_40_moves_on_both_engines():
    _same_game_on_both_engines(moves=40)


def _same_game_on_both_engines(moves: int) -> None:
    """The mcts agent's first ``moves`` moves of a seeded 2-player game, on either engine."""
    played_on = {}
    for engine in ("kernel", "reference"):
        game = solver.load_game("guardians", players=2, engine=engine)
        agent = mcts_agent(game, seed=4, iterations=20)
        state = game.new_initial_state()
        rng = SplitMix64(9)
        played = []
        while not state.is_terminal() and len(played) < moves:
            if state.is_chance_node():
                state.apply_action(rng.pick(state.legal_actions()))
            else:
                played.append(agent(state))
                state.apply_action(played[-1])
        played_on[engine] = played
    assert played_on["kernel"] == played_on["reference"] and len(played) == moves


def test_the_exact_search_refuses_the_whole_game_and_bounds_it_like_the_reference():
    # The compiled expectimax takes at most 64 moves a node: the whole game is refused at once
    # (in Python it filled 1 GB in 331 s), a depth-limited search runs in the Python loop and
    # gives the reference engine's values (the kernel once refused that too).
    from solver.search import expectimax

    state = _decision(1, "kernel", 1)
    with pytest.raises(OptionError, match="max_actions"):
        expectimax(state)
    bounded = expectimax(state, depth=1, exact=False)
    twin = expectimax(_decision(1, "reference", 1), depth=1, exact=False)
    assert [(m.action, m.value) for m in bounded.moves] == [(m.action, m.value) for m in twin.moves]
    assert bounded.moves and bounded.value == twin.value
