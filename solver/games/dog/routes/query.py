"""Constrained route questions: par and hindsight routes with a designer's extra conditions.

A :class:`RouteQuery` adds conditions to the route questions of :mod:`dog.routes.graph`:

- ``visit``: cells the dog must enter on its way (the start cell counts as entered);
- ``avoid``: cells the dog must never enter (by a step, a hop or a forced run);
- ``stamina_floor``: stamina never below this after any action before the win;
- ``never_under_arrow``: never enter a cell under a shouter's arrow (the human's cell excepted:
  entering it wins before any shout, docs/rules/dog.md §4 a);
- ``win_by``: the human must be reached by this turn;
- ``rolls`` / ``shouts``: a known sequence of step rolls and shout outcomes (a *hindsight* query,
  consumed as :mod:`dog.routes.graph` describes); without them the player chooses every
  chance outcome (a *par* query).

The answer is the route that wins soonest under every condition, or a proof that none does.
Three methods:

- ``method="cp-sat"`` (the default): the conditions are constraints of the CP-SAT rules model
  (:func:`dog.routes.cpsat.route_cpsat_model`): a forbidden cell is never a step's, a hop's
  or a forced run's cell; a cell to visit is marked by the end; the stamina after every action
  that leaves the game going is at least the floor (checked before the last action of each move,
  stamina only falling within a move, and at the start of every turn but a rest's); the horizon is
  ``win_by``. It scales like the model (no state graph is built).
- ``method="graph"``: the conditions filter the engine's game graph (arcs that enter a forbidden
  cell or leave stamina under the floor, wins that miss a required cell or come too late) and
  CP-SAT picks the route on the filtered graph (:func:`dog.routes.graph.par_graph`'s
  formulation); exact, but the graph blows up beyond small forests.
- ``method="brute-force"``: a breadth-first search over the same filtered graph: the twin.

:func:`check_route` verifies a route against a query independently, by replaying it through the
reference engine: every returned route passes it (asserted by the tests for all three methods).
"Entered" means what it checks: every cell a step, a hop or a forced run moves the dog onto, the
human's cell included (a query that avoids it has no answer; visiting it is met by any win), the
start only when the dog comes back to it.

>>> from solver.games.dog.forest import Forest, Terrain
>>> grid = [[Terrain.OPEN] * 4 for _ in range(3)]
>>> forest = Forest(width=4, height=3, cells=grid, start=(2, 0), human=(0, 3), turns=4)
>>> solve_route(forest, RouteQuery()).turns
2
>>> answer = solve_route(forest, RouteQuery(visit=frozenset({(2, 3)})))
>>> answer.turns, check_route(forest, RouteQuery(visit=frozenset({(2, 3)})), answer.actions)
(2, True)
>>> solve_route(forest, RouteQuery(win_by=1)).turns is None
True
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from solver.errors import OptionError
from solver.fields import is_positive_number
from solver.games.dog.forest import DELTAS, DIRECTIONS, Cell, Forest
from solver.games.dog.routes import cpsat as dog_cpsat
from solver.games.dog.routes import graph as dog_routes
from solver.games.dog.routes.graph import Node, RouteAnswer, Successors
from solver.games.dog.rules import (
    INVESTIGATE,
    OFFER_ORDER,
    ROLL_1,
    SHOUT_HIT,
    STEP_N,
    STEP_W,
    DogGame,
    DogState,
    Phase,
)

__all__ = ["RouteQuery", "check_route", "solve_route"]

METHODS = ("cp-sat", "graph", "brute-force")


@dataclass(frozen=True)
class RouteQuery:
    """Conditions on a route (see the module docstring). The default asks for plain par."""

    visit: frozenset[Cell] = field(default_factory=frozenset)
    avoid: frozenset[Cell] = field(default_factory=frozenset)
    stamina_floor: int = 0
    never_under_arrow: bool = False
    win_by: int | None = None
    rolls: tuple[int, ...] | None = None
    shouts: tuple[bool, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "visit", frozenset(tuple(c) for c in self.visit))
        object.__setattr__(self, "avoid", frozenset(tuple(c) for c in self.avoid))
        if self.visit & self.avoid:
            raise OptionError(
                f"cells both to visit and to avoid: {sorted(self.visit & self.avoid)}"
            )
        if not 0 <= self.stamina_floor <= 6:
            raise OptionError(f"stamina_floor must be 0..6, not {self.stamina_floor!r}")
        if self.win_by is not None and self.win_by < 1:
            raise OptionError(f"win_by must be a turn ≥ 1, not {self.win_by!r}")
        if (self.rolls is None) != (self.shouts is None):
            raise OptionError("give both rolls and shouts (a hindsight query) or neither (par)")
        if self.rolls is not None:
            rolls = tuple(self.rolls)
            if any(r not in (1, 2, 3) for r in rolls):
                raise OptionError(f"a step roll reads 1, 2 or 3 steps, not {rolls!r}")
            object.__setattr__(self, "rolls", rolls)
            object.__setattr__(self, "shouts", tuple(bool(s) for s in self.shouts or ()))

    @classmethod
    def parse(cls, text: str) -> RouteQuery:
        """A query from a small text form, ``;``-separated clauses (as the CLI takes it).

        Clauses: ``visit R,C [R,C ...]``, ``avoid R,C ...``, ``stamina >= N``,
        ``never under arrow``, ``win by T``, ``rolls 1 2 3 ...``, ``shouts hit shrug ...``.

        >>> q = RouteQuery.parse("visit 2,3; avoid 1,1 0,0; stamina >= 2; never under arrow")
        >>> sorted(q.visit), sorted(q.avoid), q.stamina_floor, q.never_under_arrow
        ([(2, 3)], [(0, 0), (1, 1)], 2, True)
        >>> RouteQuery.parse("win by 5; rolls 1 2; shouts hit").rolls
        (1, 2)
        >>> RouteQuery.parse("fly away")
        Traceback (most recent call last):
        ...
        solver.errors.OptionError: unknown route condition 'fly away'; expected visit, avoid, \
