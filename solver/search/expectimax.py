"""Expectimax: the exact value of a game with chance, or a depth-limited estimate of it.

One algorithm (an explicit-stack depth-first search with a transposition table), three modes:
**exact** (the default: every node to the end of the game, the exact win probability),
**depth-limited** (``exact=False`` with ``Limit(depth=...)`` and/or ``min_probability``: leaves
valued by the game's heuristic) and **adversarial** (chance picks its worst outcome: the value
the player can guarantee whatever the dice do; a node stops once its value is settled). Ties go
to the faster win, then the lower action id (adversarial: the first guaranteed win). The
options are :class:`~solver.search.options.ExpectimaxOptions`; the budget is the table's
memory (``memory_mb``, default 1024: hitting it raises
:class:`~solver.errors.SearchBudgetError`) and, for a depth-limited search, ``depth``. Kernel
states run the compiled loop of ``solver._ext.expectimax``, other states the same algorithm
written here; both give the same values, best actions and counts. The modes, the tie-break and
the table in detail: ``docs/search.md``.

>>> import solver
>>> from solver.search.expectimax import expectimax, solve
>>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
>>> result = expectimax(game.new_initial_state())
>>> round(result.value, 6), result.best_action, result.exact
(0.666667, None, True)
>>> state = game.new_initial_state()
>>> state.apply_action(11)  # roll: 2 steps
>>> solution = solve(state)
>>> solution.result.value, state.action_to_string(solution.best_action(state))
(1.0, 'N')
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from solver.errors import OptionError, SearchBudgetError, SearchTimeoutError, SolverError
from solver.game import CHANCE, Game, HeuristicState, State, require_state
from solver.kernels import game_of, kernel_of
from solver.search.clairvoyance import refuse_clairvoyant
from solver.search.exact_table import (
    MAX_PLIES,
    MB,
    PLIES_EPS,
    UNLIMITED_DEPTH,
    VALUE_EPS,
    Entry,
    ExactTable,
    RootReport,
    TableOptions,
)
from solver.search.limit import (
    UNSET,
    Limit,
    Unset,
    merge_limit,
    parameters_after_name,
    reject_unknown,
)
from solver.search.options import ExpectimaxOptions, Heuristic, option_names, options_from
from solver.search.result import MoveInfo, SearchResult

if TYPE_CHECKING:  # pragma: no cover
    from solver.search.pruning import PrunedTable

__all__ = ["Solution", "expectimax", "solve"]

MAX_PLAYERS = 8
PV_MAX = 64
"""The longest principal variation reported (labels)."""
PY_ENTRY_OVERHEAD = 350
"""Python tables: estimated bytes per entry on top of the key's length (dict slot, tuples)."""


DEFAULT_MEMORY_MB = 1024.0
"""The table's default memory cap, in megabytes."""

_OPTION_NAMES = option_names(ExpectimaxOptions)
_KNOWN = ("depth", "memory_mb", "seconds", "top_k", "seed", "limit", "options", "_engine",
          "_hash_bits", "_cancel", *_OPTION_NAMES)  # fmt: skip
CLOCK_EVERY = 64
"""The pure-Python loop looks at the clock every this many nodes (the compiled one every 4096):
a node costs it about 0.1 ms on a 16x16 forest, so a search stops within some 6 ms of its
deadline (at 1024 it overran by 0.09 s: a 0.01 s hint on the reference engine took 0.16 s)."""
CANCEL_POLL = 0.02
"""Seconds between two looks at a search's cancel event (``_cancel=``)."""


def _check_options(opts: ExpectimaxOptions, budget: Limit, seed: object) -> TableOptions:
    """The internal options of a search, once the options and the budget agree."""
    budget.refuse(
        "expectimax",
        ["iterations"],
        "its budget is the table's memory_mb and seconds (and depth, with exact=False)",
    )
    depth = budget.depth
    if depth is not None:
        if depth >= UNLIMITED_DEPTH:
            raise OptionError(f"depth must be below {UNLIMITED_DEPTH}, not {depth!r}")
        if opts.exact:
            raise OptionError(
                f"depth={depth} limits the search, which exact=True does not allow; "
                "pass exact=False for a depth-limited search"
            )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed must be a whole number, not {seed!r}")
    memory_mb = DEFAULT_MEMORY_MB if budget.memory_mb is None else budget.memory_mb
    return TableOptions(
        exact=opts.exact,
        depth=depth,
        adversarial=opts.adversarial,
        memory_bytes=max(1, int(memory_mb * MB)),
        min_probability=opts.min_probability,
        prune=opts.prune,
        threads=opts.threads,
        seconds=budget.seconds,
    )


