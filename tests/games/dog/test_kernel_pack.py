"""The dog kernel's packed key (``state._packed()``, the pruning search's table key) bit for bit
against an encoder written here from its layout (``ext/dog.pyx``, ``dog_pack``): pos, last_left
+ 1, stamina, curiosity, turn, pending + 1, phase, budget, the four flags, then the marked bit of
every open cell (not a tree, not the human) and the resolved and offered bits of every
distraction, bit i of the key being bit i % 8 of byte i // 8."""

from __future__ import annotations

import random

import pytest

from solver.games.dog.forest import Terrain
from solver.games.dog.generator import roll_forest
from solver.games.dog.kernel import KernelDogGame
from solver.games.dog.rules import PHASE_NAMES

pytestmark = pytest.mark.usefixtures("require_kernels")

PHASES = {name: int(phase) for phase, name in PHASE_NAMES.items()}


def _width(x: int) -> int:
    return max(1, x.bit_length())


def expected_key(game, state) -> bytes:
    forest = game.forest
    w, cells = forest.width, forest.width * forest.height
    index = lambda cell: cell[0] * w + cell[1]  # noqa: E731
    human = index(forest.human)
    open_cells = [
        c for c in range(cells) if forest.cells[c // w][c % w] != Terrain.TREE and c != human
    ]
    distractions = sorted(index(c) for c in forest.distractions())
    data = state.to_dict()
    last = 0 if data["last_left"] is None else index(data["last_left"]) + 1
    flags = data["skip_next"] | data["stick"] << 1 | data["valve"] << 2
    flags |= (data["outcome"] == "win") << 3
    fields = [
        (index(data["pos"]), _width(cells - 1)),
        (last, _width(cells)),
        (data["stamina"], 3),
        (data["curiosity"], _width(30000 + 2 * len(distractions))),
        (data["turn"], _width(forest.turns)),
        (data["pending"] + 1, _width(max(len(forest.shouters), 4))),
        (PHASES[data["phase"]], 3),
        (data["budget"], 2),
        (flags, 4),
    ]
    marked = {index(c) for c in data["marked"]}
    resolved = {index(c) for c in data["resolved"]}
    offered = {index(c) for c in data["offered"]}
    fields += [(c in marked, 1) for c in open_cells]
    fields += [(c in resolved, 1) for c in distractions]
    fields += [(c in offered, 1) for c in distractions]
    value = at = 0
    for field, width in fields:
        value |= int(field) << at
        at += width
    return value.to_bytes((at + 7) // 8, "little")


@pytest.mark.parametrize("size", [(4, 3), (9, 9), (12, 11), (16, 16)])
def test_packed_keys_follow_the_layout(size: tuple[int, int]) -> None:
    rng = random.Random(size[0])
    checked = 0
    for seed in range(6):
        game = KernelDogGame(roll_forest(size[0], size[1], seed).replace(turns=12))
        for _ in range(4):
            state = game.new_initial_state()
            while not state.is_terminal():
                assert state._packed() == expected_key(game, state)
                checked += 1
                state.apply_action(rng.choice(state.legal_actions()))
            assert state._packed() == expected_key(game, state)
    assert checked > 200
