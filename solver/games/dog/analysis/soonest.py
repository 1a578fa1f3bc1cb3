"""The soonest wins of one forest: the par (every chance outcome chosen) and the hindsight win
of a clairvoyant world (the dice known in advance), in pure Python and compiled.

Both are a breadth-first search bucketed by turn
(:func:`~solver.games.dog.analysis.turn_search.soonest_win`) over nodes ``(state, k, j)``: a dog
state and how many step rolls and shout rolls the route has consumed. Positions too far from the
human for the turns left are pruned: the graph distance (through non-tree cells) exceeds the turns
left times the most one turn can cover (:func:`turn_reach`).

- :func:`first_win` is the pure-Python search, over either engine's states: the reference twin.
- :class:`SoonestWins` answers the same questions for one forest, built once: on the compiled
  kernel (the default engine) it runs ``solver._ext.dog.soonest_win``, the C transcription of the
  same search (same nodes, same order, same key, same pruning and the same node count), otherwise
  :func:`first_win`. ``tests/games/dog/test_analysis_soonest.py`` holds the two to each other on
  many forests and worlds: route, status and node count.

>>> from solver.games.dog.forest import Forest, Terrain
>>> grid = [[Terrain.OPEN] * 3 for _ in range(2)]
>>> forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 2), turns=2)
>>> wins = SoonestWins(forest)
>>> wins.par(1000).turns, wins.world([1, 3], [], 1000).turns
(1, 2)
>>> wins.world([1, 3], [], 1000) == SoonestWins(forest, compiled=False).world([1, 3], [], 1000)
True
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.errors import OptionError
from solver.games.dog import SPEC
from solver.games.dog.analysis.turn_search import soonest_win
from solver.games.dog.forest import Cell, Forest, Terrain
from solver.games.dog.rules import ROLL_1, SHOUT_HIT, SHOUT_SHRUG, Phase

__all__ = [
    "STEP_REACH",
    "FirstWin",
    "SoonestWins",
    "clairvoyant_win",
    "distances_to_human",
    "first_win",
    "par_chooser",
    "sample_world",
    "turn_reach",
    "world_chooser",
    "world_shape",
]

STEP_REACH = 3
"""The most steps a move can take (a roll of 5-6)."""


@dataclass(frozen=True)
class FirstWin:
    """The soonest win of a breadth-first search: ``turns`` (None: none found), the actions of
    the route, ``status`` (``"optimal"``, ``"infeasible"`` or ``"budget"``) and nodes stored."""

    turns: int | None
    actions: tuple[int, ...]
    status: str
    nodes: int


# -- geometry --------------------------------------------------------------------------------------
def distances_to_human(forest: Forest) -> dict[Cell, int]:
    """The graph distance from every cell to the human through non-tree cells (orthogonal steps);
    cells that cannot reach the human are missing."""
    human: Cell = (forest.human[0], forest.human[1])
    dist: dict[Cell, int] = {human: 0}
    queue = deque([human])
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if (
                0 <= nr < forest.height
                and 0 <= nc < forest.width
                and (nr, nc) not in dist
                and forest.cells[nr][nc] != Terrain.TREE
            ):
                dist[(nr, nc)] = dist[(r, c)] + 1
                queue.append((nr, nc))
    return dist


def turn_reach(forest: Forest) -> int:
    """The most graph distance one turn can cover: steps, a hop and a forced run."""
    kinds = {forest.terrain(c) for c in forest.distractions()}
    if not kinds:
        return STEP_REACH
    run = 3 if Terrain.SQUIRREL in kinds else (2 if kinds - {Terrain.DOG, Terrain.STICK} else 0)
    return STEP_REACH + 1 + run


# -- the pure-Python search (the reference twin) ---------------------------------------------------
# choose(state, k, j) -> [(action, k', j')]: the moves tried from a node
Chooser = Callable[[Any, int, int], list[tuple[int, int, int]]]


def par_chooser(state: Any, k: int, j: int) -> list[tuple[int, int, int]]:
    """Every legal action, chance outcomes included (the par question)."""
    return [(a, 0, 0) for a in state.legal_actions()]


def world_chooser(forest: Forest, rolls: Sequence[int], dice: Sequence[int]) -> Chooser:
    """The moves of a clairvoyant world: the k-th step roll reads ``rolls[k]`` (the stick makes
    a reading r ``max(1, r - 1)``), the j-th shout is shrugged off iff ``dice[j]`` is under the
    arrow's number; decisions stay open."""

    def choose(state: Any, k: int, j: int) -> list[tuple[int, int, int]]:
        phase = state.phase
        if phase == Phase.ROLL:
            if k >= len(rolls):
                return []
            budget = max(1, rolls[k] - 1) if state.stick else rolls[k]
            return [(ROLL_1 + budget - 1, k + 1, j)]
        if phase == Phase.SHOUT:
            if j >= len(dice):
                return []
            number = dict(forest.arrows_at(tuple(state.pos)))[state.pending]
            action = SHOUT_SHRUG if dice[j] < number else SHOUT_HIT
            return [(action, k, j + 1)]
        return [(a, k, j) for a in state.legal_actions()]

    return choose


def _par_moves(state: Any, k: int, j: int) -> list[tuple[int, Any, int, int]]:
    """:func:`par_chooser` with the children made (the par search's hot loop)."""
    child = state.child
    return [(a, child(a), 0, 0) for a in state.legal_actions()]


