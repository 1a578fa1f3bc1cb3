"""The compiled dog kernel against the reference rules, observable by observable.

Both engines are driven through the same random action sequences (chance outcomes sampled from a
seeded RNG by the reference's probabilities, decisions uniformly); after every action they must
agree on the current player, the legal actions, the chance outcomes (exactly, probabilities
included), the returns, terminality, the JSON, every legal action's label and the errors for
illegal actions. Along the way clones must be independent and states must survive a JSON round
trip within and across the engines. The default run covers a slice of the forests; the
``slow`` test (``make test-all``) drives more than a million actions.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from solver import puzzles
from solver.errors import FormatError, IllegalActionError, OptionError
from solver.games.dog.format import parse_forest
from solver.games.dog.generator import GeneratorOptions, roll_forest
from solver.games.dog.kernel import KernelDogGame
from solver.games.dog.rules import NUM_DISTINCT_ACTIONS, DogGame
from solver.rng import weighted_index
from solver.testing import assert_engines_agree

# -- forests ---------------------------------------------------------------------------------------
# Many distractions (sums 10-12 roll on the sub-table, no empty faces) and three shouters.
BUSY = GeneratorOptions(
    open_max=8,
    puddle_max=9,
    distractions=("squirrel", "scent", "dog", "stick"),
    shouters=3,
    arrow_min=1,
    arrow_max=6,
)
# Few trees, long games: trails get crossed, curiosity runs out, valves open.
LONG = GeneratorOptions(tree_max=2, shouters=2, turns=40)
SIZES = [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (5, 3), (6, 5), (7, 7), (9, 9), (12, 12)]
SIZES += [(16, 16), (16, 2), (2, 16), (11, 6)]


def _rolled_specs() -> list[tuple[int, int, int, str]]:
    """(width, height, seed, options) for 252 rolled forests of every size from 2x2 to 16x16."""
    specs = []
    for i in range(252):
        width, height = SIZES[i % len(SIZES)]
        specs.append((width, height, 1000 + i, ("default", "busy", "long")[i % 3]))
    return specs


ROLLED = _rolled_specs()
OPTIONS = {"default": None, "busy": BUSY, "long": LONG}


def rolled(width: int, height: int, seed: int, options: str):
    """A rolled forest; on a small grid with fewer shouters where they do not fit."""
    chosen = OPTIONS[options]
    while True:
        try:
            return roll_forest(width, height, seed, options=chosen)
        except OptionError:
            if chosen is None or chosen.shouters == 0:
                raise
            chosen = dataclasses.replace(chosen, shouters=chosen.shouters - 1)


# Hand-made forests for the rare paths.
HANDMADE = {
    # The squirrel in a corner: the N/W tie is a decision, both runs are 0 cells.
    "squirrel-corner-0": "turns: 6\ngrid:\nS . .\n. . H\n. @ .\n",
    # The squirrel in the middle of a 5x5: a four-way tie; the run north reaches the human.
    "squirrel-four-way": "turns: 8\ngrid:\n. . H . .\n. , . . .\n. . S . .\n. . . . .\n. . @ . .\n",
    # The squirrel on an edge (one nearest edge, a run of 0) and one whose run hits a tree.
    "squirrel-edges": (
        "turns: 10\ngrid:\n. . . . . .\nS . T . . H\n. . S . . .\n. . . . ~ .\n. . @ . . .\n"
    ),
    # The squirrel's run passes over another distraction and may end on one.
    "squirrel-over-distractions": (
        "turns: 10\ngrid:\nH . . . . . .\n. . . . . . .\n. . . . . . .\n"
        ". S D I . . .\n. . . . . . .\n. . . @ . . .\n"
    ),
    # Three shouters over the same cells, a shouter's own cell (1, paid at once), numbers 2..6.
    "crossfire": (
        "turns: 12\nshouter: 2 0 E 5\nshouter: 0 3 S 4\nshouter: 4 2 N 6\ngrid:\n"
        ". . . Y . H\n. , . . . .\nY . . . ~ .\n. . . . . .\n. . Y . @ .\n"
    ),
    # A long arrow over a column, trees under it (trees do not block an arrow).
    "long-arrow": (
        "turns: 10\nshouter: 0 0 S 6\ngrid:\nY . H\n. T .\n. , .\nT ~ .\n. . .\n. . .\n. @ .\n"
    ),
    # The stick and another dog beside the start.
    "stick-and-dog": "turns: 10\ngrid:\nH . . . .\n. . D . .\n. I @ . ,\n. . . ~ .\n",
    # Scent runs into the human, the grid edge, trees; a run of 2 over the marked start.
    "scent-runs": "turns: 10\ngrid:\n. . H . >\n. . ^ . .\nT < . > T\n. . v . .\n. . @ . .\n",
    # Four distractions around one cell: offers in the order N, W, E, S.
    "four-offers": "turns: 12\ngrid:\nH . S . .\n. D . I .\n. . > . .\n. . . . .\n. . @ . .\n",
    # Walled in (trees and the edge round the start) and a 2x2 walled-in start.
    "walled-in-3x3": "turns: 3\ngrid:\nH . .\n. T .\nT @ T\n",
    "walled-in-2x2": "turns: 2\ngrid:\nH T\nT @\n",
    # 2x2 grids: every cell is a corner.
    "2x2-squirrel": "turns: 4\ngrid:\nH S\n. @\n",
    "2x2-dog-stick": "turns: 4\ngrid:\nH D\nI @\n",
    "2x2-scent-to-human": "turns: 3\ngrid:\nH ~\n^ @\n",
    "2x2-shouter": "turns: 3\nshouter: 0 1 S 1\ngrid:\nH Y\n. @\n",
    # A dead end that needs the U-turn valve, and a scent trail that runs into it.
    "dead-end": "turns: 10\ngrid:\nH . . T\nT T . T\n. < . @\n",
    # A long game on a tiny board: trails crossed again and again, curiosity runs out.
    "treadmill": "turns: 40\ngrid:\n. . . H\nT S T T\n. . . @\n",
    # The human next to the start, one turn.
    "one-step": "turns: 1\ngrid:\n. H\n. @\n",
    # Every distraction kind in a 4x4 with a shouter whose arrow covers them.
    "everything-4x4": "turns: 15\nshouter: 3 0 N 3\ngrid:\n> S . H\nD ~ I .\nv , < .\nY . @ ^\n",
}


def handmade(name: str):
    return parse_forest(f"name: {name}\n" + HANDMADE[name])


# -- the driver ------------------------------------------------------------------------------------
def _pick(state, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return outcomes[weighted_index([p for _, p in outcomes], rng.random())][0]
    return rng.choice(state.legal_actions())


def _assert_same(ref, ker, where: str) -> None:
    for action in assert_engines_agree(ker, ref, where):
        label = ref.action_to_string(action)
        assert ker.action_to_string(action) == label, where
        assert ker.string_to_action(label) == ref.string_to_action(label) == action, where


def _check_illegal(ref, ker, rng: random.Random, where: str) -> None:
    legal = set(ref.legal_actions())
    illegal = [a for a in range(-1, NUM_DISTINCT_ACTIONS + 1) if a not in legal]
    action = rng.choice(illegal)
    before = ker.to_json()
    with pytest.raises(IllegalActionError) as ref_error:
        ref.apply_action(action)
    with pytest.raises(IllegalActionError) as ker_error:
        ker.apply_action(action)
    assert str(ker_error.value) == str(ref_error.value), where
    assert ker.to_json() == before, where


def _check_round_trips(ref_game, ker_game, ref, ker, where: str) -> None:
    text = ker.to_json()
    back = ker_game.state_from_json(text)
    assert back == ker and hash(back) == hash(ker) and back._hash() == ker._hash(), where
    assert back.to_json() == text, where
    across = ref_game.state_from_json(text)  # kernel JSON read by the reference
    assert across.to_json() == text, where
    assert ker_game.state_from_json(ref.to_json()).to_json() == text, where  # and vice versa
    _assert_same(across, back, where)


def _check_clone(ref, ker, rng: random.Random, where: str) -> None:
    if ker.is_terminal():
        return
    before = ker.to_json()
    copy = ker.clone()
    assert copy == ker and copy is not ker, where
    action = _pick(ref, rng)
    copy.apply_action(action)
    assert ker.to_json() == before, where  # the original did not move
    assert copy.to_json() == ref.child(action).to_json(), where
    assert ker.child(action) == copy, where


def drive(forest, seed: int, games: int, *, thorough: bool = True) -> int:
    """Play ``games`` random games in both engines side by side; return the actions applied."""
    ref_game, ker_game = DogGame(forest), KernelDogGame(forest)
    rng = random.Random(seed)
    applied = 0
    for game_index in range(games):
        ref, ker = ref_game.new_initial_state(), ker_game.new_initial_state()
        history: list[int] = []
        while True:
            where = f"forest {forest.name!r}, seed {seed}, game {game_index}, actions {history}"
            _assert_same(ref, ker, where)
            if thorough or rng.random() < 0.05:
                _check_round_trips(ref_game, ker_game, ref, ker, where)
                _check_clone(ref, ker, rng, where)
                _check_illegal(ref, ker, rng, where)
                if rng.random() < 0.3:  # go on from a state read back from JSON
                    ker = ker_game.state_from_json(ref.to_json())
            if ref.is_terminal():
                assert str(ker) == str(ref), where
                break
            action = _pick(ref, rng)
            history.append(action)
            ref.apply_action(action)
            ker.apply_action(action)
            applied += 1
    return applied


# -- the default run: a representative slice -------------------------------------------------------
@pytest.mark.parametrize("spec", ROLLED[::12], ids=lambda s: f"{s[0]}x{s[1]}-seed{s[2]}-{s[3]}")
def test_rolled_forests(spec):
    assert drive(rolled(*spec), seed=spec[2], games=2) > 0


@pytest.mark.parametrize("name", puzzles.names("dog"))
def test_curated_puzzles(name):
    drive(puzzles.load(name), seed=7, games=3)


@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_handmade_forests(name):
    drive(handmade(name), seed=11, games=6)


def test_hand_made_forests_are_valid():
    forest = handmade("crossfire")
    assert len(forest.arrows_at((2, 3))) == 2 and forest.arrow_numbers((2, 1)) == (1,)
    assert handmade("four-offers").terrain((1, 3)).is_distraction


def test_state_from_json_errors_match():
    forest = puzzles.load("dog/tiny-example")
    ref_game, ker_game = DogGame(forest), KernelDogGame(forest)
    good = json.loads(ref_game.new_initial_state().to_json())
    bad_documents = [
        "not json",
        "[1, 2]",
        json.dumps({**good, "stamina": 7}),
        json.dumps({**good, "pos": [0, 0]}),  # a tree
        json.dumps({**good, "phase": "shout"}),
        json.dumps({**good, "marked": [[0, 3]]}),  # the human
        json.dumps({k: v for k, v in good.items() if k != "turn"}),
    ]
    for text in bad_documents:
        with pytest.raises(FormatError) as ref_error:
            ref_game.state_from_json(text)
        with pytest.raises(FormatError) as ker_error:
            ker_game.state_from_json(text)
        assert str(ker_error.value) == str(ref_error.value)


def test_odd_action_values_behave_like_the_reference():
    forest = puzzles.load("dog/tiny-example")
    ref, ker = DogGame(forest).new_initial_state(), KernelDogGame(forest).new_initial_state()
    for action in ("N", None, 2**70, -(2**70), 1.5):
        with pytest.raises(IllegalActionError) as ref_error:
            ref.apply_action(action)
        with pytest.raises(IllegalActionError) as ker_error:
            ker.apply_action(action)
        assert str(ker_error.value) == str(ref_error.value)
    with pytest.raises(IllegalActionError, match="not a dog-game action id"):
        ker.action_to_string(99)
    with pytest.raises(IllegalActionError, match="no legal action is labelled"):
        ker.string_to_action("fly")


# -- the exhaustive run ----------------------------------------------------------------------------
@pytest.mark.slow
def test_a_million_actions():
    total = 0
    for spec in ROLLED:  # about half a million actions
        total += drive(rolled(*spec), seed=spec[2], games=60, thorough=False)
    for name in puzzles.names("dog"):  # about 300,000
        total += drive(puzzles.load(name), seed=3, games=1000, thorough=False)
    for name in HANDMADE:  # about 160,000
        total += drive(handmade(name), seed=5, games=600, thorough=False)
    extra = 0
    while total < 1_000_000:  # top up with more rolled forests
        spec = (*SIZES[extra % len(SIZES)], 50_000 + extra, ("default", "busy", "long")[extra % 3])
        total += drive(rolled(*spec), seed=extra, games=20, thorough=False)
        extra += 1
    assert total >= 1_000_000


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize("bad", [11.0, "11", True, None, 99, -1])
def test_non_action_ids_are_rejected_alike(engine, bad):
    import numpy as np

    import solver
    from solver.errors import IllegalActionError

    state = solver.load_game("dog", forest="dog/tiny-example", engine=engine).new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(bad)
    assert state.to_json() == before
    state.apply_action(np.int64(11))  # integer-like numbers are accepted
    assert state.to_dict()["budget"] == 2
