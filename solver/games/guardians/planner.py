"""Forest guardians' ``planner`` agent: a fast, deterministic turn planner for solo play.

Why: MCTS with heuristic leaves at a budget the calibration can afford barely gets pawns moving
(docs/rules/guardians.md §13); the levels' thresholds (60-95) need a
player that builds colour paths on purpose and keeps re-using them. The planner plans a whole
turn at once, at the growth step:

1. **Candidates.** Every single placement of a pool tile on a frontier cell is scored by how
   much it brings the pawns' missions closer (see *mission prospects* below); the best singles
   are paired (and extended by a second tile on the cells the first one opens) and the best
   pairs, plus the best ``take 1 tile`` placements (a new pawn on a mission side), go on.
2. **Missions.** For each candidate the rest of the turn is searched exactly: every order of
   walks, chains included, stopping anywhere (a memoised search over forests and pawns, the
   connectivity rule checked on each removal); each end of the turn is valued as the points won
   plus the *position value*.
3. The best candidate's actions are played one by one (the placements, the pawn, the walks);
   a state the plan did not expect (another caller, a different turn) is planned afresh.

**Position value** = the mission prospects of the pawns + ``TILE_VALUE`` per forest-side tile
(material for later walks) + ``EDGE_VALUE`` per side shared by two tiles (compact forests have
more paths and fewer cut vertices) + ``RESERVE_VALUE`` per pawn still in the reserve + a bonus
per level task newly met (each adds a round); all of it only while rounds remain after the turn.

**Mission prospects.** For a pawn on mission tile M with sequence s worth p points, every path
of ``len(s)`` distinct cells from M (forwards or backwards reading) whose cells are forest-side
tiles of the right colour or empty cells is a *template*; its deficiency d is the number of empty
cells (at most :data:`MAX_DEFICIENCY`), which the next turns must fill with tiles of the needed
colours. The prospect is ``p * max over templates of WEIGHT[d] * q``, q the chance that the
needed colours are in the next pool (the tiles left in this pool, minus the round track's colour
removal, plus the refill drawn from the bag's colour mix). A complete template (d = 0) on a cut
vertex counts as d = 1. The start tile's A-B-C-D-E-A walk treats empty cells as wildcards.

**Hidden backs** (the default rule) are met by expectation: a pawn whose walk ends on a tile not
yet flipped stands on a mission nobody has seen, valued as the mean prospect over the backs still
unseen for that tile's face (by their exact odds; no chain goes on from it in the plan); ``take 1
tile`` is valued, per pool tile, as the mean over its possible backs of the best placement for
each; after the flip the placement is planned for the back it shows.

On kernel states the template search runs in C (``ext/guardians_plan.pyx``, the exact twin of
:func:`_prospect`, which reference states keep): the same values, several times faster
(docs/rules/guardians.md §13 has the timings).

The agent is deterministic: ties go to the first candidate in a fixed order, and nothing is
random (the seed only seeds the pools a reset is valued with). Under a
:func:`~solver.search.limit.search_deadline` that has passed (a table session's step out of its
seconds) it stops scoring pairs (one best single's scored at least) and searching candidate
turns to their end (one at least), values no reset, and plays the best found so far; without
one (the CLI, the benches) it plays as it always did, move for move.

>>> import solver
>>> opened = solver.game_spec("guardians").open("guardians/order-matters")
>>> agent = planner_agent(opened.game)
>>> opened.state.action_to_string(agent(opened.state))   # the chain first: 2 missions, not 1
'walk green pawn: (1,2) -> (0,2) (0,3)'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from solver.games.guardians.actions import END_TURN, PAWN_BASE, PAWNS, RESET, TAKE_ONE, TAKE_TWO
from solver.games.guardians.board import Cell, neighbours
from solver.games.guardians.connectivity import splits_forest
from solver.games.guardians.scoring import combo_card
from solver.games.guardians.templates import (
    MAX_DEFICIENCY,
    START_BUDGET,
    START_FILL,
    WEIGHT,
    TemplateWeights,
    colour_odds,
    prospect,
    shared_sides,
)
from solver.games.guardians.tiles import START_ID, START_WALK
from solver.games.guardians.walks import colour_walks
from solver.kernels import CompiledModule
from solver.search.limit import deadline_passed
from solver.spec import Agent

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansState

__all__ = [
    "EDGE_VALUE",
    "FILL_COST",
    "MAX_DEFICIENCY",
    "PLANNER_BREADTH",
    "RESERVE_VALUE",
    "START_FILL",
    "TASK_VALUE",
    "TILE_VALUE",
    "WEIGHT",
    "Board",
    "Breadth",
    "TurnPlan",
    "TurnPlayer",
    "first_best",
    "plan_turn",
    "planner_agent",
    "projected_score",
    "turn_options",
    "wants_reset",
]

#: The cost of each empty cell a template needs (the placement it takes from other pawns).
FILL_COST = 0.0
TILE_VALUE = 0.6
EDGE_VALUE = 0.15
RESERVE_VALUE = 2.5
#: The value of a pawn in the forest per round left (it can complete a mission each round).
PAWN_STREAM = 0.25
TASK_VALUE = 7.0
#: Before this round a pawn is put in only if it completes a mission at once (the forest first).
OPENING_ROUNDS = 3
#: Fresh pools sampled to value a reset, and how much better than the pool at hand they must be.
RESET_SAMPLES = 3
RESET_MARGIN = 1.0
RESET_ANY = False
#: How many single placements are paired, how many pairs and take-1 placements are searched.
SINGLES = 20
PAIRS = 20
TAKE_ONES = 8
#: How many pairs that complete a mission outright are searched besides.
COMPLETING = 16
#: Hidden backs: the placements searched per possible back of a tile to flip.
FLIP_CELLS = 3


@dataclass(frozen=True)
class Breadth:
    """How many candidate turns the planner searches to the end of the turn: the single
    placements paired (``singles``), the pairs searched by their cheap score (``pairs``) and
    besides among those completing a mission (``completing``), the ``take 1 tile`` placements
    (``take_ones``), and per possible back of a tile to flip, its placements (``flip_cells``).
    The planner's own is :data:`PLANNER_BREADTH`; a broader search costs more time."""

    singles: int = SINGLES
    pairs: int = PAIRS
    completing: int = COMPLETING
    take_ones: int = TAKE_ONES
    flip_cells: int = FLIP_CELLS


PLANNER_BREADTH = Breadth()


