"""Can the dog win whatever the dice do? A depth-first AND-OR proof search.

:func:`prove_guaranteed` answers the question of the ``guaranteed`` class of
:mod:`solver.games.dog.analysis.classify` (adversarial expectimax value 1) without expanding
every position:

- **OR** at decision nodes (steps, offers, squirrel edges): the node is won as soon as *one* child
  is proven won; the other children are never searched.
- **AND** at chance nodes (step rolls, shout rolls): the node is won only if *every* outcome is
  proven won, and it is lost at the first outcome that is not.
- A **transposition table** maps the kernel's full state bytes (``state._to_bytes()``, the
  ``DogState`` struct: equal states, equal bytes) to proven (True) or disproven (False). The dog
  game is a DAG (every step spends budget, every offer advances, every turn ends), and a state's
  value does not depend on the path to it, so a stored answer is final.
- **Move ordering**: decision children are tried nearest to the human first (the graph distance
  of the forest, through non-tree cells), then by the kernel heuristic (``state.heuristic()``), so
  winning lines are found first. Chance outcomes are tried worst first (the smallest roll, the
  shout hit), so refutations are found first.
- **Pruning** (sound, never wrong): the chance player may roll the smallest step every turn (one
  step; the stick cannot make it smaller). Against that, a dog at graph distance ``d`` from the
  human with ``b`` steps left in this move and ``r`` rolls to come can cover at most
  ``b + r + extra`` cells, where ``extra`` bounds what hops and forced runs add over the whole
  game (one hop plus the longest forced run per distraction of the forest: each is resolved at
  most once). A state with ``d`` larger than that is disproven without search.
- A **node budget** (``max_nodes`` expanded positions): when it runs out the answer is
  ``"unknown"``: never a wrong ``"win"`` or ``"no"``. A :func:`~solver.search.limit.
  search_deadline` in force (the hint service's analysis) ends it alike, read every
  :data:`DEADLINE_EVERY` nodes (unread, its nodes of Python ran well past the deadline:
  docs/analysis.md).

The answer carries the *strategy*: for every decision state proven won during the search, the
winning action (keyed by state bytes). Following it from the root wins against every roll
sequence; :func:`check_strategy` verifies that independently by walking every chance outcome.

It runs over the Python protocol of the compiled kernel (``clone``, ``apply_action``,
``legal_actions``, ``_to_bytes``); states of the reference engine work too (keyed by their JSON).

>>> import solver
>>> from solver.games.dog.forest import Forest, Terrain
>>> grid = [[Terrain.OPEN] * 3 for _ in range(2)]
>>> forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 0), turns=1)
>>> root = solver.load_game("dog", forest=forest).new_initial_state()
>>> proof = prove_guaranteed(root)
>>> proof.status, check_strategy(root, proof.strategy)
('win', True)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from solver.errors import OptionError
from solver.search.limit import deadline_passed

__all__ = ["ProofResult", "check_strategy", "prove_guaranteed"]

ROLL_1, ROLL_2, ROLL_3 = 10, 11, 12
SHOUT_SHRUG, SHOUT_HIT = 13, 14
PHASE_ROLL, PHASE_STEP = 0, 1
SQUIRREL_RUN, SCENT_RUN = 3, 2


@dataclass(frozen=True)
class ProofResult:
    """``status`` is ``"win"`` (the dog wins whatever the dice do), ``"no"`` (some roll sequence
    beats every strategy) or ``"unknown"`` (the node budget ran out). ``nodes`` counts expanded
    positions; ``strategy`` maps state keys to the winning action (complete when ``"win"``)."""

    status: str
    nodes: int
    strategy: dict[Any, int] = field(default_factory=dict, repr=False)

    @property
    def proven(self) -> bool:
        return self.status == "win"


DEADLINE_EVERY = 256
"""The nodes between two readings of the search deadline (a clock read is cheap beside 256
expansions)."""


class _Budget(Exception):
    pass


def _key(state: Any) -> Any:
    to_bytes = getattr(state, "_to_bytes", None)
    return to_bytes() if to_bytes is not None else state.to_json()


def _distances(forest: Any) -> dict[tuple[int, int], int]:
    """Graph distance to the human through non-tree cells (missing: unreachable)."""
    from solver.games.dog.analysis.soonest import distances_to_human

    return distances_to_human(forest)


def _extra_reach(forest: Any) -> int:
    """Cells hops and forced runs can add over a whole game (each distraction resolves once)."""
    from solver.games.dog.forest import Terrain

    extra = 0
    for cell in forest.distractions():
        kind = forest.terrain(cell)
        if kind == Terrain.SQUIRREL:
            extra += 1 + SQUIRREL_RUN
        elif kind in (Terrain.DOG, Terrain.STICK):
            extra += 1
        else:  # a scent trail
            extra += 1 + SCENT_RUN
    return extra


STEP_COST = {1: 1, 2: 2}  # undergrowth, puddle
SHOUT_COST = 3
REST_STAMINA = 3
MAX_STAMINA = 6
DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W


def _run_cells(forest: Any, cell: tuple[int, int], delta: tuple[int, int], length: int) -> list:
    """The cells a forced run from ``cell`` enters (it stops before a tree or the grid edge)."""
    from solver.games.dog.forest import Terrain

    cells = []
    r, c = cell
    for _ in range(length):
        r, c = r + delta[0], c + delta[1]
        if not (0 <= r < forest.height and 0 <= c < forest.width):
            break
        if forest.cells[r][c] == Terrain.TREE:
            break
        cells.append((r, c))
    return cells


def turns_needed(forest: Any) -> dict[tuple[tuple[int, int], int], int]:
    """A lower bound on the turns the dog needs, at a roll, against the smallest roll and every
    shout hit: ``{(cell, stamina): turns}`` (missing: never).

    A relaxation of the game against that chance player: one step a turn; a step pays its
    terrain and 3 per arrow over the entered cell; a turn starting at stamina 0 is a rest (the
    stamina becomes 3); after a step the dog may jump for free to any cell a hop onto an adjacent
    (or the entered) distraction and its forced run could reach, whether or not the distraction
    is still there, without the skips and stamina costs of distractions; no-reversal, valves,
    offers and curiosity are ignored. Every real play against that chance player maps to a play
    of the relaxation taking at least as many turns, so a roll state whose bound exceeds the
    rolls left cannot be won against every roll sequence. Computed by Dijkstra backwards from
    the win over the (cell, stamina) graph.
    """
    import heapq

    incoming = _relaxation_edges(forest)
    best: dict[Any, int] = {_WIN: 0}
    heap: list[tuple[int, int, Any]] = [(0, 0, _WIN)]
    tie = 0
    while heap:
        d, _, node = heapq.heappop(heap)
        if d > best.get(node, 1 << 30):
            continue
        for prev, w in incoming.get(node, ()):
            nd = d + w
            if nd < best.get(prev, 1 << 30):
                best[prev] = nd
                tie += 1
                heapq.heappush(heap, (nd, tie, prev))
    best.pop(_WIN)
    return best


_WIN = None
"""The node of :func:`turns_needed`'s graph where the dog has reached the human."""