def _call(
    function: str,
    unknown: Mapping[str, object],
    options: ExpectimaxOptions | None,
    given: Mapping[str, object],
    limit: Limit | None,
    budget_given: Mapping[str, object],
    seed: object,
) -> tuple[ExpectimaxOptions, Limit, TableOptions]:
    """Check a call's keywords, options and budget; nothing runs before this."""
    reject_unknown(function, unknown, _KNOWN)
    opts: ExpectimaxOptions = options_from(ExpectimaxOptions, options, given, {})
    budget = merge_limit(limit, budget_given)
    return opts, budget, _check_options(opts, budget, seed)


def _better(
    player: int,
    values: Sequence[float],
    plies: Sequence[float],
    best_values: Sequence[float],
    best_plies: Sequence[float],
) -> bool:
    """Decision nodes: is this child strictly preferred (value, then faster win)?"""
    v, b = values[player], best_values[player]
    if v > b + VALUE_EPS:
        return True
    return abs(v - b) <= VALUE_EPS and plies[player] < best_plies[player] - PLIES_EPS


def _worse(
    target: int,
    values: Sequence[float],
    plies: Sequence[float],
    best_values: Sequence[float],
    best_plies: Sequence[float],
) -> bool:
    """Adversarial chance nodes: is this outcome strictly worse for the target player?"""
    v, b = values[target], best_values[target]
    if v < b - VALUE_EPS:
        return True
    return abs(v - b) <= VALUE_EPS and plies[target] > best_plies[target] + PLIES_EPS


_Valued: TypeAlias = tuple[tuple[float, ...], tuple[float, ...]]
"""A node's values and win-weighted plies, one of each per player."""


# -- the pure-Python table and search ------------------------------------------------------------
class _Frame:
    __slots__ = (
        "actions",
        "best",
        "depth_left",
        "have",
        "i",
        "key",
        "path_probability",
        "player",
        "plies",
        "probs",
        "state",
        "values",
    )

    def __init__(
        self, state: State, key: str, depth_left: int, path_probability: float, num_players: int
    ) -> None:
        self.state = state
        self.key = key
        self.depth_left = depth_left
        self.path_probability = path_probability
        self.player = state.current_player()
        self.i = 0
        self.have = False
        self.best = -1
        self.values = [0.0] * num_players
        self.plies = [0.0] * num_players
        if self.player == CHANCE:
            outcomes = state.chance_outcomes()
            self.actions = [a for a, _ in outcomes]
            self.probs = [float(p) for _, p in outcomes]
            top = -1.0
            for a, p in zip(self.actions, self.probs, strict=True):  # the most likely outcome
                if p > top:
                    top, self.best = p, a
        else:
            self.actions = list(state.legal_actions())
            self.probs = []
        if not self.actions:
            raise SolverError(
                f"the game reports no legal action at a non-terminal node: {state.to_json()}"
            )