@dataclass
class Board:
    """The planner's light copy of the solo player's forest.

    ``col`` maps forest-side cells to their colour, ``mis`` mission-side cells to their tile id,
    ``pawns`` the four pawn cells (``None`` in the reserve); ``gained`` the mission points won
    this turn, ``done`` the turn's completed missions as ``(tile, pawn, walk length)``.
    """

    col: dict[Cell, str]
    mis: dict[Cell, int]
    pawns: list[Cell | None]
    gained: int = 0
    done: list[tuple[int, int, int]] = field(default_factory=list)

    def copy(self) -> Board:
        return Board(dict(self.col), dict(self.mis), list(self.pawns), self.gained, list(self.done))

    def key(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.mis.items())), tuple(self.pawns))


@dataclass
class Context:
    """What the valuation needs besides the board: tiles, rounds, the next pool's colours."""

    seq: dict[int, str]
    points: dict[int, int]
    rounds_left: int
    avail: dict[str, float]
    pile: list[tuple[int, int]]
    tasks: list[Any]
    tasks_done: list[bool]
    walk_length: dict[int, int]
    cache: dict[tuple[Any, ...], float] = field(default_factory=dict)
    odds: dict[int, list[tuple[str, float]]] = field(default_factory=dict)
    """Hidden backs: for a tile not yet flipped, its possible missions with their odds."""
    supply: tuple[int, ...] | None = None
    """2-4 players, the multi-player reading (``aware``): the combo cards left (+2..+5), so a
    turn's missions are valued with the card they take; ``None``: cards not counted."""
    turn_missions: int = 0
    """Missions already completed this turn (with :attr:`supply`)."""
    compiled: Any = None
    """On a kernel state: the compiled prospect's weights (:func:`compiled_weights`), and the
    prospects are searched in C; ``None``: in Python (the twin)."""

    def with_back(self, tile: int, sequence: str) -> Context:
        """This context with ``tile`` showing ``sequence`` (a reveal supposed)."""
        seq = dict(self.seq)
        seq[tile] = sequence
        walk_length = dict(self.walk_length)
        walk_length[tile] = len(sequence)
        return replace(self, seq=seq, walk_length=walk_length, cache=self.cache)


def _hidden(tile: int, ctx: Context) -> bool:
    """Whether the mission of ``tile`` is face down (hidden backs, not flipped yet)."""
    return tile != START_ID and not ctx.seq[tile]


def back_odds(state: GuardiansState, tile: int) -> list[tuple[str, float]]:
    """The missions ``tile`` (not flipped yet) may show, with their exact odds."""
    game = state.game
    return [(game.back(u), n / total) for u, n, total in state.unseen_backs(game.face_of(tile))]


def board_of(state: GuardiansState, player: int | None = None) -> Board:
    """The planner's board of ``player`` (default: the player to move)."""
    me = state.people[state.current if player is None else player]
    col: dict[Cell, str] = {}
    mis: dict[Cell, int] = {}
    for cell, face in me.forest.items():
        if face.mission:
            mis[cell] = face.tile
        else:
            colour = state.game.tile(face.tile).colour
            col[cell] = colour or ""
    return Board(col, mis, list(me.pawns))


def _context(
    state: GuardiansState, pool_after: list[int], memo: dict[Any, Any] | None = None
) -> Context:
    """The valuation's context for the player to move, with ``pool_after`` left in the pool.
    ``memo`` (a dictionary kept for one state, unchanged meanwhile) shares the work between calls:
    all but the next pool's odds depends on the state alone, and equal pools left give one
    context (so one prospect cache); the values are the same as without it."""
    if memo is None:
        memo = {}
    key = tuple(pool_after)
    ctx: Context | None = memo.get(key)
    if ctx is None:
        base = memo.get("base")
        if base is None:
            base = _base_context(state, bool(memo.get("aware")), memo.get("player"))
            memo["base"] = base
        ctx = replace(base, avail=_next_pool(state, pool_after, memo), cache={})
        memo[key] = ctx
    return ctx


def _base_context(state: GuardiansState, aware: bool = False, player: int | None = None) -> Context:
    """The context of :func:`_context` without the next pool's odds (``avail`` empty).
    ``aware`` (2-4 players): the turns left estimated from the bag and the mission race
    (:func:`~solver.games.guardians.evaluation.future_turns`) rather than a fixed 6, and the
    combo cards counted. ``player``: whose context (default: the player to move)."""
    who = state.current if player is None else player
    game = state.game
    known = state.catalogue
    seq = {t: tile.sequence for t, tile in known.items()}
    points = {t: tile.points for t, tile in known.items()}
    walk_length = {t: tile.walk_length for t, tile in known.items()}
    rounds_left = max(0, state.rounds() - state.round) if game.solo else 6
    supply: tuple[int, ...] | None = None
    if aware and not game.solo:
        from solver.games.guardians.evaluation import future_turns

        rounds_left = future_turns(state, who)
        supply = tuple(state.supply)
    me = state.people[who]
    level = game.level
    tasks = list(level.tasks) if level is not None else []
    done = list(state.tasks_done) if level is not None else []
    odds: dict[str, list[tuple[str, float]]] = {}
    hidden: dict[int, list[tuple[str, float]]] = {}
    mine = set(state.pool)
    mine.update(f.tile for f in me.forest.values())
    for t, tile in known.items():
        if tile.hidden and t in mine:
            if tile.face not in odds:
                odds[tile.face] = back_odds(state, t)
            hidden[t] = odds[tile.face]
    return Context(
        seq, points, rounds_left, {}, [(t, p) for t, p, _ in me.pile], tasks, done,
        walk_length, odds=hidden, supply=supply,
        turn_missions=state.turn_missions if who == state.current else 0,
        compiled=compiled_weights() if getattr(game, "engine", "") == "kernel" else None,
    )  # fmt: skip


def _next_pool(
    state: GuardiansState, pool_after: list[int], memo: dict[Any, Any] | None = None
) -> dict[str, float]:
    """The chance that each colour is in the next turn's pool, given the tiles left in this one."""
    game = state.game
    bag = memo.get("bag") if memo is not None else None
    if bag is None:
        bag = [game.tile(t).colour for t in state.bag]
        if memo is not None:
            memo["bag"] = bag
    return colour_odds(bag, [game.tile(t).colour for t in pool_after])


