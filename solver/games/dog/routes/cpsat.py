"""Par as a time-expanded CP-SAT model of the dog rules (docs/rules/dog.md; docs/analysis.md §4).

:func:`par_cpsat_model` answers the same question as :func:`dog.routes.graph.par_graph` (the
fewest turns to the human when the player also chooses every step roll and every shout roll) but
writes the *rules* as constraints instead of enumerating the reference engine's state graph.
The engine is used only afterwards, to turn the solution into a route and check it (every returned
route is replayed through :mod:`solver.games.dog.rules`; a route the engine rejects raises).

What is modelled (turn ``t`` = 1..N, the state at the start of turn ``t``; step slots s = 1..3)
---------------------------------------------------------------------------------------------
- **State**: position one-hot ``P[t][c]`` over non-tree cells; ``last_left`` as a direction from
  the dog (N/E/S/W or none: it is always a neighbour); stamina 0..6; curiosity 0..C_max
  (C_max = 2 + every distraction's gain); ``skip_next``; ``stick``; ``M[t][c]`` marked;
  ``R[t][y]`` resolved per distraction. A won game parks the dog on the human's cell
  (``P[t][human]`` = the game is over; the turn then does nothing).
- **Turn kinds** (exactly one): over, skipped (``skip_next`` cleared), rest (stamina 0 → 3),
  walled-in (rolled, no complete move even with the valve: the dog stays), move.
- **Roll**: the budget one-hot 1..3 (the player's choice in par; with the stick only 1..2, which is
  ``max(1, reading − 1)``).
- **Valve and walled-in**: for every start cell, budget and ``last_left`` direction the complete
  moves (≤ 3 steps, ≤ 36 paths without reversal) are enumerated once in Python; each becomes a
  condition on the resolved flags (distractions passed over must be resolved, one that ends the
  move early must be unresolved; trees, edges and the human are static). ``valve ⇔ no complete
  move without reversal`` and ``walled ⇔ no complete move at all`` are clauses over
  (position, budget, last_left) and these conditions.
- **Steps**: cell one-hot ``X[t][s][c]``, taken flag ``A[t][s]``, direction ``G[t][s][d]``;
  steps are contiguous, exactly ``budget`` of them unless the move ends early (the human, an
  unresolved distraction entered, an investigated offer); no reversal (first step against
  ``last_left``, later steps against the previous step) unless the valve is open; after every step
  with budget left a complete move must remain possible from the new cell (same path conditions,
  with or without the valve).
- **Entering a cell**: the human wins at once (nothing else applies); crossing a marked cell (marked
  before the turn or entered earlier in the turn) loses 1 curiosity; terrain −1/−2 stamina; each
  arrow over the cell: number 1 always −3, number ≥ 2 a free choice hit/shrug (par); an unresolved
  distraction is investigated (the move ends); otherwise offers.
- **Offers**: every unresolved distraction adjacent to the cell a step entered and not offered
  earlier in this move, in row-major order (= N, W, E, S around the dog) until one is investigated;
  ignore (−1 curiosity) or investigate (a hop: marked-cell crossing charged, the move ends);
  ignoring is allowed only when curiosity after every earlier loss of the turn is ≥ 1 or with the
  stick. Losses are counted in order (crossings and ignores), with the floor at 0.
- **Investigating**: +1 curiosity (another dog +2), resolved; squirrel: forced run of ≤ 3 cells
  toward a nearest edge (a choice on ties), −1 stamina, skip; scent: run of ≤ 2 in its direction;
  another dog: skip; stick: carried from the next turn on. Runs are precomputed per (distraction,
  direction): they stop before trees and the edge, mark their cells, win on the human, and set
  ``last_left`` (a run of 0 cells leaves ``last_left`` at the cell the dog came from).
- **End of turn**: stamina ``max(0, s − costs)`` (rest: 3), curiosity ``max(0, c − losses) + gain``
  (losses 0 with the stick: the order of gains is irrelevant because every gain comes at the very
  end of the move), marks, resolved flags, skip and stick updated.
- **Objective**: the win turn, ``1 + #{t : P[t + 1][human] = 0}``, with ``P[N + 1][human] = 1``.
  No win within N turns → the model is infeasible (``turns=None``, status ``"infeasible"``).

Pruning (sound, only removes impossible values): cells the dog cannot reach by turn ``t`` (an
over-approximation of one turn: 3 steps, a hop and a forced run) and cells from which the human is
more turns away than are left are not given variables.

Route conditions (:func:`route_cpsat_model`, the default method of
:func:`dog.routes.query.solve_route`): a forbidden cell (``avoid``, the arrow cells but
the human's for ``never_under_arrow``) is never the cell of a taken step, a hop or a forced run;
a cell to ``visit`` is marked by the end (marks are exactly the entered cells and the start);
``win_by`` is the horizon; a ``stamina_floor`` bounds the stamina after every action that leaves
the game going, as :func:`dog.routes.query.check_route` replays it. Within a move stamina
only falls, so it is enough to bound the value before the move's last action (``st`` less the
earlier steps' costs; in the last step, everything but the last shout and the number-1 arrows
after it, or the whole step when offers or a squirrel's edge choice follow) and the start of
every turn of a game still going, unless it is 0: the rest then happens within the same action,
and its 3 is the next turn's start.

The public names :func:`par` and :func:`hindsight` (``dog.routes.par``) are this model.

Hindsight: :func:`hindsight_cpsat_model` is the same model with the chance fixed: a counter of
roll turns (walled-in turns included) picks ``rolls[k]`` by an element constraint (read through
the stick), and a running count of shout rolls (arrows of number ≥ 2 over each entered cell, in
step and header order) picks ``shouts[j]`` for each arrow; a route needing an entry past the end
of either sequence is infeasible, as in :func:`dog.routes.graph.hindsight_graph`. The arrows
over the human's cell are no shout rolls (entering it wins first).

Solving: by default horizon after horizon (*deepening*): ``k`` from a static lower bound on the
turns to the human up to ``forest.turns``, each model asking "a win by turn k?"; the first feasible
``k`` is the answer, proven by the infeasible ``k - 1``. ``deepening=False`` builds one model over
all turns and minimises the win turn (the literal formulation; much slower on 20-turn forests).

>>> from solver.games.dog.forest import Forest, Terrain
>>> grid = [[Terrain.OPEN] * 5 for _ in range(2)]
>>> forest = Forest(width=5, height=2, cells=grid, start=(1, 0), human=(0, 4), turns=3)
>>> answer = par_cpsat_model(forest)
>>> answer.turns, answer.method, answer.status
(2, 'cp-sat rules model', 'optimal')
>>> par_cpsat_model(forest.replace(turns=1)).turns is None
True
>>> hindsight_cpsat_model(forest.replace(turns=5), [1, 1, 1, 1, 1], []).turns
5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from ortools.sat.python import cp_model

from solver.exact import deterministic_solver
from solver.games.dog.forest import DELTAS, DIRECTIONS, Cell, Forest, Terrain
from solver.games.dog.routes.graph import RouteAnswer, replay
from solver.games.dog.rules import (
    IGNORE,
    INVESTIGATE,
    MAX_STAMINA,
    OFFER_ORDER,
    REST_STAMINA,
    ROLL_1,
    RUN_N,
    SCENT_RUN,
    SHOUT_COST,
    SHOUT_HIT,
    SHOUT_SHRUG,
    SQUIRREL_RUN,
    START_CURIOSITY,
    START_STAMINA,
    STEP_N,
    DogGame,
    Phase,
)

__all__ = [
    "METHOD",
    "Conditions",
    "hindsight",
    "hindsight_cpsat_model",
    "par",
    "par_cpsat_model",
    "route_cpsat_model",
]

METHOD = "cp-sat rules model"
NONE_DIR = 4  # last_left "none" (index after the four directions N, E, S, W)
OPP = {0: 2, 1: 3, 2: 0, 3: 1}

Cond = frozenset  # of (distraction cell, must_be_resolved)
Formula = frozenset | bool  # True, False, or a frozenset of Conds (a disjunction)


# -- static geometry ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _RunOption:
    direction: int  # index into DIRECTIONS, -1 for no run (another dog, stick)
    cells: tuple[Cell, ...]  # the cells the run enters (the human last if it reaches it)
    end: Cell


@dataclass(frozen=True)
class Conditions:
    """Route conditions on top of the rules (a :class:`~solver.games.dog.routes.query.RouteQuery`).

    ``visit``: cells the route must enter (the start and the human's cell always count);
    ``forbidden``: cells no step, hop or forced run may enter (the start included: it may not be
    re-entered); ``stamina_floor``: stamina after every action that leaves the game going.
    """

    visit: frozenset[Cell] = frozenset()
    forbidden: frozenset[Cell] = frozenset()
    stamina_floor: int = 0


class _Geometry:
    def __init__(
        self,
        forest: Forest,
        rolls: Sequence[int] | None = None,
        shouts: Sequence[bool] | None = None,
    ) -> None:
        self.forest = forest
        self.rolls = None if rolls is None else list(rolls)
        self.shouts = None if shouts is None else [bool(x) for x in shouts]
        self.human = forest.human
        self.cells: list[Cell] = [
            (r, c)
            for r in range(forest.height)
            for c in range(forest.width)
            if forest.terrain((r, c)) != Terrain.TREE
        ]
        self.nbr: dict[Cell, list[Cell | None]] = {}
        for cell in self.cells:
            row = []
            for d in DIRECTIONS:
                dr, dc = DELTAS[d]
                n = (cell[0] + dr, cell[1] + dc)
                ok = forest.inside(n) and forest.terrain(n) != Terrain.TREE
                row.append(n if ok else None)
            self.nbr[cell] = row
        self.distractions: list[Cell] = forest.distractions()  # row-major
        self.dset = set(self.distractions)
        self.runs: dict[Cell, list[_RunOption]] = {
            y: self._run_options(y) for y in self.distractions
        }
        self._nr: dict[tuple[Cell, int, int], Formula] = {}
        self._v: dict[tuple[Cell, int], Formula] = {}

    def _run_options(self, y: Cell) -> list[_RunOption]:
        terrain = self.forest.terrain(y)
        if terrain == Terrain.SQUIRREL:
            f = self.forest
            dist = [y[0], f.width - 1 - y[1], f.height - 1 - y[0], y[1]]
            near = min(dist)
            return [self._run(y, d, SQUIRREL_RUN) for d in range(4) if dist[d] == near]
        scent = terrain.scent_direction
        if scent is not None:
            return [self._run(y, DIRECTIONS.index(scent), SCENT_RUN)]
        return [_RunOption(-1, (), y)]

    def _run(self, y: Cell, d: int, length: int) -> _RunOption:
        cells: list[Cell] = []
        cur = y
        for _ in range(length):
            n = self.nbr[cur][d]
            if n is None:
                break
            cells.append(n)
            cur = n
            if n == self.human:
                break
        return _RunOption(d, tuple(cells), cur)

    # complete moves as conditions on resolved flags
    def _formula(self, start: Cell, budget: int, left: int, valve: bool) -> Formula:
        conds: set[Cond] = set()

        def go(cell: Cell, prev: int, k: int, req: frozenset) -> None:
            for d in range(4):
                if not valve:
                    if k == 0 and d == left:
                        continue
                    if k > 0 and d == OPP[prev]:
                        continue
                n = self.nbr[cell][d]
                if n is None:
                    continue
                if n == self.human or k + 1 == budget:
                    conds.add(req)  # ends here whatever n holds (an unresolved one ends it too)
                    continue
                if n in self.dset:
                    if (n, True) not in req:
                        conds.add(req | {(n, False)})  # unresolved: ends the move early
                    if (n, False) not in req:
                        go(n, d, k + 1, req | {(n, True)})
                else:
                    go(n, d, k + 1, req)

        go(start, -1, 0, frozenset())
        if frozenset() in conds:
            return True
        if not conds:
            return False
        minimal = [c for c in conds if not any(o < c for o in conds)]
        return frozenset(minimal)

    def nr(self, cell: Cell, budget: int, left: int) -> Formula:
        key = (cell, budget, left)
        if key not in self._nr:
            self._nr[key] = self._formula(cell, budget, left, valve=False)
        return self._nr[key]

    def v(self, cell: Cell, budget: int) -> Formula:
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
                cur.update(n for n in self.nbr[c] if n is not None)
            layers.append(cur)
        end = set(layers[3])
        touched = set(layers[3])
        for c in layers[3]:
            touched.update(n for n in self.nbr[c] if n is not None and n in self.dset)
        for y in touched:
            if y in self.dset:
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


# -- the model ------------------------------------------------------------------------------------
Lit: TypeAlias = "cp_model.IntVar | bool"
Count: TypeAlias = "cp_model.IntVar | int"  # a running count: 0, then a model variable


def _neg(lit: Lit) -> Lit:
    return (not lit) if isinstance(lit, bool) else ~lit


class _Model:
    def __init__(
        self,
        forest: Forest,
        rolls: Sequence[int] | None = None,
        shouts: Sequence[bool] | None = None,
        conditions: Conditions | None = None,
    ) -> None:
        self.forest = forest
        self.rolls = None if rolls is None else list(rolls)
        self.shouts = None if shouts is None else [bool(x) for x in shouts]
        self.conditions = conditions or Conditions()
        self.g = _Geometry(forest)
        self.m = cp_model.CpModel()
        self._cond_cache: dict[tuple[int, Cond], Lit] = {}
        self._formula_cache: dict[tuple[int, Formula], Lit] = {}
        self.build()

    # small helpers
    def new_bool(self, name: str) -> cp_model.IntVar:
        return self.m.new_bool_var(name)

    def clause(self, lits: list[Lit]) -> None:
        out = []
        for lit in lits:
            if lit is True:
                return
            if lit is False:
                continue
            out.append(lit)
        if not out:
            self.m.add_bool_or([False])  # an empty clause: the model is infeasible
            return
        self.m.add_bool_or(out)

    def and_of(self, lits: list[Lit], name: str) -> Lit:
        lits = [x for x in lits if x is not True]
        if any(x is False for x in lits):
            return False
        if not lits:
            return True
        if len(lits) == 1:
            return lits[0]
        v = self.new_bool(name)
        for x in lits:
            self.m.add_implication(v, x)
        self.clause([v] + [_neg(x) for x in lits])
        return v

    def or_of(self, lits: list[Lit], name: str) -> Lit:
        lits = [x for x in lits if x is not False]
        if any(x is True for x in lits):
            return True
        if not lits:
            return False
        if len(lits) == 1:
            return lits[0]
        v = self.new_bool(name)
        for x in lits:
            self.clause([_neg(x), v])
        self.clause([_neg(v), *lits])
        return v

    def res(self, t: int, y: Cell, resolved: bool) -> Lit:
        lit = self.R[t][y]
        return lit if resolved else _neg(lit)

    def cond_lit(self, t: int, cond: Cond) -> Lit:
        key = (t, cond)
        if key not in self._cond_cache:
            lits = [self.res(t, y, r) for y, r in sorted(cond)]
            self._cond_cache[key] = self.and_of(lits, f"cond{t}")
        return self._cond_cache[key]

    def formula_lit(self, t: int, formula: Formula) -> Lit:
        if isinstance(formula, bool):
            return formula
        key = (t, formula)
        if key not in self._formula_cache:
            lits = [self.cond_lit(t, c) for c in sorted(formula, key=sorted)]
            self._formula_cache[key] = self.or_of(lits, f"form{t}")
        return self._formula_cache[key]

    def _fixed_roll(self, t: int, roll: Lit, stick: Lit, B: list[Lit], count: Count) -> Count:
        """Hindsight: the budget of a roll turn is ``rolls[count]`` read through the stick."""
        m, rolls = self.m, self.rolls
        assert rolls is not None
        if not rolls:
            self.clause([_neg(roll)])
            return count
        index = m.new_int_var(0, len(rolls), f"rollix{t}")
        m.add_min_equality(index, [count, len(rolls)])
        self._enforce(m.add(index <= len(rolls) - 1), [roll])
        reading = m.new_int_var(1, 3, f"reading{t}")
        m.add_element(index, [*rolls, 1], reading)
        with_stick = m.new_int_var(1, 3, f"stickbudget{t}")
        m.add_element(reading, [1, 1, 1, 2], with_stick)
        budget = B[1] + 2 * B[2] + 3 * B[3]
        self._enforce(m.add(budget == reading), [roll, _neg(stick)])
        self._enforce(m.add(budget == with_stick), [roll, stick])
        nxt = m.new_int_var(0, self.forest.turns, f"rolls{t}")
        m.add(nxt == count + roll)
        return nxt

    def _fixed_shouts(
        self,
        t: int,
        s: int,
        Xs: dict[Cell, Lit],
        a: Lit,
        hs: dict[int, Lit],
        arrows: dict[Cell, tuple[tuple[int, int], ...]],
        count: Count,
    ) -> cp_model.IntVar:
        """Hindsight: each arrow of number >= 2 over the entered cell reads the next shout."""
        m, shouts = self.m, self.shouts
        assert shouts is not None
        ranks: dict[Cell, dict[int, int]] = {}
        for c in Xs:
            # entering the human's cell wins before any shout: its arrows read nothing
            chance = [i for i, k in arrows[c] if k >= 2] if c != self.g.human else []
            ranks[c] = {i: r for r, i in enumerate(chance)}
        for i, h in hs.items():
            cells = [c for c in Xs if i in ranks[c]]
            covered = self.and_of([a, self.or_of([Xs[c] for c in cells], "cov")], "covA")
            if not shouts:
                self.clause([_neg(covered)])
                continue
            index = m.new_int_var(0, len(shouts), f"shoutix{t}_{s}_{i}")
            rank = sum(ranks[c][i] * Xs[c] for c in cells if ranks[c][i])
            self._enforce(m.add(index == count + rank), [covered])
            self._enforce(m.add(index <= len(shouts) - 1), [covered])
            value = m.new_bool_var(f"shout{t}_{s}_{i}")
            m.add_element(index, [int(x) for x in shouts] + [0], value)
            self.clause([_neg(covered), _neg(value), h])
            self.clause([_neg(h), value])
        nodes = m.new_int_var(0, 3 * max(1, len(self.forest.shouters)), f"nodes{t}_{s}")
        self._enforce(
            m.add(nodes == sum(len(ranks[c]) * x for c, x in Xs.items() if ranks[c])), [a]
        )
        self._enforce(m.add(nodes == 0), [_neg(a)])
        nxt = m.new_int_var(0, 9 * self.forest.turns * max(1, len(self.forest.shouters)), "shc")
        m.add(nxt == count + nodes)
        return nxt

    def _enforce(self, ct: cp_model.Constraint, lits: list[Lit]) -> None:
        if any(x is False for x in lits):  # never enforced (the constraint is already added)
            never = self.m.new_bool_var("never")
            self.m.add(never == 0)
            ct.only_enforce_if(never)
            return
        real = [x for x in lits if x is not True]
        if real:
            ct.only_enforce_if(real)

    # route conditions (RouteQuery, :mod:`dog.routes.query`)
    def _forbid(self, X, A, inv, RN) -> None:
        """No step, hop or forced-run cell of this turn is a forbidden cell."""
        forbidden = self.conditions.forbidden
        for s in (1, 2, 3):
            for c in forbidden.intersection(X[s]):
                self.clause([_neg(A[s]), _neg(X[s][c])])  # X without A is the previous cell
            for y, lit in inv[s].items():
                if y in forbidden:
                    self.clause([_neg(lit)])
        for y, lits in RN.items():
            for j, opt in enumerate(self.g.runs[y]):
                if forbidden.intersection(opt.cells):
                    self.clause([_neg(lits[j])])

    def _at_least(self, expr: cp_model.LinearExprT, floor: int, lits: list[Lit]) -> None:
        """``expr >= floor`` whenever every literal of ``lits`` holds."""
        if isinstance(expr, int):
            if expr < floor:
                self.clause([_neg(x) for x in lits])
            return
        self._enforce(self.m.add(expr >= floor), lits)

    def _stamina_floor(self, t, st, over, z, X, A, of, es, hits, sc, arrows) -> None:
        """Stamina ≥ the floor after every action that leaves the game going.

        Within a move stamina only falls, so the values seen after its actions are checked by the
        value *before its last action* (the last one itself may win, and a move that ends on 0
        stamina is followed, in the same action, by the rest: 3 is what is seen). Before step
        ``s``: ``st`` less the whole cost of the earlier steps. In the last step: when offers or a
        squirrel's edge choice follow, the whole cost of the step (ignoring and investigating cost
        nothing; the squirrel's −1 comes with the last action); when the last action is a shout,
        everything but that shout and the number-1 arrows after it. Across turns, ``st[t]`` of
        a game still going is seen unless it is 0 (then the rest's 3 is ``st[t + 1]``).
        """
        floor, g, f = self.conditions.stamina_floor, self.g, self.forest
        if t > 1:
            self._at_least(st, floor, [_neg(over), _neg(z)])
        base = st
        for s in (1, 2, 3):
            self._at_least(base, floor, [A[s]])
            for c, xc in X[s].items():
                chance = [n for n, (_, k) in enumerate(arrows[c]) if k >= 2]
                if c == g.human or not chance:
                    continue
                last_arrow = arrows[c][chance[-1]][0]
                ones = sum(1 for _, k in arrows[c][: chance[-1]] if k == 1)
                terrain = {Terrain.UNDERGROWTH: 1, Terrain.PUDDLE: 2}.get(f.terrain(c), 0)
                before = terrain + SHOUT_COST * ones
                others = [h for i, h in hits[s].items() if i != last_arrow]
                self._at_least(base - before - SHOUT_COST * sum(others), floor, [A[s], xc])
            ties = [v for y, v in es[s].items() if len(g.runs[y]) > 1]
            more = self.or_of([*of[s].values(), *ties], f"after{t}_{s}")
            base = base - sc[s - 1]
            self._at_least(base, floor, [more])

    # the model
    def build(self) -> None:
        f, g, m = self.forest, self.g, self.m
        N = f.turns
        human = g.human
        D = g.distractions
        gain = {y: 2 if f.terrain(y) == Terrain.DOG else 1 for y in D}
        cmax = START_CURIOSITY + sum(gain.values())
        dist = g.turns_to_human()

        # domains
        reach: list[set[Cell]] = [set(), {f.start}]
        layers_at: list[list[set[Cell]]] = [[]]
        for t in range(1, N + 1):
            layers, ends = g.one_turn(reach[t])
            layers_at.append(layers)
            reach.append(ends)

        def alive(t: int, c: Cell) -> bool:
            return c in dist and t + dist[c] - 1 <= N

        def dom(t: int, s: int) -> list[Cell]:
            base = reach[t] if s == 0 else layers_at[t][s]
            return [c for c in g.cells if c in base and (alive(t, c) or c == human)]

        self.P: list[dict[Cell, Lit]] = [{}]
        self.L: list[list[Lit]] = [[]]
        self.st: list = [None]
        self.cu: list = [None]
        self.stick: list[Lit] = [False]
        self.skip: list[Lit] = [False]
        self.M: list[dict[Cell, Lit]] = [{}]
        self.R: list[dict[Cell, Lit]] = [{}]
        for t in range(1, N + 2):
            if t == 1:
                self.P.append({f.start: True})
                self.L.append([False, False, False, False, True])
                self.st.append(START_STAMINA)
                self.cu.append(START_CURIOSITY)
                self.stick.append(False)
                self.skip.append(False)
                self.M.append({c: c == f.start for c in g.cells if c != human})
                self.R.append({y: False for y in D})
                continue
            cells = dom(t, 0) if t <= N else [c for c in g.cells if c in reach[t] and c == human]
            P = {c: self.new_bool(f"P{t}_{c}") for c in cells}
            self.P.append(P)
            if not P:
                m.add_bool_or([False])
            m.add_exactly_one(P.values())
            self.L.append([self.new_bool(f"L{t}_{d}") for d in range(5)])
            m.add_exactly_one(self.L[t])
            self.st.append(m.new_int_var(0, MAX_STAMINA, f"st{t}"))
            self.cu.append(m.new_int_var(0, cmax, f"cu{t}"))
            self.stick.append(self.new_bool(f"stick{t}"))
            self.skip.append(self.new_bool(f"skip{t}"))
            self.M.append({c: self.new_bool(f"M{t}_{c}") for c in g.cells if c != human})
            self.R.append({y: self.new_bool(f"R{t}_{y}") for y in D})
        if human not in self.P[N + 1]:
            m.add_bool_or([False])
            self.P[N + 1][human] = False
        self.clause([self.P[N + 1][human]])

        self.B: list[list[Lit]] = [[]]
        self.X: list[list[dict[Cell, Lit]]] = [[]]
        self.A: list[list[Lit]] = [[]]
        self.G: list[list[list[Lit]]] = [[]]
        self.inv: list[list[dict[Cell, Lit]]] = [[]]
        self.hit: list[list[dict[int, Lit]]] = [[]]
        self.RN: list[dict[Cell, list[Lit]]] = [{}]
        arrows = {c: f.arrows_at(c) for c in g.cells}
        terr_cost = {
            c: {Terrain.UNDERGROWTH: 1, Terrain.PUDDLE: 2}.get(f.terrain(c), 0)
            + SHOUT_COST * sum(1 for _, k in arrows[c] if k == 1)
            for c in g.cells
        }

        roll_count: Count = 0
        shout_count: Count = 0
        for t in range(1, N + 1):
            P, L, R, M = self.P[t], self.L[t], self.R[t], self.M[t]
            st, cu, stick, skip = self.st[t], self.cu[t], self.stick[t], self.skip[t]
            P1, L1 = self.P[t + 1], self.L[t + 1]
            over = P.get(human, False)
            # turn kinds
            if isinstance(st, int):
                z: Lit = st == 0
            else:
                z = self.new_bool(f"z{t}")
                m.add(st == 0).only_enforce_if(z)
                m.add(st >= 1).only_enforce_if(~z)
            skip_t = self.and_of([_neg(over), skip], f"skipT{t}")
            rest = self.and_of([_neg(over), _neg(skip), z], f"rest{t}")
            roll = self.and_of([_neg(over), _neg(skip), _neg(z)], f"roll{t}")
            walled, move, valve = (
                self.new_bool(f"walled{t}"),
                self.new_bool(f"move{t}"),
                self.new_bool(f"valve{t}"),
            )
            m.add(walled + move == roll)
            self.clause([_neg(valve), roll])
            B = [False] + [self.new_bool(f"B{t}_{b}") for b in (1, 2, 3)]
            self.B.append(B)
            m.add(sum(B[1:]) == roll)
            self.clause([_neg(B[3]), _neg(stick)])
            del skip_t
            if self.rolls is not None:  # hindsight: the k-th roll turn reads rolls[k]
                roll_count = self._fixed_roll(t, roll, stick, B, roll_count)

            # valve and walled-in
            for c in P:
                if c == human:
                    continue
                for b in (1, 2, 3):
                    nrs = [g.nr(c, b, left) for left in range(5)]
                    lefts = [NONE_DIR] if all(x == nrs[0] for x in nrs) else range(5)
                    for left in lefts:
                        fl = self.formula_lit(t, nrs[left])
                        guard = [_neg(P[c]), _neg(B[b])]
                        if len(lefts) > 1:
                            guard.append(_neg(L[left]))
                        self.clause([*guard, _neg(valve), _neg(fl)])
                        self.clause([*guard, valve, fl])
                    vl = self.formula_lit(t, g.v(c, b))
                    self.clause([_neg(P[c]), _neg(B[b]), _neg(walled), _neg(vl)])
                    self.clause([_neg(P[c]), _neg(B[b]), walled, vl])

            # steps
            X: list[dict[Cell, Lit]] = [P]
            A: list[Lit] = [True]
            G: list[list[Lit]] = [[]]
            for s in (1, 2, 3):
                Xs = {c: self.new_bool(f"X{t}_{s}_{c}") for c in dom(t, s)}
                m.add_exactly_one(Xs.values())
                a = move if s == 1 else self.new_bool(f"A{t}_{s}")
                Gs = [self.new_bool(f"G{t}_{s}_{d}") for d in range(4)]
                m.add(sum(Gs) == a)
                for c, xc in X[s - 1].items():
                    for d in range(4):
                        n = g.nbr[c][d]
                        self.clause([_neg(xc), _neg(Gs[d]), Xs.get(n, False) if n else False])
                    self.clause([_neg(xc), a, Xs.get(c, False)])
                if s > 1:
                    self.clause([_neg(a), A[s - 1]])
                X.append(Xs)
                A.append(a)
                G.append(Gs)
            self.X.append(X)
            self.A.append(A)
            self.G.append(G)
            self.clause([_neg(A[2]), _neg(B[1])])
            self.clause([_neg(A[3]), B[3]])
            # no reversal
            for d in range(4):
                self.clause([_neg(G[1][d]), _neg(L[d]), valve])
                for s in (1, 2):
                    self.clause([_neg(G[s + 1][d]), _neg(G[s][OPP[d]]), valve])
            # every step keeps a complete move possible
            for s in (1, 2):
                for c, xc in X[s].items():
                    if c == human:
                        continue
                    end = self.res(t, c, False) if c in g.dset else False
                    for b in range(s + 1, 4):
                        r = b - s
                        vf = self.formula_lit(t, g.v(c, r))
                        self.clause([_neg(A[s]), _neg(xc), _neg(B[b]), _neg(valve), end, vf])
                        for d in range(4):
                            nf = self.formula_lit(t, g.nr(c, r, OPP[d]))
                            self.clause([_neg(xc), _neg(G[s][d]), _neg(B[b]), valve, end, nf])

            # entering distractions, offers, hops
            es: list[dict[Cell, Lit]] = [{}]
            ED: list[Lit] = [False]
            proc: list[Lit] = [False]
            of: list[dict[Cell, Lit]] = [{}]
            inv: list[dict[Cell, Lit]] = [{}]
            ign: list[dict[Cell, Lit]] = [{}]
            cross: list[Lit] = [False]
            for s in (1, 2, 3):
                Xs = X[s]
                es.append({})
                for y in D:
                    if y in Xs:
                        es[s][y] = self.and_of([A[s], Xs[y], _neg(R[y])], f"es{t}_{s}")
                ed_list = [v for v in es[s].values() if v is not False]
                ED.append(self.or_of(ed_list, f"ED{t}_{s}"))
                proc.append(
                    self.and_of([A[s], _neg(ED[s]), _neg(Xs.get(human, False))], f"proc{t}_{s}")
                )
                of.append({})
                inv.append({})
                ign.append({})
                for y in D:
                    adj = [Xs[n] for n in g.nbr[y] if n is not None and n in Xs]
                    if not adj:
                        continue
                    aj = self.or_of(adj, f"aj{t}_{s}")  # at most one is true (one-hot)
                    before = [of[s2][y] for s2 in range(1, s) if y in of[s2]]
                    earlier_inv = [
                        inv[s][y2]
                        for y2 in inv[s]
                        if y2 < y and abs(y2[0] - y[0]) + abs(y2[1] - y[1]) <= 2
                    ]
                    conj = [proc[s], aj, _neg(R[y])] + [_neg(v) for v in before + earlier_inv]
                    o = self.and_of(conj, f"of{t}_{s}")
                    if o is False:
                        continue
                    of[s][y] = o
                    inv[s][y] = self.new_bool(f"inv{t}_{s}_{y}")
                    ign[s][y] = self.new_bool(f"ign{t}_{s}_{y}")
                    m.add(inv[s][y] + ign[s][y] == o)
                # crossing the own trail
                cr = self.new_bool(f"cross{t}_{s}")
                self.clause([_neg(cr), A[s]])
                self.clause([_neg(cr), _neg(Xs.get(human, False))])
                for c, xc in Xs.items():
                    if c == human:
                        continue
                    earlier = [X[s2][c] for s2 in range(1, s) if c in X[s2]]
                    self.clause([_neg(A[s]), _neg(xc), _neg(M[c]), cr])
                    for e in earlier:
                        self.clause([_neg(A[s]), _neg(xc), _neg(e), cr])
                    self.clause([_neg(cr), _neg(xc), M[c], *earlier])
                cross.append(cr)
            self.inv.append(inv)
            anyinv = [sum(inv[s].values()) for s in range(4)]
            # the move goes on exactly while budget is left and nothing ended it
            for s in (1, 2):
                ended = [ED[s], X[s].get(human, False)]
                for e in ended:
                    self.clause([_neg(A[s + 1]), _neg(e)])
                if inv[s]:
                    m.add(anyinv[s] == 0).only_enforce_if(A[s + 1])
                for b in range(s + 1, 4):
                    lits = [_neg(A[s]), _neg(B[b]), A[s + 1], *ended, *inv[s].values()]
                    self.clause(lits)

            # forced investigation: ignoring needs curiosity left after the earlier losses
            for s in (1, 2, 3):
                for y, ig in ign[s].items():
                    losses = [cross[s2] for s2 in range(1, s + 1)]
                    losses += [v for s2 in range(1, s) for v in ign[s2].values()]
                    losses += [ign[s][y2] for y2 in ign[s] if y2 < y]
                    enf = ([ig] if not stick else None) if isinstance(stick, bool) else [ig, ~stick]
                    if enf is not None:
                        m.add(cu - sum(losses) >= 1).only_enforce_if(enf)

            # investigations
            H = {y: sum(inv[s][y] for s in (1, 2, 3) if y in inv[s]) for y in D}
            E = {y: sum(es[s][y] for s in (1, 2, 3) if y in es[s]) for y in D}
            RN: dict[Cell, list[Lit]] = {}
            ivs: dict[Cell, cp_model.LinearExpr | int] = {}
            for y in D:
                if isinstance(H[y], int) and isinstance(E[y], int):
                    continue
                ivs[y] = H[y] + E[y]
                RN[y] = [self.new_bool(f"RN{t}_{y}_{j}") for j in range(len(g.runs[y]))]
                m.add(sum(RN[y]) == ivs[y])
            self.RN.append(RN)
            m.add(sum(ivs.values()) <= 1)
            hopcross = []
            for y in D:
                if isinstance(H[y], int):
                    continue
                hy = self.new_bool(f"H{t}_{y}")
                m.add(hy == H[y])
                hopcross.append(self.and_of([hy, M[y]], f"hm{t}_{y}"))

            # shouts (par: the player picks each outcome with a number >= 2)
            hits: list[dict[int, Lit]] = [{}]
            sc = []
            maxcost = 1
            for s in (1, 2, 3):
                hs: dict[int, Lit] = {}
                cover: dict[int, list[Lit]] = {}
                for c, xc in X[s].items():
                    for i, k in arrows[c]:
                        if k >= 2 and c != human:  # the human's cell wins before any shout
                            cover.setdefault(i, []).append(xc)
                for i, lits in cover.items():
                    h = self.new_bool(f"hit{t}_{s}_{i}")
                    covered = self.and_of([A[s], self.or_of(lits, f"cov{t}_{s}")], f"covA{t}")
                    self.clause([_neg(h), covered])
                    hs[i] = h
                if self.shouts is not None:  # hindsight: the j-th shout node reads shouts[j]
                    shout_count = self._fixed_shouts(t, s, X[s], A[s], hs, arrows, shout_count)
                hits.append(hs)
                maxc = max([terr_cost[c] for c in X[s]] + [0]) + SHOUT_COST * len(hs)
                maxcost += maxc
                cost = m.new_int_var(0, maxc, f"sc{t}_{s}")
                expr = sum(terr_cost[c] * xc for c, xc in X[s].items() if terr_cost[c])
                expr = expr + SHOUT_COST * sum(hs.values())
                m.add(cost == expr).only_enforce_if(A[s])
                m.add(cost == 0).only_enforce_if(_neg(A[s]))
                sc.append(cost)
            self.hit.append(hits)
            if self.conditions.stamina_floor > 0:
                self._stamina_floor(t, st, over, z, X, A, of, es, hits, sc, arrows)
            squirrels = [ivs[y] for y in ivs if f.terrain(y) == Terrain.SQUIRREL]
            total = sum(sc) + sum(squirrels)
            diff = m.new_int_var(-maxcost, MAX_STAMINA, f"diff{t}")
            m.add(diff == st - total)
            floor = m.new_int_var(0, MAX_STAMINA, f"sfloor{t}")
            m.add_max_equality(floor, [0, diff])
            st1 = self.st[t + 1]
            m.add(st1 == floor).only_enforce_if(move)
            m.add(st1 == REST_STAMINA).only_enforce_if(rest)
            m.add(st1 == st).only_enforce_if([_neg(move), _neg(rest)])

            # curiosity
            losses_all = [cross[s] for s in (1, 2, 3)]
            losses_all += [v for s in (1, 2, 3) for v in ign[s].values()] + hopcross
            lns = m.new_int_var(0, 3 + 12 + 1, f"loss{t}")
            if isinstance(stick, bool) and stick:
                m.add(lns == 0)
            elif isinstance(stick, bool):
                m.add(lns == sum(losses_all))
            else:
                m.add(lns == sum(losses_all)).only_enforce_if(~stick)
                m.add(lns == 0).only_enforce_if(stick)
            cdiff = m.new_int_var(-16, cmax, f"cdiff{t}")
            m.add(cdiff == cu - lns)
            cfloor = m.new_int_var(0, cmax, f"cfloor{t}")
            m.add_max_equality(cfloor, [0, cdiff])
            m.add(self.cu[t + 1] == cfloor + sum(gain[y] * ivs[y] for y in ivs))

            # skip, stick, resolved
            skippers = [ivs[y] for y in ivs if f.terrain(y) in (Terrain.SQUIRREL, Terrain.DOG)]
            m.add(self.skip[t + 1] == sum(skippers))
            sticks = [ivs[y] for y in ivs if f.terrain(y) == Terrain.STICK]
            if isinstance(stick, bool):
                m.add(self.stick[t + 1] == int(stick) + sum(sticks))
            else:
                m.add(self.stick[t + 1] >= stick)
                m.add(self.stick[t + 1] == stick + sum(sticks)).only_enforce_if(~stick)
            for y in D:
                ry = R[y]
                iy = ivs.get(y, 0)
                if isinstance(ry, bool):
                    m.add(self.R[t + 1][y] == int(ry) + iy)
                else:
                    m.add(self.R[t + 1][y] >= ry)
                    m.add(self.R[t + 1][y] == ry + iy).only_enforce_if(~ry)

            # marks
            entered: dict[Cell, list[Lit]] = {c: [] for c in g.cells if c != human}
            for s in (1, 2, 3):
                for c, xc in X[s].items():
                    if c != human:
                        entered[c].append(xc)
            for y in D:
                for s in (1, 2, 3):
                    if y in inv[s]:
                        entered[y].append(inv[s][y])
                for j, opt in enumerate(g.runs[y]):
                    if y in RN:
                        for c in opt.cells:
                            if c != human:
                                entered[c].append(RN[y][j])
            for c, lits in entered.items():
                m1 = self.M[t + 1][c]
                self.clause([_neg(M[c]), m1])
                for x in lits:
                    self.clause([_neg(x), m1])
                self.clause([_neg(m1), M[c], *lits])

            # position after the turn
            no_inv = self.new_bool(f"noI{t}")
            m.add(sum(ivs.values()) == 0).only_enforce_if(no_inv)
            m.add(sum(ivs.values()) == 1).only_enforce_if(~no_inv)
            for c, xc in X[3].items():
                self.clause([_neg(no_inv), _neg(xc), P1.get(c, False)])
            for y, lits in RN.items():
                for j, opt in enumerate(g.runs[y]):
                    self.clause([_neg(lits[j]), P1.get(opt.end, False)])

            # last_left after the turn
            pos_run = [
                lits[j] for y, lits in RN.items() for j, o in enumerate(g.runs[y]) if o.cells
            ]
            any_hop = [inv[s][y] for s in (1, 2, 3) for y in inv[s]]
            for y, lits in RN.items():
                for j, opt in enumerate(g.runs[y]):
                    if opt.cells:
                        self.clause([_neg(lits[j]), L1[OPP[opt.direction]]])
                    else:
                        for s in (1, 2, 3):
                            if y not in inv[s]:
                                continue
                            for d in range(4):
                                fro = g.nbr[y][d]  # the dog hopped from fro, which lies d of y
                                if fro is not None and fro in X[s]:
                                    self.clause(
                                        [_neg(inv[s][y]), _neg(X[s][fro]), _neg(lits[j]), L1[d]]
                                    )
            for s in (1, 2, 3):
                last = [A[s]] + ([_neg(A[s + 1])] if s < 3 else [])
                for d in range(4):
                    self.clause(
                        [_neg(x) for x in last] + [_neg(G[s][d]), L1[OPP[d]]] + any_hop + pos_run
                    )
            for d in range(5):
                self.clause([move, _neg(L[d]), L1[d]])
            if self.conditions.forbidden:
                self._forbid(X, A, inv, RN)

        # route condition: every cell to visit is entered (marked) by the end
        for cell in sorted(self.conditions.visit - {f.start, human}):
            self.clause([self.M[N + 1].get(cell, False)])  # a tree is never entered

        # objective: the win turn
        not_won = [_neg(self.P[t + 1].get(human, False)) for t in range(1, N + 1)]
        m.minimize(1 + sum(not_won))


# -- solving and reading the route back -----------------------------------------------------------
def _value(solver: cp_model.CpSolver, lit: Lit) -> bool:
    return lit if isinstance(lit, bool) else bool(solver.boolean_value(lit))


def _actions(model: _Model, solver: cp_model.CpSolver) -> list[int]:
    """Drive the reference engine with the solution's decisions; raise if the engine disagrees."""
    forest, g = model.forest, model.g
    state = DogGame(forest).new_initial_state()
    actions: list[int] = []
    step = 0
    for _ in range(10_000):
        if state.is_terminal():
            return actions
        t = state.turn
        phase = state.phase
        if phase == Phase.ROLL:
            b = next(b for b in (1, 2, 3) if _value(solver, model.B[t][b]))
            action = ROLL_1 + b - 1
            step = 0
        elif phase == Phase.STEP:
            step += 1
            action = next(STEP_N + d for d in range(4) if _value(solver, model.G[t][step][d]))
        elif phase == Phase.SHOUT:
            hit = model.hit[t][step].get(state.pending, True)
            action = SHOUT_HIT if _value(solver, hit) else SHOUT_SHRUG
        elif phase == Phase.OFFER:
            dr, dc = DELTAS[OFFER_ORDER[state.pending]]
            cell = (state.pos[0] + dr, state.pos[1] + dc)
            lit = model.inv[t][step].get(cell, False)
            action = INVESTIGATE if _value(solver, lit) else IGNORE
        elif phase == Phase.SQUIRREL:
            lits = model.RN[t][state.pos]
            j = next(j for j, lit in enumerate(lits) if _value(solver, lit))
            action = RUN_N + g.runs[state.pos][j].direction
        else:  # pragma: no cover - chance/decision phases are all above
            raise AssertionError(f"unexpected phase {phase}")
        state.apply_action(action)  # raises IllegalActionError if model and engine disagree
        actions.append(action)
    raise AssertionError("the route does not end")  # pragma: no cover


def _by_turn(forest: Forest, actions: list[int]) -> tuple[tuple[str, ...], ...]:
    """The route's action labels grouped by turn (``RouteAnswer.route``)."""
    state = DogGame(forest).new_initial_state()
    labels: list[list[str]] = [[] for _ in range(forest.turns)]
    for action in actions:
        labels[state.turn - 1].append(state.action_to_string(action))
        state.apply_action(action)
    return tuple(tuple(x) for x in labels[: state.turn])


def _solve(forest: Forest, horizon: int, time_limit: float, rolls, shouts, conditions):
    model = _Model(forest.replace(turns=horizon), rolls, shouts, conditions)
    solver = deterministic_solver(time_limit)
    status = solver.solve(model.m)
    return model, solver, status, len(model.m.Proto().variables)


def par_cpsat_model(
    forest: Forest, *, time_limit: float = 10.0, deepening: bool = True
) -> RouteAnswer:
    """Par from a CP-SAT model of the rules (see the module docstring for what is modelled).

    With ``deepening`` (the default) the model is built for horizons ``k`` = a static lower bound
    .. ``forest.turns`` in turn and each asks "a win by turn k?"; the first feasible horizon is par
    (every smaller one was proven infeasible). Without it one model over all ``forest.turns``
    turns minimises the win turn. ``time_limit`` is CP-SAT's deterministic time limit, shared by
    all the solves; an unproven answer says so in ``status`` (``"feasible"`` or ``"unknown"``).
    ``states`` counts the variables of the last model solved.
    """
    return _run(forest, time_limit, deepening, None, None, Conditions(), forest.turns)


def hindsight_cpsat_model(
    forest: Forest,
    rolls: Sequence[int],
    shouts: Sequence[bool],
    *,
    time_limit: float = 10.0,
    deepening: bool = True,
) -> RouteAnswer:
    """The hindsight route from the rules model: rolls and shout outcomes are fixed.

    The sequences are consumed exactly as :mod:`dog.routes.graph` documents:
    ``rolls[k]`` (a reading 1..3, budget ``max(1, reading - 1)`` with the stick) is read by the
    k-th roll turn of the route (walled-in turns included, skipped and rest turns not);
    ``shouts[j]`` (True = hit) by the j-th shout roll (arrows of number ≥ 2, in step order and
    header order). A route that would need a roll or a shout past the end does not win.
    """
    rolls, shouts = _sequences(rolls, shouts)
    return _run(forest, time_limit, deepening, rolls, shouts, Conditions(), forest.turns)


def route_cpsat_model(
    forest: Forest,
    *,
    rolls: Sequence[int] | None = None,
    shouts: Sequence[bool] | None = None,
    conditions: Conditions = Conditions(),
    win_by: int | None = None,
    time_limit: float = 10.0,
    deepening: bool = True,
) -> RouteAnswer:
    """The soonest win under route ``conditions``, won by turn ``win_by`` (default: the limit).

    Par without ``rolls``/``shouts``, hindsight with them (give both or neither). The conditions
    restrict the player's choices, never the rules (a forced run into a forbidden cell rules out
    the route that triggers it); :func:`dog.routes.query.solve_route` is the front end.
    """
    if (rolls is None) != (shouts is None):
        raise ValueError("give both rolls and shouts (hindsight) or neither (par)")
    if rolls is not None and shouts is not None:
        rolls, shouts = _sequences(rolls, shouts)
    last = forest.turns if win_by is None else min(win_by, forest.turns)
    return _run(forest, time_limit, deepening, rolls, shouts, conditions, last)


def _sequences(rolls: Sequence[int], shouts: Sequence[bool]) -> tuple[list[int], list[bool]]:
    for value in rolls:
        if value not in (1, 2, 3):
            raise ValueError(f"a step roll reads 1, 2 or 3 steps, not {value!r}")
    return list(rolls), [bool(x) for x in shouts]


#: The public names (``dog.routes.par`` / ``dog.routes.hindsight``): the rules model.
par = par_cpsat_model
hindsight = hindsight_cpsat_model


def _run(forest, time_limit, deepening, rolls, shouts, conditions, last) -> RouteAnswer:
    """Solve horizon after horizon (or once) up to turn ``last``; read the route back, check it."""
    if last < 1:
        return RouteAnswer(None, None, None, METHOD, "infeasible", 0)
    if deepening:
        dist = _Geometry(forest).turns_to_human()
        if forest.start not in dist or dist[forest.start] > last:
            return RouteAnswer(None, None, None, METHOD, "infeasible", 0)  # a static proof
        horizons = list(range(max(1, dist[forest.start]), last + 1))
    else:
        horizons = [last]
    budget = time_limit
    size = 0
    for horizon in horizons:
        model, solver, status, size = _solve(forest, horizon, budget, rolls, shouts, conditions)
        budget -= solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            continue
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return RouteAnswer(None, None, None, METHOD, "unknown", size)
        actions = _actions(model, solver)
        turn = replay(forest, actions)
        if turn is None or turn != round(solver.objective_value):
            raise AssertionError(
                f"the rules model's route wins in turn {turn}, its objective says "
                f"{solver.objective_value}: the model and the engine disagree"
            )
        proven = deepening or status == cp_model.OPTIMAL  # deepening: horizon - 1 had no win
        name = "optimal" if proven else "feasible"
        return RouteAnswer(turn, _by_turn(forest, actions), tuple(actions), METHOD, name, size)
    return RouteAnswer(None, None, None, METHOD, "infeasible", size)