def _relaxation_edges(forest: Any) -> dict[Any, list[tuple[Any, int]]]:
    """:func:`turns_needed`'s graph, reversed: ``(cell', stamina') <- (cell, stamina)`` with a
    weight of 1 or 2 turns (2: the turn after ends at stamina 0, and a rest follows)."""
    human = tuple(forest.human)
    incoming: dict[Any, list[tuple[Any, int]]] = {}
    cells = [(r, c) for r in range(forest.height) for c in range(forest.width)]
    for cell in cells:
        if not _open_cell(forest, cell) or cell == human:
            continue
        for dr, dc in DELTAS:
            n = (cell[0] + dr, cell[1] + dc)
            if not _open_cell(forest, n):
                continue
            cost = STEP_COST.get(int(forest.terrain(n)), 0)
            cost += SHOUT_COST * len(forest.arrows_at(n))
            targets = {n} if n == human else {n} | _jumps(forest, n, human)
            for s in range(1, MAX_STAMINA + 1):
                for x in targets:
                    node, turns = _landing(x, max(0, s - cost), human)
                    incoming.setdefault(node, []).append(((cell, s), turns))
    return incoming


def _landing(x: tuple[int, int], left: int, human: tuple[int, int]) -> tuple[Any, int]:
    """The node a move ending on ``x`` with ``left`` stamina reaches, and its turns: the win
    (1), a rest at :data:`REST_STAMINA` after a turn at 0 stamina (2), else ``(x, left)`` (1)."""
    if x == human:
        return _WIN, 1
    if left == 0:
        return (x, REST_STAMINA), 2
    return (x, left), 1