# -- the rules on the light board -----------------------------------------------------------------
def _splits(board: Board, removed: Cell) -> bool:
    """Whether removing ``removed`` splits the forest (the connectivity rule)."""
    return splits_forest([*board.col, *board.mis], removed)


def _walks(board: Board, start: Cell, tile: int, ctx: Context) -> list[tuple[Cell, ...]]:
    """Every walk completing the mission on ``start`` (the rules' search,
    :func:`~solver.games.guardians.walks.colour_walks`, on the light board), in cell order.

    Memoised on the colours of the cells the walk can reach: the planner asks the same
    question of tens of thousands of boards a turn that differ only far from the pawn."""
    if _hidden(tile, ctx):
        return []
    sequence = None if tile == START_ID else ctx.seq[tile]
    cells = _walk_span(start, START_WALK if sequence is None else len(sequence))
    key = (start, sequence, tuple(map(board.col.get, cells)))
    found = _WALKS.get(key)
    if found is None:
        if len(_WALKS) >= WALKS_CACHED:
            _WALKS.clear()
        found = _WALKS[key] = sorted(colour_walks(board.col, start, sequence))
    return found


WALKS_CACHED = 1 << 13
"""The most walk answers :func:`_walks` keeps before it starts again (about 7 MB; a game
asks about 2,000 different ones)."""
_WALKS: dict[tuple[Any, ...], list[tuple[Cell, ...]]] = {}


@functools.lru_cache(maxsize=4096)
def _walk_span(start: Cell, length: int) -> tuple[Cell, ...]:
    """The cells a walk of ``length`` steps from ``start`` can reach (Manhattan distance at
    most ``length``, the start included): the cells whose colours decide the walks, so the
    walks are a function of the sequence and those colours (:func:`_walks`' memo)."""
    r, c = start
    return tuple(
        (r + dr, c + dc)
        for dr in range(-length, length + 1)
        for dc in range(-length, length + 1)
        if abs(dr) + abs(dc) <= length
    )


Step = tuple[int, Cell, tuple[Cell, ...]]


# -- valuation ------------------------------------------------------------------------------------
_TEMPLATE_WEIGHTS: dict[tuple[Any, ...], TemplateWeights] = {}


def _prospect(
    board: Board, start: Cell, tile: int, ctx: Context, budget: int, sequence: str = ""
) -> float:
    """The mission prospect of a pawn on ``start`` (see the module docstring), in points: the
    shared template search (:func:`~solver.games.guardians.templates.prospect`) with the
    planner's weights as they are now (tunable), over the cells no tile holds."""
    key = (WEIGHT, START_FILL, START_BUDGET, FILL_COST)
    weights = _TEMPLATE_WEIGHTS.get(key)
    if weights is None:
        weights = _TEMPLATE_WEIGHTS[key] = TemplateWeights(*key)
    taken = board.col.keys() | board.mis.keys()
    mission = None if tile == START_ID else sequence
    return prospect(board.col, taken, start, mission, ctx.points[tile], ctx.avail, budget, weights)


_COMPILED = CompiledModule("guardians_plan", "the compiled guardians planner prospect")
_WEIGHTS: dict[tuple[Any, ...], Any] = {}


def compiled_weights() -> Any:
    """The compiled prospect's parameters for the planner's constants (made once per set):
    :data:`WEIGHT`, :data:`START_FILL`, :data:`START_BUDGET`; its search assumes
    :data:`FILL_COST` is 0. ExtensionMissingError when the module is not built (a kernel state
    without it: no silent fallback to the Python search)."""
    key = (WEIGHT, START_FILL, START_BUDGET, FILL_COST)
    weights = _WEIGHTS.get(key)
    if weights is None:
        if _COMPILED.module is None:
            raise _COMPILED.missing() from _COMPILED.error
        if FILL_COST != 0.0:
            raise ValueError("the compiled prospect assumes FILL_COST = 0")
        weights = _COMPILED.module.Weights(WEIGHT, START_FILL, START_BUDGET)
        _WEIGHTS[key] = weights
    return weights


_DIAMONDS: dict[int, list[Cell]] = {}


def _reach(tile: int, ctx: Context) -> int:
    """How far a walk of this tile's mission can go (an unseen back: the longest mission)."""
    if tile == START_ID:
        return START_WALK
    return len(ctx.seq[tile]) or max((len(seq) for seq, _ in ctx.odds.get(tile, ())), default=5)


def _diamond(reach: int) -> list[Cell]:
    """The offsets of the cells a walk of ``reach`` tiles can reach (a prospect reads nothing
    else: the key of the prospect cache)."""
    if reach not in _DIAMONDS:
        _DIAMONDS[reach] = [
            (dr, dc)
            for dr in range(-reach, reach + 1)
            for dc in range(-reach, reach + 1)
            if 0 < abs(dr) + abs(dc) <= reach
        ]
    return _DIAMONDS[reach]


def pawn_value(board: Board, pawn: int, ctx: Context) -> float:
    """The prospect of one pawn in points (0 in the reserve or with no rounds left)."""
    cell = board.pawns[pawn]
    if cell is None or ctx.rounds_left <= 0:
        return 0.0
    tile = board.mis[cell]
    if _hidden(tile, ctx):  # a mission nobody has seen: the mean over its possible backs
        return sum(p * _mission_value(board, cell, tile, seq, ctx) for seq, p in ctx.odds[tile])
    return _mission_value(board, cell, tile, ctx.seq[tile], ctx)


def _mission_value(board: Board, cell: Cell, tile: int, sequence: str, ctx: Context) -> float:
    """The prospect of a pawn on ``cell`` whose mission is ``sequence`` (see :func:`pawn_value`)."""
    budget = min(MAX_DEFICIENCY, 2 * ctx.rounds_left)
    col, mis = board.col, board.mis
    if ctx.compiled is not None:
        module: Any = _COMPILED.module
        value = module.prospect(
            ctx.compiled, col, mis, cell, "" if tile == START_ID else sequence,
            ctx.points[tile], ctx.avail, budget,
        )  # fmt: skip
        if value >= ctx.points[tile] * WEIGHT[0] and _splits(board, cell):
            value = ctx.points[tile] * WEIGHT[1] - FILL_COST
        return float(value)
    r, c = cell
    reach = START_WALK if tile == START_ID else len(sequence)
    signature = tuple(
        [col.get(x) or (x in mis) for x in [(r + dr, c + dc) for dr, dc in _diamond(reach)]]
    )
    key = (cell, tile, sequence, signature)
    value = ctx.cache.get(key)
    if value is None:
        value = _prospect(board, cell, tile, ctx, budget, sequence)
        ctx.cache[key] = value
    if value >= ctx.points[tile] * WEIGHT[0] and _splits(board, cell):
        value = ctx.points[tile] * WEIGHT[1] - FILL_COST
    return value


