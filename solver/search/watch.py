"""A search someone watches: stopped from another thread, or asked for progress as it goes.

An unwatched search runs its whole budget in one call (deterministic given its seed). A watched
one runs in slices of :data:`FIRST_SLICE` simulations, each next slice twice as long (at most
:data:`LAST_SLICE`), on one tree: between slices it looks at ``cancel`` (set: it stops, and what
it has is the answer, ``terminated``) and calls ``progress``. The searcher's random streams go
on from one slice to the next (ISMCTS and MCTS's estimate, both trees: every call after the
first resumes them), so a watched search that nobody stops is the same search as an unwatched
one, and where its slices end does not change it: each slice may also end after :data:`PACE`
seconds (``paced``), so a slow searcher is not deaf to a stop for a whole long slice. A hint's
stdio request (which can be terminated) and its HTTP twin (which cannot) thus choose the same
move.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

__all__ = ["FIRST_SLICE", "LAST_SLICE", "PACE", "Sliced", "Watch", "run_sliced"]

FIRST_SLICE = 256
"""Simulations in a watched search's first slice (a stop is seen within about one slice)."""
LAST_SLICE = 8192
"""The longest slice."""
PACE = 0.25
"""Seconds a paced search's slice runs at most (``run_sliced(..., paced=True)``)."""


@dataclasses.dataclass(frozen=True)
class Watch:
    """``cancel``: set from another thread to stop the search; ``progress(simulations)``: called
    after every slice with the simulations run so far (the caller reads the tree)."""

    cancel: threading.Event | None = None
    progress: Callable[[int], None] | None = None

    def stopped(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()


@dataclasses.dataclass(frozen=True)
class Sliced:
    """What a (possibly sliced) search did: its simulations, why it ended (the searcher's
    ``"iterations"``, ``"seconds"``, ``"max_nodes"``, or ``"stopped"``)."""

    done: int
    reason: str

    @property
    def terminated(self) -> bool:
        return self.reason == "stopped"


SliceSearch = Callable[[int, int | None, float | None], tuple[int, str]]
"""``search(k, iterations, seconds) -> (simulations, reason)``: the ``k``-th slice (0: the
whole search when unwatched) on the same tree, going on from where slice ``k - 1`` left off."""


def run_sliced(
    search: SliceSearch,
    iterations: int | None,
    seconds: float | None,
    watch: Watch | None,
    *,
    paced: bool = False,
) -> Sliced:
    """``search`` within ``iterations`` and/or ``seconds``: in one call without ``watch``, else
    in slices (the module docstring); at least one simulation runs unless it was stopped first.
    ``paced``: each slice also ends after :data:`PACE` seconds (for a search whose slices may end
    anywhere without changing it)."""
    if watch is None or (iterations is None and seconds is None):
        return Sliced(*search(0, iterations, seconds))
    deadline = None if seconds is None else time.monotonic() + seconds
    done, k, size = 0, 0, FIRST_SLICE
    while True:
        if watch.stopped():
            return Sliced(done, "stopped")
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0 and done > 0:
            return Sliced(done, "seconds")
        want = size if iterations is None else min(size, iterations - done)
        cap = left
        if paced:
            cap = PACE if left is None else min(left, PACE)
        ran, reason = search(k, want, None if cap is None else max(cap, 1e-6))
        done, k, size = done + ran, k + 1, min(2 * size, LAST_SLICE)
        if watch.progress is not None:
            watch.progress(done)
        if reason == "max_nodes" or (iterations is not None and done >= iterations):
            return Sliced(done, reason)
        if reason == "seconds" and left is not None and cap == left:
            return Sliced(done, "seconds")