def _open_cell(forest: Any, cell: tuple[int, int]) -> bool:
    """Whether ``cell`` is in the grid and not a tree."""
    from solver.games.dog.forest import Terrain

    r, c = cell
    inside = 0 <= r < forest.height and 0 <= c < forest.width
    return inside and forest.cells[r][c] != Terrain.TREE


def _jumps(forest: Any, cell: tuple[int, int], human: tuple[int, int]) -> set[tuple[int, int]]:
    """Where hops and forced runs from a dog standing on ``cell`` after a step can end up."""
    from solver.games.dog.forest import Terrain

    out: set[tuple[int, int]] = set()
    r, c = cell
    for x in [cell] + [(r + dr, c + dc) for dr, dc in DELTAS]:
        if not _open_cell(forest, x) or not forest.terrain(x).is_distraction:
            continue
        kind = forest.terrain(x)
        out.add(x)
        if kind == Terrain.SQUIRREL:
            runs = [_run_cells(forest, x, d, SQUIRREL_RUN) for d in DELTAS]
        elif Terrain.SCENT_N <= kind <= Terrain.SCENT_W:
            runs = [_run_cells(forest, x, DELTAS[kind - Terrain.SCENT_N], SCENT_RUN)]
        else:
            runs = []
        for run in runs:
            for y in run:
                out.add(y)
                if y == human:
                    break
    return out