class PyTable:
    """The transposition table and search loop for protocol states (keys: ``to_json()``)."""

    engine = "python"

    def __init__(
        self,
        game: Game,
        num_players: int,
        options: TableOptions,
        target: int,
        heuristic: Heuristic | None,
    ) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self.target = target
        self.heuristic = heuristic
        self.table: dict[str, Entry] = {}
        self.bytes = 0
        self.deadline: float | None = None
        self.stopped = False
        self._expanded = 0
        self._leaves = 0

    def set_deadline(self, deadline: float | None) -> None:
        """Stop later searches at ``deadline`` (``time.monotonic()``; None: never)."""
        self.deadline = deadline
        self.stopped = False

    def stop(self) -> None:
        """Make the running search (another thread) and later ones stop soon."""
        self.stopped = True

    def _check_clock(self) -> None:
        if self.stopped:
            raise SearchTimeoutError("the exact search was stopped before it finished",
                                     entries=len(self.table))  # fmt: skip
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchTimeoutError(
                "the exact search did not finish before its deadline (its seconds ran out)",
                entries=len(self.table),
            )

    @property
    def entries(self) -> int:
        return len(self.table)

    def lookup(self, state: State) -> Entry | None:
        return self.table.get(state.to_json())

    def _leaf(self, state: State) -> tuple[float, ...]:
        assert self.heuristic is not None
        return tuple(float(self.heuristic(state, k)) for k in range(self.num_players))

    def _valid(self, entry: Entry, depth_left: int, path_probability: float) -> bool:
        opts = self.options
        if opts.limited and entry.depth_left < depth_left:
            return False
        return not (opts.min_probability > 0.0 and entry.path_probability < path_probability)

    def search(self, root: State, depth_left: int) -> RootReport:
        """Search ``root`` to ``depth_left`` plies (depth-first, an explicit stack): each frame
        steps into its children one at a time and takes in their values; a finished frame is
        stored and hands its value to its parent."""
        self._expanded, self._leaves = 1, 0
        children: list[tuple[int, tuple[float, ...], tuple[float, ...]]] = []
        stack = [_Frame(root.clone(), root.to_json(), depth_left, 1.0, self.num_players)]
        result: _Valued | None = None
        while stack:
            frame = stack[-1]
            if result is None:
                if frame.i == len(frame.actions):  # done: store and hand the value up
                    result = self._store(stack.pop())
                    continue
                result = self._step(frame, stack)
                if result is None:  # a new frame to search
                    continue
            values, plies = result
            result = None
            frame = stack[-1]
            action = frame.actions[frame.i]
            wplies = self._absorb(frame, values, plies)
            if len(stack) == 1:
                children.append((action, values, wplies))
            elif self.options.adversarial and _decided(frame, self.target):
                frame.i = len(frame.actions)  # no sibling can change the value
        root_entry = self.table[root.to_json()]
        return RootReport(root_entry, tuple(children), self._expanded, self._leaves)

    def _store(self, frame: _Frame) -> _Valued:
        """Store a finished frame's entry (within the memory budget); its values and plies."""
        entry = Entry(
            frame.player,
            frame.best,
            tuple(frame.values),
            tuple(frame.plies),
            frame.depth_left,
            frame.path_probability,
        )
        if frame.key not in self.table:
            cost = len(frame.key) + PY_ENTRY_OVERHEAD
            if self.bytes + cost > self.options.memory_bytes:
                raise SearchBudgetError.table_full(self.options.memory_bytes, len(self.table))
            self.bytes += cost
        self.table[frame.key] = entry
        return entry.values, entry.plies

    def _step(self, frame: _Frame, stack: list[_Frame]) -> _Valued | None:
        """The value of ``frame``'s next child when known without searching it (terminal, a
        depth-limited leaf, a valid table entry); else push its frame and return None."""
        opts = self.options
        chance = frame.player == CHANCE
        child = frame.state.clone()
        child.apply_action(frame.actions[frame.i])
        depth = frame.depth_left
        child_depth = depth if depth == UNLIMITED_DEPTH else depth - 1
        child_p = frame.path_probability * (frame.probs[frame.i] if chance else 1.0)
        zeros = (0.0,) * self.num_players
        if child.is_terminal():
            return tuple(float(r) for r in child.returns()), zeros
        if opts.limited and (
            child_depth <= 0 or (opts.min_probability > 0.0 and child_p < opts.min_probability)
        ):
            self._leaves += 1
            return self._leaf(child), zeros
        key = child.to_json()
        stored = self.table.get(key)
        if stored is not None and self._valid(stored, child_depth, child_p):
            return stored.values, stored.plies
        if len(stack) >= MAX_PLIES:
            raise SolverError(
                f"expectimax went deeper than {MAX_PLIES} plies: the game does not seem to end"
            )
        stack.append(_Frame(child, key, child_depth, child_p, self.num_players))
        self._expanded += 1
        if self._expanded % CLOCK_EVERY == 0:
            self._check_clock()
        return None

    def _absorb(
        self, frame: _Frame, values: tuple[float, ...], plies: tuple[float, ...]
    ) -> tuple[float, ...]:
        """Take the current child's values into ``frame`` (a chance node's mean, or its worst
        outcome in adversarial mode; a decision node's best) and move to the next child;
        returns the child's win-weighted plies."""
        n = self.num_players
        action = frame.actions[frame.i]
        wplies = tuple(plies[k] + values[k] for k in range(n))
        if frame.player == CHANCE and not self.options.adversarial:
            p = frame.probs[frame.i]
            for k in range(n):
                frame.values[k] += p * values[k]
                frame.plies[k] += p * wplies[k]
        elif not frame.have or (
            _worse(self.target, values, wplies, frame.values, frame.plies)
            if frame.player == CHANCE
            else _better(frame.player, values, wplies, frame.values, frame.plies)
        ):
            frame.values, frame.plies = list(values), list(wplies)
            frame.best, frame.have = action, True
        frame.i += 1
        return wplies


