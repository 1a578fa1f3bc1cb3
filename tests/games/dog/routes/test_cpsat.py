"""The CP-SAT rules model of par against the brute-force twin (docs/analysis.md §4, "Routes")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from solver.games.dog.forest import Forest, Shouter, Terrain
from solver.games.dog.generator import GeneratorOptions, roll_forest
from solver.games.dog.routes.cpsat import METHOD, hindsight_cpsat_model, par_cpsat_model
from solver.games.dog.routes.graph import (
    RouteAnswer,
    hindsight_brute_force,
    par_brute_force,
    replay,
)
from solver.games.dog.rules import INVESTIGATE, RUN_N, DogGame, Phase

# Generator tables: the default one, one rich in distractions and shouters (every kind, ties for
# the squirrel, arrows of number 1), and one rich in trees (dead ends: the U-turn valve, walls).
_BUSY = {
    "tree_max": 3,
    "undergrowth_max": 5,
    "open_max": 7,
    "puddle_max": 8,
    "distractions": ("squirrel", "scent", "dog", "stick"),
    "arrow_min": 1,
    "arrow_max": 4,
}
_WOODS = {"tree_max": 6, "undergrowth_max": 7, "open_max": 9, "puddle_max": 10}


def _forests(count: int, seed: int, max_side: int) -> list[Forest]:
    """Rolled forests of sizes 3x3..max_side x max_side, turn limits 2..6, three tables."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        w, h = rng.randint(3, max_side), rng.randint(3, max_side)
        turns = rng.randint(2, 6)
        table = i % 3
        if table == 0:
            options = GeneratorOptions(turns=turns)
        elif table == 1:
            options = GeneratorOptions(turns=turns, shouters=rng.randint(0, 2), **_BUSY)
        else:
            options = GeneratorOptions(turns=turns, shouters=rng.randint(0, 1), **_WOODS)
        out.append(roll_forest(w, h, rng.randrange(10_000), options=options))
    return out


def _features(forest: Forest, actions: tuple[int, ...]) -> set[str]:
    """What a winning route exercises, read from the reference engine while replaying it."""
    state = DogGame(forest).new_initial_state()
    seen: set[str] = set()
    turn = state.turn
    for action in actions:
        if state.phase == Phase.STEP and state.valve:
            seen.add("valve")
        if state.phase == Phase.OFFER:
            seen.add("investigate" if action == INVESTIGATE else "ignore")
        if state.phase == Phase.SQUIRREL:
            seen.add("squirrel tie")
        if state.phase == Phase.SHOUT:
            seen.add("shout")
        if action >= RUN_N and state.stick:
            seen.add("stick")
        state.apply_action(action)
        if state.turn > turn + 1:
            seen.add("turn without a move")
        turn = state.turn
    return seen


def _check(forest: Forest, *, deepening: bool = True) -> tuple[int | None, set[str]]:
    model = par_cpsat_model(forest, deepening=deepening)
    exact = par_brute_force(forest)
    assert model.method == METHOD
    assert model.proven, model
    assert model.turns == exact.turns, (forest, model.turns, exact.turns)
    if model.turns is None:
        assert model.route is None and model.actions is None
        return None, set()
    assert model.actions is not None and model.route is not None
    assert replay(forest, model.actions) == model.turns
    assert len(model.route) == model.turns
    return model.turns, _features(forest, model.actions)


def _sequences(forest: Forest, rng: random.Random) -> tuple[list[int], list[bool]]:
    """Rolls and shouts for hindsight; sometimes too few of either (such routes cannot win)."""
    rolls = [rng.randint(1, 3) for _ in range(rng.choice([forest.turns, forest.turns, 2, 0]))]
    shouts = [rng.random() < 0.5 for _ in range(rng.choice([0, 2, 9 * forest.turns]))]
    return rolls, shouts