def _tasks_value(board: Board, ctx: Context) -> float:
    """The bonus for level tasks the turn's missions meet (each adds a round)."""
    if not ctx.tasks or ctx.rounds_left <= 0 or not board.done:
        return 0.0
    pile = ctx.pile + [(t, p) for t, p, _ in board.done]
    bonus = 0.0
    for task, met in zip(ctx.tasks, ctx.tasks_done, strict=True):
        if met:
            continue
        kind = task.kind
        ok = False
        if kind == "long_mission":
            ok = any(length >= task.value for _, _, length in board.done)
        elif kind == "missions_in_turn":
            ok = len(board.done) >= task.value
        elif kind == "start_tile":
            ok = any(t == START_ID for t, _ in pile)
        elif kind == "all_colours":
            ok = {p for _, p in pile} == set(range(PAWNS))
        elif kind == "colour_points":
            ok = sum(ctx.points[t] for t, p in pile if p == task.colour) >= task.value
        if ok:
            bonus += TASK_VALUE
    return bonus


def position_value(board: Board, ctx: Context) -> float:
    """Points won this turn + the value of the position for the rounds left."""
    value = float(board.gained) + _tasks_value(board, ctx)
    if ctx.supply is not None:
        value += combo_card(ctx.turn_missions + len(board.done), ctx.supply) or 0
    if ctx.rounds_left <= 0:
        return value
    for pawn in range(PAWNS):
        if board.pawns[pawn] is None:
            value += RESERVE_VALUE if ctx.rounds_left > 1 else 0.0
        else:
            value += pawn_value(board, pawn, ctx) + PAWN_STREAM * ctx.rounds_left
    sides = shared_sides(board.col.keys() | board.mis.keys())
    value += TILE_VALUE * len(board.col) + EDGE_VALUE * sides
    return value


def projected_score(state: GuardiansState, player: int, aware: bool = True) -> float:
    """The planner's projection of ``player``'s final score: the score now plus the position
    value of the forest for the turns left (the pawns' prospects, tiles, shared sides, reserve;
    ``aware``: :func:`_base_context`); the score itself once the game is over."""
    score = float(state.score(player))
    if state.is_terminal():
        return score
    ctx = _context(state, list(state.pool), {"aware": aware, "player": player})
    return score + position_value(board_of(state, player), ctx)


# -- growth ---------------------------------------------------------------------------------------
def _frontier(board: Board) -> list[Cell]:
    cells = set(board.col)
    cells.update(board.mis)
    out: set[Cell] = set()
    for cell in cells:
        for n in neighbours(cell):
            if n not in cells and -32 <= n[0] <= 31 and -32 <= n[1] <= 31:
                out.add(n)
    return sorted(out)


def _near(board: Board, cell: Cell, ctx: Context) -> list[int]:
    """The pawns whose missions a tile on ``cell`` could be part of."""
    out = []
    for pawn, where in enumerate(board.pawns):
        if where is None:
            continue
        reach = _reach(board.mis[where], ctx)
        if abs(where[0] - cell[0]) + abs(where[1] - cell[1]) <= reach:
            out.append(pawn)
    return out


def _neighbour_count(board: Board, cell: Cell) -> int:
    return sum(1 for n in neighbours(cell) if n in board.col or n in board.mis)


def _fillings(
    board: Board, start: Cell, tile: int, ctx: Context, by_colour: dict[str, list[int]]
) -> list[list[tuple[Cell, str]]]:
    """The ways to complete the mission on ``start`` by filling one or two empty cells with
    colours the pool has: each a list of ``(cell, colour)`` in walk order (the first placeable
    first)."""
    out: list[list[tuple[Cell, str]]] = []
    seen: set[tuple[tuple[Cell, str], ...]] = set()

    def record(needs: list[tuple[Cell, str]]) -> None:
        counts: dict[str, int] = {}
        for _, c in needs:
            counts[c] = counts.get(c, 0) + 1
        if any(len(by_colour.get(c, ())) < n for c, n in counts.items()):
            return
        key = tuple(needs)
        if needs and key not in seen:
            seen.add(key)
            out.append(list(needs))

    if _hidden(tile, ctx):
        return out
    if tile == START_ID:
        _start_fillings(board, start, list(by_colour), record)
    else:
        _sequence_fillings(board, start, ctx.seq[tile], by_colour, record)
    return out


def _start_walk_closes(colours: list[str]) -> bool:
    """Whether a start tile walk's six colours read A-B-C-D-E-A (five distinct, the first again
    last)."""
    return (
        colours[0] == colours[5] and len(set(colours[1:5])) == 4 and colours[0] not in colours[1:5]
    )


def _start_walk_colours(colours: list[str], depth: int, choices: list[str]) -> list[str]:
    """The colours of ``choices`` the start tile's walk may take at ``depth`` after
    ``colours``."""
    if 1 <= depth <= 4:
        return [c for c in choices if c not in colours]
    if depth == 5:
        return [c for c in choices if c == colours[0]]
    return choices


def _start_fillings(
    board: Board,
    start: Cell,
    pool_colours: list[str],
    record: Callable[[list[tuple[Cell, str]]], None],
) -> None:
    """:func:`_fillings` for the start tile: ``record`` each A-B-C-D-E-A walk with one or two
    empty cells, filled with ``pool_colours``."""
    col, mis = board.col, board.mis
    path: list[Cell] = []
    needs: list[tuple[Cell, str]] = []
    fixed: list[str] = []

    def start_fill(here: Cell) -> None:
        depth = len(path)
        if depth == START_WALK:
            if _start_walk_closes(fixed):
                record(needs)
            return
        for n in neighbours(here):
            if n in path or n in mis or n == start:
                continue
            colour = col.get(n)
            if colour is None and len(needs) >= 2:
                continue
            choices = [colour] if colour is not None else pool_colours
            for c in _start_walk_colours(fixed, depth, choices):
                path.append(n)
                fixed.append(c)
                if colour is None:
                    needs.append((n, c))
                start_fill(n)
                if colour is None:
                    needs.pop()
                path.pop()
                fixed.pop()

    start_fill(start)