def _decided(frame: _Frame, target: int) -> bool:
    """Adversarial mode: whether no further child can change the node's value (returns lie in
    [0, 1]): a chance node that has seen a 0 for the target, a decision node whose mover has a 1.
    The twin of ``decided`` in ``ext/expectimax.pyx``."""
    if not frame.have:
        return False
    if frame.player == CHANCE:
        return frame.values[target] <= 0.0
    return frame.values[frame.player] >= 1.0


# -- the compiled table --------------------------------------------------------------------------
class KernelTable:
    """The same interface over ``solver._ext.expectimax.ExpectimaxTable`` (kernel states)."""

    engine = "kernel"

    def __init__(
        self, game: Game, num_players: int, options: TableOptions, target: int, hash_bits: int = 64
    ) -> None:
        from solver._ext.expectimax import ExpectimaxTable

        self.game = game
        self.num_players = num_players
        self.options = options
        self.target = target
        self._table = ExpectimaxTable(
            game,
            options.memory_bytes,
            adversarial=options.adversarial,
            limited=options.limited,
            min_probability=options.min_probability,
            target=target,
            hash_bits=hash_bits,
        )

    @property
    def entries(self) -> int:
        return self._table.entries

    @property
    def bytes(self) -> int:
        return self._table.bytes

    def set_deadline(self, deadline: float | None) -> None:
        self._table.set_deadline(deadline)

    def stop(self) -> None:
        self._table.stop()

    @property
    def entry_bytes(self) -> int:
        return self._table.entry_size

    def lookup(self, state: State) -> Entry | None:
        found = self._table.lookup(state)
        return None if found is None else Entry(*found)

    def search(self, root: State, depth_left: int) -> RootReport:
        entry, children, expanded, leaves = self._table.search(root, depth_left)
        return RootReport(Entry(*entry), tuple(children), expanded, leaves)


def _game_of(state: State) -> Game:
    """:func:`solver.kernels.game_of`, or an :class:`OptionError` for a state that has none."""
    game = game_of(state)
    if game is None:
        raise OptionError(f"{type(state).__name__} does not say which game it belongs to (.game)")
    return game


def _make_table(
    state: State,
    options: TableOptions,
    heuristic: Heuristic | None,
    engine: str | None,
    hash_bits: int = 64,
) -> ExactTable:
    game = _game_of(state)
    num_players = int(game.num_players())
    if not 1 <= num_players <= MAX_PLAYERS:
        raise OptionError(f"expectimax handles 1..{MAX_PLAYERS} players, not {num_players}")
    player = state.current_player()
    target = player if player >= 0 else 0
    kernel = kernel_of(state) is not None
    chosen = engine
    engine = _table_engine(engine, kernel)
    if engine == "kernel":
        if not kernel:
            raise OptionError(f"{type(state).__name__} is not a compiled-kernel state")
        try:
            return _kernel_table(state, game, num_players, options, target, heuristic, hash_bits)
        except OptionError as exc:
            _check_python_fallback(exc, chosen, options, str(getattr(game, "name", "this game")))
    if options.prune:
        raise OptionError(f"prune=True needs a compiled kernel; {type(state).__name__} is not one")
    if chosen is None:
        _refuse_whole_game(game, options)
    if heuristic is None and hasattr(state, "heuristic"):

        def heuristic(s: State, k: int) -> float:
            return float(cast(HeuristicState, s).heuristic(k))

    if options.limited and heuristic is None:
        raise OptionError(
            f"a depth-limited search needs a heuristic, and {type(state).__name__} has none: "
            "pass heuristic=callable(state, player) -> [0, 1], or use exact=True"
        )
    return PyTable(game, num_players, options, target, heuristic)


