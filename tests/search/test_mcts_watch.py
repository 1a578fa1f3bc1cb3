"""MCTS watched (``search_position`` with ``cancel`` or ``progress``: a stdio hint's estimate)
is the same search as unwatched (an HTTP hint's, the command line's): its slices go on from one
another's random stream, so on both trees (the compiled loop over a kernel, the Python tree over
a reference engine) the moves, visits and values are those of one ``mcts`` call with the same
seed and iterations, held to that independent search, at a decision and at a chance root, with
and without a node cap. Each case's search runs in several slices (the progress calls say so).
"""

from __future__ import annotations

import dataclasses
import random
import threading

import pytest

import solver
from solver.errors import OptionError
from solver.game import sample_chance
from solver.rng import SplitMix64
from solver.search import Limit, search_position
from solver.search.auto import Valued, estimate_options
from solver.search.mcts import MCTSTree, mcts
from solver.search.mcts_reference import MAX_ACTIONS

pytestmark = pytest.mark.usefixtures("require_kernels")


def _dog(engine: str) -> object:
    """A dog decision on a 9x9 forest, rolled one step: three or four moves, a long game."""
    state = solver.load_game("dog", forest="dog/rolled-9x9-seed7", engine=engine)
    state = state.new_initial_state()
    state.apply_action(10)  # roll: 1 step
    return state


def _guardians(engine: str) -> object:
    """A two-player guardians decision a few turns in, with at least four moves."""
    state = solver.load_game("guardians", players=2, engine=engine).new_initial_state()
    rng, pick, turns = SplitMix64(5), random.Random(5), 0
    while state.is_chance_node() or turns < 6 or len(state.legal_actions()) < 4:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(pick.choice(state.legal_actions()))
            turns += 1
    return state


POSITIONS = {"dog": _dog, "guardians": _guardians}
ENGINES = [("kernel", 3000), ("reference", 400)]  # both past the floor and two slices


def _rows(moves: object) -> list[tuple[int, int, float]]:
    return [(m.action, m.visits, m.value) for m in moves]  # type: ignore[attr-defined]


def _watched_ways(state: object, budget: Limit, options: object, seed: int) -> list[Valued]:
    """The estimate unwatched, with a cancel nobody sets, and with progress (counted: more than
    two calls, so the search was cut into slices)."""
    calls: list[int] = []
    ways = [
        search_position(state, exact=False, limit=budget, seed=seed, options=options),  # type: ignore[arg-type]
        search_position(state, exact=False, limit=budget, seed=seed, options=options,  # type: ignore[arg-type]
                        cancel=threading.Event()),
        search_position(state, exact=False, limit=budget, seed=seed, options=options,  # type: ignore[arg-type]
                        progress=lambda found: calls.append(found.simulations)),
    ]  # fmt: skip
    assert len(calls) > 2 and calls == sorted(calls), calls
    return ways


