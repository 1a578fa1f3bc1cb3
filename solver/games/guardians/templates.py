"""Mission templates: how far a pawn's mission is from done, the search both valuations share.

Why one module: the planner (``planner.py``, the Python twin of ``ext/guardians_plan.pyx``) and
the MCTS evaluation (``evaluation.py``, the Python twin of the heuristic in ``ext/guardians.pyx``)
value a pawn the same way, and their compiled twins already share one search
(``ext/guardians_prospect.pxi``). They differ only in which empty cells a template may use
(``window``: the evaluation keeps to the board window, the planner's board has none) and in the
planner's tunable weights (:class:`TemplateWeights`).

A **template** of a mission is a path of the mission's length from the pawn (either reading)
over forest-side tiles of the right colours and empty cells; ``d`` empty cells (at most the
budget) weigh ``points * weight[d] * q - fill_cost * d``, ``q`` the product over the empty cells
of the chance that the next pool holds the colour needed (:func:`colour_odds`). The start tile's
A-B-C-D-E-A walk takes empty cells as wildcards (at most ``start_budget``), each worth
``start_fill``. The **prospect** is the best template's weight (a branch and bound search: a
path is given up as soon as its empty cells' weight cannot beat the best found), or the floor
(``points * weight[-1]`` when the budget allows every deficiency) when none is better.

>>> colours = {(0, 1): "R"}
>>> taken = {(0, 0), (0, 1)}  # the mission tile and an R tile: one more R tile to place
>>> prospect(colours, taken, (0, 0), "RR", 3, {"R": 0.5}, budget=2) == 3 * WEIGHT[1] * 0.5
True
"""

from __future__ import annotations

from collections.abc import Collection, Container, Mapping
from dataclasses import dataclass, field

from solver.games.guardians.actions import in_window
from solver.games.guardians.board import Cell
from solver.games.guardians.tiles import START_WALK, start_walk_fits

__all__ = [
    "COLOURS",
    "MAX_DEFICIENCY",
    "START_BUDGET",
    "START_FILL",
    "WEIGHT",
    "TemplateWeights",
    "colour_odds",
    "prospect",
    "shared_sides",
]

COLOURS = "BGREPY"
#: A template's weight by its deficiency (empty cells still to fill).
WEIGHT = (0.95, 0.75, 0.5, 0.3, 0.15, 0.07, 0.03)
#: The chance that an empty cell of the start tile's walk gets a fitting colour in time.
START_FILL = 0.8
#: The most empty cells a start tile template may have (more: valued as the floor).
START_BUDGET = 4
MAX_DEFICIENCY = len(WEIGHT) - 1


