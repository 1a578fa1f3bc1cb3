"""The connectivity rule: a mission tile may leave the forest only if the rest stays connected.

The forest graph has every tile as a node (forest side, mission side and the start tile alike)
and an edge between tiles sharing a side. Completing the mission on tile M removes M, which is
allowed only if M is not a cut vertex (articulation point) of that graph: the forest without M
is still one piece. :func:`cut_vertices` finds every cut vertex of a forest in one depth-first
pass (Hopcroft-Tarjan low points, O(tiles)) and remembers the last forests it was asked about,
so the legal walks of a position (one question per candidate tile, on the same forest) cost one
pass, not one flood fill each.

>>> line = {(0, 0), (0, 1), (0, 2)}
>>> splits_forest(line, (0, 1)), splits_forest(line, (0, 0))
(True, False)
>>> sorted(cut_vertices(line))
[(0, 1)]
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from functools import lru_cache

from solver.games.guardians.board import Cell, neighbours

__all__ = ["cut_vertices", "is_connected", "reached", "splits_forest"]


def reached(first: Cell, occupied: Collection[Cell]) -> set[Cell]:
    """The cells of ``occupied`` joined to ``first`` (included) through neighbouring ones."""
    seen = {first}
    stack = [first]
    while stack:
        for n in neighbours(stack.pop()):
            if n in occupied and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def is_connected(cells: Collection[Cell]) -> bool:
    """Whether the tiles on ``cells`` form one piece (an empty forest counts as connected)."""
    if not cells:
        return True
    occupied = set(cells)
    return len(reached(next(iter(occupied)), occupied)) == len(occupied)


def splits_forest(cells: Collection[Cell], removed: Cell) -> bool:
    """Whether removing the tile on ``removed`` would split the forest into two or more parts."""
    connected, cuts = _pieces(frozenset(cells))
    if connected:
        return removed in cuts
    rest = set(cells)  # a forest already in pieces (not a legal position): ask directly
    rest.discard(removed)
    return not is_connected(rest)


def cut_vertices(cells: Collection[Cell]) -> frozenset[Cell]:
    """The tiles whose removal would split the one-piece forest on ``cells`` (its articulation
    points); for a forest already in pieces, the tiles whose removal adds a piece."""
    return _pieces(frozenset(cells))[1]


@lru_cache(maxsize=1024)
def _pieces(cells: frozenset[Cell]) -> tuple[bool, frozenset[Cell]]:
    """Whether ``cells`` is one piece, and its cut vertices (an iterative depth-first search)."""
    order: dict[Cell, int] = {}
    low: dict[Cell, int] = {}
    cuts: set[Cell] = set()
    pieces = 0
    for root in sorted(cells):
        if root in order:
            continue
        pieces += 1
        order[root] = low[root] = len(order)
        root_children = 0
        stack: list[tuple[Cell, Cell | None, Iterator[Cell]]] = [
            (root, None, iter(neighbours(root)))
        ]
        while stack:
            cell, parent, rest = stack[-1]
            for n in rest:
                if n not in cells or n == parent:
                    continue
                if n in order:
                    low[cell] = min(low[cell], order[n])
                    continue
                order[n] = low[n] = len(order)
                stack.append((n, cell, iter(neighbours(n))))
                break
            else:
                stack.pop()
                if parent is None:
                    continue
                low[parent] = min(low[parent], low[cell])
                if parent == root:
                    root_children += 1
                elif low[cell] >= order[parent]:
                    cuts.add(parent)
        if root_children > 1:
            cuts.add(root)
    return pieces <= 1, frozenset(cuts)
