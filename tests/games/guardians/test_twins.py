"""Independent twins: networkx for the cut-vertex rule, a plain path enumeration for walks."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest

from solver.games.guardians.board import Face, neighbours
from solver.games.guardians.connectivity import cut_vertices, is_connected, splits_forest
from solver.games.guardians.tiles import Tile
from solver.games.guardians.walks import (
    WALK_CODES,
    path_code,
    path_from_code,
    start_walk_ok,
    walks_from,
)
from solver.rng import SplitMix64


def random_forest(rng: SplitMix64, size: int) -> set[tuple[int, int]]:
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = rng.pick(sorted(cells))
        cells.add(rng.pick(neighbours((r, c))))
    return cells


def graph(cells: set[tuple[int, int]]) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(cells)
    for cell in cells:
        for n in neighbours(cell):
            if n in cells:
                g.add_edge(cell, n)
    return g


@pytest.mark.parametrize("seed", range(40))
def test_cut_vertex_rule_agrees_with_networkx(seed):
    rng = SplitMix64(seed)
    cells = random_forest(rng, 1 + rng.roll(30))
    g = graph(cells)
    cut = set(nx.articulation_points(g))
    assert is_connected(cells) and nx.is_connected(g)
    for cell in cells:
        assert splits_forest(cells, cell) == (cell in cut), cell
    # and on a forest with holes punched into it
    holey = {c for c in cells if rng.roll(4) > 1}
    assert is_connected(holey) == (not holey or nx.is_connected(graph(holey)))
    assert cut_vertices(cells) == cut
    for cell in holey | {(99, 99)}:  # pieces already: the rule asked of the rest directly
        rest = graph(holey - {cell})
        assert splits_forest(holey, cell) == (len(rest) > 0 and not nx.is_connected(rest)), cell


def brute_walks(forest, tiles, start):
    """Every path of distinct cells of the right length from ``start``, filtered by colour."""
    tile = tiles[forest[start].tile]
    k = 6 if tile.start else len(tile.sequence)
    found = set()

    def paths(prefix):
        if len(prefix) == k:
            yield tuple(prefix)
            return
        here = prefix[-1] if prefix else start
        for n in neighbours(here):
            if n in forest and n != start and n not in prefix:
                yield from paths([*prefix, n])

    for path in paths([]):
        if any(forest[c].mission for c in path):
            continue
        colours = "".join(tiles[forest[c].tile].colour for c in path)
        if tile.start:
            ok = start_walk_ok(colours)
        else:
            ok = colours in (tile.sequence, tile.sequence[::-1])
        if ok:
            found.add(path)
    return sorted(found, key=lambda p: path_code(start, p))


@pytest.mark.parametrize("seed", range(60))
def test_walk_enumeration_agrees_with_brute_force(seed):
    rng = SplitMix64(1000 + seed)
    palette = "BGREPY"[: 2 + seed % 5]
    cells = sorted(random_forest(rng, 8 + rng.roll(14)))
    tiles = {0: Tile(0, None, "", 12, True)}
    forest = {}
    for i, cell in enumerate(cells, start=1):
        colour = rng.pick(palette)
        sequence = "".join(rng.pick(palette) for _ in range(1 + rng.roll(4)))
        tiles[i] = Tile(i, colour, sequence, 3)
        forest[cell] = Face(i, rng.roll(5) == 1)
    starts = [c for c in cells if forest[c].mission]
    forest[cells[0]] = Face(0, True)  # a start tile too
    for start in [cells[0], *starts]:
        mine = walks_from(forest, tiles, start)
        assert mine == brute_walks(forest, tiles, start)
        for path in mine:
            assert path_from_code(start, path_code(start, path)) == path


def test_direction_codes_are_a_bijection():
    # every direction sequence that never steps straight back, lengths 1..6: 1456 in all
    start = (0, 0)
    codes = set()
    for k in range(1, 7):
        for dirs in itertools.product(range(4), repeat=k):
            if any((b - a) % 4 == 2 for a, b in itertools.pairwise(dirs)):
                continue
            here, path = start, []
            for d in dirs:
                here = neighbours(here)[d]
                path.append(here)
            code = path_code(start, tuple(path))
            assert path_from_code(start, code) == tuple(path)
            codes.add(code)
    assert codes == set(range(WALK_CODES))