def _sequence_fillings(
    board: Board,
    start: Cell,
    sequence: str,
    by_colour: dict[str, list[int]],
    record: Callable[[list[tuple[Cell, str]]], None],
) -> None:
    """:func:`_fillings` for a mission ``sequence``: ``record`` each walk of either reading
    with one or two empty cells of colours ``by_colour`` has."""
    col, mis = board.col, board.mis
    path: list[Cell] = []
    needs: list[tuple[Cell, str]] = []

    def fill(here: Cell, s: str) -> None:
        depth = len(path)
        if depth == len(s):
            record(needs)
            return
        want = s[depth]
        for n in neighbours(here):
            if n in path or n == start or n in mis:
                continue
            colour = col.get(n)
            if colour is None:
                if len(needs) >= 2 or want not in by_colour:
                    continue
                path.append(n)
                needs.append((n, want))
                fill(n, s)
                needs.pop()
                path.pop()
            elif colour == want:
                path.append(n)
                fill(n, s)
                path.pop()

    fill(start, sequence)
    if sequence[::-1] != sequence:
        fill(start, sequence[::-1])


@dataclass(frozen=True)
class TurnPlan:
    """A planned turn: the growth action, the placements ``(tile, cell)``, the pawn put on a
    mission tile (or -1), the walks, and its value. With hidden backs, ``take 1 tile`` plans
    only which tile to flip (``picked``; no placement or walks yet: they wait for the reveal),
    valued by expectation; ``completes`` is the chance that the turn completes a mission."""

    growth: int
    placements: tuple[tuple[int, Cell], ...]
    pawn: int
    walks: tuple[Step, ...]
    value: float
    picked: int | None = None
    completes: float = 0.0


def plan_turn(
    state: GuardiansState, aware: bool = False, breadth: Breadth = PLANNER_BREADTH
) -> TurnPlan:
    """The planner's turn from a state at the growth step (see the module docstring;
    ``aware``: :func:`_base_context`; ``breadth``: the candidates searched)."""
    return first_best(turn_options(state, aware, breadth))


def first_best(options: list[TurnPlan]) -> TurnPlan:
    """The best valued of ``options``, the first of those within 1e-9 of each other."""
    best = options[0]
    for option in options[1:]:
        if option.value > best.value + 1e-9:
            best = option
    return best


def turn_options(
    state: GuardiansState, aware: bool = False, breadth: Breadth = PLANNER_BREADTH
) -> list[TurnPlan]:
    """Every turn the planner searched from a state at the growth step, valued (``aware``:
    :func:`_base_context`): ``take 2 tiles`` (the best pairs, or singles where one tile or no
    frontier leaves no pair), then ``take 1 tile``; as many as ``breadth`` says."""
    from solver.games.guardians.rules import Phase

    assert state.phase == Phase.GROW
    search = _TurnSearch(state, aware, breadth)
    top = search.top_singles()
    if len(search.pool) == 1 or len(search.frontier) == 0:
        options = [search.full([(tile, cell)], False, -1) for _, tile, cell in top[: breadth.pairs]]
    else:
        options = search.pair_options(top)
    if not (options and deadline_passed()):  # a search_deadline passed: the best found so far
        options.extend(search.take_one())
    return options


Placement = tuple[int, Cell]


