"""A watched search (``solver.search.watch.run_sliced``) against a stand-in searcher that
counts: slices that double, budgets kept exactly, a stop seen between slices, progress after
each."""

from __future__ import annotations

import threading

from solver.search.watch import FIRST_SLICE, LAST_SLICE, PACE, Watch, run_sliced


class _Counter:
    """A searcher that runs what it is asked (no clock) and records its slices."""

    def __init__(self, stop_after: int | None = None, cancel: threading.Event | None = None):
        self.slices: list[tuple[int, int | None]] = []
        self.stop_after, self.cancel = stop_after, cancel

    def __call__(self, k: int, iterations: int | None, seconds: float | None) -> tuple[int, str]:
        self.slices.append((k, iterations))
        if self.cancel is not None and len(self.slices) == self.stop_after:
            self.cancel.set()
        return (iterations or 1), "iterations"


def test_unwatched_is_one_call_with_the_whole_budget():
    search = _Counter()
    ran = run_sliced(search, 100_000, None, None)
    assert search.slices == [(0, 100_000)] and ran.done == 100_000 and not ran.terminated


def test_watched_slices_double_to_the_last_and_keep_the_budget_exactly():
    search, seen = _Counter(), []
    ran = run_sliced(search, 50_000, None, Watch(progress=seen.append))
    sizes = [n for _, n in search.slices]
    assert sizes[:3] == [FIRST_SLICE, 2 * FIRST_SLICE, 4 * FIRST_SLICE]
    assert max(sizes) == LAST_SLICE and sum(sizes) == 50_000 == ran.done
    assert [k for k, _ in search.slices] == list(range(len(sizes)))  # each slice its own seed
    assert seen == [sum(sizes[: i + 1]) for i in range(len(sizes))]  # progress after each


def test_a_stop_is_seen_after_the_slice_that_runs_when_it_comes():
    cancel = threading.Event()
    search = _Counter(stop_after=3, cancel=cancel)
    ran = run_sliced(search, None, 3600.0, Watch(cancel=cancel))
    assert len(search.slices) == 3 and ran.terminated and ran.reason == "stopped"
    assert ran.done == FIRST_SLICE * (1 + 2 + 4)


def test_a_search_stopped_before_it_starts_runs_nothing():
    cancel = threading.Event()
    cancel.set()
    search = _Counter()
    ran = run_sliced(search, 1000, None, Watch(cancel=cancel))
    assert search.slices == [] and ran.done == 0 and ran.terminated


def test_paced_slices_end_on_time_without_ending_the_search():
    """``paced``: every slice is given :data:`PACE` seconds at most; one ended by that time is
    not the search's own deadline, so the next slice follows."""
    asked: list[float | None] = []

    def slow(k: int, iterations: int | None, seconds: float | None) -> tuple[int, str]:
        asked.append(seconds)
        assert iterations is not None
        if iterations <= 10:
            return iterations, "iterations"
        return 10, "seconds"  # ten simulations fill any slice's time

    ran = run_sliced(slow, 100, 3600.0, Watch(), paced=True)
    assert ran.done == 100 and ran.reason == "iterations" and len(asked) == 10
    assert all(s is not None and s <= PACE for s in asked)
    unpaced: list[float | None] = []
    ran = run_sliced(lambda k, n, s: (unpaced.append(s), (10, "seconds"))[1], 100, 3600.0, Watch())
    assert ran.done == 10 and ran.reason == "seconds" and unpaced[0] > 3000  # type: ignore[operator]
