"""The compiled dog kernel's C-level interface (``ext/state.pxd``) and its Python extras.

The ``KernelVTable`` is exercised through ``ctypes``: the test reads the ``KernelHandle`` out of
the game's capsule, calls the C functions on a state's struct (through the state's capsule) and
checks them against the Python protocol.
"""

from __future__ import annotations

import ctypes
import gc
import importlib.util
import pickle
import random
import struct
import sys
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char_p,
    c_double,
    c_int,
    c_size_t,
    c_uint64,
    c_void_p,
    py_object,
)
from pathlib import Path

import pytest

import solver
from solver import puzzles
from solver.errors import ExtensionMissingError, OptionError
from solver.game import CHANCE, TERMINAL
from solver.games.dog.kernel import KernelDogGame
from solver.games.dog.rules import DogGame
from solver.rng import MASK64
from solver.testing import random_action

try:  # absent: require_kernels skips these tests (fails them under CI)
    from solver._ext import dog
except ImportError:
    dog = None

pytestmark = pytest.mark.usefixtures("require_kernels")


class KernelVTable(Structure):
    _fields_ = [
        ("name", c_char_p),
        ("state_size", c_size_t),
        ("num_players", c_int),
        ("num_distinct_actions", c_int),
        ("max_actions", c_int),
        ("current_player", CFUNCTYPE(c_int, c_void_p, c_void_p)),
        ("is_terminal", CFUNCTYPE(c_int, c_void_p, c_void_p)),
        ("legal_actions", CFUNCTYPE(c_int, c_void_p, c_void_p, POINTER(c_int))),
        (
            "chance_outcomes",
            CFUNCTYPE(c_int, c_void_p, c_void_p, POINTER(c_int), POINTER(c_double)),
        ),
        ("apply_action", CFUNCTYPE(None, c_void_p, c_void_p, c_int)),
        ("returns", CFUNCTYPE(None, c_void_p, c_void_p, POINTER(c_double))),
        ("hash", CFUNCTYPE(c_uint64, c_void_p, c_void_p)),
        ("heuristic", CFUNCTYPE(c_double, c_void_p, c_void_p, c_int)),
    ]