class _TurnSearch:
    """One :func:`turn_options` search: the state's board, pool and base context, and the
    ``take 2 tiles`` pairs scored so far (cheaply: the gain in the near pawns' prospects plus
    :data:`EDGE_VALUE` per side shared) before the best are searched to the end of the turn.
    Pairs of equal colours on the same cells score alike: each such score is computed once."""

    def __init__(self, state: GuardiansState, aware: bool, breadth: Breadth) -> None:
        game = state.game
        self.state = state
        self.breadth = breadth
        self.board = board_of(state)
        self.pool = list(state.pool)
        me = state.people[state.current]
        self.tiles_at = {cell: face.tile for cell, face in me.forest.items()}
        self.colour = {t: game.tile(t).colour or "" for t in self.pool}
        self.distinct = sorted(set(self.pool), key=self.pool.index)
        self.frontier = _frontier(self.board)
        self.memo: dict[Any, Any] = {"aware": aware}
        self.base_ctx = _context(state, self.pool, self.memo)
        board = self.board
        self.base = {
            p: pawn_value(board, p, self.base_ctx)
            for p in range(PAWNS)
            if board.pawns[p] is not None
        }
        self.pairs: list[tuple[float, Placement, Placement]] = []
        self.seen: set[tuple[Any, ...]] = set()
        self.gains: dict[tuple[Any, ...], float] = {}
        self.cells: dict[Cell, tuple[set[int], int]] = {}

    def full(
        self, placed: list[Placement], mission: bool, pawn: int, back: str | None = None
    ) -> TurnPlan:
        """The turn that places ``placed`` (``mission``: mission side up, ``pawn`` on it, the
        tile showing ``back`` where it is face down), searched to the end of the turn."""
        b = self.board.copy()
        positions = dict(self.tiles_at)
        left = list(self.pool)
        for tile, cell in placed:
            left.remove(tile)
            positions[cell] = tile
            if mission:
                b.mis[cell] = tile
                b.pawns[pawn] = cell
            else:
                b.col[cell] = self.colour[tile]
        ctx = _context(self.state, left, self.memo)
        if back is not None:
            ctx = ctx.with_back(placed[0][0], back)
        value, walks = best_missions(b, ctx, positions)
        growth = TAKE_ONE if mission else TAKE_TWO
        return TurnPlan(
            growth, tuple(placed), pawn, tuple(walks), value, completes=float(bool(walks))
        )

    def top_singles(self) -> list[tuple[float, int, Cell]]:
        """The ``breadth.singles`` best single placements of a pool tile forest side up, by their
        cheap score (ties: the first in pool and frontier order)."""
        board, ctx = self.board, self.base_ctx
        singles: list[tuple[float, int, Cell]] = []
        for tile in self.distinct:
            for cell in self.frontier:
                board.col[cell] = self.colour[tile]
                near = _near(board, cell, ctx)
                gain = sum(pawn_value(board, p, ctx) - self.base[p] for p in near)
                del board.col[cell]
                gain += EDGE_VALUE * _neighbour_count(board, cell)
                singles.append((gain, tile, cell))
        order = sorted(range(len(singles)), key=lambda i: (-singles[i][0], i))
        return [singles[i] for i in order[: self.breadth.singles]]

    def add_pair(self, first: Placement, second: Placement) -> None:
        """Score the pair ``first``, ``second`` (once; two tiles, two cells) into :attr:`pairs`."""
        (t1, c1), (t2, c2) = first, second
        if t1 == t2 or c1 == c2:
            return
        key = tuple(sorted([first, second]))
        if key in self.seen:
            return
        self.seen.add(key)
        shape = tuple(sorted([(c1, self.colour[t1]), (c2, self.colour[t2])]))
        gain = self.gains.get(shape)
        if gain is None:
            (near1, sides1), (near2, sides2) = self._cell(c1), self._cell(c2)
            board, ctx = self.board, self.base_ctx
            board.col[c1] = self.colour[t1]
            board.col[c2] = self.colour[t2]
            gain = sum(pawn_value(board, p, ctx) - self.base[p] for p in near1 | near2)
            del board.col[c2]
            del board.col[c1]
            gain += EDGE_VALUE * (sides1 + sides2)
            self.gains[shape] = gain
        self.pairs.append((gain, first, second))

    def _cell(self, cell: Cell) -> tuple[set[int], int]:
        """The pawns a tile on ``cell`` could serve and the sides it would share (this board)."""
        facts = self.cells.get(cell)
        if facts is None:
            facts = (
                set(_near(self.board, cell, self.base_ctx)),
                _neighbour_count(self.board, cell),
            )
            self.cells[cell] = facts
        return facts

    def pair_options(self, top: list[tuple[float, int, Cell]]) -> list[TurnPlan]:
        """``take 2 tiles``: the pairs of the best singles (and of a best single with a tile on a
        cell it opens), the ``breadth.pairs`` best by their cheap score and up to
        ``breadth.completing`` that complete a mission outright, searched to the end of the
        turn."""
        late = self._score_pairs(top)
        wanted: set[tuple[Any, ...]] = set()
        for first, second in [] if late else self.completing(top):
            self.add_pair(first, second)
            wanted.add(tuple(sorted([first, second])))
        pairs = self.pairs
        options: list[TurnPlan] = []
        for i in self._chosen_pairs(wanted):
            if options and deadline_passed():  # each is searched to the end of the turn: stop
                break
            options.append(self.full([pairs[i][1], pairs[i][2]], False, -1))
        return options

    def _score_pairs(self, top: list[tuple[float, int, Cell]]) -> bool:
        """Score (:meth:`add_pair`) the pairs of the best singles, and of each with a tile on an
        empty cell beside it off the frontier (a cell it opens); whether a search_deadline
        passed first (the pairs scored so far, one single's at least)."""
        board = self.board
        for i, (_, t1, c1) in enumerate(top):
            if self.pairs and deadline_passed():
                return True
            for _, t2, c2 in top[i + 1 :]:
                self.add_pair((t1, c1), (t2, c2))
            occupied = set(board.col) | set(board.mis) | {c1}
            for n in neighbours(c1):
                if n not in occupied and n not in self.frontier:
                    for t2 in self.distinct:
                        self.add_pair((t1, c1), (t2, n))
        return False

    def _chosen_pairs(self, wanted: set[tuple[Any, ...]]) -> list[int]:
        """The pairs to search (indices into :attr:`pairs`): the best ``breadth.completing`` of
        the ``wanted`` ones (those completing a mission), then the best of the rest by their
        cheap score, ``breadth.pairs`` of them (more where fewer are wanted)."""
        pairs = self.pairs
        pair_order = sorted(range(len(pairs)), key=lambda i: (-pairs[i][0], i))
        most, completing = self.breadth.pairs, self.breadth.completing
        chosen = [i for i in pair_order if tuple(sorted(pairs[i][1:])) in wanted][:completing]
        for i in pair_order:
            if len(chosen) >= most + min(completing, len(wanted)):
                break
            if i not in chosen:
                chosen.append(i)
        return chosen

    def completing(self, top: list[tuple[float, int, Cell]]) -> list[tuple[Placement, Placement]]:
        """The pairs that complete a mission outright (one or two empty cells of a walk), with a
        one-cell filling paired with a best single or another such filling. The cheap score
        undervalues them (it sees a prospect, not the points and the chain), so the best of them
        are searched whatever their cheap score."""
        completing, singles_done = self._fillings_by_size()
        for i, first in enumerate(singles_done):
            for _, t2, c2 in top[:4]:
                completing.append((first, (t2, c2)))
            for second in singles_done[i + 1 :]:
                completing.append((first, second))
        return completing

    def _fillings_by_size(self) -> tuple[list[tuple[Placement, Placement]], list[Placement]]:
        """The tiles of the pool completing a pawn's mission: two-cell fillings as pairs of
        placements, one-cell fillings as single placements (:func:`_fillings`)."""
        board = self.board
        by_colour: dict[str, list[int]] = {}
        for tile in self.distinct:
            by_colour.setdefault(self.colour[tile], []).append(tile)
        pairs: list[tuple[Placement, Placement]] = []
        singles: list[Placement] = []
        for where in board.pawns:
            if where is None:
                continue
            for needs in _fillings(board, where, board.mis[where], self.base_ctx, by_colour):
                if len(needs) == 2:
                    (x1, k1), (x2, k2) = needs
                    pairs += [((t1, x1), (t2, x2)) for t1 in by_colour[k1] for t2 in by_colour[k2]]
                elif len(needs) == 1:
                    (x1, k1) = needs[0]
                    singles += [(t1, x1) for t1 in by_colour[k1]]
        return pairs, singles

    def take_one(self) -> list[TurnPlan]:
        """``take 1 tile``: a new pawn on a mission side (none with the reserve empty)."""
        board = self.board
        reserve = [p for p in range(PAWNS) if board.pawns[p] is None]
        if not reserve:
            return []
        pawn = _choose_pawn(reserve, self.base_ctx)
        if not _hidden(self.pool[0], self.base_ctx):
            return take_one_options(
                self.state, board, pawn, self.distinct, self.breadth.take_ones, self.full,
                memo=self.memo,
            )  # fmt: skip
        return _flip_options(
            self.state, board, pawn, self.distinct, self.full, self.memo, self.breadth.flip_cells
        )


