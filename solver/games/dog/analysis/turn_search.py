"""The soonest win by breadth-first search bucketed by turn: one implementation for the par and
hindsight questions (:mod:`solver.games.dog.routes.graph`'s brute-force twins) and the analysis
(:func:`solver.games.dog.analysis.classify.first_win`).

A search node is a dog state with two counters ``k`` and ``j``: how many step rolls and shout
rolls a route has consumed (always 0 for par). ``moves(state, k, j)`` lists the moves to try as
``(action, child, k', j')``: every legal action with chance outcomes open, or the one outcome a
known sequence dictates, with the state it leads to. All positions of turn t are expanded before
any of turn t + 1, so the first winning child found is a win in the smallest turn. The callers
choose the moves, the key that identifies a node, an optional pruning test and an optional cap on
the nodes stored.

>>> from solver.games.dog.forest import Forest, Terrain
>>> from solver.games.dog.rules import DogGame
>>> grid = [[Terrain.OPEN] * 3 for _ in range(2)]
>>> forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 2), turns=2)
>>> root = DogGame(forest).new_initial_state()
>>> def every_move(state, k, j):
...     return [(a, state.child(a), 0, 0) for a in state.legal_actions()]
>>> found = soonest_win(root, every_move, lambda state, k, j: state.to_json())
>>> found.status, len(found.actions) > 0
('optimal', True)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

__all__ = ["Found", "soonest_win"]

Moves = Callable[[Any, int, int], "list[tuple[int, Any, int, int]]"]
"""``moves(state, k, j) -> [(action, child, k', j')]``: the moves tried from a node."""
Key = Callable[[Any, int, int], Hashable]
"""``key(state, k, j)``: what identifies a node (equal keys: the same position)."""


@dataclass(frozen=True)
class Found:
    """The answer of :func:`soonest_win`: the actions of the soonest win (``None``: none),
    ``status`` (``"optimal"``, ``"infeasible"`` or ``"budget"``) and the nodes stored."""

    actions: tuple[int, ...] | None
    status: str
    nodes: int


def _past(deadline: float) -> bool:
    return time.monotonic() >= deadline


def soonest_win(
    root: Any,
    moves: Moves,
    key: Key,
    *,
    prune: Callable[[Any], bool] | None = None,
    max_nodes: int | None = None,
    store_losses: bool = True,
    deadline: float | None = None,
) -> Found:
    """The soonest win from the state ``root`` (see the module docstring).

    ``prune(state)`` drops a non-terminal node (and the root) from which no win is possible;
    ``max_nodes`` stops the search with status ``"budget"`` before a node beyond it is stored;
    ``store_losses`` counts losing terminal children among the stored nodes (the brute-force
    twins do, the analysis does not). ``deadline`` (``time.monotonic()``) stops it with status
    ``"budget"`` too, looked at before each node is expanded (a clock read is some 50 ns, a
    node's moves tens of microseconds): looked at every 4,096 nodes stored, a route search of
    ``--seconds 1`` ran 0.3 s past it, and a stretch storing nothing was never looked at.
    """
    root_key = key(root, 0, 0)
    parent: dict[Hashable, tuple[Hashable, int] | None] = {root_key: None}
    buckets: dict[int, deque[tuple[Any, int, int, Hashable]]] = {}
    if not root.is_terminal() and not (prune is not None and prune(root)):
        buckets[root.turn] = deque([(root, 0, 0, root_key)])
    win: Hashable | None = None
    while buckets and win is None:
        queue = buckets.pop(min(buckets))
        popleft = queue.popleft
        while queue and win is None:
            if deadline is not None and _past(deadline):
                return Found(None, "budget", len(parent))
            state, k, j, node_key = popleft()
            for action, child, k2, j2 in moves(state, k, j):
                child_key = key(child, k2, j2)
                if child_key in parent:
                    continue
                if child.is_terminal():
                    if child.won:
                        parent[child_key] = (node_key, action)
                        win = child_key
                        break
                    if store_losses:
                        parent[child_key] = (node_key, action)
                    continue
                if prune is not None and prune(child):
                    continue
                if max_nodes is not None and len(parent) >= max_nodes:
                    return Found(None, "budget", len(parent))
                parent[child_key] = (node_key, action)
                turn = child.turn
                bucket = buckets.get(turn)
                if bucket is None:
                    bucket = buckets[turn] = deque()
                bucket.append((child, k2, j2, child_key))
    if win is None:
        return Found(None, "infeasible", len(parent))
    return Found(_path(parent, win), "optimal", len(parent))


def _path(parent: dict[Hashable, tuple[Hashable, int] | None], end: Hashable) -> tuple[int, ...]:
    """The actions from the root to ``end``, read back through each node's parent."""
    actions: list[int] = []
    step = parent[end]
    while step is not None:
        previous, action = step
        actions.append(action)
        step = parent[previous]
    return tuple(reversed(actions))
