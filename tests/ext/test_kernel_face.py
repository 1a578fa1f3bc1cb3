"""The kernels' one Python face (``ext/kernel_face.pxi``) and one playout loop (``leaf.pxd``).

Both compiled kernels include the same face, so ``==``, ``hash``, copies, capsules and pickling
must behave alike on both; each check below runs on the dog and on guardians. ``==`` is the
reference engines' rule: the same kernel class and the same ``to_json()`` (for two states of one
game object the structs are compared byte for byte, which must give the same answer). The
random-playout bench runs the loop of MCTS's rollouts; its results are pinned to the figures
the kernels' own loops gave before they shared one (seeded, so any change of draw shows).
"""

from __future__ import annotations

import copy
import itertools
import pickle

import pytest

from solver import puzzles
from solver.errors import IllegalActionError, OptionError
from solver.games.dog.rules import DogGame
from solver.games.guardians.kernel import KernelGuardiansGame
from solver.games.guardians.rules import GuardiansGame
from solver.rng import SplitMix64
from solver.testing import random_playouts

try:  # absent: require_kernels skips these tests (fails them under CI)
    from solver._ext import dog, guardians
except ImportError:
    dog = guardians = None

pytestmark = pytest.mark.usefixtures("require_kernels")


def _dog():
    forest = puzzles.load("dog/tiny-example")
    return dog.DogKernelGame(forest), dog.DogKernelGame(forest), DogGame(forest)


def _guardians():
    return KernelGuardiansGame(2), KernelGuardiansGame(2), GuardiansGame(2)


KERNELS = {"dog": _dog, "guardians": _guardians}


