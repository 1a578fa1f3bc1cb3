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

import time
from collections.abc import Sequence

from ortools.sat.python import cp_model

from solver.exact import deterministic_solver, solve, wall_limit
from solver.games.dog.forest import DELTAS, Forest
from solver.games.dog.routes.geometry import Geometry
from solver.games.dog.routes.graph import RouteAnswer, labels_by_turn, replay
from solver.games.dog.routes.rules_model import BuildPastDeadline, Conditions, Lit, RulesModel
from solver.games.dog.rules import (
    IGNORE,
    INVESTIGATE,
    OFFER_ORDER,
    ROLL_1,
    RUN_N,
    SHOUT_HIT,
    SHOUT_SHRUG,
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
_NO_CONDITIONS = Conditions()  # the plain par and hindsight questions


# -- solving and reading the route back -----------------------------------------------------------
def _value(solver: cp_model.CpSolver, lit: Lit) -> bool:
    return lit if isinstance(lit, bool) else bool(solver.boolean_value(lit))


def _actions(model: RulesModel, solver: cp_model.CpSolver) -> list[int]:
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
            b = next(b for b in (1, 2, 3) if _value(solver, model.turns[t].budget[b]))
            action = ROLL_1 + b - 1
            step = 0
        elif phase == Phase.STEP:
            step += 1
            action = next(
                STEP_N + d for d in range(4) if _value(solver, model.turns[t].heading[step][d])
            )
        elif phase == Phase.SHOUT:
            hit = model.turns[t].hit[step].get(state.pending, True)
            action = SHOUT_HIT if _value(solver, hit) else SHOUT_SHRUG
        elif phase == Phase.OFFER:
            dr, dc = DELTAS[OFFER_ORDER[state.pending]]
            cell = (state.pos[0] + dr, state.pos[1] + dc)
            lit = model.turns[t].investigate[step].get(cell, False)
            action = INVESTIGATE if _value(solver, lit) else IGNORE
        elif phase == Phase.SQUIRREL:
            lits = model.turns[t].run[state.pos]
            j = next(j for j, lit in enumerate(lits) if _value(solver, lit))
            action = RUN_N + g.runs[state.pos][j].direction
        else:  # pragma: no cover - chance/decision phases are all above
            raise AssertionError(f"unexpected phase {phase}")
        state.apply_action(action)  # raises IllegalActionError if model and engine disagree
        actions.append(action)
    raise AssertionError("the route does not end")  # pragma: no cover


def _solve(forest: Forest, horizon: int, time_limit: float, rolls, shouts, conditions, deadline):
    model = RulesModel(forest.replace(turns=horizon), rolls, shouts, conditions, deadline)
    solver = deterministic_solver(time_limit)
    wall_limit(solver, deadline)
    status = solve(solver, model.m)
    return model, solver, status, len(model.m.Proto().variables)


def par_cpsat_model(
    forest: Forest,
    *,
    time_limit: float = 10.0,
    deepening: bool = True,
    deadline: float | None = None,
) -> RouteAnswer:
    """Par from a CP-SAT model of the rules (see the module docstring for what is modelled).

    With ``deepening`` (the default) the model is built for horizons ``k`` = a static lower bound
    .. ``forest.turns`` in turn and each asks "a win by turn k?"; the first feasible horizon is par
    (every smaller one was proven infeasible). Without it one model over all ``forest.turns``
    turns minimises the win turn. ``time_limit`` is CP-SAT's deterministic time limit, shared by
    all the solves; an unproven answer says so in ``status`` (``"feasible"`` or ``"unknown"``).
    ``states`` counts the variables of the last model solved. ``deadline``
    (``time.monotonic()``) bounds it by the wall clock as well (then ``"unknown"``).
    """
    return _run(forest, time_limit, deepening, None, None, _NO_CONDITIONS, forest.turns, deadline)


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
    return _run(forest, time_limit, deepening, rolls, shouts, _NO_CONDITIONS, forest.turns)


def route_cpsat_model(
    forest: Forest,
    *,
    rolls: Sequence[int] | None = None,
    shouts: Sequence[bool] | None = None,
    conditions: Conditions = _NO_CONDITIONS,
    win_by: int | None = None,
    time_limit: float = 10.0,
    deepening: bool = True,
    deadline: float | None = None,
) -> RouteAnswer:
    """The soonest win under route ``conditions``, won by turn ``win_by`` (default: the limit);
    ``deadline`` (``time.monotonic()``) bounds it by the wall clock (then ``"unknown"``).

    Par without ``rolls``/``shouts``, hindsight with them (give both or neither). The conditions
    restrict the player's choices, never the rules (a forced run into a forbidden cell rules out
    the route that triggers it); :func:`dog.routes.query.solve_route` is the front end.
    """
    if (rolls is None) != (shouts is None):
        raise ValueError("give both rolls and shouts (hindsight) or neither (par)")
    if rolls is not None and shouts is not None:
        rolls, shouts = _sequences(rolls, shouts)
    last = forest.turns if win_by is None else min(win_by, forest.turns)
    return _run(forest, time_limit, deepening, rolls, shouts, conditions, last, deadline)


def _sequences(rolls: Sequence[int], shouts: Sequence[bool]) -> tuple[list[int], list[bool]]:
    for value in rolls:
        if value not in (1, 2, 3):
            raise ValueError(f"a step roll reads 1, 2 or 3 steps, not {value!r}")
    return list(rolls), [bool(x) for x in shouts]


#: The public names (``dog.routes.par`` / ``dog.routes.hindsight``): the rules model.
par = par_cpsat_model
hindsight = hindsight_cpsat_model


def _run(
    forest, time_limit, deepening, rolls, shouts, conditions, last, deadline=None
) -> RouteAnswer:
    """Solve horizon after horizon (or once) up to turn ``last``; read the route back, check it.
    Past ``deadline`` (``time.monotonic()``, the caller's wall-clock budget) no horizon starts,
    nor does a horizon's model go on being built, and the answer is ``"unknown"``: each
    horizon's model is built in Python, outside CP-SAT's
    deterministic time (a 16x16 forest of 255 turns with a visit query ran past 120 s at
    ``--time-limit 2``)."""
    if last < 1:
        return RouteAnswer(None, None, None, METHOD, "infeasible", 0)
    if deepening:
        dist = Geometry(forest).turns_to_human()
        if forest.start not in dist or dist[forest.start] > last:
            return RouteAnswer(None, None, None, METHOD, "infeasible", 0)  # a static proof
        horizons = list(range(max(1, dist[forest.start]), last + 1))
    else:
        horizons = [last]
    budget = time_limit
    size = 0
    for horizon in horizons:
        if budget <= 0:  # the horizons before spent it (a solve runs MIN_DETERMINISTIC_TIME)
            return RouteAnswer(None, None, None, METHOD, "unknown", size)
        if deadline is not None and time.monotonic() >= deadline:  # building a model takes time
            return RouteAnswer(None, None, None, METHOD, "unknown", size)
        try:
            model, solver, status, size = _solve(
                forest, horizon, budget, rolls, shouts, conditions, deadline
            )
        except BuildPastDeadline:  # the horizon's model was not finished in time
            return RouteAnswer(None, None, None, METHOD, "unknown", size)
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
        return RouteAnswer(
            turn, labels_by_turn(forest, actions), tuple(actions), METHOD, name, size
        )
    return RouteAnswer(None, None, None, METHOD, "infeasible", size)
