"""The compiled ISMCTS on the Trial's compiled engine.

Skipped until the ``kernel`` engine is a compiled kernel that fills the hidden-information slots
of its table (``docs/kernel-abi.md``). Then: the compiled loop builds the Python ISMCTS's tree
over the kernel's own protocol (its ``resample_hidden``, ``playout_action`` and information
strings mirror the slots), the answer does not depend on the cards the searching player cannot
see, the agent and the hints reach it, and threads and seeds are deterministic.
"""

from __future__ import annotations

from typing import Any

import pytest

import solver
from solver.rng import SplitMix64
from solver.search.ismcts import ismcts
from solver.testing import decision_nodes

pytestmark = pytest.mark.usefixtures("require_kernels")


def _compiled_game(players: int) -> Any:
    from solver.kernels import kernel_of
    from solver.search.ismcts_kernel import HIDDEN_SLOTS, extension

    game = solver.load_game("trial", players=players, engine="kernel")
    capsules = kernel_of(game.new_initial_state())
    if capsules is None or not set(extension().kernel_slots(capsules.handle)) >= HIDDEN_SLOTS:
        pytest.skip("the Trial's kernel engine is not a compiled kernel with hidden slots yet")
    return game


def _decisions(game: Any, seed: int, count: int) -> list[Any]:
    """``count`` decision nodes with three or more legal actions along one seeded random game."""
    rng = SplitMix64(seed)
    found = []
    for state in decision_nodes(game.new_initial_state(), rng):
        if len(found) == count:
            break
        legal = state.legal_actions()
        if len(legal) >= 3 and rng.below(8) == 0:
            found.append(state.clone())
        state.apply_action(legal[rng.below(len(legal))])
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_tree_is_the_python_tree_over_the_kernel(players: int) -> None:
    from solver.games.trial.playouts import PlayoutEvaluator

    game = _compiled_game(players)
    for i, state in enumerate(_decisions(game, players, 3)):
        for evaluator in ("heuristic", PlayoutEvaluator(depth=6)):
            options = {"iterations": 60, "seed": i, "evaluator": evaluator, "c": 0.4}
            compiled = ismcts(state, **options)
            python = ismcts(state, compiled=False, **options)
            assert compiled.searcher == "compiled" and python.searcher == "python"
            assert compiled.same_search(python), (compiled.moves, python.moves)


def test_the_answer_does_not_depend_on_what_the_player_cannot_see() -> None:
    game = _compiled_game(3)
    for state in _decisions(game, 5, 3):
        p = state.current_player()
        other = state.resample_hidden(p, SplitMix64(99))
        assert other.observation(p) == state.observation(p)
        for threads in (1, 2):
            one = ismcts(state, iterations=400, seed=3, threads=threads)
            assert one.same_search(ismcts(other, iterations=400, seed=3, threads=threads))
            assert one.extra["evaluator"] == "playout"  # the kernel's heavy playouts


def test_the_agent_and_a_hint_search_compiled() -> None:
    from solver.agents import make_agent
    from solver.hint.engine import answer

    game = _compiled_game(2)
    state = _decisions(game, 7, 1)[0]
    agent = make_agent("ismcts", game, seed=1, iterations=200)
    assert agent(state) in state.legal_actions()
    reply = answer({"id": "t", "game": "trial", "options": {"players": 2}, "engine": "kernel",
                    "state": state.to_json(), "limit": {"iterations": 300}})  # fmt: skip
    assert reply["rootInfo"]["searcher"] == "compiled" and reply["rootInfo"]["visits"] == 300


@pytest.mark.parametrize("players", [2, 4])
def test_the_heuristic_agent_plays_the_same_moves_on_both_engines(players: int) -> None:
    """On the compiled engine the heuristic agent is the kernel's playout policy (C); on the
    reference its Python rules: seeded alike, the same move at every decision of random games,
    and the generators left in the same state."""
    from solver.games.trial.agents import heuristic_agent

    game = _compiled_game(players)
    reference = solver.load_game("trial", players=players, engine="reference")
    for state in _decisions(game, 11 + players, 12):
        twin = reference.state_from_json(state.to_json())
        fast, slow = heuristic_agent(game, seed=5), heuristic_agent(reference, seed=5)
        assert [fast(state) for _ in range(3)] == [slow(twin) for _ in range(3)]


def test_a_hint_is_the_same_for_positions_the_player_cannot_tell_apart() -> None:
    from solver.hint.engine import answer

    game = _compiled_game(3)
    state = _decisions(game, 21, 2)[-1]
    p = state.current_player()
    request = {"id": "t", "game": "trial", "options": {"players": 3}, "engine": "kernel",
               "player": p, "limit": {"iterations": 500}, "seed": 6}  # fmt: skip
    reply = answer({**request, "state": state.to_json()})
    other = answer({**request, "state": state.resample_hidden(p, SplitMix64(3)).to_json()})
    assert reply["rootInfo"]["searcher"] == "compiled"
    assert {k: v for k, v in reply.items() if k != "elapsed"} == {
        k: v for k, v in other.items() if k != "elapsed"
    }


def test_hints_search_with_the_agents_leaf_and_c() -> None:
    """``GameSpec.ismcts_options``: on the compiled engine the agent's heavy playouts and c (a
    hint is that search), on the reference the heuristic leaf."""
    from solver.games.trial import SPEC
    from solver.games.trial.playouts import PLAYOUT_C, PLAYOUT_DEPTH, PlayoutEvaluator
    from solver.hint.engine import answer

    game = _compiled_game(2)
    state = _decisions(game, 3, 1)[0]
    options = SPEC.ismcts_options(state)
    assert isinstance(options.evaluator, PlayoutEvaluator) and options.c == PLAYOUT_C
    assert options.evaluator.depth == PLAYOUT_DEPTH
    reference = solver.load_game("trial", players=2, engine="reference")
    assert SPEC.ismcts_options(reference.state_from_json(state.to_json())).evaluator == "heuristic"
    reply = answer({"id": "t", "game": "trial", "options": {"players": 2}, "engine": "kernel",
                    "state": state.to_json(), "limit": {"iterations": 300}, "seed": 2})  # fmt: skip
    expected = ismcts(state, iterations=300, seed=2, options=options)
    assert [m["action"] for m in reply["moveInfos"]] == [m.action for m in expected.moves]
    assert [m["visits"] for m in reply["moveInfos"]] == [m.visits for m in expected.moves]
