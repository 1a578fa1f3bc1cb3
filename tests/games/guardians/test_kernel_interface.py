"""The guardians kernel's C-level face: constants held to the reference, the per-game vtable,
capsules, and byte-level state identity."""

from __future__ import annotations

import pytest

import solver
from solver.games.guardians import actions
from solver.games.guardians.rules import PHASE_NAMES
from solver.kernels import kernel_of

try:  # absent: require_kernels (tests/conftest.py) skips these tests, or fails them under CI
    from solver._ext import guardians as ext
except ImportError:
    ext = None

pytestmark = pytest.mark.usefixtures("require_kernels")


def test_the_compiled_constants_are_the_reference_s():
    layout = ext.ACTION_LAYOUT
    assert layout["END_TURN"] == actions.END_TURN and layout["TAKE_TWO"] == actions.TAKE_TWO
    assert layout["TAKE_ONE"] == actions.TAKE_ONE and layout["RESET"] == actions.RESET
    assert layout["PAWN_BASE"] == actions.PAWN_BASE and layout["WALK_BASE"] == actions.WALK_BASE
    assert layout["PLACE_BASE"] == actions.PLACE_BASE and layout["DRAW_BASE"] == actions.DRAW_BASE
    assert layout["CELLS"] == actions.CELLS and layout["POOL_SLOTS"] == actions.POOL_SLOTS
    assert {name: int(phase) for phase, name in PHASE_NAMES.items()} == ext.PHASE_CODES


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_vtable_is_per_game(players):
    game = solver.load_game("guardians", players=players, engine="kernel")
    # the header (2168 bytes: 1912 and the 256 bytes of the backs shown) and 2080 bytes per
    # player in play; the draws (72) and the six `flip tile` ids close the action range
    assert game.state_size == 2168 + 2080 * players
    assert game.max_actions == 4097 and game.num_distinct_actions() == 30_486
    state = game.new_initial_state()
    assert len(state._to_bytes()) == game.state_size
    capsules = kernel_of(state)
    assert capsules is not None
    copy = game._state_from_capsule(capsules.state)
    assert copy == state and copy._to_bytes() == state._to_bytes()


def test_equal_positions_are_equal_bytes_whatever_the_order_of_play():
    """Two players complete missions in different rounds: the piles' layout does not depend on
    the order, so a state read from JSON is the same bytes and hash as the one from play."""
    game = solver.load_game("guardians", players=2, engine="kernel")
    from solver.rng import SplitMix64

    seen_piles = False
    for seed in range(60):
        rng = SplitMix64(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            walks = legal[1:] if state.phase.name == "MISSIONS" else []
            state.apply_action(rng.pick(walks) if walks else rng.pick(legal))
            if state.is_chance_node() and rng.roll(4) > 1:
                continue  # read back at a quarter of the draws and at every decision
            back = game.state_from_json(state.to_json())
            assert back._to_bytes() == state._to_bytes() and back._hash() == state._hash()
            seen_piles = seen_piles or all(state.people[p].pile for p in range(2))
        if seen_piles:
            break
    assert seen_piles


def test_a_kernel_game_refuses_a_forest_in_two_pieces():
    from solver.errors import OptionError
    from solver.games.guardians.grove_position import DEFAULT_TABLE, Grove, GroveCell

    cell = GroveCell("B", "GG")
    grid = ((GroveCell(None, "GR", True, False, "b"), None, cell),)
    grove = Grove("split", "solo", DEFAULT_TABLE, grid)
    solver.load_game("guardians", position=grove, engine="reference")  # the reference plays it
    with pytest.raises(OptionError, match="one piece"):
        solver.load_game("guardians", position=grove, engine="kernel")