def _check_hindsight(forest: Forest, rolls: list[int], shouts: list[bool]) -> int | None:
    model = hindsight_cpsat_model(forest, rolls, shouts)
    exact = hindsight_brute_force(forest, rolls, shouts)
    assert model.proven and model.method == METHOD, model
    assert model.turns == exact.turns, (forest, rolls, shouts, model.turns, exact.turns)
    if model.actions is not None:
        assert replay(forest, model.actions) == model.turns
    return model.turns


# -- hand-derived -------------------------------------------------------------------------------
def _corridor(turns: int) -> Forest:
    grid = [[Terrain.OPEN] * 5 for _ in range(2)]
    return Forest(width=5, height=2, cells=grid, start=(1, 0), human=(0, 4), turns=turns)


def test_corridor_by_hand() -> None:
    answer = par_cpsat_model(_corridor(3))
    assert isinstance(answer, RouteAnswer)
    assert (answer.turns, answer.status, answer.method) == (2, "optimal", METHOD)
    none = par_cpsat_model(_corridor(1))
    assert (none.turns, none.status, none.route) == (None, "infeasible", None)


def test_stick_budget_by_hand() -> None:
    # T T T T T
    # @ I . . H   the only first step enters the stick (the move ends); then 2 steps a turn.
    cells = [[Terrain.TREE] * 5, [Terrain.OPEN, Terrain.STICK] + [Terrain.OPEN] * 3]
    forest = Forest(width=5, height=2, cells=cells, start=(1, 0), human=(1, 4), turns=6)
    assert par_cpsat_model(forest).turns == 3
    assert par_cpsat_model(forest.replace(turns=2)).turns is None


def test_scent_run_wins_by_hand() -> None:
    # @ > . H : one step onto the scent trail, the forced run east reaches the human in turn 1.
    cells = [[Terrain.OPEN, Terrain.SCENT_E, Terrain.OPEN, Terrain.OPEN], [Terrain.TREE] * 4]
    forest = Forest(width=4, height=2, cells=cells, start=(0, 0), human=(0, 3), turns=2)
    answer = par_cpsat_model(forest)
    assert answer.turns == 1 == par_brute_force(forest).turns


def test_dead_end_needs_the_valve() -> None:
    # T T T T T
    # H . > . @   the scent trail cannot be passed: entered or hopped onto, its run throws the
    # T T T T T   dog back east into the dead end with last_left = (1,3); only the U-turn valve
    #             lets it out. Turn 1 thrown back, turn 2 three steps west, turn 3 the human.
    t, o = Terrain.TREE, Terrain.OPEN
    cells = [[t] * 5, [o, o, Terrain.SCENT_E, o, o], [t] * 5]
    forest = Forest(width=5, height=3, cells=cells, start=(1, 4), human=(1, 0), turns=4)
    turns, seen = _check(forest)
    assert turns == 3 and "valve" in seen
    assert par_cpsat_model(forest.replace(turns=2)).turns is None


def test_walled_in_by_hand() -> None:
    # the dog's start has no open neighbour: it is walled in every turn
    t, o = Terrain.TREE, Terrain.OPEN
    cells = [[o, o, o], [t, t, t], [o, t, o]]
    forest = Forest(width=3, height=3, cells=cells, start=(2, 0), human=(0, 0), turns=3)
    assert _check(forest)[0] is None


# -- agreement on rolled forests ---------------------------------------------------------------
def test_agrees_with_brute_force_on_a_slice() -> None:
    results = [_check(f)[0] for f in _forests(45, seed=11, max_side=5)]
    assert any(r is None for r in results) and any(r is not None for r in results)


def test_one_model_over_all_turns_agrees_too() -> None:
    # deepening=False: one model over forest.turns turns that minimises the win turn
    results = [_check(f, deepening=False)[0] for f in _forests(12, seed=13, max_side=4)]
    assert any(r is None for r in results) and any(r is not None for r in results)