def _table_engine(engine: str | None, kernel: bool) -> str:
    """The loop a table runs on: the one named (``kernel`` or ``python``), else the compiled one
    where the state has a kernel."""
    if engine is None:
        engine = "kernel" if kernel else "python"
    if engine not in ("kernel", "python"):
        raise OptionError(f"_engine must be 'kernel' or 'python', not {engine!r}")
    return engine


def _check_python_fallback(
    exc: OptionError, chosen: str | None, options: TableOptions, name: str
) -> None:
    """Re-raise the compiled table's refusal ``exc`` unless the Python loop may take over.

    The compiled tables keep a node's moves in buffers of KERNEL_MAX_ACTIONS: a kernel whose
    nodes may have more (guardians, the Trial) is searched by the Python loop over its states
    when the search is bounded (a depth, or a probability cut-off), unless the compiled loop was
    asked for by name (``chosen``). Its whole game is not searched: guardians' filled 1 GB in
    331 s before the cap stopped it. ``name``: the game's, for the refusal a user reads first
    (the buffer sizes follow it in brackets)."""
    if chosen is not None or options.prune or "exceeds KERNEL_MAX_ACTIONS" not in str(exc):
        raise exc
    if not options.limited or (options.depth is None and not options.min_probability):
        raise OptionError(
            f"{name} has no exact search: its positions may have more moves than the compiled "
            "exact search takes, and its whole game is far beyond the Python one; search it "
            "depth-limited (exact=False with depth=D, in Python here) or with MCTS "
            f"({exc})"
        ) from None


def _refuse_whole_game(game: Game, options: TableOptions) -> None:
    """The Python loop on a registered game whose declaration offers no exact search
    (``GameSpec.exact`` false: guardians, the Trial) is refused the whole game, as the kernel's
    states are (:func:`_check_python_fallback`): a reference engine's state was searched
    unbounded until the memory cap said no (guardians': docs/search.md), while its kernel twin
    was refused at once. A search bounded by a depth or a probability
    cut-off goes on; so does one asked of the Python loop by name (``_engine="python"``)."""
    from solver.spec import declared

    if options.limited and (options.depth is not None or options.min_probability):
        return
    spec = declared(game)
    if spec is not None and not spec.exact:
        raise OptionError(
            f"{spec.name} has no exact search: its whole game is far beyond the Python exact "
            "search; search it depth-limited (exact=False with depth=D) or with MCTS"
        )


def _kernel_table(
    state: State,
    game: Game,
    num_players: int,
    options: TableOptions,
    target: int,
    heuristic: Heuristic | None,
    hash_bits: int,
) -> ExactTable:
    """A compiled table: the pruning one for a plain exact search where the kernel allows it
    (unless ``prune=False``), else the plain compiled one; ``prune=True`` where pruning is not
    available is refused, and so is a Python heuristic."""
    if heuristic is not None:
        raise OptionError(
            "heuristic= is for pure-Python states; kernel states use the kernel's own heuristic"
        )
    if options.exact and not options.adversarial and options.prune is not False:
        from solver.search.pruning import PrunedTable, pruning_available

        if pruning_available(state):
            return PrunedTable(game, options, threads=options.threads, hash_bits=hash_bits)
    if options.prune:
        raise OptionError(
            "prune=True needs a compiled kernel that declares its utility range, with one "
            "player or two (constant-sum, game.constant_sum = True)"
        )
    return KernelTable(game, num_players, options, target, hash_bits)


