"""The greedy baseline agent: follow the stamina-weighted shortest path, no look-ahead.

Each cell has a price: 1 for the step, plus its stamina cost (undergrowth 1, puddle 2, each arrow
over it its expected shout cost ``3 * (7 - k) / 6``), weighted by ``stamina_weight``; unresolved
distractions cost ``distraction_cost`` extra. A Dijkstra search from the human gives every cell its
price-distance; at a step the agent moves to the legal neighbour with the smallest distance (ties:
the lower action id). It ignores offered distractions while curiosity lasts, and the squirrel runs
toward the first legal edge.

>>> import solver
>>> from solver.games.dog.greedy import greedy_agent
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> state = game.new_initial_state()
>>> state.apply_action(11)   # roll: 2 steps
>>> state.action_to_string(greedy_agent(game.forest)(state))
'N'
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from solver.game import State
from solver.games.dog.forest import DELTAS, DIRECTIONS, Cell, Forest, Terrain
from solver.games.dog.rules import IGNORE, INVESTIGATE, STEP_N

_TERRAIN_STAMINA = {Terrain.UNDERGROWTH: 1.0, Terrain.PUDDLE: 2.0}


def path_distances(
    forest: Forest, *, stamina_weight: float = 0.5, distraction_cost: float = 1.0
) -> dict[Cell, float]:
    """The price-distance from every reachable cell to the human (Dijkstra over the grid)."""

    def price(cell: Cell) -> float:
        terrain = forest.terrain(cell)
        cost = _TERRAIN_STAMINA.get(terrain, 0.0)
        cost += sum(3.0 * (7 - k) / 6.0 for k in forest.arrow_numbers(cell))
        extra = distraction_cost if terrain.is_distraction else 0.0
        return 1.0 + stamina_weight * cost + extra

    dist = {forest.human: 0.0}
    heap = [(0.0, forest.human)]
    while heap:
        d, cell = heapq.heappop(heap)
        if d > dist[cell]:
            continue
        for dr, dc in DELTAS.values():
            nxt = (cell[0] + dr, cell[1] + dc)
            if not forest.inside(nxt) or forest.terrain(nxt) == Terrain.TREE:
                continue
            # Walking from nxt into cell costs the price of cell.
            nd = d + (price(cell) if cell != forest.human else 1.0)
            if nd < dist.get(nxt, float("inf")):
                dist[nxt] = nd
                heapq.heappush(heap, (nd, nxt))
    return dist


def greedy_agent(forest: Forest, **weights: float) -> Callable[[State], int]:
    """An agent ``agent(state) -> action`` for decision nodes of the dog game on ``forest``."""
    dist = path_distances(forest, **weights)
    unreachable = float("inf")

    def choose(state: State) -> int:
        legal = state.legal_actions()
        if IGNORE in legal:
            return IGNORE
        if INVESTIGATE in legal:
            return INVESTIGATE
        if legal[0] > STEP_N + 3:  # the squirrel's edge choice
            return legal[0]
        pos = state.to_dict()["pos"]  # type: ignore[attr-defined]

        def score(action: int) -> tuple[float, int]:
            dr, dc = DELTAS[DIRECTIONS[action - STEP_N]]
            return (dist.get((pos[0] + dr, pos[1] + dc), unreachable), action)

        return min(legal, key=score)

    return choose