class KernelHandle(Structure):
    _fields_ = [("vtable", POINTER(KernelVTable)), ("game", c_void_p)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = c_void_p
_get_pointer.argtypes = [py_object, c_char_p]
_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_is_valid.restype = c_int
_is_valid.argtypes = [py_object, c_char_p]


def _game(name: str = "dog/tiny-example") -> KernelDogGame:
    return KernelDogGame(puzzles.load(name))


def _handle(game) -> tuple[object, KernelHandle]:
    capsule = game._kernel_handle()
    return capsule, KernelHandle.from_address(_get_pointer(capsule, b"forest_solver.KernelHandle"))


# -- capsules and the vtable -----------------------------------------------------------------------
def test_capsule_names_and_constants():
    game = _game()
    state = game.new_initial_state()
    assert dog.KERNEL_HANDLE_CAPSULE == "forest_solver.KernelHandle"
    assert dog.KERNEL_STATE_CAPSULE == "forest_solver.KernelState"
    assert _is_valid(game._kernel_handle(), b"forest_solver.KernelHandle") == 1
    assert _is_valid(state._state_capsule(), b"forest_solver.KernelState") == 1
    assert _is_valid(state._state_capsule(), b"forest_solver.KernelHandle") == 0
    assert dog.STATE_SIZE == 120
    assert len(state._to_bytes()) == dog.STATE_SIZE
    assert dog.NUM_DISTINCT_ACTIONS == game.num_distinct_actions() == 15
    assert dog.MAX_CHANCE_OUTCOMES == game.max_chance_outcomes() == 3


def test_compiled_codes_are_the_reference_rules():
    # The kernel's enums are its own copy of rules.py's numbers: every one must agree.
    from solver.games.dog import rules
    from solver.games.dog.forest import Terrain

    assert {name: getattr(rules, name) for name in dog.ACTION_IDS} == dog.ACTION_IDS
    assert sorted(dog.ACTION_IDS.values()) == list(range(rules.NUM_DISTINCT_ACTIONS))
    assert dog.NUM_DISTINCT_ACTIONS == rules.NUM_DISTINCT_ACTIONS
    assert {t.name: int(t) for t in Terrain} == dog.TERRAIN_CODES
    assert {name: int(phase) for phase, name in rules.PHASE_NAMES.items()} == dog.PHASE_CODES
    assert {name: getattr(rules, name) for name in dog.RULE_CONSTANTS} == dog.RULE_CONSTANTS
    assert set(dog.RULE_CONSTANTS) >= {"START_STAMINA", "REST_STAMINA", "SHOUT_COST"}


def test_vtable_fields():
    game = _game()
    _capsule, handle = _handle(game)
    vt = handle.vtable.contents
    assert vt.name == b"dog"
    assert vt.state_size == dog.STATE_SIZE
    assert (vt.num_players, vt.num_distinct_actions, vt.max_actions) == (1, 15, 4)
    assert handle.game  # the game's static tables
    assert bool(vt.heuristic)


def test_vtable_functions_agree_with_the_python_protocol():
    game = _game()
    capsule, handle = _handle(game)
    vt = handle.vtable.contents
    reference = DogGame(game.forest)
    rng = random.Random(5)
    actions = (c_int * 64)()
    probs = (c_double * 64)()
    out = (c_double * 1)()
    for _ in range(20):
        state = game.new_initial_state()
        ref = reference.new_initial_state()
        pointer = _get_pointer(state._state_capsule(), b"forest_solver.KernelState")
        while True:
            player = vt.current_player(handle.game, pointer)
            assert player == ref.current_player()
            assert bool(vt.is_terminal(handle.game, pointer)) == ref.is_terminal()
            n = vt.legal_actions(handle.game, pointer, actions)
            assert list(actions[:n]) == ref.legal_actions()
            m = vt.chance_outcomes(handle.game, pointer, actions, probs)
            assert list(zip(actions[:m], probs[:m], strict=True)) == ref.chance_outcomes()
            vt.returns(handle.game, pointer, out)
            assert [out[0]] == ref.returns()
            assert vt.hash(handle.game, pointer) == state._hash()
            assert 0.0 <= vt.heuristic(handle.game, pointer, 0) <= 1.0
            if ref.is_terminal():
                assert vt.heuristic(handle.game, pointer, 0) == ref.returns()[0]
                break
            action = random_action(ref, rng)
            vt.apply_action(handle.game, pointer, action)  # in place, on the Python state
            ref.apply_action(action)
            assert state.to_json() == ref.to_json()
            assert player in (0, CHANCE, TERMINAL)
    del capsule


def test_capsules_keep_their_owner_alive():
    game = _game()
    state = game.new_initial_state()
    state.apply_action(11)
    text = state.to_json()
    state_capsule = state._state_capsule()
    game_capsule = game._kernel_handle()
    pointer = _get_pointer(state_capsule, b"forest_solver.KernelState")
    del state, game
    gc.collect()
    handle = KernelHandle.from_address(_get_pointer(game_capsule, b"forest_solver.KernelHandle"))
    actions = (c_int * 64)()
    n = handle.vtable.contents.legal_actions(handle.game, pointer, actions)
    assert list(actions[:n]) == [0, 1, 3]
    assert '"phase":"step"' in text


def test_state_from_capsule_copies_the_struct():
    game = _game()
    state = game.new_initial_state()
    state.apply_action(12)
    copy = game._state_from_capsule(state._state_capsule())
    assert copy == state and copy is not state
    assert game._state_from_bytes(state._to_bytes()) == state
    with pytest.raises(ValueError, match="120 bytes"):
        game._state_from_bytes(b"\0" * 7)


# -- hashing and equality --------------------------------------------------------------------------
def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & MASK64


def _hash_twin(raw: bytes) -> int:
    """``dog_hash`` in Python: xxHash64-style rounds over the struct's words, SplitMix64's mix."""
    h = (0x27D4EB2F165667C5 + len(raw)) & MASK64
    for (word,) in struct.iter_unpack("<Q", raw):
        h ^= (_rotl((word * 0xC2B2AE3D27D4EB4F) & MASK64, 31) * 0x9E3779B185EBCA87) & MASK64
        h = (_rotl(h, 27) * 0x9E3779B185EBCA87 + 0x85EBCA77C2B2AE63) & MASK64
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & MASK64
    return h ^ (h >> 31)


def test_hash_is_the_documented_function():
    game = _game("dog/shout-gauntlet")
    rng = random.Random(3)
    for _ in range(5):
        state = game.new_initial_state()
        while True:
            assert state._hash() == _hash_twin(state._to_bytes())
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_equal_states_hash_equal():
    game = _game()
    state = game.new_initial_state()
    for action in (11, 0, 4):  # roll 2, N (offers the scent trail), ignore it
        state.apply_action(action)
    copies = [
        state.clone(),
        game.state_from_json(state.to_json()),
        game.state_from_json(DogGame(game.forest).state_from_json(state.to_json()).to_json()),
        pickle.loads(pickle.dumps(state)),
        game._state_from_bytes(state._to_bytes()),
    ]
    for copy in copies:
        assert copy == state
        assert copy._hash() == state._hash()
        assert hash(copy) == hash(state)
    assert len({*copies, state}) == 1


def test_different_states_hash_differently():
    game = _game()
    start = game.new_initial_state()
    seen = {start._hash(): start.to_json()}
    for roll in (10, 11, 12):
        after_roll = start.child(roll)
        seen[after_roll._hash()] = after_roll.to_json()
        for step in after_roll.legal_actions():
            child = after_roll.child(step)
            seen[child._hash()] = child.to_json()
    assert len(seen) == len(set(seen.values())) == 1 + 3 + 3 * 3
    state = start.child(10)
    other = game.state_from_json(state.to_json().replace('"curiosity":2', '"curiosity":3'))
    assert other != state and other._hash() != state._hash()
    assert state != start.child(11)
    assert start != DogGame(game.forest).new_initial_state()  # another engine's state


def test_hash_spreads_over_many_states():
    game = _game("dog/open-meadow-9x9")
    hashes = set()
    jsons = set()
    rng = random.Random(3)
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(rng.choice(legal))
            hashes.add(state._hash())
            jsons.add(state.to_json())
    assert len(hashes) == len(jsons)
    assert len({h >> 48 for h in hashes}) > 1000  # the high bits vary too


# -- the C playout loop ----------------------------------------------------------------------------
def test_random_playouts_is_deterministic():
    game = _game()
    first = dog.random_playouts(game, 500, 42)
    assert first == dog.random_playouts(game, 500, 42)
    assert first != dog.random_playouts(game, 500, 43)
    games, actions, wins = first
    assert games == 500 and actions > 500 and 0 <= wins <= 500
    assert dog.random_playouts(game, 0, 1) == (0, 0, 0)
    assert dog.random_playouts(game, 10, 2**64 - 1)[0] == 10


@pytest.mark.parametrize("seed", [-1, 2**64, "7", True])
def test_random_playouts_rejects_bad_seeds(seed):
    with pytest.raises(OptionError, match="seed"):
        dog.random_playouts(_game(), 3, seed)


def test_random_playouts_samples_chance_by_its_probabilities():
    # tiny-2x2 has one turn: a roll of 2 or 3 wins (probability 2/3) whatever the dog does.
    games, actions, wins = dog.random_playouts(_game("dog/tiny-2x2"), 30_000, 9)
    assert abs(wins / games - 2 / 3) < 0.015
    assert actions == games + 2 * wins + (games - wins)  # a roll, then 2 steps or 1


def test_heuristic():
    game = _game("dog/open-meadow-9x9")
    state = game.new_initial_state()
    start_value = state.heuristic()
    assert 0.0 < start_value < 1.0
    late = game.state_from_json(state.to_json().replace('"turn":1', '"turn":20'))
    assert late.heuristic() < start_value  # fewer turns left, lower estimate
    won = _game("dog/tiny-2x2").new_initial_state()
    won.apply_action(12)
    won.apply_action(3)
    won.apply_action(0)
    assert won.is_terminal() and won.heuristic() == 1.0
    lost = _game("dog/walled-in").new_initial_state()
    for _ in range(3):
        lost.apply_action(10)
    assert lost.is_terminal() and lost.heuristic() == 0.0


# -- the Python entry ------------------------------------------------------------------------------
def test_load_game_gives_the_kernel():
    game = solver.load_game("dog", forest="dog/tiny-example", engine="kernel")
    assert isinstance(game, KernelDogGame)
    assert (game.name, game.engine, game.num_players()) == ("dog", "kernel", 1)
    assert game.forest.name == "tiny-example"
    assert "tiny-example" in repr(game)
    assert pickle.loads(pickle.dumps(game)).forest == game.forest


def test_state_attributes_mirror_the_reference():
    forest = puzzles.load("dog/tiny-example")
    ker = KernelDogGame(forest).new_initial_state()
    ref = DogGame(forest).new_initial_state()
    for action in (11, 1, 1):
        ker.apply_action(action)
        ref.apply_action(action)
    names = "pos last_left stamina curiosity turn skip_next stick budget valve pending won phase"
    for name in [*names.split(), "marked", "resolved", "offered"]:
        assert getattr(ker, name) == getattr(ref, name), name
    assert ker.to_dict() == ref.to_dict()
    assert ker.forest is forest and ker.game.forest is forest
    assert repr(ker).startswith("DogKernelState({")


def test_missing_extension_says_how_to_build(monkeypatch):
    import solver._ext

    monkeypatch.setitem(sys.modules, "solver._ext.dog", None)  # "import solver._ext.dog" fails
    monkeypatch.delattr(solver._ext, "dog", raising=False)
    path = Path(solver.games.dog.__file__).with_name("kernel.py")
    spec = importlib.util.spec_from_file_location("_kernel_without_extension", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # importing the entry module itself still works
    with pytest.raises(ExtensionMissingError) as error:
        module.KernelDogGame(puzzles.load("dog/tiny-example"))
    message = str(error.value)
    assert "make install" in message and "pip install -e ." in message
    assert "reference" in message
    assert isinstance(error.value, ImportError)
    with pytest.raises(ExtensionMissingError):
        module.extension_module()