# -- the public functions ------------------------------------------------------------------------
class Solution:
    """A solved (or searched) position, able to answer for positions reached later.

    ``result`` is the :class:`SearchResult` of the root. :meth:`best_action` and :meth:`value`
    read the table for any state of the same game; a state the table does not hold (off the
    searched tree, or in depth-limited mode where every query is searched afresh with the same
    depth) is searched then, reusing and growing the same table. In adversarial mode the best
    actions are the guaranteeing strategy.
    """

    def __init__(self, table: ExactTable, options: TableOptions, result: SearchResult):
        self._table = table
        self._options = options
        self.result = result

    @property
    def mode(self) -> str:
        return self._options.mode

    @property
    def entries(self) -> int:
        return self._table.entries

    def _check_game(self, state: State) -> None:
        game, solved = _game_of(state), self._table.game
        if game is solved:
            return
        if type(game) is not type(solved) or game != solved:  # a game may define equality
            raise OptionError(
                f"this state belongs to another game ({game!r}) than the one solved ({solved!r})"
            )

    def entry(self, state: State) -> Entry | None:
        """The table entry for ``state`` (searching it if needed); None when terminal."""
        self._check_game(state)
        if state.is_terminal():
            return None
        if not self._options.limited:
            entry = self._table.lookup(state)
            if entry is not None:
                return entry
        return self._table.search(state, self._options.depth_left).entry

    def best_action(self, state: State) -> int | None:
        """The best action at ``state``; None at chance nodes and terminal states.

        >>> import solver
        >>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
        >>> solution = solve(game.new_initial_state())
        >>> state = game.new_initial_state()
        >>> state.apply_action(12)  # roll: 3 steps
        >>> state.action_to_string(solution.best_action(state))
        'N'
        """
        self._check_game(state)
        if state.is_terminal() or state.current_player() == CHANCE:
            return None
        entry = self.entry(state)
        assert entry is not None
        return entry.best_action

    def value(self, state: State, player: int | None = None) -> float:
        """The value of ``state`` for ``player`` (default: the player to move, else player 0)."""
        self._check_game(state)
        if player is None:
            current = state.current_player()
            player = current if current >= 0 else 0
        if state.is_terminal():
            return float(state.returns()[player])
        entry = self.entry(state)
        assert entry is not None
        return entry.values[player]

    def __repr__(self) -> str:
        return f"Solution(mode={self.mode!r}, value={self.result.value!r}, entries={self.entries})"


def _proven_interval(
    state: State, options: TableOptions, expanded: int
) -> tuple[float | None, float | None]:
    """A proven interval on the root value of a depth-limited search: the pruning search's
    bounds with the same depth (nodes below it only known to lie in the utility range), within
    a node budget of 4 x the search's own nodes; (None, None) where it does not apply or fit."""
    if options.depth is None or kernel_of(state) is None:
        return None, None
    from solver.search.pruning import pruning_available

    if not pruning_available(state):
        return None, None
    from solver._ext.pruning import PruningSearch

    search = PruningSearch(_game_of(state), options.memory_bytes)
    found = search.interval(state, options.depth, None, None, 4 * expanded + 10_000)
    if found is None:
        return None, None
    return float(found[0]), float(found[1])


def _pv(table: ExactTable, state: State, limit: int = PV_MAX) -> list[str]:
    """Labels following the table's choices from ``state`` (best actions, pv chance outcomes)."""
    labels: list[str] = []
    state = state.clone()
    while len(labels) < limit and not state.is_terminal():
        entry = table.lookup(state)
        if entry is None or entry.best_action < 0:
            break
        labels.append(state.action_to_string(entry.best_action))
        state.apply_action(entry.best_action)
    return labels


def _rank(
    player: int, children: Sequence[tuple[int, tuple[float, ...], tuple[float, ...]]], best: int
) -> list[tuple[int, tuple[float, ...], tuple[float, ...]]]:
    def compare(a: tuple, b: tuple) -> int:
        if _better(player, a[1], a[2], b[1], b[2]):
            return -1
        if _better(player, b[1], b[2], a[1], a[2]):
            return 1
        return -1 if a[0] < b[0] else (1 if a[0] > b[0] else 0)

    first = [c for c in children if c[0] == best]
    rest = sorted((c for c in children if c[0] != best), key=functools.cmp_to_key(compare))
    return first + rest


