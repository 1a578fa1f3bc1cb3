"""The capsule plumbing of ``ext/state.pxd`` and ``solver.kernels.kernel_of``.

Kernel wrappers make the capsules with ``handle_capsule``/``state_capsule``; searchers read them
with ``handle_from_capsule``/``state_from_capsule``, which refuse a capsule of the wrong name.
"""

from __future__ import annotations

import ctypes
import gc
import sys

import pytest

from solver import puzzles
from solver.errors import OptionError
from solver.games.dog.rules import DogGame
from solver.kernels import KernelCapsules, game_of, kernel_of

try:  # absent: require_kernels skips these tests (fails them under CI)
    from solver._ext import dog, expectimax, mcts
except ImportError:
    dog = expectimax = mcts = None

pytestmark = pytest.mark.usefixtures("require_kernels")

_name = ctypes.pythonapi.PyCapsule_GetName
_name.restype = ctypes.c_char_p
_name.argtypes = [ctypes.py_object]


def _kernel_game() -> dog.DogKernelGame:
    return dog.DogKernelGame(puzzles.load("dog/tiny-example"))


def test_kernel_of_a_kernel_state_gives_both_capsules():
    game = _kernel_game()
    state = game.new_initial_state()
    capsules = kernel_of(state)
    assert isinstance(capsules, KernelCapsules)
    handle, state_capsule = capsules
    assert _name(handle) == b"forest_solver.KernelHandle"
    assert _name(state_capsule) == b"forest_solver.KernelState"
    assert game._state_from_capsule(state_capsule) == state
    assert mcts.kernel_has_heuristic(handle)
    assert game_of(state) is game


def test_kernel_of_a_reference_state_is_none():
    state = DogGame(puzzles.load("dog/tiny-example")).new_initial_state()
    assert kernel_of(state) is None
    assert kernel_of(object()) is None


def test_kernel_of_a_state_whose_game_has_no_handle_raises():
    class Broken:
        game = object()

        def _state_capsule(self) -> object:  # pragma: no cover - never reached
            raise AssertionError

    with pytest.raises(OptionError, match="its game has no _kernel_handle"):
        kernel_of(Broken())


def test_game_of_falls_back_to_get_game():
    class OpenSpielStyle:
        def get_game(self) -> str:
            return "the game"

    assert game_of(OpenSpielStyle()) == "the game"
    assert game_of(object()) is None


def test_searchers_refuse_capsules_of_the_wrong_name():
    game = _kernel_game()
    state = game.new_initial_state()
    handle, state_capsule = kernel_of(state)
    with pytest.raises(TypeError, match=r"forest_solver\.KernelHandle"):
        mcts.Tree(game, state_capsule, state_capsule)
    with pytest.raises(TypeError, match=r"forest_solver\.KernelState"):
        mcts.Tree(game, handle, handle)
    with pytest.raises(TypeError, match=r"forest_solver\.KernelHandle"):
        mcts.kernel_has_heuristic("not a capsule")
    with pytest.raises(TypeError, match=r"forest_solver\.KernelState"):
        game._state_from_capsule(handle)


def test_capsules_hold_their_owners_until_released():
    game = _kernel_game()
    state = game.new_initial_state()
    before = sys.getrefcount(state), sys.getrefcount(game)
    capsules = [state._state_capsule() for _ in range(5)] + [game._kernel_handle()]
    assert sys.getrefcount(state) == before[0] + 5
    assert sys.getrefcount(game) >= before[1] + 1
    del capsules
    gc.collect()
    assert (sys.getrefcount(state), sys.getrefcount(game)) == before


def test_a_tree_keeps_searching_after_the_python_objects_are_dropped():
    game = _kernel_game()
    state = game.new_initial_state()
    state.apply_action(11)
    tree = mcts.Tree(game, *kernel_of(state))
    expected = state.legal_actions()
    del state, game
    gc.collect()
    tree.search(200, 0.0, 1, 1.4, mcts.EVALUATOR_ROLLOUT, 1)
    assert [action for _, action, *_ in tree.children(0)] == expected
