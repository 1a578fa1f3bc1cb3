"""The reference engine's ``heuristic`` is the kernel's ``dog_heuristic``, to the last bit, so MCTS
plays the same configuration on both engines (issue 16 §3: ``--engine reference`` gave 0.14
against the kernel's 0.96 on ``dog/big-12x12``, both labelled the mcts agent's configuration)."""

from __future__ import annotations

import pytest

import solver
from solver import puzzles
from solver.games.dog.generator import roll_forest
from solver.rng import SplitMix64

FORESTS = [*puzzles.names("dog"), *(f"rolled-{s}" for s in range(6))]


def _forest(name: str):
    if name.startswith("rolled-"):
        seed = int(name.split("-")[1])
        return roll_forest(5 + seed, 4 + seed % 5, seed=seed)
    return puzzles.load(name)


@pytest.mark.parametrize("name", FORESTS)
def test_the_reference_heuristic_is_the_kernels(name):
    forest = _forest(name)
    kernel = solver.load_game("dog", forest=forest, engine="kernel")
    reference = solver.load_game("dog", forest=forest, engine="reference")
    compared = 0
    for seed in range(8):
        rng = SplitMix64(seed)
        k, r = kernel.new_initial_state(), reference.new_initial_state()
        while True:
            assert k.heuristic(0) == r.heuristic(0), (name, seed, r.to_json())
            compared += 1
            if r.is_terminal():
                break
            if r.is_chance_node():
                actions = [a for a, _ in r.chance_outcomes()]
            else:
                actions = r.legal_actions()
            action = rng.pick(actions)
            k.apply_action(action)
            r.apply_action(action)
    assert compared > 8


def test_both_engines_declare_and_use_the_heuristic():
    from solver.registry import game_spec
    from solver.search import strong_mcts_options

    assert game_spec("dog").has_heuristic("reference") and game_spec("dog").has_heuristic("kernel")
    states = [
        solver.load_game("dog", forest="dog/big-12x12", engine=e).new_initial_state()
        for e in ("kernel", "reference")
    ]
    assert strong_mcts_options(states[0]) == strong_mcts_options(states[1])