def test_hindsight_agrees_with_brute_force_on_a_slice() -> None:
    rng = random.Random(14)
    results = [_check_hindsight(f, *_sequences(f, rng)) for f in _forests(30, 15, max_side=5)]
    assert any(r is None for r in results) and any(r is not None for r in results)


def test_hindsight_by_hand() -> None:
    corridor = _corridor(20)
    assert hindsight_cpsat_model(corridor, [1] * 20, []).turns == 5
    assert hindsight_cpsat_model(corridor, [2, 3], []).turns == 2
    assert hindsight_cpsat_model(corridor, [1, 1], []).turns is None
    with pytest.raises(ValueError):
        hindsight_cpsat_model(corridor, [4], [])


@pytest.mark.slow
def test_hindsight_agrees_on_many_forests() -> None:
    rng = random.Random(16)
    results = [_check_hindsight(f, *_sequences(f, rng)) for f in _forests(200, 17, max_side=6)]
    assert sum(r is None for r in results) >= 20 and sum(r is not None for r in results) >= 50


@pytest.mark.slow
def test_agrees_with_brute_force_on_many_forests() -> None:
    forests = _forests(330, seed=12, max_side=6)
    outcomes: Counter[str] = Counter()
    features: Counter[str] = Counter()
    kinds: set[Terrain] = set()
    for i, forest in enumerate(forests):
        turns, seen = _check(forest, deepening=i % 4 != 0)
        outcomes["win" if turns is not None else "no win"] += 1
        features.update(seen)
        kinds.update(forest.terrain(y) for y in forest.distractions())
    assert outcomes["win"] >= 50 and outcomes["no win"] >= 20, outcomes
    for name in ("investigate", "ignore", "shout", "turn without a move"):
        assert features[name] > 0, features
    assert {Terrain.SQUIRREL, Terrain.DOG, Terrain.STICK, Terrain.SCENT_N} <= kinds


def test_the_public_names_are_the_rules_model() -> None:
    import solver.games.dog.routes as exact

    assert exact.par is par_cpsat_model and exact.hindsight is hindsight_cpsat_model
    assert exact.par(_corridor(3)).method == METHOD
    assert exact.hindsight(_corridor(5), [2, 3], []).method == METHOD


def test_arrows_over_the_human_read_no_shout() -> None:
    # . . . H     the shouter at (2,3) shouts N over (1,3) (number 1) and the human (0,3)
    # . . . .     (number 2). Entering the human wins before any shout roll: no shout is needed.
    # @ . . S
    grid = [[Terrain.OPEN] * 4 for _ in range(3)]
    shouters = [Shouter(2, 3, "N", 2)]
    forest = Forest(
        width=4, height=3, cells=grid, start=(2, 0), human=(0, 3), turns=4, shouters=shouters
    )
    assert forest.arrow_numbers((0, 3)) == (2,)
    for rolls in ([3, 2], [1, 1, 1, 1], [2, 2, 1]):
        assert _check_hindsight(forest, rolls, []) == hindsight_brute_force(forest, rolls, []).turns
    assert _check_hindsight(forest, [3, 2], []) == 2


@pytest.mark.parametrize("time_limit", [1e-9, 0.001, 0.005])
def test_a_time_limit_the_first_horizons_spend_answers_unknown(time_limit: float) -> None:
    """`forest dog route F --time-limit 0.001` said 'time limit must be a positive number of
    seconds, not -0.0065' (exit 2): each horizon's solve runs at least CP-SAT's least time, the
    deepening took it from the limit and handed the next horizon what was left below 0. Now
    the spent limit is an unproven answer; what a small limit does prove is the par of the
    default limit."""
    statuses = Counter()
    for seed in range(12):
        forest = roll_forest(10, 10, seed)
        answer = par_cpsat_model(forest, time_limit=time_limit)
        statuses[answer.status] += 1
        if answer.status != "unknown":
            full = par_cpsat_model(forest)
            assert (answer.status, answer.turns) == (full.status, full.turns)
    assert statuses["unknown"]  # the limit ran out on some of them