def _moves(choose: Chooser) -> Any:
    if choose is par_chooser:
        return _par_moves

    def moves(state: Any, k: int, j: int) -> list[tuple[int, Any, int, int]]:
        return [(a, state.child(a), k2, j2) for a, k2, j2 in choose(state, k, j)]

    return moves


def first_win(
    forest: Forest, choose: Chooser, max_nodes: int, engine: str | None = None
) -> FirstWin:
    """Breadth-first search, bucketed by turn, for the soonest win (chance fixed by ``choose``;
    the search itself is :func:`~solver.games.dog.analysis.turn_search.soonest_win`), in Python.

    Keys are the full state plus the sequence counters, so the first win found is in the smallest
    turn; positions too far from the human for the turns left are pruned (module doc).
    """
    game = SPEC.build(engine=engine, forest=forest)
    root = game.new_initial_state()
    distance = distances_to_human(forest)
    reach = turn_reach(forest)
    turns = forest.turns

    def hopeless_node(state: Any) -> bool:
        d = distance.get(tuple(state.pos))
        return d is None or d > reach * (turns - state.turn + 1)

    def key(state: Any, k: int, j: int) -> Any:
        return (state._to_bytes(), k, j)

    def json_key(state: Any, k: int, j: int) -> Any:
        return (state.to_json(), k, j)

    found = soonest_win(
        root,
        _moves(choose),
        key if hasattr(root, "_to_bytes") else json_key,
        prune=hopeless_node,
        max_nodes=max_nodes,
        store_losses=False,
    )
    if found.actions is None:
        return FirstWin(None, (), found.status, found.nodes)
    actions = found.actions
    state = root.clone()
    for action in actions:
        state.apply_action(action)
    assert state.is_terminal() and state.won
    return FirstWin(state.turn, actions, "optimal", found.nodes)


def world_shape(forest: Forest) -> tuple[int, int]:
    """How many step-roll readings and shout dice a world of ``forest`` holds: ``turns`` readings
    (at most one roll a turn) and enough dice for the most shout rolls a game can have (3 steps a
    turn, one roll per arrow over a cell)."""
    return forest.turns, forest.turns * STEP_REACH * len(forest.shouters)


def sample_world(forest: Forest, rng: random.Random) -> tuple[list[int], list[int]]:
    """One world for the clairvoyant bound: step-roll readings (``randint(1, 3)``) and shout d6
    values (``randint(1, 6)``), as many as :func:`world_shape` says, the readings first."""
    nrolls, ndice = world_shape(forest)
    rolls = [rng.randint(1, 3) for _ in range(nrolls)]
    dice = [rng.randint(1, 6) for _ in range(ndice)]
    return rolls, dice


def _check_world(rolls: Sequence[int], dice: Sequence[int]) -> None:
    for r in rolls:
        if r not in (1, 2, 3):
            raise OptionError(f"a step-roll reading is 1, 2 or 3, not {r!r}")
    for d in dice:
        if d not in range(1, 7):
            raise OptionError(f"a shout die reads 1..6, not {d!r}")


# -- one forest, both searches ---------------------------------------------------------------------
class SoonestWins:
    """The par and the clairvoyant worlds of one forest (module doc).

    ``compiled`` chooses the search: ``None`` (default) the compiled one when the game runs on the
    kernel engine, ``True`` the compiled one (the kernel engine is required), ``False`` the
    pure-Python :func:`first_win`.
    """

    def __init__(
        self, forest: Forest, engine: str | None = None, *, compiled: bool | None = None
    ) -> None:
        self.forest = forest
        self.engine = engine
        self.root = SPEC.build(engine=engine, forest=forest).new_initial_state()
        on_kernel = self.root.get_game().engine == "kernel"
        if compiled and not on_kernel:
            raise OptionError("the compiled soonest-win search runs on the kernel engine only")
        self.compiled = on_kernel if compiled is None else compiled
        self.reach = turn_reach(forest)
        self._search: Any = None
        if self.compiled:
            from solver.games.dog.kernel import extension_module

            self._search = extension_module().soonest_win

    def par(self, max_nodes: int) -> FirstWin:
        """The soonest win with every chance outcome chosen (the par), storing at most
        ``max_nodes`` nodes."""
        if not self.compiled:
            return first_win(self.forest, par_chooser, max_nodes, self.engine)
        return self._answer(self._search(self.root, None, None, max_nodes, self.reach))

    def world(self, rolls: Sequence[int], dice: Sequence[int], max_nodes: int) -> FirstWin:
        """The soonest win in one world (rolls and shout dice known in advance)."""
        _check_world(rolls, dice)
        if not self.compiled:
            chooser = world_chooser(self.forest, rolls, dice)
            return first_win(self.forest, chooser, max_nodes, self.engine)
        return self._answer(self._search(self.root, rolls, dice, max_nodes, self.reach))

    @staticmethod
    def _answer(found: tuple[str, int, tuple[int, ...] | None, int | None]) -> FirstWin:
        status, nodes, actions, turn = found
        return FirstWin(turn, actions or (), status, nodes)


def clairvoyant_win(
    forest: Forest,
    rolls: Sequence[int],
    dice: Sequence[int],
    max_nodes: int = 200_000,
    engine: str | None = None,
    *,
    compiled: bool | None = None,
) -> FirstWin:
    """The soonest win in one world (rolls and shout dice known in advance; ``compiled``: see
    :class:`SoonestWins`)."""
    return SoonestWins(forest, engine, compiled=compiled).world(rolls, dice, max_nodes)