def take_one_options(
    state: GuardiansState,
    board: Board,
    pawn: int,
    tiles: list[int],
    how_many: int,
    full: Any,
    back: str | None = None,
    opening: bool = True,
    memo: dict[Any, Any] | None = None,
) -> list[TurnPlan]:
    """The best ``how_many`` placements of one of ``tiles`` mission side up with ``pawn`` on it
    (each searched to the end of the turn), ``back`` the mission it shows where it is face down;
    ``opening``: before :data:`OPENING_ROUNDS` keep only those completing a mission at once."""
    ctx = _context(state, list(state.pool), memo)
    if back is not None:
        ctx = ctx.with_back(tiles[0], back)
    ones: list[tuple[float, int, Cell]] = []
    for tile in tiles:
        for cell in _frontier(board):
            board.mis[cell] = tile
            board.pawns[pawn] = cell
            ones.append((pawn_value(board, pawn, ctx), tile, cell))
            board.pawns[pawn] = None
            del board.mis[cell]
    one_order = sorted(range(len(ones)), key=lambda i: (-ones[i][0], i))
    out: list[TurnPlan] = []
    for i in one_order[:how_many]:
        if out and deadline_passed():
            break
        _, tile, cell = ones[i]
        option = full([(tile, cell)], True, pawn, back)
        if not opening or state.round >= OPENING_ROUNDS or option.walks:
            out.append(option)
    return out


def _flip_options(
    state: GuardiansState,
    board: Board,
    pawn: int,
    tiles: list[int],
    full: Any,
    memo: dict[Any, Any] | None = None,
    cells: int = FLIP_CELLS,
) -> list[TurnPlan]:
    """Hidden backs: ``take 1 tile`` valued per pool face as the mean, over the backs it may
    show, of the best placement for each among its ``cells`` best (one option per face: the
    tile to flip)."""
    out: list[TurnPlan] = []
    faces: set[str] = set()
    for tile in tiles:
        face = state.game.face_of(tile)
        if face in faces:
            continue
        if out and deadline_passed():
            break
        faces.add(face)
        value = completes = 0.0
        for back, p in back_odds(state, tile):
            best = take_one_options(state, board, pawn, [tile], cells, full, back, memo=memo)
            if not best:  # no placement worth it for this back (the opening rule)
                break
            top = max(best, key=lambda option: option.value)
            value += p * top.value
            completes += p * top.completes
        else:
            out.append(TurnPlan(TAKE_ONE, (), pawn, (), value, picked=tile, completes=completes))
    return out


def plan_flipped(
    state: GuardiansState, aware: bool = False, breadth: Breadth = PLANNER_BREADTH
) -> TurnPlan | None:
    """Hidden backs: where the tile flipped for ``take 1 tile`` goes, now its back shows (at
    the placement step), searched to the end of the turn as the other options."""
    board = board_of(state)
    reserve = [p for p in range(PAWNS) if board.pawns[p] is None]
    if state.picked is None or not reserve:
        return None
    memo: dict[Any, Any] = {"aware": aware}
    pawn = _choose_pawn(reserve, _context(state, list(state.pool), memo))
    me = state.people[state.current]
    tiles_at = {cell: face.tile for cell, face in me.forest.items()}
    tile = state.picked

    def full(placed: list[tuple[int, Cell]], mission: bool, p: int, back: str | None) -> TurnPlan:
        b = board.copy()
        positions = dict(tiles_at)
        left = list(state.pool)
        for t, cell in placed:
            left.remove(t)
            positions[cell] = t
            b.mis[cell] = t
            b.pawns[p] = cell
        value, walks = best_missions(b, _context(state, left, memo), positions)
        return TurnPlan(TAKE_ONE, tuple(placed), p, tuple(walks), value)

    options = take_one_options(
        state, board, pawn, [tile], breadth.take_ones, full, opening=False, memo=memo
    )
    best = options[0] if options else None
    for option in options[1:]:
        if best is not None and option.value > best.value + 1e-9:
            best = option
    return best


def _choose_pawn(reserve: list[int], ctx: Context) -> int:
    """The reserve pawn to put in: a colour a task still asks for, else the first."""
    for task, met in zip(ctx.tasks, ctx.tasks_done, strict=True):
        if not met and task.kind == "colour_points" and task.colour in reserve:
            return int(task.colour)
    return reserve[0]


MISSION_FLOOR = 256
"""The positions :func:`best_missions` searches before it looks at a deadline (the planner's
mission steps in 8 games of solo and 2 players needed at most 8)."""


def best_missions(
    board: Board, ctx: Context, positions: dict[Cell, int]
) -> tuple[float, list[Step]]:
    """The best way to end the turn from ``board``: ``(value, walks)``, every order and every
    stopping point tried (memoised on the forest and pawns); ``positions`` gives the tile under
    every cell (a walk's last tile turns to its mission side). Past :data:`MISSION_FLOOR`
    positions, once a :func:`~solver.search.limit.search_deadline` in force has passed, no
    further walk is tried: the best found so far (a crafted 12x12 position took 99 s; a real
    forest's mission step needs at most a few positions, so its plan is whole however late)."""
    memo: dict[tuple[Any, ...], tuple[float, list[Step]]] = {}

    def search(b: Board) -> tuple[float, list[Step]]:
        key = b.key()
        if key in memo:
            return memo[key]
        best: tuple[float, list[Step]] = (position_value(b, ctx), [])
        for pawn, cell in enumerate(b.pawns):
            if cell is None:
                continue
            if len(memo) >= MISSION_FLOOR and deadline_passed():
                break
            tile = b.mis[cell]
            walks = _walks(b, cell, tile, ctx)
            if not walks or _splits(b, cell):
                continue
            for path in walks:
                child = b.copy()
                child.mis.pop(cell)
                end = path[-1]
                del child.col[end]
                child.mis[end] = positions[end]
                child.pawns[pawn] = end
                child.gained += ctx.points[tile]
                child.done.append((tile, pawn, ctx.walk_length[tile]))
                value, steps = search(child)
                if value > best[0] + 1e-9:
                    best = (value, [(pawn, cell, path), *steps])
        memo[key] = best
        return best

    return search(board)


def plan_missions(state: GuardiansState, aware: bool = False) -> list[Step]:
    """The planner's walks for the rest of the turn, from a state at the mission step."""
    board = board_of(state)
    me = state.people[state.current]
    positions = {cell: face.tile for cell, face in me.forest.items()}
    ctx = _context(state, list(state.pool), {"aware": aware})
    _, steps = best_missions(board, ctx, positions)
    return steps