def _solve_as(
    function: str,
    /,
    state: State,
    *,
    exact: bool | Unset = UNSET,
    depth: int | Unset | None = UNSET,
    adversarial: bool | Unset = UNSET,
    memory_mb: float | Unset | None = UNSET,
    seconds: float | Unset | None = UNSET,
    min_probability: float | Unset = UNSET,
    seed: int = 0,
    heuristic: Heuristic | Unset | None = UNSET,
    top_k: int | Unset | None = UNSET,
    prune: bool | Unset | None = UNSET,
    threads: int | Unset = UNSET,
    limit: Limit | None = None,
    options: ExpectimaxOptions | None = None,
    _engine: str | None = None,
    _hash_bits: int = 64,
    _cancel: threading.Event | None = None,
    clairvoyant: bool = False,
    **unknown: object,
) -> Solution:
    """:func:`solve` and :func:`expectimax` (``function``: which, for the error messages): the
    options and budget checked, then the search."""
    given = {"exact": exact, "adversarial": adversarial, "min_probability": min_probability,
             "heuristic": heuristic, "prune": prune, "threads": threads}  # fmt: skip
    budget_given = {"depth": depth, "memory_mb": memory_mb, "seconds": seconds, "top_k": top_k}
    refuse_clairvoyant(function, state, clairvoyant)
    opts, budget, internal = _call(function, unknown, options, given, limit, budget_given, seed)
    return _solve(state, opts, budget, internal, _engine, _hash_bits, _cancel)


@parameters_after_name(_solve_as)
def solve(state: State, **keywords: Any) -> Solution:
    """Search ``state`` like :func:`expectimax` and keep the table: a :class:`Solution`.

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-3x3", engine="reference")
    >>> solution = solve(game.new_initial_state(), adversarial=True)
    >>> solution.result.value, solution.mode
    (0.0, 'adversarial')
    """
    return _solve_as("solve", state, **keywords)


@contextlib.contextmanager
def _clock(
    table: ExactTable, seconds: float | None, cancel: threading.Event | None
) -> Iterator[None]:
    """The table's deadline (``seconds`` from now) while the block runs, and a watcher that
    stops the search when ``cancel`` is set; afterwards the table has no deadline (a
    :class:`Solution` answers later queries without one)."""
    table.set_deadline(None if seconds is None else time.monotonic() + seconds)
    done = threading.Event()
    watcher = None
    if cancel is not None:
        if cancel.is_set():
            table.stop()

        def watch() -> None:
            while not done.is_set():
                if cancel.wait(CANCEL_POLL):
                    table.stop()
                    return

        watcher = threading.Thread(target=watch, name="expectimax-cancel", daemon=True)
        watcher.start()
    try:
        yield
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
        table.set_deadline(None)


def _solve(
    state: State,
    opts: ExpectimaxOptions,
    budget: Limit,
    options: TableOptions,
    engine: str | None,
    hash_bits: int,
    cancel: threading.Event | None = None,
) -> Solution:
    require_state(state)
    if state.is_terminal():
        raise OptionError("the game is over in this state: there is nothing to search")
    if cancel is not None and not isinstance(cancel, threading.Event):
        raise OptionError(f"_cancel must be a threading.Event or None, not {cancel!r}")
    start = time.perf_counter()
    table = _make_table(state, options, opts.heuristic, engine, hash_bits)
    with _clock(table, options.seconds, cancel):
        report = table.search(state, options.depth_left)
        result = _result_of(state, table, report, budget, options, start)
    return Solution(table, options, result)


def _pv_or_cut(table: ExactTable, state: State, limit: int, cut: list[bool]) -> list[str]:
    """:func:`_pv`, or none past the deadline (``cut[0]`` then says so): the values are known,
    the lines only cost more searching (the pruning table solves each position on demand)."""
    if cut[0]:
        return []
    try:
        return _pv(table, state, limit)
    except SearchTimeoutError:
        cut[0] = True
        return []


