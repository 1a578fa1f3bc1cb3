"""The planner's compiled prospect (``ext/guardians_plan.pyx``) against its Python twin
(``planner._prospect``): equal values, to the last bit, on boards from random play, every
mission reading, the start walk, every budget and edge-of-window forests."""

from __future__ import annotations

import pytest

from solver.games.guardians import planner as P
from solver.games.guardians.tiles import START_ID
from solver.rng import SplitMix64

from .test_planner import _mission_states

COLOURS = "BGREPY"
compiled = pytest.importorskip("solver._ext.guardians_plan")


def _sequence(rng: SplitMix64, length: int) -> str:
    return "".join(COLOURS[rng.below(6)] for _ in range(length))


def _both(board: P.Board, cell, sequence: str, points: int, avail, budget: int):
    tile = START_ID if not sequence else 1
    ctx = P.Context(
        {START_ID: "", 1: sequence}, {START_ID: points, 1: points}, 5, avail, [], [], [], {}
    )
    python = P._prospect(board, cell, tile, ctx, budget, sequence)
    weights = compiled.Weights(P.WEIGHT, P.START_FILL, P.START_BUDGET)
    c = compiled.prospect(weights, board.col, board.mis, cell, sequence, points, avail, budget)
    return python, c


def test_compiled_prospect_equals_the_python_search_on_random_boards():
    rng = SplitMix64(31)
    checked = nonzero = 0
    for state in _mission_states(80, 12):
        board = P.board_of(state)
        cells = sorted(set(board.col) | set(board.mis))
        for _ in range(6):
            cell = cells[rng.below(len(cells))]
            length = rng.below(5)  # 0: the start walk; 1-4: sequences of 2-5 colours
            sequence = "" if length == 0 else _sequence(rng, length + 1)
            if rng.below(4) == 0 and sequence:
                sequence = sequence + sequence[-2::-1]  # a palindrome
                sequence = sequence[:5]
            avail = {c: rng.uniform() for c in COLOURS}
            budget = rng.below(7)
            python, c = _both(board, cell, sequence, 3 + rng.below(10), avail, budget)
            assert python == c, (sequence, cell, budget)
            checked += 1
            nonzero += python > 0
    assert checked == 480 and nonzero > 200


def test_compiled_prospect_at_the_edge_of_the_window():
    # a line of tiles along the window's corner: templates reach past the window (the Python
    # search has no window check), the compiled grid's margin holds them
    col = {(31, 31 - i): COLOURS[i % 6] for i in range(6)}
    col.update({(-32, -32 + i): COLOURS[i % 6] for i in range(6)})
    board = P.Board(col, {(30, 31): 1, (-31, -32): START_ID}, [None] * 4)
    avail = dict.fromkeys(COLOURS, 0.5)
    for cell, sequence in (((30, 31), "BGRE"), ((30, 31), "YPE"), ((-31, -32), "")):
        for budget in range(7):
            python, c = _both(board, cell, sequence, 8, avail, budget)
            assert python == c


def test_a_kernel_state_plans_with_the_compiled_prospect():
    import solver

    state = solver.load_game("guardians", players=1, level=1).new_initial_state()
    reference = solver.load_game("guardians", players=1, level=1, engine="reference")
    assert P._base_context(state).compiled is not None
    assert P._base_context(reference.new_initial_state()).compiled is None


def test_weights_are_checked():
    with pytest.raises(ValueError):
        compiled.Weights((), 0.8, 4)
    with pytest.raises(ValueError, match="outside"):
        compiled.prospect(
            compiled.Weights(P.WEIGHT, P.START_FILL, P.START_BUDGET),
            {(40, 0): "B"}, {}, (40, 0), "BG", 3, dict.fromkeys(COLOURS, 0.5), 2,
        )  # fmt: skip