def _walk(game, seed: int, limit: int = 400) -> list:
    """The states of one seeded random game (chance by its probabilities)."""
    rng = SplitMix64(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and len(states) < limit:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            state.apply_action(actions[rng.below(len(actions))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
        states.append(state.clone())
    return states


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_equality_is_the_json_rule_on_one_game(kernel):
    game, _, _ = KERNELS[kernel]()
    states = [s for seed in range(12) for s in _walk(game, seed, 60)]
    by_json: dict[str, list] = {}
    for state in states:
        by_json.setdefault(state.to_json(), []).append(state)
    assert len(by_json) < len(states)  # transpositions: equal positions reached twice
    for group in by_json.values():  # equal JSON: equal structs, equal, equal hashes
        for a, b in itertools.combinations(group, 2):
            assert a == b and (a != b) is False and hash(a) == hash(b)
            assert a._to_bytes() == b._to_bytes() and a._hash() == b._hash()
    firsts = [group[0] for group in by_json.values()]
    for a, b in itertools.combinations(firsts[:80], 2):  # different JSON: different states
        assert a != b and (a == b) is False


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_equality_across_game_objects_copies_and_pickles(kernel):
    game, twin, reference = KERNELS[kernel]()
    for state in _walk(game, 3, 120)[::7]:
        text = state.to_json()
        for same in (
            state.clone(),
            copy.copy(state),
            copy.deepcopy(state),
            game.state_from_json(text),
            twin.state_from_json(text),  # another game object: the JSON rule
            pickle.loads(pickle.dumps(state)),  # its game is a new object too
            game._state_from_bytes(state._to_bytes()),
            game._state_from_capsule(state._state_capsule()),
        ):
            assert same == state and state == same and hash(same) == hash(state)
            assert same is not state and same.to_json() == text
        assert state != reference.state_from_json(text)  # another engine's state
        assert state != text and state != None  # noqa: E711 (== with None, on purpose)
        if not state.is_terminal():
            child = state.child(state.legal_actions()[0])
            assert child != state and state.to_json() == text  # the copy moved, not the state


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_states_come_from_the_game_and_the_struct_bytes_are_checked(kernel):
    game, _, _ = KERNELS[kernel]()
    state = game.new_initial_state()
    with pytest.raises(TypeError, match="not from the class"):
        type(state)()
    assert state.get_game() is game
    with pytest.raises(ValueError, match="bytes, not 3"):
        game._state_from_bytes(b"abc")
    blank = type(game).__new__(type(game))
    with pytest.raises(TypeError, match="was not initialised"):
        blank.new_initial_state()


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_the_face_reads_the_games_bounds_from_its_vtable(kernel):
    game, _, _ = KERNELS[kernel]()
    assert game.state_size == len(game.new_initial_state()._to_bytes())
    widest = max(
        len(s.chance_outcomes() if s.is_chance_node() else s.legal_actions())
        for s in _walk(game, 3)
        if not s.is_terminal()
    )
    assert 1 <= widest <= game.max_actions
    blank = type(game).__new__(type(game))
    with pytest.raises(TypeError, match="was not initialised"):
        blank.max_actions  # noqa: B018 (the read is the test)


# -- the one playout loop -----------------------------------------------------------------------
# (games, actions applied, tally) of ``random_playouts`` at seeds 0, 1, 2, as each kernel's own
# C loop gave them before the loop was shared (86bd6e7's build).
PINNED = {
    "dog/tiny-example": (200, [(200, 5701, 159), (200, 5620, 157), (200, 6241, 138)]),
    "dog/stick": (200, [(200, 1662, 26), (200, 1671, 28)]),
    "guardians-2": (20, [(20, 4502, 66), (20, 4497, 24), (20, 4449, 111)]),
    "guardians-1-open": (20, [(20, 1893, 44), (20, 1875, 11)]),
}


def _bench_game(name: str):
    if name.startswith("dog/"):
        return dog, dog.DogKernelGame(puzzles.load(name))
    players = int(name.split("-")[1])
    return guardians, KernelGuardiansGame(players, open_backs=name.endswith("open"))


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_playout_bench_keeps_its_seeded_results(name):
    module, game = _bench_game(name)
    n_games, expected = PINNED[name]
    seeds = range(len(expected))
    assert [module.random_playouts(game, n_games, seed) for seed in seeds] == expected


@pytest.mark.parametrize("seed", [0, 5, 2**64 - 1])
def test_the_playout_bench_replays_in_python_on_both_kernels(seed):
    forest = puzzles.load("dog/shout-gauntlet")
    wins = random_playouts(DogGame(forest), 40, seed, lambda final: final.returns()[0] == 1.0)
    assert dog.random_playouts(dog.DogKernelGame(forest), 40, seed) == wins
    scores = random_playouts(GuardiansGame(3), 3, seed, lambda final: final.score(0))
    assert guardians.random_playouts(KernelGuardiansGame(3), 3, seed) == scores


@pytest.mark.parametrize("module", ["dog", "guardians"])
def test_the_playout_bench_refuses_bad_arguments(module):
    ext, game = _bench_game("dog/stick" if module == "dog" else "guardians-1")
    assert ext.random_playouts(game, 0, 1) == (0, 0, 0)
    for seed in (-1, 2**64, True, 1.5):
        with pytest.raises(OptionError, match="seed"):
            ext.random_playouts(game, 1, seed)
    with pytest.raises(OptionError, match="n_games"):
        ext.random_playouts(game, -1, 1)


def test_an_out_of_tree_kernel_stands_on_the_shipped_face(duel):
    # duel_kernel.pyx compiles against solver.get_include() alone and takes the face from it
    game = duel.DuelGame(6, 9)
    state = game.new_initial_state()
    assert state.fields() == (0, 0, 0, 0, 9, 0) and state.legal_actions() == [0, 1]
    state.apply_action(1)  # roll: the die decides
    assert state.is_chance_node() and state.clone() == state
    assert state != game.new_initial_state() and state.child(3) != state
    assert game._state_from_bytes(state._to_bytes()) == state
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(0)
    for seed in (0, 7):
        replay = random_playouts(game, 50, seed, lambda final: final.fields()[0])
        assert duel.random_playouts(game, 50, seed) == replay