stamina >= N, never under arrow, win by T, rolls ..., shouts ...
        """
        fields: dict = {}
        for clause in (c.strip() for c in text.split(";")):
            if not clause:
                continue
            words = clause.split()
            head = words[0].lower()
            if head in ("visit", "avoid"):
                fields[head] = frozenset(_cells(words[1:], clause))
            elif (m := re.fullmatch(r"stamina\s*>=\s*(\d+)", clause, _WORDS)) is not None:
                fields["stamina_floor"] = _whole(m.group(1), clause)
                if fields["stamina_floor"] > 6:  # named as the query says it, not stamina_floor
                    raise OptionError(f"in {clause!r}: stamina is 0 to 6, not {m.group(1)}")
            elif re.fullmatch(r"never\s+under\s+(the\s+)?arrow", clause, _WORDS):
                fields["never_under_arrow"] = True
            elif (m := re.fullmatch(r"win\s+by\s+(\d+)", clause, _WORDS)) is not None:
                fields["win_by"] = _whole(m.group(1), clause)
                if fields["win_by"] < 1:  # named as the query says it, not win_by
                    raise OptionError(f"in {clause!r}: a turn is 1 or more, not {m.group(1)}")
            elif head == "rolls":
                fields["rolls"] = tuple(_integer(w, clause) for w in words[1:])
            elif head == "shouts":
                fields["shouts"] = tuple(_shout(w, clause) for w in words[1:])
            else:
                raise OptionError(
                    f"unknown route condition {clause!r}; expected visit, avoid, stamina >= N, "
                    "never under arrow, win by T, rolls ..., shouts ..."
                )
        return cls(**fields)

    def check_forest(self, forest: Forest) -> None:
        """Raise :class:`OptionError` when a condition names a cell outside ``forest``."""
        for cell in sorted(self.visit | self.avoid):
            if not forest.inside(cell):
                raise OptionError(
                    f"cell {cell} lies outside the {forest.width}x{forest.height} grid"
                )
        if forest.start in self.avoid:
            raise OptionError(f"the start {forest.start} cannot be avoided: the dog stands there")


_WORDS = re.IGNORECASE | re.ASCII
"""A condition's words in any case, its numbers ASCII digits (``\\d`` alone takes ``٣``)."""

MAX_DIGITS = 9
"""The most digits a condition's number is read with: more than any turn, cell or roll, and a
query is user text (``int()`` refuses more than 4,300 digits: a traceback before)."""


def _shown(text: str) -> str:
    """``text`` quoted as an error names it, cut to 40 characters."""
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}..."


def _whole(digits: str, clause: str) -> int:
    """The number ``digits`` (checked as ASCII digits, a sign allowed) of ``clause``; refused
    past :data:`MAX_DIGITS`."""
    if len(digits.lstrip("-").lstrip("0")) > MAX_DIGITS:
        raise OptionError(
            f"expected a whole number of at most {MAX_DIGITS} digits in {_shown(clause)}, "
            f"found {_shown(digits)}"
        )
    return int(digits)


def _integer(word: str, clause: str) -> int:
    if not re.fullmatch(r"-?\d+", word, re.ASCII):
        raise OptionError(f"expected a whole number in {_shown(clause)}, found {_shown(word)}")
    return _whole(word, clause)


