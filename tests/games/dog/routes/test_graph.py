"""The graph route models (CP-SAT over the state graph) against their brute-force twins."""

from __future__ import annotations

import random

import pytest

from solver.games.dog.forest import Forest, Terrain
from solver.games.dog.generator import roll_forest
from solver.games.dog.routes.graph import (
    RouteAnswer,
    hindsight_brute_force,
    hindsight_graph,
    par_brute_force,
    par_graph,
    replay,
)

SIZES = [(w, h) for w in range(3, 6) for h in range(3, 6)]


def _forests(count: int, seed: int) -> list[Forest]:
    """``count`` rolled forests of sizes 3x3..5x5 with turn limits 2..6, chosen by ``seed``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        w, h = rng.choice(SIZES)
        out.append(roll_forest(w, h, rng.randrange(10_000)).replace(turns=rng.randint(2, 6)))
    return out


def _sequences(forest: Forest, rng: random.Random) -> tuple[list[int], list[bool]]:
    rolls = [rng.randint(1, 3) for _ in range(forest.turns)]
    shouts = [rng.random() < 0.5 for _ in range(3 * 3 * forest.turns)]
    return rolls, shouts


def _check_route(forest: Forest, answer: RouteAnswer) -> None:
    assert answer.proven, answer
    if answer.turns is None:
        assert answer.route is None and answer.actions is None
        return
    assert answer.actions is not None and answer.route is not None
    assert replay(forest, answer.actions) == answer.turns
    assert len(answer.route) == answer.turns
    assert sum(len(t) for t in answer.route) == len(answer.actions)


def _check_par(forest: Forest) -> int | None:
    exact = par_brute_force(forest)
    model = par_graph(forest)
    assert model.method == "cp-sat" and exact.method == "brute-force"
    assert model.turns == exact.turns, forest
    _check_route(forest, exact)
    _check_route(forest, model)
    return model.turns


def _check_hindsight(forest: Forest, rolls: list[int], shouts: list[bool]) -> int | None:
    exact = hindsight_brute_force(forest, rolls, shouts)
    model = hindsight_graph(forest, rolls, shouts)
    assert model.turns == exact.turns, (forest, rolls, shouts)
    _check_route(forest, exact)
    _check_route(forest, model)
    return model.turns


# -- hand-derived -------------------------------------------------------------------------------
def _corridor(turns: int = 20) -> Forest:
    """Two rows of five open cells; the human is 5 steps from the dog (Manhattan, no obstacle)."""
    grid = [[Terrain.OPEN] * 5 for _ in range(2)]
    return Forest(width=5, height=2, cells=grid, start=(1, 0), human=(0, 4), turns=turns)


def test_par_by_hand() -> None:
    # At most 3 steps a turn: the 5 steps take 2 turns (rolls 2+3 or 3+2), and no single turn can.
    for solve in (par_graph, par_brute_force):
        answer = solve(_corridor(turns=3))
        assert answer.turns == 2
        assert answer.route is not None
        rolls = sorted(labels[0] for labels in answer.route)
        assert rolls in (["roll: 2 steps", "roll: 3 steps"], ["roll: 3 steps", "roll: 3 steps"])
        assert solve(_corridor(turns=1)).turns is None


def test_hindsight_by_hand() -> None:
    # Rolls of 1 step each: five turns; with four turns the human is out of reach.
    for solve in (hindsight_graph, hindsight_brute_force):
        assert solve(_corridor(), [1] * 20, []).turns == 5
        assert solve(_corridor(turns=4), [1] * 4, []).turns is None
        # 2 + 3 steps: turn 2. Too few rolls: the route stops and cannot win.
        assert solve(_corridor(), [2, 3], []).turns == 2
        assert solve(_corridor(), [1, 1], []).turns is None


def test_stick_reads_the_roll_minus_one() -> None:
    # T T T T T
    # @ I . . H   turn 1 (roll 1): the only step enters the stick, the move ends at (1,1).
    # With the stick a reading of 3 is a budget of 2: (1,3) in turn 2, the human in turn 3.
    cells = [[Terrain.TREE] * 5, [Terrain.OPEN, Terrain.STICK] + [Terrain.OPEN] * 3]
    forest = Forest(width=5, height=2, cells=cells, start=(1, 0), human=(1, 4), turns=6)
    for solve in (hindsight_graph, hindsight_brute_force):
        assert solve(forest, [1, 3, 3, 3], []).turns == 3
        assert solve(forest, [1, 1, 1, 1, 1, 1], []).turns == 4
        assert solve(forest, [3, 3, 3], []).turns == 3  # the stick is entered either way
    for solve in (par_graph, par_brute_force):
        assert solve(forest).turns == 3


def test_bad_roll_value() -> None:
    with pytest.raises(ValueError):
        hindsight_graph(_corridor(), [4], [])


# -- agreement on rolled forests ---------------------------------------------------------------
def test_par_agrees_with_brute_force() -> None:
    """10 forests (some CP-SAT solves take seconds; test_many_forests_agree has 300)."""
    results = [_check_par(f) for f in _forests(10, seed=1)]
    assert any(r is None for r in results) and any(r is not None for r in results)


def test_hindsight_agrees_with_brute_force() -> None:
    rng = random.Random(2)
    results = []
    for forest in _forests(60, seed=2):
        rolls, shouts = _sequences(forest, rng)
        results.append(_check_hindsight(forest, rolls, shouts))
    assert any(r is None for r in results) and any(r is not None for r in results)


def test_par_is_at_most_hindsight() -> None:
    rng = random.Random(3)
    for forest in _forests(40, seed=3):
        best = par_brute_force(forest).turns
        for _ in range(4):
            rolls, shouts = _sequences(forest, rng)
            turns = hindsight_brute_force(forest, rolls, shouts).turns
            if turns is not None:
                assert best is not None and best <= turns


@pytest.mark.slow
def test_many_forests_agree() -> None:
    rng = random.Random(4)
    forests = _forests(300, seed=4)
    for forest in forests:
        best = _check_par(forest)
        rolls, shouts = _sequences(forest, rng)
        turns = _check_hindsight(forest, rolls, shouts)
        if turns is not None:
            assert best is not None and best <= turns
