"""Multiple-observer ISMCTS (``ismcts(..., multiple_observers=True)``): one tree per player.

Held to its Python twin (:class:`solver.search.ismcts.MultiObserverTree`) draw for draw on the
hidden-information test kernel, to the single-observer search on games of perfect information
(where every player's tree is the same tree, so the observer's statistics must be identical), and
to the information-set property: the answer does not depend on the hidden cards.
"""

from __future__ import annotations

from typing import Any

import pytest

import solver
from solver.errors import OptionError
from solver.rng import SplitMix64
from solver.search.evaluators import PlayoutEvaluator
from solver.search.ismcts import ismcts

pytestmark = pytest.mark.usefixtures("require_kernels", "declared_cards")


def _line(start: Any, seed: int, decisions: int) -> list[int]:
    """A seeded random line from ``start`` to a decision with a choice after ``decisions``."""
    rng = SplitMix64(seed)
    state, line, made = start.clone(), [], 0
    while True:
        legal = state.legal_actions()
        if not state.is_chance_node():
            if len(legal) > 1 and made >= decisions:
                return line
            made += 1
        line.append(legal[rng.below(len(legal))])
        state.apply_action(line[-1])


def _pair(cards: Any, twin: Any, n: int, hand: int, line: list[int]) -> tuple[Any, Any]:
    kernel, copy = cards.CardsGame(n, hand).new_initial_state(), twin.CardsTwin(n, hand)
    for a in line:
        kernel.apply_action(a)
        copy.apply_action(a)
    return kernel, copy


@pytest.mark.parametrize("evaluator", ["rollout", "heuristic", PlayoutEvaluator(6)], ids=str)
@pytest.mark.parametrize("threads", [1, 2])
def test_the_compiled_loop_equals_its_python_twin(cards, cards_twin, evaluator, threads):
    """The compiled multi-observer loop, the Python tree on the twin and the Python tree on the
    kernel's protocol: the same result, node counts included (every player's tree)."""
    for seed, (n, hand, decisions) in enumerate([(8, 2, 0), (10, 3, 1), (12, 3, 3)]):
        line = _line(cards.CardsGame(n, hand).new_initial_state(), seed, decisions)
        kernel, copy = _pair(cards, cards_twin, n, hand, line)
        options = {"iterations": 500, "seed": 3 + seed, "evaluator": evaluator, "c": 0.7,
                   "threads": threads, "multiple_observers": True}  # fmt: skip
        compiled = ismcts(kernel, **options)
        python = ismcts(copy, **options)
        protocol = ismcts(kernel, compiled=False, **options)
        assert compiled.extra["compiled"] and compiled.extra["multiple_observers"]
        assert not python.extra["compiled"] and python.extra["multiple_observers"]
        assert compiled.same_search(python), (compiled.moves, python.moves)
        assert python.same_search(protocol)
        single = ismcts(kernel, **(options | {"multiple_observers": False}))
        assert not single.extra["multiple_observers"]
        assert compiled.nodes > single.nodes  # the follower's tree besides the observer's


def test_perfect_information_gives_the_single_observer_statistics():
    """Without hidden information every tree is keyed by the actions, so each mover's tree holds
    the statistics the single tree holds at its nodes: the same moves and values, n trees."""
    state = solver.load_game("guardians", engine="kernel", players=2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for evaluator, threads, compiled in [("rollout", 1, None), ("heuristic", 2, None),
                                         ("heuristic", 1, False)]:  # fmt: skip
        options = {"iterations": 300, "seed": 5, "evaluator": evaluator, "threads": threads,
                   "compiled": compiled}  # fmt: skip
        one = ismcts(state, **options)
        many = ismcts(state, multiple_observers=True, **options)
        assert one.extra["compiled"] == (compiled is None) and not one.extra["hidden_information"]
        assert many.moves == one.moves and many.value == one.value
        assert many.nodes == 2 * one.nodes


def test_the_answer_does_not_depend_on_the_hidden_cards(cards):
    """Every deal the observer cannot tell from the real one gives the identical search (the
    other players' trees are entered by their information in the observer's redeal only)."""
    state = cards.CardsGame(8, 2).new_initial_state()
    for a in (1, 6, 4, 2):
        state.apply_action(a)
    other = state.hand_of(1) + state.deck()
    worlds = []
    for i, x in enumerate(other):
        for y in other[i + 1 :]:
            rest = [c for c in other if c not in (x, y)]
            worlds.append(state.with_cards(state.hand_of(0), [x, y], rest))
    assert len(worlds) == 15
    results = [
        ismcts(w, iterations=1500, seed=3, evaluator="rollout", multiple_observers=True)
        for w in worlds
    ]
    assert all(r.same_search(results[0]) for r in results)


def test_determinism_and_a_bad_flag(cards):
    state = cards.CardsGame(12, 3).new_initial_state()
    for a in _line(state, 5, 2):
        state.apply_action(a)
    one = ismcts(state, iterations=2000, seed=9, threads=2, multiple_observers=True)
    assert one.same_search(ismcts(state, iterations=2000, seed=9, threads=2,
                                  multiple_observers=True))  # fmt: skip
    assert not one.same_search(ismcts(state, iterations=2000, seed=9, threads=2))
    with pytest.raises(OptionError, match="multiple_observers"):
        ismcts(state, iterations=10, multiple_observers="yes")
