"""ISMCTS watched (``cancel``, ``progress``): on both paths (the compiled loop over the Trial's
kernel, the Python tree over its reference engine) it stops when told, reports partial results
that grow, keeps its iteration budget exactly and stays deterministic given its seed."""

from __future__ import annotations

import random
import threading

import pytest

import solver
from solver.game import sample_chance
from solver.rng import SplitMix64
from solver.search.ismcts import ismcts


def _decision(engine: str) -> object:
    """A 2-player Trial position where the player to move has at least four moves."""
    state = solver.load_game("trial", players=2, engine=engine).new_initial_state()
    rng, pick = SplitMix64(1), random.Random(2)
    while state.is_chance_node() or len(state.legal_actions()) < 4:
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else pick.choice(legal)
        )
    return state


ENGINES = [("kernel", True, 3000), ("reference", False, 1000)]


@pytest.mark.parametrize(("engine", "compiled", "budget"), ENGINES)
def test_watched_it_keeps_its_budget_reports_growing_results_and_repeats(
    require_kernels, engine, compiled, budget
):
    state = _decision(engine)
    partials: list[object] = []
    first = ismcts(state, iterations=budget, seed=4, progress=partials.append)
    again = ismcts(state, iterations=budget, seed=4, progress=lambda _: None)
    assert first.extra["compiled"] is compiled
    assert first.iterations == budget and first.extra["stopped_by"] == "iterations"
    assert [(m.action, m.visits) for m in first.moves] == [
        (m.action, m.visits) for m in again.moves
    ]
    done = [p.iterations for p in partials]  # type: ignore[attr-defined]
    assert len(done) >= 3 and done == sorted(done) and done[-1] == budget
    assert all(p.moves for p in partials)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("engine", "compiled", "budget"), ENGINES)
def test_a_stop_ends_it_between_slices_with_what_it_has(require_kernels, engine, compiled, budget):
    state = _decision(engine)
    cancel = threading.Event()
    seen: list[int] = []

    def progress(partial: object) -> None:
        seen.append(partial.iterations)  # type: ignore[attr-defined]
        if len(seen) == 2:
            cancel.set()

    result = ismcts(state, iterations=100 * budget, seed=4, cancel=cancel, progress=progress)
    assert result.extra["stopped_by"] == "stopped"
    assert result.iterations == seen[1] < 100 * budget and result.moves


def test_stopped_before_it_starts_it_still_answers(require_kernels):
    cancel = threading.Event()
    cancel.set()
    result = ismcts(_decision("kernel"), seconds=60, seed=1, cancel=cancel)
    assert result.extra["stopped_by"] == "stopped" and result.iterations == 0


def test_the_python_tree_hears_a_stop_within_a_pace(require_kernels):
    """The Python tree's slices also end on time (where they end does not change it): a watched
    search on the reference engine reports and looks at the stop every PACE seconds or so, where
    a slice of thousands of its simulations took seconds (a terminate waited 10 s for one)."""
    import time

    from solver.search.watch import PACE

    state = _decision("reference")
    cancel = threading.Event()
    times: list[float] = []

    def progress(_partial: object) -> None:
        times.append(time.monotonic())
        if times[-1] - times[0] > 2.5:
            cancel.set()

    start = time.monotonic()
    result = ismcts(state, iterations=None, seconds=60, seed=4, cancel=cancel, progress=progress)
    gaps = [b - a for a, b in zip([start, *times], times, strict=False)]
    assert result.extra["stopped_by"] == "stopped"
    assert max(gaps) < PACE + 0.5, gaps


@pytest.mark.parametrize(("engine", "compiled", "budget"), ENGINES)
@pytest.mark.parametrize("max_nodes", [None, 700])
def test_watched_it_is_the_same_search_as_unwatched(
    require_kernels, engine, compiled, budget, max_nodes
):
    """A watched search's slices go on from one another's random streams (the compiled tree's
    slices were seeded one by one: a different search), so watching changes nothing unless the
    stop comes: a stdio hint, which can be terminated, and an HTTP one choose alike."""
    state = _decision(engine)
    capped = {} if max_nodes is None else {"max_nodes": max_nodes}
    alone = ismcts(state, iterations=budget, seed=4, **capped)
    watched = ismcts(state, iterations=budget, seed=4, cancel=threading.Event(), **capped)
    assert alone.extra["compiled"] is compiled
    assert watched.iterations == alone.iterations and watched.value == alone.value
    assert watched.extra["stopped_by"] == alone.extra["stopped_by"]
    assert [(m.action, m.visits, m.value) for m in watched.moves] == [
        (m.action, m.visits, m.value) for m in alone.moves
    ]


def test_a_search_deadline_s_cancel_stops_it(require_kernels):
    """Without a ``cancel`` of its own, ISMCTS hears the cancel of a ``search_deadline`` in force
    (a hint's strength move, run by an agent that passes none): set, the search stops."""
    import time

    from solver.search.limit import search_deadline

    cancel = threading.Event()
    cancel.set()
    with search_deadline(time.monotonic() + 600, cancel):
        result = ismcts(_decision("kernel"), iterations=10**6, seed=1)
    assert result.extra["stopped_by"] == "stopped" and result.iterations == 0