def _cells(words: Iterable[str], clause: str) -> list[Cell]:
    cells = []
    for word in words:
        m = re.fullmatch(r"\(?(\d+),(\d+)\)?", word, re.ASCII)
        if m is None:
            raise OptionError(f"expected cells like 2,3 in {_shown(clause)}, found {_shown(word)}")
        cells.append((_whole(m.group(1), clause), _whole(m.group(2), clause)))
    if not cells:
        raise OptionError(f"{clause!r} names no cell")
    return cells


def _shout(word: str, clause: str) -> bool:
    lowered = word.lower()
    if lowered in ("hit", "h", "1"):
        return True
    if lowered in ("shrug", "s", "0"):
        return False
    raise OptionError(f"expected hit or shrug in {clause!r}, found {word!r}")


# -- the filtered game graph ---------------------------------------------------------------------
def _entered(parent_marked: frozenset | set, parent_pos: Cell, child) -> set[Cell]:
    """The cells an action entered: newly marked ones and the cell the dog ends on.

    A re-entered cell is already marked, so it was entered earlier on the same route: a route
    that breaks an ``avoid`` or ``never_under_arrow`` condition is caught at its first entry.
    """
    entered = set(child.marked) - set(parent_marked)
    if child.pos != parent_pos and not (child.is_terminal() and child.won):
        entered.add(child.pos)
    return entered


def _forbidden(forest: Forest, query: RouteQuery) -> frozenset[Cell]:
    """The cells no action may enter: ``avoid``, and the arrow cells but the human's."""
    arrow_cells = {
        (r, c)
        for r in range(forest.height)
        for c in range(forest.width)
        if forest.arrows_at((r, c)) and (r, c) != forest.human
    }
    return frozenset(query.avoid) | (arrow_cells if query.never_under_arrow else frozenset())


def _filtered(forest: Forest, query: RouteQuery, base: Successors) -> Successors:
    forbidden = _forbidden(forest, query)
    last_turn = query.win_by if query.win_by is not None else forest.turns
    visit = query.visit - {forest.human}  # every win enters the human's cell

    def allowed(parent: Node, action: int, child: Node) -> bool:
        before, after = parent[0], child[0]
        if forest.start in forbidden:  # a marked start may be re-entered unseen: follow the path
            entered = set(_path(before, action)(after.pos))
        else:
            entered = _entered(before.marked, before.pos, after)
            if after.is_terminal() and after.won:
                entered.add(forest.human)
        if forbidden & entered:
            return False
        if after.is_terminal():
            return after.won and after.turn <= last_turn and visit <= set(after.marked)
        return after.turn <= last_turn and after.stamina >= query.stamina_floor

    def successors(node: Node) -> list[tuple[int, Node]]:
        return [(a, child) for a, child in base(node) if allowed(node, a, child)]

    return successors


def solve_route(
    forest: Forest,
    query: RouteQuery,
    *,
    method: str = "cp-sat",
    time_limit: float = 10.0,
    seconds: float | None = None,
    deadline: float | None = None,
) -> RouteAnswer:
    """The soonest winning route meeting ``query``, or an answer with ``turns=None``.

    ``answer.method`` is ``method`` (``"cp-sat"`` is the rules model, ``"graph"`` CP-SAT over the
    filtered state graph, ``"brute-force"`` the breadth-first twin). ``time_limit`` is CP-SAT's
    deterministic limit; ``seconds`` (default: none) bounds the whole search by the wall clock,
    every method alike: past it the answer is unproven (``"unknown"``, the brute force's
    ``"budget"``), where the graph and the brute force had no bound at all and the rules model's
    horizons were built outside CP-SAT's limit. ``deadline`` (``time.monotonic()``): the same
    bound given as a moment (``forest dog route --seconds`` counts from the command's start);
    with ``seconds`` too, the sooner of the two.
    """
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if seconds is not None and not is_positive_number(seconds):
        raise OptionError(f"seconds must be a positive number, not {seconds!r}")
    if deadline is not None and (
        isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or deadline != deadline
    ):
        raise OptionError(f"deadline must be a time.monotonic() moment, not {deadline!r}")
    if seconds is not None:
        ends = time.monotonic() + seconds
        deadline = ends if deadline is None else min(deadline, ends)
    query.check_forest(forest)
    if forest.start in query.avoid:  # pragma: no cover - check_forest refuses it
        raise OptionError("the start cannot be avoided")
    if query.stamina_floor > 6:  # pragma: no cover - the query refuses it
        raise OptionError("stamina never exceeds 6")
    if method == "cp-sat":
        conditions = dog_cpsat.Conditions(
            visit=query.visit,
            forbidden=_forbidden(forest, query),
            stamina_floor=query.stamina_floor,
        )
        answer = dog_cpsat.route_cpsat_model(
            forest,
            rolls=query.rolls,
            shouts=query.shouts,
            conditions=conditions,
            win_by=query.win_by,
            time_limit=time_limit,
            deadline=deadline,
        )
        return replace(answer, method=method)  # the answer names the method asked for
    if query.rolls is None:
        base: Successors = dog_routes._par_successors
    else:
        base = dog_routes._hindsight_successors(query.rolls, query.shouts or ())
    successors = _filtered(forest, query, base)
    if method == "brute-force":
        return dog_routes._brute_force(forest, successors, deadline)
    return replace(dog_routes._cp_sat(forest, successors, time_limit, deadline), method=method)