def _turns_needed_of(state: Any) -> dict[tuple[tuple[int, int], int], int]:
    """:func:`turns_needed` of the state's forest: computed by the kernel for a kernel state
    (``solver._ext.dog.relaxation_turns``, the same Dijkstra in C; the tests hold the two to each
    other), by :func:`turns_needed` otherwise."""
    game = state.get_game()
    if getattr(game, "engine", None) != "kernel":
        return turns_needed(state.forest)
    from solver.games.dog.kernel import extension_module

    flat = extension_module().relaxation_turns(game)
    width = state.forest.width
    return {
        (((i // 7) // width, (i // 7) % width), i % 7): turns
        for i, turns in enumerate(flat)
        if turns >= 0
    }


def prove_guaranteed(state: Any, max_nodes: int = 200_000) -> ProofResult:
    """Prove or disprove that the dog wins from ``state`` against every chance outcome.

    ``max_nodes`` bounds the expanded positions (``"unknown"`` when it runs out). See the module
    doc for the search; the result's strategy is checked by :func:`check_strategy`.
    """
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise OptionError(f"max_nodes must be a whole number ≥ 1, not {max_nodes!r}")
    prover = _Prover(state, max_nodes)
    if state.is_terminal():
        return ProofResult("win" if state.won else "no", 0, {})
    limit = sys.getrecursionlimit()
    turns = state.forest.turns
    depth_needed = 64 * (turns + 2) + 200  # a turn is at most a roll, 3 steps, shouts and offers
    try:
        if depth_needed > limit:
            sys.setrecursionlimit(depth_needed)
        try:
            won = prover.solve(state)
        except _Budget:
            return ProofResult("unknown", prover.nodes, {})
    finally:
        sys.setrecursionlimit(limit)
    return ProofResult("win" if won else "no", prover.nodes, prover.strategy if won else {})


_NEVER = 1 << 30


class _Prover:
    """One :func:`prove_guaranteed` search: the forest's bounds, the transposition table, the
    strategy found and the positions expanded."""

    def __init__(self, state: Any, max_nodes: int) -> None:
        forest = state.forest
        self.turns = forest.turns
        self.dist = _distances(forest)
        self.extra = _extra_reach(forest)
        self.need = _turns_needed_of(state)
        self.max_nodes = max_nodes
        self.table: dict[Any, bool] = {}
        self.strategy: dict[Any, int] = {}
        self.nodes = 0

    def reach_ok(self, s: Any) -> bool:
        """Whether the human may still be in reach if every roll is the smallest."""
        d = self.dist.get(tuple(s.pos))
        if d is None:
            return False
        if d == 0:
            return True
        # rolls still to come if every roll is the smallest (one step each)
        rolls = self.turns - s.turn + (1 if s.phase == PHASE_ROLL else 0)
        steps = s.budget if s.phase != PHASE_ROLL else 0
        return d <= steps + rolls + self.extra

    def hopeless(self, s: Any) -> bool:
        """Disproven without search: out of reach, or (at a roll) more turns needed than left."""
        return not self.reach_ok(s) or (
            s.phase == PHASE_ROLL
            and self.need.get((tuple(s.pos), s.stamina), _NEVER) > self.turns - s.turn + 1
        )

    def order_key(self, child: Any) -> tuple[int, float]:
        """Decision children: a win first, then nearest the human, then the kernel heuristic."""
        if child.is_terminal():
            return (-1 if child.won else _NEVER, 0.0)
        heuristic = getattr(child, "heuristic", None)  # the kernel's; the reference has none
        return (self.dist.get(tuple(child.pos), _NEVER), -heuristic() if heuristic else 0.0)

    def children(self, s: Any) -> list[tuple[tuple[int, float], int, Any]]:
        """A decision node's children ``(order key, action, state)`` in the order tried."""
        children = []
        for action in s.legal_actions():
            child = s.clone()
            child.apply_action(action)
            children.append((self.order_key(child), action, child))
        children.sort(key=lambda t: t[0])
        return children

    def solve(self, s: Any) -> bool:
        """Whether the dog wins from ``s`` whatever the dice do (AND at chance, OR at
        decisions; one frame a ply: the recursion limit counts them)."""
        key = _key(s)
        known = self.table.get(key)
        if known is not None:
            return known
        if self.hopeless(s):
            self.table[key] = False
            return False
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Budget
        if self.nodes % DEADLINE_EVERY == 0 and deadline_passed():
            raise _Budget
        if s.is_chance_node():
            # worst first: the smallest roll, the shout hit
            actions = s.legal_actions()
            actions.sort(key=lambda a: -a if a >= SHOUT_SHRUG else a)
            result = True
            for action in actions:
                child = s.clone()
                child.apply_action(action)
                if not (child.won if child.is_terminal() else self.solve(child)):
                    result = False
                    break
        else:
            result = False
            for _, action, child in self.children(s):
                if bool(child.won) if child.is_terminal() else self.solve(child):
                    self.strategy[key] = action
                    result = True
                    break
        self.table[key] = result
        return result


def check_strategy(state: Any, strategy: dict[Any, int], max_nodes: int = 10_000_000) -> bool:
    """Whether following ``strategy`` from ``state`` wins against every chance outcome.

    Walks every chance outcome (positions reached twice are checked once); at a decision state
    the strategy must name a legal action. Independent of the proof search's table and pruning.
    """
    seen: set[Any] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        if s.is_terminal():
            if not s.won:
                return False
            continue
        key = _key(s)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > max_nodes:
            raise OptionError(f"check_strategy: more than {max_nodes} positions")
        if s.is_chance_node():
            actions = [a for a, _ in s.chance_outcomes()]
        else:
            action = strategy.get(key)
            if action is None or action not in s.legal_actions():
                return False
            actions = [action]
        for action in actions:
            stack.append(s.child(action))
    return True
