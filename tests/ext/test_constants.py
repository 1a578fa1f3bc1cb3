"""The numbers Python repeats from the compiled interface agree with what was compiled.

The pure-Python modules (``solver.game``, the Python MCTS twin, the Python expectimax loop) must
work without the extension, so they keep their own copies of the ``state.pxd`` codes and the
searchers' limits; the compiled modules export theirs, and these tests hold the two together.
"""

from __future__ import annotations

import importlib

import pytest

import solver
from solver import game as game_module

try:  # absent: require_kernels skips these tests (fails them under CI)
    from solver._ext import dog, expectimax, mcts
except ImportError:
    dog = expectimax = mcts = None

pytestmark = pytest.mark.usefixtures("require_kernels")


@pytest.mark.parametrize(
    "module", ["mcts", "ismcts", "expectimax", "pruning", "dog", "guardians", "trial"]
)
def test_player_codes_are_the_compiled_ones(module):
    constants = importlib.import_module(f"solver._ext.{module}").KERNEL_CONSTANTS
    assert constants["KERNEL_CHANCE"] == game_module.CHANCE == solver.CHANCE == -1
    assert constants["KERNEL_TERMINAL"] == game_module.TERMINAL == solver.TERMINAL == -4
    assert constants["KERNEL_MAX_ACTIONS"] == 64


def test_the_python_mcts_twin_caps_expansions_like_the_kernel_loop():
    mcts_reference = importlib.import_module("solver.search.mcts_reference")
    assert mcts.KERNEL_CONSTANTS["KERNEL_MAX_ACTIONS"] == mcts_reference.MAX_ACTIONS
    assert mcts_reference.MAX_VISITS == mcts.MAX_VISITS


def test_the_python_expectimax_loop_has_the_compiled_limits():
    python_expectimax = importlib.import_module("solver.search.expectimax")  # not the function
    compiled = expectimax.SEARCH_CONSTANTS
    assert compiled["KERNEL_MAX_ACTIONS"] == mcts.KERNEL_CONSTANTS["KERNEL_MAX_ACTIONS"]
    for name in ("MAX_PLAYERS", "MAX_PLIES", "VALUE_EPS", "PLIES_EPS"):
        assert getattr(python_expectimax, name) == compiled[name], name


def test_capsule_names_are_one_pair():
    assert dog.KERNEL_HANDLE_CAPSULE == mcts.KERNEL_HANDLE_CAPSULE == "forest_solver.KernelHandle"
    assert dog.KERNEL_STATE_CAPSULE == mcts.KERNEL_STATE_CAPSULE == "forest_solver.KernelState"