def check_route(forest: Forest, query: RouteQuery, actions: Sequence[int] | None) -> bool:
    """Replay ``actions`` through the reference engine and check every condition of ``query``.

    Independent of the solvers: it follows the dog cell by cell (forced runs included) instead of
    reading the graph filter.
    """
    if actions is None:
        return False
    state = DogGame(forest).new_initial_state()
    entered: set[Cell] = {forest.start}
    chance = None if query.rolls is None else _FixedChance(query.rolls, query.shouts or ())
    for action in actions:
        if action not in state.legal_actions():
            return False
        if chance is not None and state.is_chance_node() and not chance.allows(state, action):
            return False
        path = _path(state, action)
        state.apply_action(action)
        cells = path(state.pos)
        entered.update(cells)
        if not all(_may_enter(forest, query, cell) for cell in cells):
            return False
        if not state.is_terminal() and state.stamina < query.stamina_floor:
            return False
    if not (state.is_terminal() and state.won):
        return False
    if query.win_by is not None and state.turn > query.win_by:
        return False
    return query.visit <= entered


def _may_enter(forest: Forest, query: RouteQuery, cell: Cell) -> bool:
    """Not a cell to avoid, nor under an arrow when the query says so (the human's excepted)."""
    if cell in query.avoid:
        return False
    return not (query.never_under_arrow and forest.arrows_at(cell) and cell != forest.human)


@dataclass
class _FixedChance:
    """Hindsight: the chance outcomes a route may take are the query's rolls and shouts, in turn."""

    rolls: Sequence[int]
    shouts: Sequence[bool]
    roll_index: int = 0
    shout_index: int = 0

    def allows(self, state: DogState, action: int) -> bool:
        """Whether ``action`` is the next roll (read through the stick) or the next shout."""
        if state.phase == Phase.ROLL:
            if self.roll_index >= len(self.rolls):
                return False
            reading = self.rolls[self.roll_index]
            self.roll_index += 1
            budget = max(1, reading - 1) if state.stick else reading
            return action == ROLL_1 + budget - 1
        if self.shout_index >= len(self.shouts):
            return False
        hit = self.shouts[self.shout_index]
        self.shout_index += 1
        return (action == SHOUT_HIT) == hit


def _path(state: DogState, action: int) -> Callable[[Cell], list[Cell]]:
    """A function of the cell an action ends on, giving the cells it entered in order.

    A step enters its neighbour, an investigation hops onto the offered cell; either may then be
    followed by a forced run in a straight line to the end cell. A squirrel's edge choice runs
    straight from where the dog stands.
    """
    start = state.pos
    if STEP_N <= action <= STEP_W:
        dr, dc = DELTAS[DIRECTIONS[action - STEP_N]]
        first: Cell | None = (start[0] + dr, start[1] + dc)
    elif action == INVESTIGATE:
        dr, dc = DELTAS[OFFER_ORDER[state.pending]]
        first = (start[0] + dr, start[1] + dc)
    else:
        first = None  # chance outcomes and ignoring do not move; a squirrel run starts here

    def cells(end: Cell) -> list[Cell]:
        if first is None:
            return _line(start, end)[1:]
        return [first, *_line(first, end)[1:]]

    return cells


def _line(a: Cell, b: Cell) -> list[Cell]:
    """The cells from ``a`` to ``b`` inclusive along a row or a column (``[a]`` when equal)."""
    if a == b:
        return [a]
    assert a[0] == b[0] or a[1] == b[1], "a forced run is straight"
    dr = (b[0] > a[0]) - (b[0] < a[0])
    dc = (b[1] > a[1]) - (b[1] < a[1])
    out = [a]
    while out[-1] != b:
        out.append((out[-1][0] + dr, out[-1][1] + dc))
    return out
