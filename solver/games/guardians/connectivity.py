"""The connectivity rule: a mission tile may leave the forest only if the rest stays connected.

The forest graph has every tile as a node (forest side, mission side and the start tile alike)
and an edge between tiles sharing a side. Completing the mission on tile M removes M, which is
allowed only if M is not a cut vertex (articulation point) of that graph: the forest without M
is still one piece. The test is a plain flood fill, O(tiles).

>>> line = {(0, 0), (0, 1), (0, 2)}
>>> splits_forest(line, (0, 1)), splits_forest(line, (0, 0))
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection

from solver.games.guardians.board import Cell, neighbours

__all__ = ["is_connected", "splits_forest"]


def is_connected(cells: Collection[Cell]) -> bool:
    """Whether the tiles on ``cells`` form one piece (an empty forest counts as connected)."""
    if not cells:
        return True
    occupied = set(cells)
    first = next(iter(occupied))
    seen = {first}
    stack = [first]
    while stack:
        for n in neighbours(stack.pop()):
            if n in occupied and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(occupied)


def splits_forest(cells: Collection[Cell], removed: Cell) -> bool:
    """Whether removing the tile on ``removed`` would split the forest into two or more parts."""
    rest = set(cells)
    rest.discard(removed)
    return not is_connected(rest)
