"""The vtable's hidden-information slots and the ABI version a handle capsule records.

Every kernel compiled against this ``state.pxd`` records ABI 2 in its handle capsule's context;
the dog, guardians and the test kernels fill none of the new slots (their tables are zeroed past
``pack``) and keep working with every searcher; a capsule without the record (a kernel built
before it, whose table ends at ``pack``) reads as ABI 1, and the new slots are never read from it.
"""

from __future__ import annotations

import ctypes
import gc
import sys

import pytest

import solver
from solver.kernels import kernel_of
from solver.search.ismcts import ismcts

pytestmark = pytest.mark.usefixtures("require_kernels")

HIDDEN = {"information_state_key", "resample_hidden", "playout_action"}

_new = ctypes.pythonapi.PyCapsule_New
_new.restype = ctypes.py_object
_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_pointer.restype = ctypes.c_void_p
_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_get_context = ctypes.pythonapi.PyCapsule_GetContext
_get_context.restype = ctypes.c_void_p  # a borrowed reference: not py_object, which would steal it
_get_context.argtypes = [ctypes.py_object]
_NAME = ctypes.create_string_buffer(b"forest_solver.KernelHandle")


def _context(capsule: object) -> object:
    return ctypes.cast(_get_context(capsule), ctypes.py_object).value


def _old_style(handle: object) -> object:
    """A capsule to the same ``KernelHandle`` made as a kernel built before ABI 2 made it: the
    same name, no ABI record (the caller keeps the game alive)."""
    return _new(_pointer(handle, _NAME), _NAME, None)


def _in_tree_states() -> list[object]:
    dog = solver.load_game("dog", forest="dog/tiny-example", engine="kernel")
    guardians = solver.load_game("guardians", engine="kernel")
    return [dog.new_initial_state(), guardians.new_initial_state()]


def test_in_tree_kernels_record_abi_2_and_fill_no_hidden_slot():
    from solver._ext import ismcts as ext

    assert ext.ABI_VERSION == 2
    for state in _in_tree_states():
        handle, _ = kernel_of(state)
        assert ext.kernel_abi(handle) == 2
        assert ext.kernel_slots(handle) == {"heuristic"}
        game, tag, version = _context(handle)
        assert (tag, version) == ("forest_solver.abi", 2) and game is state.game


def test_the_test_kernels_compile_unchanged(duel):
    from solver._ext import ismcts as ext

    handle, _ = kernel_of(duel.DuelGame(4, 6).new_initial_state())
    assert ext.kernel_abi(handle) == 2 and ext.kernel_slots(handle) == {"heuristic"}


def test_a_capsule_without_the_record_reads_as_abi_1(duel):
    from solver._ext import ismcts as ext

    game = duel.DuelGame(4, 6)
    handle, state_capsule = kernel_of(game.new_initial_state())
    old = _old_style(handle)
    assert ext.kernel_abi(old) == 1
    assert ext.kernel_slots(old) == {"heuristic"}
    tree = ext.Tree(game, old, state_capsule, 0, False)  # perfect information: fine
    assert tree.search(50, 0.0, 1, 2, 1.4, ext.EVALUATOR_ROLLOUT)[0] == 50
    with pytest.raises(ValueError, match="resample_hidden"):
        ext.Tree(game, old, state_capsule, 0, True)
    with pytest.raises(TypeError, match=r"forest_solver\.KernelHandle"):
        ext.kernel_abi(state_capsule)


def test_the_abi_record_keeps_the_game_alive_and_lets_it_go():
    state = _in_tree_states()[0]
    game = state.game
    before = sys.getrefcount(game)
    handles = [game._kernel_handle() for _ in range(4)]
    assert sys.getrefcount(game) == before + 4
    del handles
    gc.collect()
    assert sys.getrefcount(game) == before


def test_kernels_without_hidden_information_get_the_compiled_ismcts(duel):
    """Perfect information through the compiled loop: every step keyed by its action, the same
    tree as the Python ISMCTS builds over the kernel's protocol."""
    dog = solver.load_game("dog", forest="dog/another-dog", engine="kernel").new_initial_state()
    dog.apply_action(10)
    duel_state = duel.DuelGame(6, 9).new_initial_state()
    for state, evaluator in [(dog, "rollout"), (dog, "heuristic"), (duel_state, "guided")]:
        compiled = ismcts(state, iterations=800, seed=5, evaluator=evaluator)
        python = ismcts(state, iterations=800, seed=5, evaluator=evaluator, compiled=False)
        assert compiled.extra["compiled"] and not compiled.extra["hidden_information"]
        assert compiled.same_search(python)
    guardians = _in_tree_states()[1]
    while guardians.is_chance_node():
        guardians.apply_action(guardians.chance_outcomes()[0][0])
    result = ismcts(guardians, iterations=50, seed=1)
    assert result.extra["compiled"] and result.best_action in guardians.legal_actions()


def test_a_kernel_without_a_playout_policy_refuses_the_playout_evaluator():
    from solver.errors import OptionError
    from solver.search.evaluators import PlayoutEvaluator

    dog = _in_tree_states()[0]
    dog.apply_action(dog.legal_actions()[0])
    with pytest.raises(OptionError, match="playout_action"):
        ismcts(dog, iterations=10, evaluator=PlayoutEvaluator())