@pytest.mark.parametrize("game", sorted(POSITIONS))
@pytest.mark.parametrize(("engine", "budget"), ENGINES)
@pytest.mark.parametrize("capped", [False, True])
def test_watched_it_is_the_one_search_mcts_makes(game, engine, budget, capped) -> None:
    """Capped: the search stops when the tree cannot take one more expansion of 64 moves
    (``MAX_ACTIONS``) within four fifths of the nodes the budget grows: in a later slice."""
    state = POSITIONS[game](engine)
    options = estimate_options(state)  # type: ignore[arg-type]
    alone = mcts(state, limit=Limit(iterations=budget), options=options, seed=11)  # type: ignore[arg-type]
    if capped:
        options = dataclasses.replace(options, max_nodes=MAX_ACTIONS + alone.nodes * 4 // 5)
        alone = mcts(state, limit=Limit(iterations=budget), options=options, seed=11)  # type: ignore[arg-type]
    assert alone.extra["engine"] == ("kernel" if engine == "kernel" else "python")
    assert (alone.extra["stopped_by"] == "max_nodes") is capped
    for found in _watched_ways(state, Limit(iterations=budget), options, 11):
        assert found.result is not None and found.method == "mcts" and not found.terminated
        assert found.simulations == alone.iterations
        assert found.result.extra["stopped_by"] == alone.extra["stopped_by"]
        assert _rows(found.result.moves) == _rows(alone.moves)
        assert found.value == alone.value


@pytest.mark.parametrize(("engine", "budget"), ENGINES)
def test_at_a_chance_root_too(engine, budget) -> None:
    """The dog's opening roll: the values, every player's, are alike watched or not."""
    state = solver.load_game("dog", forest="dog/rolled-9x9-seed7", engine=engine)
    state = state.new_initial_state()
    options = estimate_options(state)
    ways = _watched_ways(state, Limit(iterations=budget), options, 4)
    assert ways[0].simulations == budget
    assert all(found.values == ways[0].values for found in ways[1:])
    other = search_position(state, exact=False, limit=Limit(iterations=budget), seed=5)
    assert other.values != ways[0].values  # the seed matters: the values are not all alike


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_resumed_calls_are_one_call_and_need_one_before(engine) -> None:
    """``MCTSTree._search(resume=True)``: calls of 1, 300 and 699 simulations on one tree are the
    search one call of 1000 makes; a resume with no search before it is refused."""
    state = POSITIONS["dog"](engine)
    options = estimate_options(state)  # type: ignore[arg-type]
    with pytest.raises((OptionError, ValueError), match="resume needs a search before it"):
        MCTSTree()._search(state, Limit(iterations=5), options, 1, False, resume=True)  # type: ignore[arg-type]
    one = MCTSTree()._search(state, Limit(iterations=1000), options, 1, False)  # type: ignore[arg-type]
    tree = MCTSTree()
    for k, part in enumerate((1, 300, 699)):
        cut = tree._search(state, Limit(iterations=part), options, 1, False, resume=k > 0)  # type: ignore[arg-type]
    assert tree.root_visits == 1000 and _rows(cut.moves) == _rows(one.moves)
    reseeded = MCTSTree()
    for part in (1, 300, 699):  # each call seeded afresh: another search
        again = reseeded._search(state, Limit(iterations=part), options, 1, False)  # type: ignore[arg-type]
    assert _rows(again.moves) != _rows(one.moves)


def test_a_resumed_slice_is_not_checked_against_its_root_again(monkeypatch) -> None:
    """The Python tree checks a root by its saved form (a 4,096-tile guardians state's two
    saved forms took 0.06 s of a 0.3 s hint, before the slice's clock started): a later slice
    given the very state object the last call matched is not checked again; any other state,
    or a new search, is."""
    from solver.search import mcts_reference

    state = POSITIONS["dog"]("reference")
    options = estimate_options(state)  # type: ignore[arg-type]
    checked: list[object] = []
    real = mcts_reference.PythonTree.matches

    def matches(tree: object, other: object) -> bool:
        checked.append(other)
        return real(tree, other)  # type: ignore[arg-type]

    monkeypatch.setattr(mcts_reference.PythonTree, "matches", matches)
    tree = MCTSTree()
    budget = Limit(iterations=5)
    tree._search(state, budget, options, 1, False)  # type: ignore[arg-type]
    tree._search(state, budget, options, 1, False, resume=True)  # type: ignore[arg-type]
    assert checked == []
    twin = state.clone()  # type: ignore[attr-defined]
    tree._search(twin, budget, options, 1, False, resume=True)  # type: ignore[arg-type]
    assert checked == [twin]
    moved = state.clone()  # type: ignore[attr-defined]
    moved.apply_action(moved.legal_actions()[0])
    with pytest.raises(OptionError, match="not this state"):
        tree._search(moved, budget, options, 1, False, resume=True)  # type: ignore[arg-type]
    tree._search(twin, budget, options, 1, False)  # type: ignore[arg-type]
    assert checked == [twin, moved, twin] and tree.root_visits == 20


class _SetAfter(threading.Event):
    """A cancel event that reads as set from its ``n``-th read on (a terminate that comes once
    the search is under way, without a clock)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.reads, self.n = 0, n

    def is_set(self) -> bool:
        self.reads += 1
        return self.reads >= self.n


@pytest.mark.parametrize(("engine", "budget"), ENGINES)
def test_mcts_under_a_cancel_nobody_sets_is_the_same_search(engine, budget) -> None:
    """A strength level's MCTS runs in slices under a hint's ``search_deadline`` with a cancel
    event (to hear a terminate): nobody setting it changes no move, visit or value."""
    from solver.search.limit import search_deadline

    state = POSITIONS["dog"](engine)
    options = estimate_options(state)  # type: ignore[arg-type]
    alone = mcts(state, iterations=budget, seed=3, options=options)  # type: ignore[arg-type]
    with search_deadline(None, threading.Event()):
        watched = mcts(state, iterations=budget, seed=3, options=options)  # type: ignore[arg-type]
    assert _rows(watched.moves) == _rows(alone.moves) and watched.value == alone.value
    assert watched.iterations == alone.iterations == budget
    assert watched.extra["stopped_by"] == "iterations"


def test_mcts_hears_a_cancel_set_during_its_search() -> None:
    """Found before: the levels' MCTS read a terminate only when its search started (through
    the deadline's seconds), then ran its whole budget. Now it stops at the next slice."""
    from solver.search.limit import search_deadline

    state = POSITIONS["dog"]("kernel")
    budget = 200_000
    cancel = _SetAfter(3)  # the budget's read, the first slice's, then set
    with search_deadline(None, cancel):
        stopped = mcts(state, iterations=budget, seed=3)  # type: ignore[arg-type]
    assert stopped.extra["stopped_by"] == "stopped" and 0 < stopped.iterations < budget
    assert stopped.best_action is not None
    with search_deadline(None, _SetAfter(1)):  # set before it starts: one simulation
        first = mcts(state, iterations=budget, seed=3)  # type: ignore[arg-type]
    assert first.iterations == 1 and first.extra["stopped_by"] == "stopped"