def planner_agent(game: Any, *, seed: int = 0, iterations: int = 0) -> Agent:
    """The guardians ``planner`` agent (see the module docstring); ``seed`` and ``iterations``
    are accepted for the common agent signature: the planner is deterministic and has a fixed
    budget."""
    return TurnPlayer(seed).choose


class TurnPlayer:
    """The planner as a player: plans a turn at the growth step (:meth:`grow`) and plays it out
    action by action (:meth:`follow`); :meth:`start` makes it play a turn chosen elsewhere (the
    ``lookahead`` agent's search plays candidate turns out with it)."""

    def __init__(
        self,
        seed: int = 0,
        resets: bool = True,
        aware: bool = False,
        breadth: Breadth = PLANNER_BREADTH,
    ) -> None:
        self.seed = seed
        self.resets = resets
        self.aware = aware
        self.breadth = breadth
        self.plan: TurnPlan | None = None
        self.next = 0

    def start(self, turn: TurnPlan | None) -> None:
        """Play ``turn`` from its growth action on (``None``: no plan, as after a reset)."""
        self.plan = turn
        self.next = 0

    def choose(self, state: Any) -> int:
        """The planner's action at ``state``."""
        from solver.games.guardians.rules import Phase

        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if state.phase == Phase.GROW:
            return self.grow(state, legal)
        return self.follow(state, legal)

    def grow(self, state: Any, legal: list[int]) -> int:
        """The growth step: plan the turn; reset the pool where that pays and the turn is idle."""
        turn = plan_turn(state, self.aware, self.breadth)
        if self.resets and RESET in legal and self._wants_reset(state, turn):
            self.start(None)
            return RESET
        self.start(turn)
        return turn.growth

    def follow(self, state: Any, legal: list[int]) -> int:
        """Any step after the growth choice: the planned turn's next action (the mission step
        is planned afresh each time, a flipped tile's placement once its back shows)."""
        from solver.games.guardians.rules import Phase

        phase = state.phase
        if phase == Phase.START_PAWN:
            return _start_pawn(state, legal)
        if phase == Phase.PICK:
            chosen = self.plan
            if chosen is not None and chosen.picked in state.pool:
                return state.game.codec.pick(state.pool.index(chosen.picked))
            return int(legal[0])
        if phase == Phase.MISSIONS:
            return self._mission_step(state)
        plan = self.plan
        if phase == Phase.PLACE:
            action = self._place(state, legal)
            if action is not None:
                return action
        elif phase == Phase.PAWN and plan is not None and PAWN_BASE + plan.pawn in legal:
            return PAWN_BASE + plan.pawn
        return _fallback(state, legal, self.aware)

    def _mission_step(self, state: Any) -> int:
        """The first step of the missions planned afresh (the turn's plan ends here), or the
        turn's end when there is none."""
        from solver.games.guardians.walks import path_code

        self.start(None)
        steps = plan_missions(state, self.aware)
        if not steps:
            return END_TURN
        pawn, start, path = steps[0]
        return state.game.codec.walk(pawn, path_code(start, path))

    def _place(self, state: Any, legal: list[int]) -> int | None:
        """The plan's next placement (a flipped tile's turn planned anew once its back shows),
        or ``None`` when the plan has none that is legal."""
        if state.picked is not None:
            flipped = plan_flipped(state, self.aware, self.breadth)
            if flipped is not None:
                self.start(flipped)
        if self.plan is None:
            return None
        return self._placement(state, legal, self.plan)

    def _wants_reset(self, state: Any, turn: TurnPlan) -> bool:
        return wants_reset(state, turn, self.seed, self.aware, self.breadth)

    def _placement(self, state: Any, legal: list[int], plan: TurnPlan) -> int | None:
        """The plan's next placement, if it is still legal (else ``None``)."""
        if self.next >= len(plan.placements):
            return None
        tile, cell = plan.placements[self.next]
        if tile not in state.pool:
            return None
        action = int(state.game.codec.place(state.pool.index(tile), cell))
        if action not in legal:
            return None
        self.next += 1
        return action


def _start_pawn(state: Any, legal: list[int]) -> int:
    """Where the solo start pawn goes: the colour of the level's colour-points task, where the
    level has one, else the first legal choice."""
    level = state.game.level
    for task in level.tasks if level is not None else ():
        if task.kind == "colour_points":
            return PAWN_BASE + task.colour
    return int(legal[0])


def wants_reset(
    state: Any, turn: TurnPlan, seed: int, aware: bool = False, breadth: Breadth = PLANNER_BREADTH
) -> bool:
    """The planner's reset rule: reset the pool when ``turn`` (the best with this pool) is idle
    (no mission completed, none hoped for) and fresh pools would pay for the VP it costs (each
    planned with ``breadth``)."""
    idle = not turn.walks and turn.completes == 0
    return (RESET_ANY or idle) and _reset_pays(state, turn, seed, aware, breadth)


def _reset_pays(
    state: Any, turn: TurnPlan, seed: int, aware: bool = False, breadth: Breadth = PLANNER_BREADTH
) -> bool:
    """Whether resetting the pool (-1 VP, 6 new tiles) beats the best turn with this pool, by
    the mean value of :data:`RESET_SAMPLES` fresh pools drawn with the agent's own generator."""
    from solver.rng import SplitMix64, derive_seed

    rng = SplitMix64(derive_seed(seed, state.round))
    total = 0.0
    for _ in range(RESET_SAMPLES):
        if deadline_passed():  # a search_deadline passed: no estimate, keep the pool
            return False
        child = state.clone()
        child.apply_action(RESET)
        while child.is_chance_node():
            outcomes = child.chance_outcomes()
            child.apply_action(outcomes[rng.below(len(outcomes))][0])
        if child.phase != state.phase:
            return False
        total += plan_turn(child, aware, breadth).value
    return total / RESET_SAMPLES - 1.0 > turn.value + RESET_MARGIN


def _fallback(state: Any, legal: list[int], aware: bool = False) -> int:
    """A placement or pawn off the plan (a state the planner did not reach itself): the one
    whose position values best, by the same valuation."""
    from solver.games.guardians.rules import Phase

    if state.phase in (Phase.PAWN, Phase.PICK):
        return int(legal[0])
    best, best_value = int(legal[0]), float("-inf")
    ctx = _context(state, list(state.pool), {"aware": aware})
    for action in legal:
        child = state.child(action)
        value = position_value(board_of(child), ctx)
        if value > best_value + 1e-9:
            best, best_value = int(action), value
    return best