@dataclass(frozen=True)
class TemplateWeights:
    """The numbers a template search reads (the defaults: the evaluation's, and the planner's
    unless tuned): ``weight`` by deficiency, ``start_fill``, ``start_budget``, and the cost of
    each empty cell a template needs (``fill_cost``, the planner's ``FILL_COST``)."""

    weight: tuple[float, ...] = WEIGHT
    start_fill: float = START_FILL
    start_budget: int = START_BUDGET
    fill_cost: float = 0.0
    _bounds: dict[int, tuple[tuple[float, ...], tuple[float, ...]]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def bounds(self, points: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The best value a template with d empty cells or more can reach, for a sequence and
        for the start tile's walk (the branch and bound's bounds; kept per ``points``)."""
        found = self._bounds.get(points)
        if found is None:
            weight, n, cost = self.weight, len(self.weight), self.fill_cost
            plain = tuple(points * max(weight[d:]) - cost * d for d in range(n))
            start = tuple(
                points * max(weight[e] * self.start_fill**e for e in range(d, n)) - cost * d
                for d in range(n)
            )
            found = self._bounds[points] = (plain, start)
        return found


def prospect(
    colours: Mapping[Cell, str],
    taken: Container[Cell],
    start: Cell,
    sequence: str | None,
    points: int,
    avail: Mapping[str, float],
    budget: int,
    w: TemplateWeights = TemplateWeights(),
    *,
    window: bool = False,
) -> float:
    """The prospect of a mission worth ``points`` on ``start`` (``sequence`` ``None``: the start
    tile's walk): ``colours`` maps forest-side cells to their colour, ``taken`` holds every
    tile's cell (a template fills only the others; with ``window``, only those in the board
    window), ``avail`` the chance of each colour in the next pool, ``budget`` the most empty
    cells a template may take."""
    bound, start_bound = w.bounds(points)
    floor = bound[-1] if budget >= len(w.weight) - 1 else 0.0 - w.fill_cost * (budget + 1)
    if sequence is None:
        cap = min(budget, w.start_budget)
        return _start_prospect(colours, taken, window, start, points, start_bound, cap, floor, w)
    return _sequence_prospect(
        colours, taken, window, start, sequence, points, bound, avail, budget, floor, w
    )


def _start_prospect(
    colours: Mapping[Cell, str],
    taken: Container[Cell],
    window: bool,
    start: Cell,
    points: int,
    start_bound: tuple[float, ...],
    cap: int,
    best: float,
    w: TemplateWeights,
) -> float:
    """:func:`prospect` for the start tile: the best A-B-C-D-E-A walk, empty cells taken as
    wildcards (at most ``cap``), better than ``best``."""
    path: list[Cell] = [start]
    fixed: list[str] = []

    def start_templates(here: Cell, d: int) -> None:
        nonlocal best
        if start_bound[d] <= best:
            return
        depth = len(fixed)
        if depth == START_WALK:
            best = points * w.weight[d] * w.start_fill**d - w.fill_cost * d
            return
        r, c = here
        around = ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))  # N, E, S, W (board.neighbours)
        for n in around:
            colour = colours.get(n)
            if colour is None or n in path or not start_walk_fits(fixed, colour, depth):
                continue
            path.append(n)
            fixed.append(colour)
            start_templates(n, d)
            path.pop()
            fixed.pop()
        if d >= cap:
            return
        for n in around:
            if n in taken or n in path or (window and not in_window(n)):
                continue
            path.append(n)
            fixed.append("")
            start_templates(n, d + 1)
            path.pop()
            fixed.pop()

    start_templates(start, 0)
    return best


def _sequence_prospect(
    colours: Mapping[Cell, str],
    taken: Container[Cell],
    window: bool,
    start: Cell,
    sequence: str,
    points: int,
    bound: tuple[float, ...],
    avail: Mapping[str, float],
    budget: int,
    best: float,
    w: TemplateWeights,
) -> float:
    """:func:`prospect` for a mission ``sequence``: the best template of either reading, with
    at most ``budget`` empty cells, better than ``best``."""
    path: list[Cell] = [start]
    k = len(sequence) + 1
    cost = w.fill_cost

    def templates(here: Cell, s: str, d: int, q: float) -> None:
        nonlocal best
        if (bound[d] + cost * d) * q - cost * d <= best:
            return
        depth = len(path)
        if depth == k:
            best = points * w.weight[d] * q - cost * d
            return
        want = s[depth - 1]
        r, c = here
        around = ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))  # N, E, S, W (board.neighbours)
        for n in around:
            if colours.get(n) == want and n not in path:
                path.append(n)
                templates(n, s, d, q)
                path.pop()
        if d >= budget:
            return
        fill = q * avail[want]
        for n in around:
            if n in taken or n in path or (window and not in_window(n)):
                continue
            path.append(n)
            templates(n, s, d + 1, fill)
            path.pop()

    templates(start, sequence, 0, 1.0)
    if sequence[::-1] != sequence:
        templates(start, sequence[::-1], 0, 1.0)
    return best


def colour_odds(bag: list[str | None], left: list[str | None]) -> dict[str, float]:
    """The chance that each colour is in the next pool, given the colours of the tiles in the
    bag and of those left in the pool now: the tiles left, less about one to the round track,
    plus the refill drawn from the bag's colour mix."""
    n = len(bag)
    draws = max(0, 6 - len(left)) + 1  # the refill, plus about one for the round track's removal
    out = {}
    for c in COLOURS:
        share = bag.count(c) / n if n else 0.0
        fresh = 1.0 - (1.0 - share) ** draws
        if c in left:
            keep = 1.0 - share if n else 1.0  # the round track takes this colour away
            out[c] = keep + (1.0 - keep) * fresh
        else:
            out[c] = fresh
    return out


def shared_sides(cells: Collection[Cell]) -> int:
    """How many sides two tiles of the forest on ``cells`` share (each pair counted once)."""
    count = 0
    for r, c in cells:
        count += ((r + 1, c) in cells) + ((r, c + 1) in cells)
    return count
