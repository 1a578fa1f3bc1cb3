"""The rules of the dog game as one CP-SAT model, turn after turn (:mod:`dog.routes.cpsat`).

What is modelled is written section by section in :mod:`dog.routes.cpsat`'s docstring; each
section is one method of :class:`RulesModel`, reading and filling the variables of its turn
(:class:`_Turn`) between the state at the turn's start and at its end (:class:`_State`). The
route conditions of :mod:`dog.routes.query` (:class:`Conditions`) are added on top.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from ortools.sat.python import cp_model

from solver.games.dog.forest import Cell, Forest, Terrain
from solver.games.dog.routes.geometry import NONE_DIR, OPP, Cond, Formula, Geometry
from solver.games.dog.rules import (
    MAX_STAMINA,
    REST_STAMINA,
    SHOUT_COST,
    START_CURIOSITY,
    START_STAMINA,
)

__all__ = ["BuildPastDeadline", "Conditions", "Lit", "RulesModel"]


class BuildPastDeadline(Exception):
    """The wall-clock deadline a :class:`RulesModel` was given passed while it was built."""


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


Lit: TypeAlias = "cp_model.IntVar | bool"
Count: TypeAlias = "cp_model.IntVar | int"  # a running count: 0, then a model variable
STEPS = (1, 2, 3)  # the step slots of a move


_TERRAIN_COST = {Terrain.UNDERGROWTH: 1, Terrain.PUDDLE: 2}  # stamina to enter; others 0
_SKIPPERS = (Terrain.SQUIRREL, Terrain.DOG)  # investigating them skips the next turn


def _neg(lit: Lit) -> Lit:
    return (not lit) if isinstance(lit, bool) else ~lit


def _fold(lits: list[Lit], neutral: bool) -> tuple[list[Lit], Lit | None]:
    """The literals of an AND (``neutral`` True) or an OR (``neutral`` False) without the
    neutral constant, and its value where it needs no new variable: the absorbing constant if
    one is there, the neutral one for no literal, the literal itself for one; else ``None``."""
    kept = [x for x in lits if x is not neutral]
    if any(x is (not neutral) for x in kept):
        return kept, not neutral
    if len(kept) <= 1:
        return kept, kept[0] if kept else neutral
    return kept, None


def _sum_at(per_step: list[dict[Cell, Lit]], y: Cell) -> cp_model.LinearExprT:
    """The sum over the steps of ``per_step[s][y]`` where it exists (0 where it never does)."""
    return sum(per_step[s][y] for s in STEPS if y in per_step[s])


@dataclass
class _State:
    """The variables of the state at the start of a turn (module docstring, "State")."""

    position: dict[Cell, Lit]  # P[t][c], one-hot; the human's cell = the game is over
    last_left: list[Lit]  # L[t][d], one-hot over N, E, S, W and none (NONE_DIR)
    stamina: Count
    curiosity: Count
    stick: Lit
    skip: Lit  # skip_next
    marked: dict[Cell, Lit]  # M[t][c], every non-tree cell but the human's
    resolved: dict[Cell, Lit]  # R[t][y], per distraction


@dataclass
class _Turn:
    """The variables of turn ``t``, filled in section after section by :meth:`RulesModel.turn`.

    Per step ``s`` = 1..3 (index 0 is a placeholder, or the turn's start where it has a meaning):
    ``at[s][c]`` the dog is on ``c`` after step ``s`` (X), ``taken[s]`` the step is taken (A),
    ``heading[s][d]`` its direction (G); ``enters[s][y]`` it enters the unresolved distraction
    ``y``; ``offers_follow[s]`` it entered neither a distraction nor the human (offers come next);
    ``offered``/``investigate``/``ignore`` ``[s][y]`` the offers of ``y`` and their answers (an
    investigation from an offer is a hop); ``crossing[s]`` it crossed a marked cell; ``hit[s][i]``
    the shout of arrow ``i`` over the entered cell hits. Per distraction: ``investigated[y]`` (0/1,
    entered or hopped onto), ``run[y][j]`` the forced run taken is ``runs[y][j]``.
    """

    t: int
    start: _State
    end: _State  # the state at the start of turn t + 1
    over: Lit  # the game was won before this turn
    exhausted: Lit  # stamina 0 at the start
    rest: Lit
    roll: Lit
    walled: Lit
    move: Lit
    valve: Lit
    budget: list[Lit]  # B[t][b], b = 1..3: the steps the roll allows
    at: list[dict[Cell, Lit]] = field(default_factory=list)
    taken: list[Lit] = field(default_factory=list)
    heading: list[list[Lit]] = field(default_factory=list)
    enters: list[dict[Cell, Lit]] = field(default_factory=lambda: [{}])
    entered_distraction: list[Lit] = field(default_factory=lambda: [False])
    offers_follow: list[Lit] = field(default_factory=lambda: [False])
    offered: list[dict[Cell, Lit]] = field(default_factory=lambda: [{}])
    investigate: list[dict[Cell, Lit]] = field(default_factory=lambda: [{}])
    ignore: list[dict[Cell, Lit]] = field(default_factory=lambda: [{}])
    crossing: list[Lit] = field(default_factory=lambda: [False])
    investigated: dict[Cell, cp_model.LinearExprT] = field(default_factory=dict)
    run: dict[Cell, list[Lit]] = field(default_factory=dict)
    hop_crossings: list[Lit] = field(default_factory=list)
    hit: list[dict[int, Lit]] = field(default_factory=lambda: [{}])
    step_cost: list[cp_model.IntVar] = field(default_factory=list)  # steps 1..3 at 0..2


class RulesModel:
    """The rules of a forest as one CP-SAT model, section by section of the module docstring."""

    def __init__(
        self,
        forest: Forest,
        rolls: Sequence[int] | None = None,
        shouts: Sequence[bool] | None = None,
        conditions: Conditions | None = None,
        deadline: float | None = None,
    ) -> None:
        """``deadline`` (``time.monotonic()``): past it, :class:`BuildPastDeadline` is raised
        between two turns' rules (a large forest's horizon is built in Python, outside CP-SAT's
        limits; built whole, a route search ran past its ``--seconds``: docs/command-line.md)."""
        self.forest = forest
        self.deadline = deadline
        self.rolls = None if rolls is None else list(rolls)
        self.shouts = None if shouts is None else [bool(x) for x in shouts]
        self.conditions = conditions or Conditions()
        self.g = Geometry(forest)
        self.m = cp_model.CpModel()
        self._cond_cache: dict[tuple[int, Cond], Lit] = {}
        self._formula_cache: dict[tuple[int, Formula], Lit] = {}
        g = self.g
        self.gain = {y: 2 if forest.terrain(y) == Terrain.DOG else 1 for y in g.distractions}
        self.max_curiosity = START_CURIOSITY + sum(self.gain.values())
        self.arrows = {c: forest.arrows_at(c) for c in g.cells}
        self.entry_cost = {  # terrain and number-1 arrows: what entering a cell costs for sure
            c: _TERRAIN_COST.get(forest.terrain(c), 0)
            + SHOUT_COST * sum(1 for _, k in self.arrows[c] if k == 1)
            for c in g.cells
        }
        self.states: dict[int, _State] = {}  # t = 1 .. turns + 1
        self.turns: dict[int, _Turn] = {}  # t = 1 .. turns
        self._roll_count: Count = 0  # hindsight: roll turns so far
        self._shout_count: Count = 0  # hindsight: shout rolls so far
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
        """The AND of ``lits``: a new variable ``name`` equal to it, or, where that needs none,
        the constant or the one literal it folds to (:func:`_fold`)."""
        lits, folded = _fold(lits, neutral=True)
        if folded is not None:
            return folded
        v = self.new_bool(name)
        for x in lits:
            self.m.add_implication(v, x)
        self.clause([v] + [_neg(x) for x in lits])
        return v

    def or_of(self, lits: list[Lit], name: str) -> Lit:
        """The OR of ``lits``: the negation of the AND of their negations (De Morgan), so that
        one gate, :meth:`and_of`, builds both; ``name`` names the model's variable, the NOR."""
        return _neg(self.and_of([_neg(x) for x in lits], f"nor_{name}"))

    def resolved(self, t: int, y: Cell, resolved: bool) -> Lit:
        """The literal "distraction ``y`` is (un)resolved at the start of turn ``t``"."""
        lit = self.states[t].resolved[y]
        return lit if resolved else _neg(lit)

    def cond_lit(self, t: int, cond: Cond) -> Lit:
        key = (t, cond)
        if key not in self._cond_cache:
            lits = [self.resolved(t, y, r) for y, r in sorted(cond)]
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

    def _enforce(self, ct: cp_model.Constraint, lits: list[Lit]) -> None:
        if any(x is False for x in lits):  # never enforced (the constraint is already added)
            never = self.m.new_bool_var("never")
            self.m.add(never == 0)
            ct.only_enforce_if(never)
            return
        real = [x for x in lits if x is not True]
        if real:
            ct.only_enforce_if(real)

    def _at_least(self, expr: cp_model.LinearExprT, floor: int, lits: list[Lit]) -> None:
        """``expr >= floor`` whenever every literal of ``lits`` holds."""
        if isinstance(expr, int):
            if expr < floor:
                self.clause([_neg(x) for x in lits])
            return
        self._enforce(self.m.add(expr >= floor), lits)

    # the model
    def build(self) -> None:
        """The state variables, every turn's rules, the route's cells to visit and the objective."""
        self._domains()
        self._state_variables()
        for t in range(1, self.forest.turns + 1):
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise BuildPastDeadline
            self.turns[t] = self.turn(t)
        last = self.states[self.forest.turns + 1]
        for cell in sorted(self.conditions.visit - {self.forest.start, self.g.human}):
            self.clause([last.marked.get(cell, False)])  # a tree is never entered
        # objective: the win turn
        won = [self.states[t + 1].position.get(self.g.human, False) for t in self.turns]
        self.m.minimize(1 + sum(_neg(x) for x in won))

    def turn(self, t: int) -> _Turn:
        """The rules of turn ``t``, one section (method) after another."""
        turn = self._turn_kinds(t)
        self._valve_and_walled_in(turn)
        self._steps(turn)
        self._no_reversal(turn)
        self._complete_move_remains(turn)
        for s in STEPS:
            self._entering(turn, s)
            self._offers(turn, s)
            self._crossing(turn, s)
        self._move_goes_on(turn)
        self._forced_investigation(turn)
        self._investigations(turn)
        max_cost = self._shouts_and_step_costs(turn)
        if self.conditions.stamina_floor > 0:
            self._stamina_floor(turn)
        self._stamina(turn, max_cost)
        self._curiosity(turn)
        self._skip_stick_and_resolved(turn)
        self._marks(turn)
        self._position_after(turn)
        self._last_left_after(turn)
        if self.conditions.forbidden:
            self._forbid(turn)
        return turn

    # domains ("Pruning" in the module docstring)
    def _domains(self) -> None:
        """Cells within reach by each turn (and after each step) and the turns left from each."""
        self.dist = self.g.turns_to_human()
        self.reach: list[set[Cell]] = [set(), {self.forest.start}]
        self.layers: list[list[set[Cell]]] = [[]]
        for t in range(1, self.forest.turns + 1):
            layers, ends = self.g.one_turn(self.reach[t])
            self.layers.append(layers)
            self.reach.append(ends)

    def _alive(self, t: int, c: Cell) -> bool:
        """The human can still be reached in time from ``c`` at the start of turn ``t``."""
        return c in self.dist and t + self.dist[c] - 1 <= self.forest.turns

    def _domain(self, t: int, s: int) -> list[Cell]:
        """The cells given a variable after step ``s`` of turn ``t`` (``s`` = 0: its start)."""
        base = self.reach[t] if s == 0 else self.layers[t][s]
        return [c for c in self.g.cells if c in base and (self._alive(t, c) or c == self.g.human)]

    # state
    def _state_variables(self) -> None:
        """The start state, a state of variables for turns 2 .. N + 1; turn N + 1 is won."""
        f, g = self.forest, self.g
        self.states[1] = _State(
            position={f.start: True},
            last_left=[False, False, False, False, True],
            stamina=START_STAMINA,
            curiosity=START_CURIOSITY,
            stick=False,
            skip=False,
            marked={c: c == f.start for c in g.cells if c != g.human},
            resolved={y: False for y in g.distractions},
        )
        for t in range(2, f.turns + 2):
            self.states[t] = self._state(t)
        final = self.states[f.turns + 1].position
        if g.human not in final:
            self.m.add_bool_or([False])
            final[g.human] = False
        self.clause([final[g.human]])

    def _state(self, t: int) -> _State:
        m, g = self.m, self.g
        if t <= self.forest.turns:
            cells = self._domain(t, 0)
        else:
            cells = [c for c in g.cells if c in self.reach[t] and c == g.human]
        position = {c: self.new_bool(f"P{t}_{c}") for c in cells}
        if not position:
            m.add_bool_or([False])
        m.add_exactly_one(position.values())
        last_left = [self.new_bool(f"L{t}_{d}") for d in range(5)]
        m.add_exactly_one(last_left)
        return _State(
            position=position,
            last_left=last_left,
            stamina=m.new_int_var(0, MAX_STAMINA, f"st{t}"),
            curiosity=m.new_int_var(0, self.max_curiosity, f"cu{t}"),
            stick=self.new_bool(f"stick{t}"),
            skip=self.new_bool(f"skip{t}"),
            marked={c: self.new_bool(f"M{t}_{c}") for c in g.cells if c != g.human},
            resolved={y: self.new_bool(f"R{t}_{y}") for y in g.distractions},
        )

    # turn kinds and the roll
    def _turn_kinds(self, t: int) -> _Turn:
        """Exactly one of over, skipped, rest, walled-in and move; the roll's budget."""
        m = self.m
        start = self.states[t]
        over = start.position.get(self.g.human, False)
        if isinstance(start.stamina, int):
            exhausted: Lit = start.stamina == 0
        else:
            exhausted = self.new_bool(f"z{t}")
            m.add(start.stamina == 0).only_enforce_if(exhausted)
            m.add(start.stamina >= 1).only_enforce_if(~exhausted)
        # The skipped turn's literal is never read; it stays so that the model, and with it
        # CP-SAT's search, is the one measured in bench/test_bench_routes.py.
        self.and_of([_neg(over), start.skip], f"skipT{t}")
        rest = self.and_of([_neg(over), _neg(start.skip), exhausted], f"rest{t}")
        roll = self.and_of([_neg(over), _neg(start.skip), _neg(exhausted)], f"roll{t}")
        walled = self.new_bool(f"walled{t}")
        move = self.new_bool(f"move{t}")
        valve = self.new_bool(f"valve{t}")
        m.add(walled + move == roll)
        self.clause([_neg(valve), roll])
        budget = [False] + [self.new_bool(f"B{t}_{b}") for b in STEPS]
        m.add(sum(budget[1:]) == roll)
        self.clause([_neg(budget[3]), _neg(start.stick)])  # the stick: at most 2 steps
        if self.rolls is not None:  # hindsight: the k-th roll turn reads rolls[k]
            self._roll_count = self._fixed_roll(t, roll, start.stick, budget, self._roll_count)
        return _Turn(
            t, start, self.states[t + 1], over, exhausted, rest, roll, walled, move, valve, budget
        )

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

    # valve and walled-in
    def _valve_and_walled_in(self, turn: _Turn) -> None:
        """valve ⇔ no complete move without reversal; walled ⇔ no complete move at all."""
        g = self.g
        for c, here in turn.start.position.items():
            if c == g.human:
                continue
            for b in STEPS:
                self._valve(turn, c, b)
                with_valve = self.formula_lit(turn.t, g.moves_with_valve(c, b))
                guard = [_neg(here), _neg(turn.budget[b])]
                self.clause([*guard, _neg(turn.walled), _neg(with_valve)])
                self.clause([*guard, turn.walled, with_valve])

    def _valve(self, turn: _Turn, c: Cell, b: int) -> None:
        """From ``c`` with budget ``b``: the valve opens exactly when no move avoids reversing
        (per ``last_left`` only where the direction matters)."""
        moves = [self.g.moves_without_reversal(c, b, left) for left in range(5)]
        lefts = [NONE_DIR] if all(x == moves[0] for x in moves) else range(5)
        for left in lefts:
            complete = self.formula_lit(turn.t, moves[left])
            guard = [_neg(turn.start.position[c]), _neg(turn.budget[b])]
            if len(lefts) > 1:
                guard.append(_neg(turn.start.last_left[left]))
            self.clause([*guard, _neg(turn.valve), _neg(complete)])
            self.clause([*guard, turn.valve, complete])

    # steps
    def _steps(self, turn: _Turn) -> None:
        """Contiguous steps, each one cell on in its direction, no more than the budget."""
        m, t = self.m, turn.t
        turn.at, turn.taken, turn.heading = [turn.start.position], [True], [[]]
        for s in STEPS:
            at = {c: self.new_bool(f"X{t}_{s}_{c}") for c in self._domain(t, s)}
            m.add_exactly_one(at.values())
            taken = turn.move if s == 1 else self.new_bool(f"A{t}_{s}")
            heading = [self.new_bool(f"G{t}_{s}_{d}") for d in range(4)]
            m.add(sum(heading) == taken)
            for c, here in turn.at[s - 1].items():
                for d in range(4):
                    n = self.g.neighbours[c][d]
                    self.clause([_neg(here), _neg(heading[d]), at.get(n, False) if n else False])
                self.clause([_neg(here), taken, at.get(c, False)])  # not taken: the dog stays
            if s > 1:
                self.clause([_neg(taken), turn.taken[s - 1]])
            turn.at.append(at)
            turn.taken.append(taken)
            turn.heading.append(heading)
        self.clause([_neg(turn.taken[2]), _neg(turn.budget[1])])
        self.clause([_neg(turn.taken[3]), turn.budget[3]])

    def _no_reversal(self, turn: _Turn) -> None:
        """The first step not against ``last_left``, later ones not back, unless the valve."""
        left, heading, valve = turn.start.last_left, turn.heading, turn.valve
        for d in range(4):
            self.clause([_neg(heading[1][d]), _neg(left[d]), valve])
            for s in (1, 2):
                self.clause([_neg(heading[s + 1][d]), _neg(heading[s][OPP[d]]), valve])

    def _complete_move_remains(self, turn: _Turn) -> None:
        """After every step with budget left, a complete move remains possible from its cell."""
        g, t = self.g, turn.t
        for s in (1, 2):
            for c, here in turn.at[s].items():
                if c == g.human:
                    continue
                end = self.resolved(t, c, False) if c in g.distraction_set else False
                for b in range(s + 1, 4):
                    left = b - s  # the steps the budget still allows
                    not_here, not_b = _neg(here), _neg(turn.budget[b])
                    with_valve = self.formula_lit(t, g.moves_with_valve(c, left))
                    self.clause(
                        [_neg(turn.taken[s]), not_here, not_b, _neg(turn.valve), end, with_valve]
                    )
                    for d in range(4):
                        moves = self.formula_lit(t, g.moves_without_reversal(c, left, OPP[d]))
                        heading = _neg(turn.heading[s][d])
                        self.clause([not_here, heading, not_b, turn.valve, end, moves])

    # entering a cell, offers
    def _entering(self, turn: _Turn, s: int) -> None:
        """Step ``s`` enters an unresolved distraction (the move ends), or offers follow."""
        t, at, taken = turn.t, turn.at[s], turn.taken[s]
        enters = {
            y: self.and_of([taken, at[y], _neg(turn.start.resolved[y])], f"es{t}_{s}")
            for y in self.g.distractions
            if y in at
        }
        turn.enters.append(enters)
        entered = self.or_of([v for v in enters.values() if v is not False], f"ED{t}_{s}")
        turn.entered_distraction.append(entered)
        won = at.get(self.g.human, False)
        turn.offers_follow.append(self.and_of([taken, _neg(entered), _neg(won)], f"proc{t}_{s}"))

    def _offers(self, turn: _Turn, s: int) -> None:
        """Every unresolved distraction beside the step's cell, not offered earlier in the move,
        in row-major order until one is investigated: investigate or ignore."""
        t, at = turn.t, turn.at[s]
        offered: dict[Cell, Lit] = {}
        investigate: dict[Cell, Lit] = {}
        ignore: dict[Cell, Lit] = {}
        turn.offered.append(offered)
        turn.investigate.append(investigate)
        turn.ignore.append(ignore)
        for y in self.g.distractions:
            adjacent = [at[n] for n in self.g.neighbours[y] if n is not None and n in at]
            if not adjacent:
                continue
            beside = self.or_of(adjacent, f"aj{t}_{s}")  # at most one is true (one-hot)
            before = [turn.offered[s2][y] for s2 in range(1, s) if y in turn.offered[s2]]
            earlier = [
                investigate[y2]
                for y2 in investigate
                if y2 < y and abs(y2[0] - y[0]) + abs(y2[1] - y[1]) <= 2
            ]
            lits = [turn.offers_follow[s], beside, _neg(turn.start.resolved[y])]
            offer = self.and_of(lits + [_neg(v) for v in before + earlier], f"of{t}_{s}")
            if offer is False:
                continue
            offered[y] = offer
            investigate[y] = self.new_bool(f"inv{t}_{s}_{y}")
            ignore[y] = self.new_bool(f"ign{t}_{s}_{y}")
            self.m.add(investigate[y] + ignore[y] == offer)

    def _crossing(self, turn: _Turn, s: int) -> None:
        """Step ``s`` crosses the own trail: a cell marked before the turn or earlier in it."""
        t, at, taken, human = turn.t, turn.at[s], turn.taken[s], self.g.human
        cross = self.new_bool(f"cross{t}_{s}")
        self.clause([_neg(cross), taken])
        self.clause([_neg(cross), _neg(at.get(human, False))])
        for c, here in at.items():
            if c == human:
                continue
            earlier = [turn.at[s2][c] for s2 in range(1, s) if c in turn.at[s2]]
            marked = turn.start.marked[c]
            self.clause([_neg(taken), _neg(here), _neg(marked), cross])
            for e in earlier:
                self.clause([_neg(taken), _neg(here), _neg(e), cross])
            self.clause([_neg(cross), _neg(here), marked, *earlier])
        turn.crossing.append(cross)

    def _move_goes_on(self, turn: _Turn) -> None:
        """The move goes on exactly while budget is left and nothing ended it."""
        for s in (1, 2):
            ended = [turn.entered_distraction[s], turn.at[s].get(self.g.human, False)]
            for e in ended:
                self.clause([_neg(turn.taken[s + 1]), _neg(e)])
            hops = turn.investigate[s]
            if hops:
                self.m.add(sum(hops.values()) == 0).only_enforce_if(turn.taken[s + 1])
            for b in range(s + 1, 4):
                lits = [_neg(turn.taken[s]), _neg(turn.budget[b]), turn.taken[s + 1], *ended]
                self.clause([*lits, *hops.values()])

    def _forced_investigation(self, turn: _Turn) -> None:
        """Ignoring needs curiosity left after the earlier losses of the turn (or the stick)."""
        stick, ignore = turn.start.stick, turn.ignore
        if stick is True:
            return
        for s in STEPS:
            for y, ig in ignore[s].items():
                losses = [turn.crossing[s2] for s2 in range(1, s + 1)]
                losses += [v for s2 in range(1, s) for v in ignore[s2].values()]
                losses += [ignore[s][y2] for y2 in ignore[s] if y2 < y]
                enforce = [ig] if stick is False else [ig, _neg(stick)]
                self.m.add(turn.start.curiosity - sum(losses) >= 1).only_enforce_if(enforce)

    # investigating
    def _investigations(self, turn: _Turn) -> None:
        """At most one investigation a turn (entered or hopped onto), with its forced run."""
        m, g, t = self.m, self.g, turn.t
        hops = {y: _sum_at(turn.investigate, y) for y in g.distractions}
        entries = {y: _sum_at(turn.enters, y) for y in g.distractions}
        for y in g.distractions:
            if isinstance(hops[y], int) and isinstance(entries[y], int):
                continue
            turn.investigated[y] = hops[y] + entries[y]
            turn.run[y] = [self.new_bool(f"RN{t}_{y}_{j}") for j in range(len(g.runs[y]))]
            m.add(sum(turn.run[y]) == turn.investigated[y])
        m.add(sum(turn.investigated.values()) <= 1)
        for y in g.distractions:
            if isinstance(hops[y], int):
                continue
            hop = self.new_bool(f"H{t}_{y}")
            m.add(hop == hops[y])
            turn.hop_crossings.append(self.and_of([hop, turn.start.marked[y]], f"hm{t}_{y}"))

    # shouts and stamina
    def _shouts_and_step_costs(self, turn: _Turn) -> int:
        """Each step's shouts and stamina cost; returns a bound on the turn's whole cost."""
        max_cost = 1
        for s in STEPS:
            hits = self._shouts(turn, s)
            if self.shouts is not None:  # hindsight: the j-th shout roll reads shouts[j]
                self._shout_count = self._fixed_shouts(turn, s, hits, self._shout_count)
            turn.hit.append(hits)
            cost, bound = self._step_cost(turn, s, hits)
            max_cost += bound
            turn.step_cost.append(cost)
        return max_cost

    def _shouts(self, turn: _Turn, s: int) -> dict[int, Lit]:
        """Par: the player picks hit or shrug for each arrow of number ≥ 2 over the entered cell."""
        t, human = turn.t, self.g.human
        cover: dict[int, list[Lit]] = {}
        for c, here in turn.at[s].items():
            for i, k in self.arrows[c]:
                if k >= 2 and c != human:  # the human's cell wins before any shout
                    cover.setdefault(i, []).append(here)
        hits: dict[int, Lit] = {}
        for i, lits in cover.items():
            hit = self.new_bool(f"hit{t}_{s}_{i}")
            covered = self.and_of([turn.taken[s], self.or_of(lits, f"cov{t}_{s}")], f"covA{t}")
            self.clause([_neg(hit), covered])
            hits[i] = hit
        return hits

    def _fixed_shouts(
        self, turn: _Turn, s: int, hits: dict[int, Lit], count: Count
    ) -> cp_model.IntVar:
        """Hindsight: each arrow of number >= 2 over the entered cell reads the next shout."""
        m, shouts, t, at, taken = self.m, self.shouts, turn.t, turn.at[s], turn.taken[s]
        assert shouts is not None
        ranks: dict[Cell, dict[int, int]] = {}
        for c in at:
            # entering the human's cell wins before any shout: its arrows read nothing
            chance = [i for i, k in self.arrows[c] if k >= 2] if c != self.g.human else []
            ranks[c] = {i: r for r, i in enumerate(chance)}
        for i, h in hits.items():
            cells = [c for c in at if i in ranks[c]]
            covered = self.and_of([taken, self.or_of([at[c] for c in cells], "cov")], "covA")
            if not shouts:
                self.clause([_neg(covered)])
                continue
            index = m.new_int_var(0, len(shouts), f"shoutix{t}_{s}_{i}")
            rank = sum(ranks[c][i] * at[c] for c in cells if ranks[c][i])
            self._enforce(m.add(index == count + rank), [covered])
            self._enforce(m.add(index <= len(shouts) - 1), [covered])
            value = m.new_bool_var(f"shout{t}_{s}_{i}")
            m.add_element(index, [int(x) for x in shouts] + [0], value)
            self.clause([_neg(covered), _neg(value), h])
            self.clause([_neg(h), value])
        shouters = max(1, len(self.forest.shouters))
        nodes = m.new_int_var(0, 3 * shouters, f"nodes{t}_{s}")
        self._enforce(
            m.add(nodes == sum(len(ranks[c]) * x for c, x in at.items() if ranks[c])), [taken]
        )
        self._enforce(m.add(nodes == 0), [_neg(taken)])
        nxt = m.new_int_var(0, 9 * self.forest.turns * shouters, "shc")
        m.add(nxt == count + nodes)
        return nxt

    def _step_cost(self, turn: _Turn, s: int, hits: dict[int, Lit]) -> tuple[cp_model.IntVar, int]:
        """The stamina step ``s`` costs (terrain, number-1 arrows, shouts hit), with its bound."""
        m, at, costs = self.m, turn.at[s], self.entry_cost
        bound = max([costs[c] for c in at] + [0]) + SHOUT_COST * len(hits)
        cost = m.new_int_var(0, bound, f"sc{turn.t}_{s}")
        expr = sum(costs[c] * here for c, here in at.items() if costs[c])
        expr = expr + SHOUT_COST * sum(hits.values())
        m.add(cost == expr).only_enforce_if(turn.taken[s])
        m.add(cost == 0).only_enforce_if(_neg(turn.taken[s]))
        return cost, bound

    def _stamina(self, turn: _Turn, max_cost: int) -> None:
        """End of turn: ``max(0, s − costs)`` after a move (a squirrel costs 1), 3 after a rest."""
        m, t, stamina = self.m, turn.t, turn.start.stamina
        squirrels = [
            n for y, n in turn.investigated.items() if self.forest.terrain(y) == Terrain.SQUIRREL
        ]
        total = sum(turn.step_cost) + sum(squirrels)
        diff = m.new_int_var(-max_cost, MAX_STAMINA, f"diff{t}")
        m.add(diff == stamina - total)
        floor = m.new_int_var(0, MAX_STAMINA, f"sfloor{t}")
        m.add_max_equality(floor, [0, diff])
        after = turn.end.stamina
        m.add(after == floor).only_enforce_if(turn.move)
        m.add(after == REST_STAMINA).only_enforce_if(turn.rest)
        m.add(after == stamina).only_enforce_if([_neg(turn.move), _neg(turn.rest)])

    def _curiosity(self, turn: _Turn) -> None:
        """End of turn: ``max(0, c − losses) + gains`` (no losses with the stick)."""
        m, t, stick = self.m, turn.t, turn.start.stick
        losses = [turn.crossing[s] for s in STEPS]
        losses += [v for s in STEPS for v in turn.ignore[s].values()] + turn.hop_crossings
        lost = m.new_int_var(0, 3 + 12 + 1, f"loss{t}")
        if stick is True:
            m.add(lost == 0)
        elif stick is False:
            m.add(lost == sum(losses))
        else:
            m.add(lost == sum(losses)).only_enforce_if(_neg(stick))
            m.add(lost == 0).only_enforce_if(stick)
        diff = m.new_int_var(-16, self.max_curiosity, f"cdiff{t}")
        m.add(diff == turn.start.curiosity - lost)
        floor = m.new_int_var(0, self.max_curiosity, f"cfloor{t}")
        m.add_max_equality(floor, [0, diff])
        gains = sum(self.gain[y] * n for y, n in turn.investigated.items())
        m.add(turn.end.curiosity == floor + gains)

    def _skip_stick_and_resolved(self, turn: _Turn) -> None:
        """A squirrel or another dog skips the next turn; the stick is kept; resolved stays."""
        m, terrain = self.m, self.forest.terrain
        start, end, investigated = turn.start, turn.end, turn.investigated
        skippers = [n for y, n in investigated.items() if terrain(y) in _SKIPPERS]
        m.add(end.skip == sum(skippers))
        sticks = [n for y, n in investigated.items() if terrain(y) == Terrain.STICK]
        if isinstance(start.stick, bool):
            m.add(end.stick == int(start.stick) + sum(sticks))
        else:
            m.add(end.stick >= start.stick)
            m.add(end.stick == start.stick + sum(sticks)).only_enforce_if(_neg(start.stick))
        for y in self.g.distractions:
            was, now = start.resolved[y], investigated.get(y, 0)
            if isinstance(was, bool):
                m.add(end.resolved[y] == int(was) + now)
            else:
                m.add(end.resolved[y] >= was)
                m.add(end.resolved[y] == was + now).only_enforce_if(_neg(was))

    # marks, position and last_left after the turn
    def _entered(self, turn: _Turn) -> dict[Cell, list[Lit]]:
        """For each cell, the literals of the turn's steps, hops and runs that enter it."""
        g, human = self.g, self.g.human
        entered: dict[Cell, list[Lit]] = {c: [] for c in g.cells if c != human}
        for s in STEPS:
            for c, here in turn.at[s].items():
                if c != human:
                    entered[c].append(here)
        for y in g.distractions:
            entered[y] += [turn.investigate[s][y] for s in STEPS if y in turn.investigate[s]]
            if y not in turn.run:
                continue
            for j, opt in enumerate(g.runs[y]):
                for c in opt.cells:
                    if c != human:
                        entered[c].append(turn.run[y][j])
        return entered

    def _marks(self, turn: _Turn) -> None:
        """Marked after the turn ⇔ marked before it or entered during it."""
        for c, lits in self._entered(turn).items():
            before, after = turn.start.marked[c], turn.end.marked[c]
            self.clause([_neg(before), after])
            for x in lits:
                self.clause([_neg(x), after])
            self.clause([_neg(after), before, *lits])

    def _position_after(self, turn: _Turn) -> None:
        """The cell after the last step, or the end of the investigation's run."""
        m, position = self.m, turn.end.position
        none = self.new_bool(f"noI{turn.t}")
        m.add(sum(turn.investigated.values()) == 0).only_enforce_if(none)
        m.add(sum(turn.investigated.values()) == 1).only_enforce_if(~none)
        for c, here in turn.at[3].items():
            self.clause([_neg(none), _neg(here), position.get(c, False)])
        for y, lits in turn.run.items():
            for j, opt in enumerate(self.g.runs[y]):
                self.clause([_neg(lits[j]), position.get(opt.end, False)])

    def _last_left_after(self, turn: _Turn) -> None:
        """``last_left`` after the turn: back along the run, the hop or the last step."""
        g, left = self.g, turn.end.last_left
        runs = [lits[j] for y, lits in turn.run.items() for j, o in enumerate(g.runs[y]) if o.cells]
        hops = [turn.investigate[s][y] for s in STEPS for y in turn.investigate[s]]
        for y, lits in turn.run.items():
            for j, opt in enumerate(g.runs[y]):
                if opt.cells:
                    self.clause([_neg(lits[j]), left[OPP[opt.direction]]])
                else:
                    self._last_left_after_hop(turn, y, lits[j])
        for s in STEPS:
            last = [turn.taken[s]] + ([_neg(turn.taken[s + 1])] if s < 3 else [])
            for d in range(4):
                lits = [_neg(x) for x in last] + [_neg(turn.heading[s][d]), left[OPP[d]]]
                self.clause(lits + hops + runs)
        for d in range(5):
            self.clause([turn.move, _neg(turn.start.last_left[d]), left[d]])

    def _last_left_after_hop(self, turn: _Turn, y: Cell, no_run: Lit) -> None:
        """An investigation of ``y`` with no run: ``last_left`` points where the dog hopped from."""
        for s in STEPS:
            if y not in turn.investigate[s]:
                continue
            for d in range(4):
                origin = self.g.neighbours[y][d]  # the dog hopped from origin, d of y
                if origin is not None and origin in turn.at[s]:
                    hop = [_neg(turn.investigate[s][y]), _neg(turn.at[s][origin])]
                    self.clause([*hop, _neg(no_run), turn.end.last_left[d]])

    # route conditions (RouteQuery, :mod:`dog.routes.query`)
    def _forbid(self, turn: _Turn) -> None:
        """No step, hop or forced-run cell of this turn is a forbidden cell."""
        forbidden = self.conditions.forbidden
        for s in STEPS:
            for c in forbidden.intersection(turn.at[s]):
                self.clause([_neg(turn.taken[s]), _neg(turn.at[s][c])])  # untaken: no entry
            for y, lit in turn.investigate[s].items():
                if y in forbidden:
                    self.clause([_neg(lit)])
        for y, lits in turn.run.items():
            for j, opt in enumerate(self.g.runs[y]):
                if forbidden.intersection(opt.cells):
                    self.clause([_neg(lits[j])])

    def _stamina_floor(self, turn: _Turn) -> None:
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
        floor, g, t = self.conditions.stamina_floor, self.g, turn.t
        if t > 1:
            self._at_least(turn.start.stamina, floor, [_neg(turn.over), _neg(turn.exhausted)])
        base = turn.start.stamina
        for s in STEPS:
            self._at_least(base, floor, [turn.taken[s]])
            for c, here in turn.at[s].items():
                before_last_shout = self._cost_before_last_shout(turn, s, c)
                if before_last_shout is not None:
                    self._at_least(base - before_last_shout, floor, [turn.taken[s], here])
            ties = [v for y, v in turn.enters[s].items() if len(g.runs[y]) > 1]
            more = self.or_of([*turn.offered[s].values(), *ties], f"after{t}_{s}")
            base = base - turn.step_cost[s - 1]
            self._at_least(base, floor, [more])

    def _cost_before_last_shout(self, turn: _Turn, s: int, c: Cell) -> cp_model.LinearExprT | None:
        """What entering ``c`` at step ``s`` costs before its last shout (None: no shout)."""
        arrows = self.arrows[c]
        chance = [n for n, (_, k) in enumerate(arrows) if k >= 2]
        if c == self.g.human or not chance:
            return None
        last_arrow = arrows[chance[-1]][0]
        ones = sum(1 for _, k in arrows[: chance[-1]] if k == 1)
        before = _TERRAIN_COST.get(self.forest.terrain(c), 0) + SHOUT_COST * ones
        others = [h for i, h in turn.hit[s].items() if i != last_arrow]
        return before + SHOUT_COST * sum(others)
