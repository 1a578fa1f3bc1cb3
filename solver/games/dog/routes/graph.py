"""The dog's exact route questions on the engine's state graph, and the brute-force twins.

Two questions (docs/analysis.md §4, "Routes"):

- *par*: the fewest turns to reach the human when the player also chooses every chance outcome
  (every step roll and every shout roll);
- *hindsight*: the soonest win for a *known* sequence of step rolls and shout outcomes.

The public :func:`dog.routes.par` / :func:`dog.routes.hindsight` are the CP-SAT *rules model*
of :mod:`dog.routes.cpsat`: the rules of docs/rules/dog.md written as time-expanded constraints
(position one-hot per (turn, step), no-reversal and valve, stamina and rests, curiosity, marks,
offers, forced runs, skipped turns), which scales to the largest forests (bench/results/routes.md).
This module keeps the two formulations it is checked against:

- :func:`par_graph` / :func:`hindsight_graph`: CP-SAT over the enumerated state graph (below):
  exact, but the graph holds every state the engine can reach, so it serves small forests only;
- :func:`par_brute_force` / :func:`hindsight_brute_force`: the twins, a breadth-first search.

What is modelled where
----------------------
The rules of docs/rules/dog.md are **not** written as CP-SAT constraints here (that is
:mod:`dog.routes.cpsat`, the time-expanded rules model behind :func:`dog.routes.par`).
Instead:

1. The game graph is enumerated with the reference engine (:mod:`solver.games.dog.rules`): every
   position reachable from the start, chance nodes treated as decisions (par) or fixed by the
   given sequences (hindsight). Every rule therefore enters through the engine, exactly.
2. CP-SAT chooses the route on that graph: one boolean per arc (state, action), unit flow out of
   the start, flow conservation at every non-terminal state, no flow into a losing terminal,
   exactly one unit into winning terminals, minimise the turn at which the win happens. The game
   graph is acyclic (within a turn every action spends budget or advances the pending arrow or
   offer slot, and turns only increase), so the unit flow is a single path: the route.
3. The brute-force twin never builds a model: a breadth-first search over the same engine,
   bucketed by turn, with a visited set on ``state.to_json()`` (plus the sequence counters for
   hindsight); the first win found is in the smallest turn.

So both answers are exact; the CP-SAT one is an exact optimisation over the engine's graph, not an
independent encoding of the rules. Before the model is built, nodes that cannot reach a win
(found by a backward search over the enumerated graph) and their arcs are dropped; when the start
is such a node the model has no winning arc and CP-SAT proves it infeasible. Neither solver prunes
by stamina or curiosity bounds.

How a hindsight sequence is consumed
------------------------------------
``rolls[k]`` is the *die reading in steps* (1, 2 or 3; a 1d6 of 1–2, 3–4, 5–6) of the k-th step
roll along the route (k = 0, 1, ...). Turns without a roll (skipped, rest) consume nothing; a
walled-in dog still rolls and consumes one. The budget is the reading itself, or with the stick
``max(1, reading - 1)`` (docs/rules/dog.md §3 step 3). ``shouts[j]`` is the outcome of the j-th
shout *chance node* along the route: ``True`` = hit (−3 stamina), ``False`` = shrugged off. Arrows
with printed number 1 are not chance nodes (they always hit) and consume nothing. Counters are per
route, so two routes may read different entries for the same turn. A route that needs a roll or
shout beyond the end of its sequence stops there and does not win (give ``turns`` rolls and
enough shouts to avoid this).

Determinism: every CP-SAT solve uses one worker, ``random_seed = 0`` and a deterministic time limit
(``max_deterministic_time = time_limit``); an unproven answer says so in ``status``.

>>> from solver.games.dog.forest import Forest, Terrain
>>> grid = [[Terrain.OPEN] * 5 for _ in range(2)]
>>> forest = Forest(width=5, height=2, cells=grid, start=(1, 0), human=(0, 4), turns=3)
>>> par_graph(forest).turns, par_brute_force(forest).turns
(2, 2)
>>> hindsight_graph(forest.replace(turns=5), [1, 1, 1, 1, 1], []).turns
5
>>> par_graph(forest.replace(turns=1)).turns is None
True
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.exact import deterministic_solver, solve, wall_limit
from solver.games.dog.forest import Forest
from solver.games.dog.rules import (
    ROLL_1,
    SHOUT_HIT,
    SHOUT_SHRUG,
    DogGame,
    DogState,
    Phase,
)

__all__ = [
    "RouteAnswer",
    "hindsight_brute_force",
    "hindsight_graph",
    "labels_by_turn",
    "par_brute_force",
    "par_graph",
    "replay",
]


@dataclass(frozen=True)
class RouteAnswer:
    """An answer to a route question.

    ``turns`` is the turn in which the dog reaches the human, or ``None`` when no route wins within
    ``forest.turns`` (proven when ``status`` is ``"optimal"``/``"infeasible"``).
    ``route[t - 1]`` lists the labels of the actions taken in turn ``t`` (empty for skipped, rest
    and walled-in turns); ``actions`` is the same route as flat action ids. ``method`` names the
    solver (``"cp-sat rules model"``, ``"cp-sat"`` for the graph model, ``"brute-force"``, or the
    method a route query asked for); ``states`` counts the positions looked at (the rules model:
    its variables).
    """

    turns: int | None
    route: tuple[tuple[str, ...], ...] | None
    actions: tuple[int, ...] | None
    method: str
    status: str
    states: int

    @property
    def proven(self) -> bool:
        return self.status in ("optimal", "infeasible")


# -- the game graph -------------------------------------------------------------------------------
# A node is (state, k, j): the engine state and, for hindsight, how many rolls and shouts the route
# has consumed. Its key is (state.to_json(), k, j); for par k = j = 0 always.
Node = tuple[DogState, int, int]
Key = tuple[str, int, int]
Successors = Callable[[Node], list[tuple[int, Node]]]


def _par_successors(node: Node) -> list[tuple[int, Node]]:
    state, _, _ = node
    return [(a, (state.child(a), 0, 0)) for a in state.legal_actions()]


def _hindsight_successors(rolls: Sequence[int], shouts: Sequence[bool]) -> Successors:
    for value in rolls:
        if value not in (1, 2, 3):
            raise ValueError(f"a step roll reads 1, 2 or 3 steps, not {value!r}")

    def successors(node: Node) -> list[tuple[int, Node]]:
        state, k, j = node
        if state.phase == Phase.ROLL:
            if k >= len(rolls):
                return []
            budget = max(1, rolls[k] - 1) if state.stick else rolls[k]
            action = ROLL_1 + budget - 1
            return [(action, (state.child(action), k + 1, j))]
        if state.phase == Phase.SHOUT:
            if j >= len(shouts):
                return []
            action = SHOUT_HIT if shouts[j] else SHOUT_SHRUG
            return [(action, (state.child(action), k, j + 1))]
        return [(a, (state.child(a), k, j)) for a in state.legal_actions()]

    return successors


def _fast_key(node: Node) -> tuple:
    """The same equality as :func:`_key` (every field of ``to_dict``), cheaper to build."""
    st = node[0]
    return (
        st.pos,
        st.last_left,
        st.stamina,
        st.curiosity,
        st.turn,
        st.skip_next,
        st.stick,
        frozenset(st.resolved),
        frozenset(st.marked),
        st.budget,
        st.valve,
        frozenset(st.offered),
        int(st.phase),
        st.pending,
        st.won,
        node[1],
        node[2],
    )


def _root(forest: Forest) -> Node:
    return (DogGame(forest).new_initial_state(), 0, 0)


def labels_by_turn(forest: Forest, actions: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """Replay ``actions`` from the start; their labels grouped by turn (``RouteAnswer.route``)."""
    state = DogGame(forest).new_initial_state()
    turns: list[list[str]] = [[] for _ in range(forest.turns)]
    for action in actions:
        turns[state.turn - 1].append(state.action_to_string(action))
        state.apply_action(action)
    return tuple(tuple(t) for t in turns[: state.turn])


def replay(forest: Forest, actions: Sequence[int]) -> int | None:
    """The turn in which ``actions`` (legal from the start) win, or ``None`` if they do not."""
    state = DogGame(forest).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state.turn if state.is_terminal() and state.won else None


def _answer(
    forest: Forest, actions: list[int] | None, method: str, status: str, states: int
) -> RouteAnswer:
    if actions is None:
        return RouteAnswer(None, None, None, method, status, states)
    turn = replay(forest, actions)
    assert turn is not None, "a route that does not win"
    return RouteAnswer(
        turn, labels_by_turn(forest, actions), tuple(actions), method, status, states
    )


# -- brute force ----------------------------------------------------------------------------------
def _brute_force(
    forest: Forest, successors: Successors, deadline: float | None = None
) -> RouteAnswer:
    """BFS bucketed by turn: all positions of turn t are expanded before any of turn t + 1 (the
    search is the analysis's :func:`~solver.games.dog.analysis.turn_search.soonest_win`); past
    ``deadline`` (``time.monotonic()``) it stops unproven, status ``"budget"``."""
    from solver.games.dog.analysis.turn_search import soonest_win

    def moves(state: DogState, k: int, j: int) -> list[tuple[int, DogState, int, int]]:
        return [(a, child[0], child[1], child[2]) for a, child in successors((state, k, j))]

    def key(state: DogState, k: int, j: int) -> Key:  # every field of to_dict, and the counters
        return (state.to_json(), k, j)

    found = soonest_win(_root(forest)[0], moves, key, deadline=deadline)
    actions = list(found.actions) if found.actions is not None else None
    return _answer(forest, actions, "brute-force", found.status, found.nodes)


def par_brute_force(forest: Forest) -> RouteAnswer:
    """Par by breadth-first search over the reference engine (chance outcomes chosen)."""
    return _brute_force(forest, _par_successors)


def hindsight_brute_force(
    forest: Forest, rolls: Sequence[int], shouts: Sequence[bool]
) -> RouteAnswer:
    """The hindsight route by breadth-first search (sequences consumed as in the module doc)."""
    return _brute_force(forest, _hindsight_successors(rolls, shouts))


# -- CP-SAT ---------------------------------------------------------------------------------------
def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _enumerate(forest: Forest, successors: Successors, deadline: float | None = None):
    """Every reachable node: index per key, the node's state, and its arcs (action, child index);
    ``None`` once past ``deadline`` (a 16x16 forest of 255 turns held 8 GB after two minutes),
    looked at before each node is expanded (once every 4,096 nodes stored ran past it: the
    figures are in docs/command-line.md, ``forest dog route``)."""
    root = _root(forest)
    index: dict[tuple, int] = {_fast_key(root): 0}
    states: list[DogState] = [root[0]]
    arcs: list[list[tuple[int, int]]] = [[]]
    stack: list[tuple[int, Node]] = [(0, root)]
    while stack:
        if _past(deadline):
            return None
        i, node = stack.pop()
        if node[0].is_terminal():
            continue
        for action, child in successors(node):
            key = _fast_key(child)
            c = index.get(key)
            if c is None:
                c = index[key] = len(states)
                states.append(child[0])
                arcs.append([])
                stack.append((c, child))
            arcs[i].append((action, c))
    return states, arcs


def _alive(states: list[DogState], arcs: list[list[tuple[int, int]]]) -> list[bool]:
    """Which nodes can still reach a win (backward search from the winning terminals)."""
    parents: list[list[int]] = [[] for _ in states]
    for i, out in enumerate(arcs):
        for _, c in out:
            parents[c].append(i)
    alive = [s.is_terminal() and s.won for s in states]
    queue = deque(i for i, a in enumerate(alive) if a)
    while queue:
        c = queue.popleft()
        for i in parents[c]:
            if not alive[i]:
                alive[i] = True
                queue.append(i)
    return alive


def _cp_sat(
    forest: Forest, successors: Successors, time_limit: float, deadline: float | None = None
) -> RouteAnswer:
    graph = _enumerate(forest, successors, deadline)
    if graph is None:  # the wall-clock budget ran out while the graph was built
        return _answer(forest, None, "cp-sat", "unknown", 0)
    states, arcs = graph
    flow = _flow_model(states, arcs, deadline)
    if flow is None:  # ... or while its model was
        return _answer(forest, None, "cp-sat", "unknown", len(states))
    model, outgoing = flow
    solver = deterministic_solver(time_limit)
    wall_limit(solver, deadline)
    status = solve(solver, model)
    if status == cp_model.INFEASIBLE:
        return _answer(forest, None, "cp-sat", "infeasible", len(states))
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return _answer(forest, None, "cp-sat", "unknown", len(states))
    actions: list[int] = []
    i = 0
    while not states[i].is_terminal():
        chosen = [(a, x) for a, x in outgoing[i] if solver.boolean_value(x)]
        assert len(chosen) == 1, "the unit flow branches"
        action = chosen[0][0]
        actions.append(action)
        i = next(c for a, c in arcs[i] if a == action)
    name = "optimal" if status == cp_model.OPTIMAL else "feasible"
    return _answer(forest, actions, "cp-sat", name, len(states))


def _flow_model(
    states: list[DogState], arcs: list[list[tuple[int, int]]], deadline: float | None = None
) -> tuple[cp_model.CpModel, list[list[tuple[int, cp_model.IntVar]]]] | None:
    """The soonest win as a unit flow from the start (state 0) to one won state: a 0/1 variable
    an arc between live states (:func:`_alive`), flow kept at every other state, none into a
    lost one, the won state's turn minimised. Also each state's outgoing ``(action, arc)``.
    ``None`` once past ``deadline`` (looked at state by state: the model is built in Python)."""
    alive = _alive(states, arcs)
    model = cp_model.CpModel()
    incoming: list[list[cp_model.IntVar]] = [[] for _ in states]
    outgoing: list[list[tuple[int, cp_model.IntVar]]] = [[] for _ in states]
    for i, out in enumerate(arcs):
        if _past(deadline):
            return None
        if not alive[i]:
            continue
        for n, (action, c) in enumerate(out):
            if not alive[c]:
                continue  # a dead end: the arc could only carry flow nowhere
            x = model.new_bool_var(f"x{i}_{n}_a{action}")
            outgoing[i].append((action, x))
            incoming[c].append(x)
    wins: list[cp_model.IntVar] = []
    objective: list[cp_model.LinearExprT] = []
    for i, state in enumerate(states):
        if _past(deadline):
            return None
        into = sum(incoming[i])
        out_of = sum(x for _, x in outgoing[i])
        if i == 0:
            model.add(out_of == 1)
        elif state.is_terminal():
            if state.won:
                wins.extend(incoming[i])
                objective.extend(state.turn * x for x in incoming[i])
            else:
                for x in incoming[i]:
                    model.add(x == 0)
        else:
            model.add(into == out_of)
    model.add(sum(wins) == 1)
    model.minimize(sum(objective))
    return model, outgoing


def par_graph(forest: Forest, *, time_limit: float = 10.0) -> RouteAnswer:
    """Par with CP-SAT over the enumerated state graph (the rules model is
    :func:`dog.routes.par`): the fewest turns to the human when the player chooses every roll."""
    return _cp_sat(forest, _par_successors, time_limit)


def hindsight_graph(
    forest: Forest,
    rolls: Sequence[int],
    shouts: Sequence[bool],
    *,
    time_limit: float = 10.0,
) -> RouteAnswer:
    """The soonest win for known step rolls and shout outcomes, with CP-SAT over the enumerated
    state graph (see the module doc; the rules model is :func:`dog.routes.hindsight`)."""
    return _cp_sat(forest, _hindsight_successors(rolls, shouts), time_limit)