def _result_of(
    state: State,
    table: ExactTable,
    report: RootReport,
    budget: Limit,
    options: TableOptions,
    start: float,
) -> SearchResult:
    """The :class:`SearchResult` of a finished root search (principal variations read from
    the table, cut short if the deadline passes while they are read)."""
    cut = [False]
    entry = report.entry
    player = entry.player
    extra: dict[str, Any] = {
        "mode": options.mode,
        "engine": table.engine,
        "values": list(entry.values),
        "leaves": report.leaves,
        "table_bytes": table.bytes,
        "win_weighted_plies": entry.plies[player if player >= 0 else table.target],
        "algorithm": getattr(table, "algorithm", "plain"),
    }
    if options.limited and not options.adversarial:
        extra["value_low"], extra["value_high"] = _proven_interval(state, options, report.expanded)
    pruned = cast("PrunedTable", table) if extra["algorithm"] == "pruning" else None
    if pruned is not None:
        extra["win_weighted_plies"] = pruned.win_weighted_plies
        extra["tie_break"] = pruned.tie_break
        extra["threads"] = pruned.threads
        extra["replaced"] = pruned.replaced
        extra["entry_bytes"] = pruned.entry_bytes
    if player == CHANCE:
        value_player = table.target
        moves: tuple[MoveInfo, ...] = ()
        best_action = best_label = None
        extra["pv"] = _pv_or_cut(table, state, PV_MAX, cut)
    else:
        value_player = player
        infos = []
        for action, values, _plies in _rank(player, report.children, entry.best_action):
            child = state.clone()
            child.apply_action(action)
            label = state.action_to_string(action)
            pv = (label, *_pv_or_cut(table, child, PV_MAX - 1, cut))
            infos.append(
                MoveInfo(action=action, label=label, visits=0, value=values[player], pv=pv)
            )
        moves = tuple(infos if budget.top_k is None else infos[: budget.top_k])
        best_action = entry.best_action
        best_label = state.action_to_string(best_action)
        extra["pv"] = list(moves[0].pv)
    if cut[0]:
        extra["pv_cut"] = True  # the deadline passed while the lines were read: some are short
    # measured once the lines are read: a pruning table solves the positions along them on
    # demand, often most of the work (a 16x16 forest: 7.4 s of 7.4, where 0.003 s was shown)
    elapsed = time.perf_counter() - start
    return SearchResult(
        best_action=best_action,
        best_label=best_label,
        moves=moves,
        value=entry.values[value_player],
        iterations=pruned.expanded if pruned is not None else report.expanded,
        nodes=table.entries,
        elapsed=elapsed,
        exact=options.exact,
        extra=extra,
    )


@parameters_after_name(_solve_as)
def expectimax(state: State, **keywords: Any) -> SearchResult:
    """Search ``state`` with expectimax (see the module docstring for the modes).

    The options ``exact`` (default True), ``adversarial``, ``min_probability`` and ``heuristic``
    (:class:`~solver.search.options.ExpectimaxOptions`) are keywords or one ``options=``; the
    budget ``depth``, ``memory_mb`` (default 1024), ``seconds`` and ``top_k`` keywords or one
    ``limit=Limit(...)`` (``iterations`` does not apply: ``OptionError``). ``seconds`` is a
    deadline: a search still running then stops with
    :class:`~solver.errors.SearchTimeoutError` (nothing partial; the compiled loops look at the
    clock every 4096 nodes, the Python one every 64); principal variations still being read
    then are cut short (``extra["pv_cut"]``). The private ``_cancel`` (a ``threading.Event``)
    stops the search the same way when set from another thread. A state that hides information
    is refused (an ``OptionError``: the search would read the hidden cards) unless
    ``clairvoyant=True`` (:mod:`solver.search.clairvoyance`).

    Returns a :class:`SearchResult`: ``moves`` rank every root action with its value (exact values
    in exact mode), ``pv`` follows best actions and the most likely chance outcomes (adversarial:
    the worst ones), ``iterations`` counts nodes expanded, ``nodes`` table entries, ``exact`` is
    true in exact mode (adversarial: the guaranteed value). From a chance node the result has the
    value only (``best_action`` None, no moves; ``extra["pv"]`` follows the likeliest outcome).
    ``heuristic`` values leaves of pure-Python states in depth-limited mode. The private ``_engine``
    (``"kernel"``/``"python"``) forces one loop, ``_hash_bits`` narrows the kernel hash the compiled
    table sees (tests of collision handling).

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/stick", engine="reference")
    >>> state = game.new_initial_state()
    >>> state.apply_action(10)  # roll: 1 step
    >>> result = expectimax(state)
    >>> [(m.label, round(m.value, 4)) for m in result.moves]
    [('W', 0.8889), ('N', 0.8889), ('E', 0.1111)]
    >>> result.moves[2].pv[:2]
    ('E', 'investigate interesting stick at (2,2)')
    """
    return _solve_as("expectimax", state, **keywords).result
