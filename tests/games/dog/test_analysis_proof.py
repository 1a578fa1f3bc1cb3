"""The guaranteed-win proof search (solver.games.dog.analysis.proof), checked against adversarial
expectimax and by replaying its strategy against every roll sequence."""

from __future__ import annotations

import pytest

import solver
from solver.errors import OptionError
from solver.games.dog.analysis.proof import check_strategy, prove_guaranteed, turns_needed
from solver.games.dog.forest import Forest, Terrain
from solver.games.dog.generator import roll_forest
from solver.search.expectimax import expectimax

# 135 small rolled forests: sizes 3..5, turn limits 2..6
CASES = [
    (w, h, seed, 2 + (seed + w * h) % 5) for w in (3, 4, 5) for h in (3, 4, 5) for seed in range(15)
]


def root_of(forest: Forest, engine: str | None = None):
    return solver.load_game("dog", forest=forest, engine=engine).new_initial_state()


def replay_wins(state, strategy) -> bool:
    """Exhaustive replay without any table: every chance outcome of every roll, one path each."""
    if state.is_terminal():
        return bool(state.won)
    if state.is_chance_node():
        return all(replay_wins(state.child(a), strategy) for a, _ in state.chance_outcomes())
    action = strategy.get(state._to_bytes())
    return action in state.legal_actions() and replay_wins(state.child(action), strategy)


def test_agrees_with_adversarial_expectimax_on_small_forests() -> None:
    assert len(CASES) >= 100
    outcomes = {"win": 0, "no": 0}
    for w, h, seed, turns in CASES:
        root = root_of(roll_forest(w, h, seed).replace(turns=turns))
        proof = prove_guaranteed(root)
        assert proof.status in ("win", "no")
        value = expectimax(root, adversarial=True).value
        assert (proof.status == "win") == (value >= 1.0 - 1e-9), (w, h, seed, turns)
        outcomes[proof.status] += 1
        if proof.proven:
            assert check_strategy(root, proof.strategy)
        else:
            assert proof.strategy == {}
    assert min(outcomes.values()) >= 20  # both answers are exercised


@pytest.mark.parametrize("case", CASES[::4], ids=lambda c: "{}x{}-s{}-t{}".format(*c))
def test_strategy_wins_against_every_roll_sequence(case) -> None:
    w, h, seed, turns = case
    root = root_of(roll_forest(w, h, seed).replace(turns=turns))
    proof = prove_guaranteed(root)
    if proof.proven:
        assert replay_wins(root, proof.strategy)


def test_a_broken_strategy_is_caught() -> None:
    root = root_of(roll_forest(5, 5, 1).replace(turns=6))
    proof = prove_guaranteed(root)
    assert proof.proven and len(proof.strategy) > 1
    # dropping the root decision (or any decision the strategy reaches) breaks it
    first = root.clone()
    while first.is_chance_node():
        first.apply_action(first.legal_actions()[0])
    broken = dict(proof.strategy)
    del broken[first._to_bytes()]
    assert not check_strategy(root, broken)
    assert not replay_wins(root, broken)


def test_budget_gives_unknown_never_a_wrong_answer() -> None:
    for w, h, seed, turns in CASES[:40]:
        root = root_of(roll_forest(w, h, seed).replace(turns=turns))
        full = prove_guaranteed(root)
        tiny = prove_guaranteed(root, max_nodes=3)
        assert tiny.status in (full.status, "unknown")
        if tiny.status == "unknown":
            assert tiny.strategy == {}
    with pytest.raises(OptionError):
        prove_guaranteed(root, max_nodes=0)


def test_a_passed_search_deadline_ends_the_proof_as_unknown() -> None:
    """Found by attack: the proof search never read the search deadline, so the hint service's
    analysis (POST /v1/analyse, 30 s) ran its 200,000 nodes of Python past it (1.2-1.8 s). Under
    a deadline already passed it stops within DEADLINE_EVERY nodes, "unknown" (never a wrong
    answer); without one it proves as before."""
    import time

    from solver.games.dog.analysis.proof import DEADLINE_EVERY
    from solver.search.limit import search_deadline

    root = root_of(roll_forest(16, 16, 3))
    proof = prove_guaranteed(root)
    assert proof.status == "win" and proof.nodes > DEADLINE_EVERY
    with search_deadline(time.monotonic() - 1.0):
        cut = prove_guaranteed(root)
    assert cut.status == "unknown" and cut.nodes == DEADLINE_EVERY and not cut.strategy


def test_reference_engine_gives_the_same_answers() -> None:
    for w, h, seed, turns in CASES[:30]:
        forest = roll_forest(w, h, seed).replace(turns=turns)
        kernel = prove_guaranteed(root_of(forest, "kernel")).status
        reference = root_of(forest, "reference")
        proof = prove_guaranteed(reference)
        assert proof.status == kernel
        if proof.proven:
            assert check_strategy(reference, proof.strategy)


def test_hand_built_forests() -> None:
    OP = Terrain.OPEN
    grid = [[OP] * 3 for _ in range(2)]
    near = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 0), turns=1)
    assert prove_guaranteed(root_of(near)).status == "win"
    far = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(1, 2), turns=1)
    assert prove_guaranteed(root_of(far)).status == "no"  # a roll of 1 falls short
    assert turns_needed(far)[((1, 0), 6)] == 2
    assert prove_guaranteed(root_of(far.replace(turns=2))).status == "win"


def test_turns_needed_is_a_lower_bound_against_the_smallest_rolls() -> None:
    # every proven forest is won against all-ones rolls within the turns, so the bound fits
    for w, h, seed, turns in CASES[:60]:
        forest = roll_forest(w, h, seed).replace(turns=turns)
        root = root_of(forest)
        if prove_guaranteed(root).proven:
            need = turns_needed(forest).get((tuple(forest.start), 6))
            assert need is not None and need <= turns


@pytest.mark.parametrize("size", [9, 12])
def test_rolled_forests_are_settled_quickly(size: int) -> None:
    for seed in range(3):
        root = root_of(roll_forest(size, size, seed))
        proof = prove_guaranteed(root, max_nodes=50_000)
        assert proof.status in ("win", "no")
        if proof.proven:
            assert check_strategy(root, proof.strategy)


@pytest.mark.parametrize("size", [(3, 3), (6, 5), (9, 9), (12, 12), (16, 16)])
def test_the_kernels_relaxation_is_turns_needed(size: tuple[int, int]) -> None:
    # solver._ext.dog.relaxation_turns: the same Dijkstra in C, read as proof.py reads it
    from solver.games.dog.analysis.proof import _turns_needed_of

    for seed in range(25):
        forest = roll_forest(size[0], size[1], seed)
        kernel = root_of(forest, "kernel")
        assert _turns_needed_of(kernel) == turns_needed(forest)
        assert _turns_needed_of(root_of(forest, "reference")) == turns_needed(forest)
