"""The static geometry of a forest for the rules model of :mod:`dog.routes.cpsat`.

Everything the model can know before any constraint is written, computed once in Python: each
cell's neighbours, the forced runs of each distraction (per direction: a squirrel's ties are a
choice), the complete moves from a cell as conditions on which distractions are resolved (the
"Valve and walled-in" section of :mod:`dog.routes.cpsat`), and over-approximations of where the
dog can be after a turn ("Pruning").
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.games.dog.forest import DELTAS, DIRECTIONS, Cell, Forest, Terrain
from solver.games.dog.rules import SCENT_RUN, SQUIRREL_RUN

__all__ = ["NONE_DIR", "OPP", "Cond", "Formula", "Geometry", "RunOption"]

NONE_DIR = 4  # last_left "none" (index after the four directions N, E, S, W)
OPP = {0: 2, 1: 3, 2: 0, 3: 1}

Cond = frozenset  # of (distraction cell, must_be_resolved)
Formula = frozenset | bool  # True, False, or a frozenset of Conds (a disjunction)


@dataclass(frozen=True)
class RunOption:
    direction: int  # index into DIRECTIONS, -1 for no run (another dog, stick)
    cells: tuple[Cell, ...]  # the cells the run enters (the human last if it reaches it)
    end: Cell


def _disjunction(conds: set[Cond]) -> Formula:
    """Any of ``conds``, as a :data:`Formula`: ``True`` when one needs nothing, ``False`` when
    there is none, else the minimal ones (one holding another adds nothing to the "any")."""
    if frozenset() in conds:
        return True
    if not conds:
        return False
    return frozenset(c for c in conds if not any(o < c for o in conds))


class Geometry:
    """Neighbours, forced runs, complete moves and reachability of one forest (static)."""

    def __init__(self, forest: Forest) -> None:
        self.forest = forest
        self.human = forest.human
        self.cells: list[Cell] = [
            (r, c)
            for r in range(forest.height)
            for c in range(forest.width)
            if forest.terrain((r, c)) != Terrain.TREE
        ]
        self.neighbours: dict[Cell, list[Cell | None]] = {}
        for cell in self.cells:
            row = []
            for d in DIRECTIONS:
                dr, dc = DELTAS[d]
                n = (cell[0] + dr, cell[1] + dc)
                ok = forest.inside(n) and forest.terrain(n) != Terrain.TREE
                row.append(n if ok else None)
            self.neighbours[cell] = row
        self.distractions: list[Cell] = forest.distractions()  # row-major
        self.distraction_set = set(self.distractions)
        self.runs: dict[Cell, list[RunOption]] = {
            y: self._run_options(y) for y in self.distractions
        }
        self._nr: dict[tuple[Cell, int, int], Formula] = {}
        self._v: dict[tuple[Cell, int], Formula] = {}

    def _run_options(self, y: Cell) -> list[RunOption]:
        terrain = self.forest.terrain(y)
        if terrain == Terrain.SQUIRREL:
            f = self.forest
            dist = [y[0], f.width - 1 - y[1], f.height - 1 - y[0], y[1]]
            near = min(dist)
            return [self._run(y, d, SQUIRREL_RUN) for d in range(4) if dist[d] == near]
        scent = terrain.scent_direction
        if scent is not None:
            return [self._run(y, DIRECTIONS.index(scent), SCENT_RUN)]
        return [RunOption(-1, (), y)]

    def _run(self, y: Cell, d: int, length: int) -> RunOption:
        cells: list[Cell] = []
        cur = y
        for _ in range(length):
            n = self.neighbours[cur][d]
            if n is None:
                break
            cells.append(n)
            cur = n
            if n == self.human:
                break
        return RunOption(d, tuple(cells), cur)

    # complete moves as conditions on resolved flags
    def _formula(self, start: Cell, budget: int, left: int, valve: bool) -> Formula:
        conds: set[Cond] = set()

        def go(cell: Cell, prev: int, k: int, req: frozenset) -> None:
            for d in range(4):
                if not valve and d == (left if k == 0 else OPP[prev]):
                    continue  # no reversal: not back the way it came (the first step: not left)
                n = self.neighbours[cell][d]
                if n is None:
                    continue
                if n == self.human or k + 1 == budget:
                    conds.add(req)  # ends here whatever n holds (an unresolved one ends it too)
                    continue
                if n in self.distraction_set:
                    if (n, True) not in req:
                        conds.add(req | {(n, False)})  # unresolved: ends the move early
                    if (n, False) not in req:
                        go(n, d, k + 1, req | {(n, True)})
                else:
                    go(n, d, k + 1, req)

        go(start, -1, 0, frozenset())
        return _disjunction(conds)

    def moves_without_reversal(self, cell: Cell, budget: int, left: int) -> Formula:
        key = (cell, budget, left)
        if key not in self._nr:
            self._nr[key] = self._formula(cell, budget, left, valve=False)
        return self._nr[key]

    def moves_with_valve(self, cell: Cell, budget: int) -> Formula:
        key = (cell, budget)
        if key not in self._v:
            self._v[key] = self._formula(cell, budget, NONE_DIR, valve=True)
        return self._v[key]

    # reachability (over-approximations of one turn)
    def one_turn(self, cells: set[Cell]) -> tuple[list[set[Cell]], set[Cell]]:
        """Cells possible after 0..3 steps, and after the whole turn."""
        layers = [set(cells)]
        for _ in range(3):
            cur = set(layers[-1])
            for c in layers[-1]:
                cur.update(n for n in self.neighbours[c] if n is not None)
            layers.append(cur)
        end = set(layers[3])
        touched = set(layers[3])
        for c in layers[3]:
            touched.update(
                n for n in self.neighbours[c] if n is not None and n in self.distraction_set
            )
        for y in touched:
            if y in self.distraction_set:
                end.add(y)
                for opt in self.runs[y]:
                    end.update(opt.cells)
        return layers, end

    def turns_to_human(self) -> dict[Cell, int]:
        """A lower bound on the turns from each cell to the human (1 = this very turn)."""
        succ = {c: self.one_turn({c})[1] for c in self.cells}
        pred: dict[Cell, list[Cell]] = {c: [] for c in self.cells}
        for c, ends in succ.items():
            for e in ends:
                pred[e].append(c)
        dist = {self.human: 0}
        frontier = [self.human]
        while frontier:
            nxt = []
            for e in frontier:
                for c in pred[e]:
                    if c not in dist:
                        dist[c] = dist[e] + 1
                        nxt.append(c)
            frontier = nxt
        return dist
