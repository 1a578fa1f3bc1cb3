"""Monte Carlo tree search (UCT) with explicit chance nodes, for any game of the protocol.

:func:`mcts` searches from a decision node and returns a
:class:`~solver.search.result.SearchResult`; :class:`MCTSTree` keeps the tree between moves
(``search``, then ``advance`` for every action played, chance outcomes included).
:func:`strong_mcts_options` is the configuration the ``mcts`` agent plays, and the default of
:func:`solver.best_move`.

Why two paths: a kernel state (it has ``_state_capsule()``) is searched by the compiled loop of
``solver._ext.mcts`` (flat arrays, no GIL, no Python object per node); any other state, or any
evaluator that is not one of the four built-ins, by the pure-Python twin of
:mod:`solver.search.mcts_reference`, hundreds of times slower but open to every game. Each path is
deterministic for a given state, seed, iteration budget and tree. The algorithm, every option and
the measurements behind the defaults are in ``docs/search.md``.

>>> import solver
>>> from solver.search.mcts import mcts
>>> from solver.search.limit import Limit
>>> from solver.search.options import MCTSOptions
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> state = game.new_initial_state()
>>> state.apply_action(11)                  # roll: 2 steps
>>> result = mcts(state, iterations=1000, seed=1)
>>> result.best_label, result.iterations, result.exact
('E', 1000, False)
>>> typed = mcts(state, limit=Limit(iterations=1000), options=MCTSOptions(), seed=1)
>>> typed.same_search(result)
True
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeAlias, TypeVar

from solver.errors import ExtensionMissingError, IllegalActionError, OptionError
from solver.game import CHANCE, TERMINAL, Game, State, require_state
from solver.kernels import CompiledCount, game_of, kernel_of
from solver.rng import SplitMix64, check_seed, derive_seed
from solver.search.clairvoyance import refuse_clairvoyant
from solver.search.evaluators import (
    DEFAULT_C,
    DEFAULT_C_HEURISTIC,
    EVALUATORS,
    Evaluator,
    EvaluatorLike,
    GuidedEvaluator,
    HeuristicEvaluator,
    MixedEvaluator,
    RolloutEvaluator,
    name_of,
)
from solver.search.limit import (
    UNSET,
    Limit,
    Unset,
    refuse_iterations_past,
    reject_unknown,
    sampling_budget,
)
from solver.search.mcts_reference import MAX_VISITS, PythonTree
from solver.search.options import DEFAULT_MAX_NODES, MCTSOptions, option_names, options_from
from solver.search.result import MoveInfo, SearchResult
from solver.search.watch import Watch, run_sliced

__all__ = [
    "DEFAULT_C",
    "DEFAULT_C_HEURISTIC",
    "DEFAULT_ITERATIONS",
    "DEFAULT_MAX_NODES",
    "EVALUATORS",
    "MCTS",
    "MCTSTree",
    "has_heuristic",
    "mcts",
    "strong_mcts_options",
]

DEFAULT_ITERATIONS = 1000
"""Simulations of the keyword form when neither ``iterations=`` nor ``limit=`` is given."""

_MB = 1 << 20
_CODES: dict[type, int] = {
    RolloutEvaluator: 0,
    HeuristicEvaluator: 1,
    GuidedEvaluator: 2,
    MixedEvaluator: 3,
}
"""The compiled loop's evaluator codes (``EVAL_*`` of ``ext/mcts.pyx``) of the built-ins."""

_OPTION_NAMES = option_names(MCTSOptions)
_KNOWN = ("iterations", "seconds", "memory_mb", "top_k", "seed", "limit", "options", "reuse",
          *_OPTION_NAMES)  # fmt: skip


# -- kernel states ----------------------------------------------------------------------------
def _kernel_module() -> Any:
    try:
        import solver._ext.mcts as ext
    except ImportError as exc:
        raise ExtensionMissingError(
            "the compiled MCTS loop (solver._ext.mcts) is not built; build it with "
            "`python setup.py build_ext --inplace` (or `make install`), or search a "
            f"reference-engine state ({exc})"
        ) from None
    return ext


def has_heuristic(state: State) -> bool:
    """Whether ``state`` can be valued by a heuristic: a kernel with one, or ``heuristic()``."""
    capsules = kernel_of(state)
    if capsules is not None:
        try:
            ext = _kernel_module()
        except ExtensionMissingError:
            return False
        return bool(ext.kernel_has_heuristic(capsules.handle))
    return callable(getattr(state, "heuristic", None))


def strong_mcts_options(state: State) -> MCTSOptions:
    """The strong configuration for ``state``: what the ``mcts`` agent plays.

    Where the state has a heuristic: the heuristic evaluator, ``c = 0.1`` and ``backup="max"``;
    otherwise one random rollout per leaf, ``c = 1.4`` and the mean backup (the measurements
    behind the choice are in ``docs/search.md``).

    Both dog engines have the same heuristic, so both play the same configuration:

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    >>> options = strong_mcts_options(game.new_initial_state())
    >>> options.evaluator, options.backup
    ('heuristic', 'max')
    """
    if has_heuristic(state):
        return MCTSOptions(c=DEFAULT_C_HEURISTIC, evaluator="heuristic", backup="max")
    return MCTSOptions(c=DEFAULT_C, evaluator="rollout", backup="mean")


NodeT = TypeVar("NodeT")
"""How a tree names its nodes: an index into the compiled tree, a ``Node`` of the Python one."""
_Row: TypeAlias = tuple[NodeT, int, float, int, tuple[float, ...]]
"""A child as a tree lists it: its node, action, probability, visits and value sums."""


class _Tree(Protocol[NodeT]):
    """What the result builders read of a tree (compiled or Python)."""

    @property
    def root_handle(self) -> NodeT: ...
    @property
    def node_count(self) -> int: ...
    @property
    def bytes_per_node(self) -> int: ...
    def player(self, node: NodeT) -> int: ...
    def visits(self, node: NodeT) -> int: ...
    def value_sums(self, node: NodeT) -> tuple[float, ...]: ...
    def children(self, node: NodeT) -> list[_Row[NodeT]]: ...
    def most_visited(self, node: NodeT, player: int) -> _Row[NodeT] | None: ...
    def matches(self, state: State) -> bool: ...
    def advance(self, action: int) -> None: ...


class _KernelTree:
    """The compiled ``Tree`` (node 0 is the root) with the Python tree's reading interface."""

    root_handle = 0

    def __init__(self, state: State, game: Game) -> None:
        ext = _kernel_module()
        capsules = kernel_of(state)
        if capsules is None:
            raise OptionError(f"{type(state).__name__} is not a compiled-kernel state")
        self.tree = ext.Tree(game, capsules.handle, capsules.state)

    node_count = CompiledCount("tree", "node_count")
    bytes_per_node = CompiledCount("tree", "bytes_per_node")

    def player(self, node: int) -> int:
        return int(self.tree.player(node))

    def visits(self, node: int) -> int:
        return int(self.tree.visits(node))

    def value_sums(self, node: int) -> tuple[float, ...]:
        return tuple(self.tree.value_sums(node))

    def children(self, node: int) -> list[_Row[int]]:
        return list(self.tree.children(node))

    def most_visited(self, node: int, player: int) -> _Row[int] | None:
        row = self.tree.most_visited(node, player)
        return None if row is None else tuple(row)

    def matches(self, state: State) -> bool:
        capsules = kernel_of(state)
        return capsules is not None and bool(self.tree.matches(capsules.state))

    def advance(self, action: int) -> None:
        try:
            self.tree.advance(action)
        except (ValueError, OverflowError) as exc:
            raise IllegalActionError(str(exc)) from None

    def search(
        self,
        seed: int,
        budget: Limit,
        evaluator: Evaluator,
        c: float,
        max_nodes: int,
        backup: float | None,
        resume: bool = False,
    ) -> tuple[int, str]:
        """Run simulations (``ext/mcts.pyx``'s ``Tree.search``); ``resume``: a later slice of
        one search, going on from the stream where the last call left it."""
        done, reason = self.tree.search(
            -1 if budget.iterations is None else budget.iterations,
            0.0 if budget.seconds is None else budget.seconds,
            seed,
            c,
            _CODES[type(evaluator)],
            getattr(evaluator, "n_rollouts", 1),
            max_nodes=max_nodes,
            backup=-1.0 if backup is None else backup,
            resume=resume,
        )
        return int(done), str(reason)


# -- checking a call ----------------------------------------------------------------------------
def _check_root(state: State, allow_chance: bool) -> int:
    require_state(state)
    player = state.current_player()
    if player == TERMINAL or state.is_terminal():
        raise OptionError("the game is over: MCTS needs a state where a player is to move")
    if player == CHANCE and not allow_chance:
        raise OptionError(chance_root_message(state))
    return int(player)


def chance_root_message(state: State) -> str:
    """Why no best move is searched at a chance node, in words true of every game: the shared
    layer names no game's chance (a "dice roll" was said of guardians' tile draws too)."""
    count = len(state.chance_outcomes())
    return (
        f"this is a chance node (chance acts next, one of {count} outcomes): a best move exists "
        "only at a decision node; apply an outcome of state.chance_outcomes() first "
        "(evaluate() values a chance node)"
    )


def _engine_for(state: State, evaluator: Evaluator | EvaluatorLike) -> tuple[str, Any]:
    """``("kernel" | "python", game)``: the path that searches ``state`` with ``evaluator``.

    A kernel state goes to the compiled loop when the evaluator is a built-in; a user-defined
    evaluator runs on the Python path (over the kernel state's protocol).
    """
    needs = isinstance(evaluator, Evaluator) and evaluator.needs_heuristic
    name = name_of(evaluator)
    capsules = kernel_of(state)
    if capsules is not None and type(evaluator) in _CODES:
        ext = _kernel_module()
        game = game_of(state)
        if needs and not ext.kernel_has_heuristic(capsules.handle):
            raise OptionError(
                f"evaluator {name!r} needs a kernel with a heuristic; {game!r} has none"
            )
        return "kernel", game
    if needs and not callable(getattr(state, "heuristic", None)):
        raise OptionError(
            f"evaluator {name!r} needs a compiled kernel state or a state with a "
            f"heuristic(player) method; {type(state).__name__} has none"
        )
    game = getattr(state, "game", None)
    if game is None and callable(getattr(state, "get_game", None)):
        game = state.get_game()
    return "python", game


# -- the public face ----------------------------------------------------------------------------
class MCTSTree:
    """An MCTS tree kept between moves.

    ``search(state, ...)`` takes the same options as :func:`mcts`. The first search adopts the
    state as the tree's root; later searches must be given a state equal to the root (same game,
    same position), else :class:`~solver.errors.OptionError`. After a move is played, call
    ``advance(action)`` — for chance outcomes too — and the subtree under that action becomes
    the tree, with its statistics. ``reset()`` forgets everything. A tree is not thread-safe.

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-3x3", engine="reference")
    >>> state = game.new_initial_state()
    >>> state.apply_action(12)                  # roll: 3 steps
    >>> tree = MCTSTree()
    >>> first = tree.search(state, iterations=200, seed=3)
    >>> kept = next(m.visits for m in first.moves if m.action == first.best_action)
    >>> tree.advance(first.best_action); state.apply_action(first.best_action)
    >>> tree.root_visits == kept
    True
    """

    def __init__(self) -> None:
        self._tree: PythonTree | _KernelTree | None = None
        self._kind: str | None = None  # "kernel" or "python"
        self._game: Any = None
        self._rng: SplitMix64 | None = None  # the Python tree's stream, for ``resume``
        self._root_of: State | None = None  # the state object last adopted or matched

    @property
    def engine(self) -> str | None:
        """``"kernel"`` (compiled loop), ``"python"`` (the twin) or None before the first search."""
        return self._kind

    @property
    def nodes(self) -> int:
        """Nodes stored (0 before the first search)."""
        return 0 if self._tree is None else self._tree.node_count

    @property
    def root_visits(self) -> int:
        """Visits of the root: simulations kept from earlier searches."""
        if self._tree is None:
            return 0
        view: _Tree = self._tree
        return view.visits(view.root_handle)

    @property
    def bytes_per_node(self) -> int | None:
        """Bytes of one node in the compiled layout (None before the first search)."""
        return None if self._tree is None else self._tree.bytes_per_node

    def reset(self) -> None:
        """Forget the tree; the next search adopts its state as the root."""
        self._tree = None
        self._kind = None
        self._game = None
        self._rng = None
        self._root_of = None

    def advance(self, action: int) -> None:
        """Re-root on the child reached by ``action`` (a decision or a chance outcome).

        Raises :class:`~solver.errors.IllegalActionError` when the action is not legal at the
        root. Before the first search there is no tree, and advancing does nothing.
        """
        if self._tree is None:
            return
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action {action!r} is not an action id")
        self._tree.advance(action)
        self._root_of = None

    def search(
        self,
        state: State,
        *,
        iterations: int | Unset | None = UNSET,
        seconds: float | Unset | None = UNSET,
        seed: int = 0,
        c: float | Unset | None = UNSET,
        evaluator: str | Evaluator | EvaluatorLike | Unset = UNSET,
        rollouts: int | Unset | None = UNSET,
        max_nodes: int | Unset = UNSET,
        backup: str | float | Unset = UNSET,
        memory_mb: float | Unset | None = UNSET,
        top_k: int | Unset | None = UNSET,
        threads: int | Unset = UNSET,
        limit: Limit | None = None,
        options: MCTSOptions | None = None,
        **unknown: object,
    ) -> SearchResult:
        """Search from ``state`` (equal to the tree's root); see :func:`mcts`."""
        reject_unknown("search", unknown, _KNOWN)
        given = {"c": c, "evaluator": evaluator, "rollouts": rollouts, "backup": backup,
                 "max_nodes": max_nodes, "threads": threads}  # fmt: skip
        opts: MCTSOptions = options_from(MCTSOptions, options, given, {})
        budget = sampling_budget(
            "MCTS", limit, {"iterations": iterations, "seconds": seconds, "memory_mb": memory_mb,
            "top_k": top_k}, default_iterations=DEFAULT_ITERATIONS, refused=["depth"],
            why="bound it by iterations, seconds or memory_mb", max_iterations=MAX_VISITS,
        )  # fmt: skip
        from solver.search.limit import search_cancel

        cancel = search_cancel()
        if cancel is None or opts.threads > 1:
            return self._search(state, budget, opts, check_seed(seed), allow_chance=False)
        return self._watched(state, budget, opts, check_seed(seed), cancel)

    def _watched(
        self, state: State, budget: Limit, opts: MCTSOptions, seed: int, cancel: threading.Event
    ) -> SearchResult:
        """The search in paced slices that look at ``cancel`` between them
        (:func:`~solver.search.watch.run_sliced`), for a search under a
        :func:`~solver.search.limit.search_deadline` with a cancel event (a hint's strength
        level, whose terminate was heard only when its search started): the slices resume the
        random stream, so nobody setting it changes no move, visit or value; once set, the
        answer is what the tree has (``extra["stopped_by"]``: ``"stopped"``), one simulation at
        least."""
        run = Resumed(self, state, budget, opts, seed)
        ran = run_sliced(run.search, budget.iterations, budget.seconds, Watch(cancel), paced=True)
        if run.last is None:  # stopped before it started: the floor of one simulation
            run.search(0, 1, None)
        result = run.result()
        if ran.terminated:
            result.extra["stopped_by"] = "stopped"
        return result

    def _search(
        self,
        state: State,
        budget: Limit,
        opts: MCTSOptions,
        seed: int,
        allow_chance: bool,
        *,
        lines_by: float | None = None,
        moves: bool = True,
        resume: bool = False,
    ) -> SearchResult:
        """The search itself, once every option is checked (chance roots: for evaluate).
        ``lines_by``: a ``time.monotonic()`` time after which the moves' lines are no longer read
        (:func:`_move_infos`); ``moves=False``: no moves at all, for a caller that reads only
        the tree's values (at a chance root of 3,000 outcomes, their lines took 0.2 s);
        ``resume``: a later slice of one search (one thread): the random stream goes on from
        where the last search on this tree left it (``seed`` unused) and the node cap is checked
        before the first simulation too, so the slices together are the same search as one
        call (:func:`solver.search.auto.search_position`'s watched estimate)."""
        if opts.threads > 1:
            if self._tree is not None:
                raise OptionError(
                    "threads > 1 searches fresh trees (root parallelism): it cannot continue a "
                    "reused tree; reset() it or search with threads=1"
                )
            return _root_parallel(state, budget, opts, seed, allow_chance)
        root_player = _check_root(state, allow_chance)
        evaluator = opts.evaluator_object()
        kind, game = _engine_for(state, evaluator)
        c = opts.resolved_c()
        weight = opts.backup_weight()
        self._adopt(state, kind, game, resume)
        tree = self._tree
        assert tree is not None
        max_nodes = opts.max_nodes
        if budget.memory_mb is not None:
            # at least 1: the compiled loop reads a cap of 0 as none at all, so a memory_mb
            # below one node's bytes (1e-300) grew the tree without bound
            fits = int(budget.memory_mb * _MB) // tree.bytes_per_node
            max_nodes = min(max_nodes, max(1, fits))
        view: _Tree = tree
        reused = view.visits(view.root_handle)
        start = time.perf_counter()
        if isinstance(tree, _KernelTree):
            assert isinstance(evaluator, Evaluator)
            done, stop_reason = tree.search(seed, budget, evaluator, c, max_nodes, weight, resume)
        else:
            done, stop_reason = tree.search(
                self._stream(seed, resume),
                iterations=budget.iterations,
                seconds=budget.seconds,
                evaluator=evaluator,
                c=c,
                max_nodes=max_nodes,
                backup=weight,
                resume=resume,
            )
        elapsed = time.perf_counter() - start
        extra: dict[str, Any] = {
            "engine": self._kind,
            "evaluator": name_of(evaluator),
            "c": c,
            "seed": seed,
            "rollouts": getattr(evaluator, "n_rollouts", 1),
            "backup": opts.backup,
            "reused_visits": reused,
            "stopped_by": stop_reason,
            "simulations_per_second": done / elapsed if elapsed > 0 else math.inf,
        }
        player = root_player if root_player >= 0 else 0
        top_k = budget.top_k if moves else 0
        return _build_result(view, state, player, done, elapsed, extra, top_k, lines_by)

    def _stream(self, seed: int, resume: bool) -> SplitMix64:
        """The Python tree's random stream: a new one seeded ``seed``, or with ``resume`` the
        one the last search left (kept, so the next ``resume`` goes on from this one's end)."""
        if resume and self._rng is None:
            raise OptionError("resume needs a search before it: no stream to go on from")
        if not resume:
            self._rng = SplitMix64(seed)
        assert self._rng is not None
        return self._rng

    def _adopt(self, state: State, kind: str, game: Game, resume: bool = False) -> None:
        """Take ``state`` as the root, or check that it is the tree's. A later slice of one
        search (``resume``) given the very object the last slice matched is not checked again:
        the Python tree compares saved forms, and a 4,096-tile guardians state's took 0.06 s of
        a 0.3 s hint, outside the slice's clock."""
        if self._tree is not None:
            if resume and state is self._root_of:
                return
            if kind == self._kind and self._game is game and self._tree.matches(state):
                self._root_of = state
                return
            raise OptionError(
                "the tree's root is not this state: advance the tree with every action played "
                "(tree.advance(action)), or reset() it"
            )
        if kind == "kernel":
            self._tree = _KernelTree(state, game)
        else:
            self._tree = PythonTree(state, len(state.returns()))
        self._kind = kind
        self._game = game
        self._root_of = state


MCTS = MCTSTree
"""Another name for :class:`MCTSTree`."""


def mcts(
    state: State,
    *,
    iterations: int | Unset | None = UNSET,
    seconds: float | Unset | None = UNSET,
    seed: int = 0,
    c: float | Unset | None = UNSET,
    evaluator: str | Evaluator | EvaluatorLike | Unset = UNSET,
    rollouts: int | Unset | None = UNSET,
    reuse: MCTSTree | None = None,
    max_nodes: int | Unset = UNSET,
    backup: str | float | Unset = UNSET,
    memory_mb: float | Unset | None = UNSET,
    top_k: int | Unset | None = UNSET,
    threads: int | Unset = UNSET,
    limit: Limit | None = None,
    options: MCTSOptions | None = None,
    clairvoyant: bool = False,
    **unknown: object,
) -> SearchResult:
    """Search ``state`` (a decision node) with UCT and return the ranked moves.

    The budget: ``iterations`` (default 1000 when neither it, ``seconds`` nor ``limit`` is
    given) and/or ``seconds``, ``memory_mb`` (caps the tree), ``top_k`` (moves reported), as
    keywords or as a :class:`~solver.search.limit.Limit`; it stops at the first bound reached.
    ``seed`` (0..2**64-1) seeds the searcher's own generator: the same seed and iteration budget
    give the same result. The options ``c``, ``evaluator``, ``rollouts``, ``backup`` and
    ``max_nodes`` (documented in :class:`~solver.search.options.MCTSOptions`) are keywords or
    one ``options=MCTSOptions(...)``. ``reuse``: an :class:`MCTSTree` whose statistics the search
    continues (its root must equal ``state``).

    Raises :class:`~solver.errors.OptionError` for an unknown or bad option, an option given
    twice, a terminal state ("the game is over"), a chance node (a best move exists only at
    a decision node) and a state that hides information (plain MCTS would read the hidden
    cards: :mod:`solver.search.clairvoyance`) unless ``clairvoyant=True``.

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
    >>> state = game.new_initial_state()
    >>> state.apply_action(11)                  # roll: 2 steps
    >>> result = mcts(state, iterations=1000, seed=1)
    >>> [m.label for m in result.moves], result.moves[0].pv[:2]
    (['E', 'N', 'W'], ('E', 'N'))
    """
    reject_unknown("mcts", unknown, _KNOWN)
    refuse_clairvoyant("mcts", state, clairvoyant)
    if reuse is not None and not isinstance(reuse, MCTSTree):
        raise OptionError(f"reuse must be an MCTSTree or None, not {type(reuse).__name__}")
    tree = reuse if reuse is not None else MCTSTree()
    return tree.search(
        state,
        iterations=iterations,
        seconds=seconds,
        seed=seed,
        c=c,
        evaluator=evaluator,
        rollouts=rollouts,
        max_nodes=max_nodes,
        backup=backup,
        memory_mb=memory_mb,
        top_k=top_k,
        threads=threads,
        limit=limit,
        options=options,
    )


class Resumed:
    """The calls of one search on one tree, each a :data:`~solver.search.watch.SliceSearch` for
    :func:`~solver.search.watch.run_sliced`. Every call after the first resumes the random
    stream where the last left it (``MCTSTree._search(resume=True)``), so the calls together
    are the same search as one: how the budget is cut, and whether anyone watched, changes no
    move, visit or value. ``budget``: all but the calls' iterations and seconds; ``lines_by``
    and ``moves`` as :meth:`MCTSTree._search`'s."""

    def __init__(self, tree: MCTSTree, state: State, budget: Limit, opts: MCTSOptions,
                 seed: int, allow_chance: bool = False, *, lines_by: float | None = None,
                 moves: bool = True) -> None:  # fmt: skip
        self.tree, self.state, self.budget, self.opts, self.seed = tree, state, budget, opts, seed
        self.allow_chance, self.lines_by, self.moves = allow_chance, lines_by, moves
        self.first: SearchResult | None = None
        self.last: SearchResult | None = None
        self.total = 0
        self.elapsed = 0.0

    def search(self, _k: int, iterations: int | None, seconds: float | None) -> tuple[int, str]:
        """One call: ``(simulations, reason)``."""
        part = dataclasses.replace(self.budget, iterations=iterations, seconds=seconds)
        self.last = self.tree._search(
            self.state, part, self.opts, self.seed, self.allow_chance,
            lines_by=self.lines_by, moves=self.moves, resume=self.last is not None,
        )  # fmt: skip
        self.first = self.first or self.last
        self.total += self.last.iterations
        self.elapsed += self.last.elapsed
        return self.last.iterations, self.reason

    @property
    def reason(self) -> str:
        """Why the last call stopped (``"iterations"``, ``"seconds"``, ``"max_nodes"``)."""
        assert self.last is not None
        return str(self.last.extra["stopped_by"])

    def result(self) -> SearchResult:
        """What the tree says so far: the last call's result, with the simulations and time of
        all the calls and the visits the first one reused."""
        assert self.first is not None and self.last is not None
        extra = {**self.last.extra, "reused_visits": self.first.extra["reused_visits"]}
        extra["simulations_per_second"] = (
            self.total / self.elapsed if self.elapsed > 0 else math.inf
        )
        return dataclasses.replace(
            self.last, iterations=self.total, elapsed=self.elapsed, extra=extra
        )


def _root_parallel(
    state: State, budget: Limit, opts: MCTSOptions, seed: int, allow_chance: bool
) -> SearchResult:
    """Root parallelism: ``opts.threads`` independent trees (tree ``i`` seeded with
    ``derive_seed(seed, i)``, an equal share of the iterations), merged by root move."""
    threads = opts.threads
    _check_root(state, allow_chance)
    if budget.iterations is not None and budget.iterations < threads:
        raise OptionError(
            f"iterations ({budget.iterations}) must be at least threads ({threads}): every tree "
            "gets a share"
        )
    single = dataclasses.replace(opts, threads=1)
    shares: list[int | None] = [
        None
        if budget.iterations is None
        else budget.iterations // threads + (1 if i < budget.iterations % threads else 0)
        for i in range(threads)
    ]
    seeds = [derive_seed(seed, i) for i in range(threads)]
    results: list[SearchResult | None] = [None] * threads

    def run(i: int) -> None:
        part = dataclasses.replace(budget, iterations=shares[i], top_k=None)
        results[i] = MCTSTree()._search(state, part, single, seeds[i], allow_chance)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for future in [pool.submit(run, i) for i in range(threads)]:
            future.result()
    elapsed = time.perf_counter() - start
    done = [r for r in results if r is not None]
    merged: dict[int, list[Any]] = {}  # action -> [visits, value sum, pv visits, pv, label]
    for r in done:
        for m in r.moves:
            slot = merged.setdefault(m.action, [0, 0.0, -1, (), m.label])
            slot[0] += m.visits
            slot[1] += m.value * m.visits
            if m.visits > slot[2]:
                slot[2], slot[3] = m.visits, m.pv
    moves = [
        MoveInfo(action=a, label=v[4], visits=v[0], value=v[1] / v[0] if v[0] else 0.0, pv=v[3])
        for a, v in merged.items()
    ]
    moves.sort(key=lambda m: (-m.visits, -m.value, m.action))
    root_visits = sum(int(r.extra["root_visits"]) for r in done)
    root_mean = (
        sum(float(r.extra["root_mean"]) * int(r.extra["root_visits"]) for r in done) / root_visits
        if root_visits
        else 0.0
    )
    total = sum(r.iterations for r in done)
    extra = dict(done[0].extra)
    extra.update(
        threads=threads,
        seed=seed,
        tree_seeds=seeds,
        root_visits=root_visits,
        root_mean=root_mean,
        reused_visits=0,
        stopped_by=done[0].extra["stopped_by"],
        simulations_per_second=total / elapsed if elapsed > 0 else math.inf,
    )
    best = moves[0] if moves else None
    value = best.value if best is not None and best.visits > 0 else root_mean
    shown = tuple(moves if budget.top_k is None else moves[: budget.top_k])
    return SearchResult(
        best_action=best.action if best else None,
        best_label=best.label if best else None,
        moves=shown,
        value=value,
        iterations=total,
        nodes=sum(r.nodes for r in done),
        elapsed=elapsed,
        exact=False,
        extra=extra,
    )


def search_value(state: State, budget: Limit, options: MCTSOptions, seed: int) -> float:
    """MCTS's estimate of player 0's return from ``state``, a decision *or a chance* node.

    At a decision node: the mean of the move the search would play. At a chance node: the
    probability-weighted mean, over the outcomes the search visited, of each outcome's value
    (a decision outcome: the mean of its most visited move). One search, one budget, however
    many chance nodes follow each other.
    """
    refuse_iterations_past(budget.iterations, MAX_VISITS)  # as mcts() refuses
    if options.threads > 1 and state.current_player() != CHANCE:
        return _root_parallel(state, budget, options, check_seed(seed), False).value
    holder = MCTSTree()
    # a chance root reads the tree itself: one thread
    single = dataclasses.replace(options, threads=1)
    holder._search(state, budget, single, check_seed(seed), allow_chance=True, moves=False)
    return _root_value(holder, 0, state.current_player() == CHANCE)


def _root_value(holder: MCTSTree, target: int, chance: bool) -> float:
    """The searched root's value for ``target``: :func:`_chance_value` at a chance root, else
    :func:`_value_of`."""
    assert holder._tree is not None
    tree: _Tree = holder._tree
    if chance:
        return _chance_value(tree, tree.root_handle, target)
    return _value_of(tree, tree.root_handle, target)


# -- results ------------------------------------------------------------------------------------
def _mean(sums: tuple[float, ...], visits: int, player: int) -> float:
    return sums[player] / visits if visits else 0.0


def _most_visited(kids: list[_Row[NodeT]], player: int) -> _Row[NodeT]:
    """Ties: the higher mean for ``player`` (chance: the likelier outcome), then the lower id."""
    if player == CHANCE:
        return min(kids, key=lambda k: (-k[3], -k[2], k[1]))
    return min(kids, key=lambda k: (-k[3], -_mean(k[4], k[3], player), k[1]))


def _pv(tree: _Tree[NodeT], state: State, node: NodeT, action: int) -> tuple[str, ...]:
    if not tree.children(node):  # the move alone: no copy, no move played (a root of 3001
        # unvisited chance outcomes of a reference state spent 9 s past the search on them)
        return (state.action_to_string(action),)
    labels = []
    s = state.clone()
    while True:
        labels.append(s.action_to_string(action))
        s.apply_action(action)
        kids = tree.children(node)
        if not kids:
            break
        best = _most_visited(kids, tree.player(node))
        if best[3] == 0:
            break
        node, action = best[0], best[1]
    return tuple(labels)


def _value_of(tree: _Tree[NodeT], node: NodeT, target: int) -> float:
    """A node's value for ``target``: its most visited move's mean at decisions, else its mean."""
    player = tree.player(node)
    best = tree.most_visited(node, player) if player >= 0 else None
    if best is not None and best[3] > 0:
        return _mean(best[4], best[3], target)
    return _mean(tree.value_sums(node), tree.visits(node), target)


def _chance_value(tree: _Tree[NodeT], node: NodeT, target: int) -> float:
    """Σ p × value over the visited outcomes, renormalised (the node's mean if none)."""
    total = weight = 0.0
    for child, _action, prob, visits, _sums in tree.children(node):
        if visits > 0:
            total += prob * _value_of(tree, child, target)
            weight += prob
    if weight <= 0.0:
        return _mean(tree.value_sums(node), tree.visits(node), target)
    return total / weight


def _move_infos(
    tree: _Tree[NodeT],
    state: State,
    ranked: list[_Row[NodeT]],
    root_player: int,
    lines_by: float | None,
    extra: dict[str, Any],
) -> tuple[MoveInfo, ...]:
    """The ranked root moves with their lines: the best move's always, each next one's while
    ``time.monotonic()`` is before ``lines_by`` (None: every line), so reading them keeps to the
    caller's time (a root of thousands of moves or outcomes); a line not read is the move alone,
    and ``extra["pv_cut"]`` counts those (absent: none was cut)."""
    moves: list[MoveInfo] = []
    for node, action, _prob, visits, sums in ranked:
        late = bool(moves) and lines_by is not None and time.monotonic() >= lines_by
        label = state.action_to_string(action)
        pv = (label,) if late else _pv(tree, state, node, action)
        if late:
            extra["pv_cut"] = extra.get("pv_cut", 0) + 1
        value = _mean(sums, visits, root_player)
        moves.append(MoveInfo(action=action, label=label, visits=visits, value=value, pv=pv))
    return tuple(moves)


def _build_result(
    tree: _Tree[NodeT],
    state: State,
    root_player: int,
    done: int,
    elapsed: float,
    extra: dict[str, Any],
    top_k: int | None = None,
    lines_by: float | None = None,
) -> SearchResult:
    root = tree.root_handle
    ranked = [] if top_k == 0 else tree.children(root)  # 0: no moves (``_search``'s moves=False)
    ranked.sort(key=lambda k: (-k[3], -_mean(k[4], k[3], root_player), k[1]))
    if top_k is not None:
        ranked = ranked[:top_k]
    moves = _move_infos(tree, state, ranked, root_player, lines_by, extra)
    root_visits = tree.visits(root)
    root_mean = _mean(tree.value_sums(root), root_visits, root_player)
    extra["root_visits"] = root_visits
    extra["root_mean"] = root_mean
    best = moves[0] if moves else None
    value = best.value if best is not None and best.visits > 0 else root_mean
    return SearchResult(
        best_action=best.action if best else None,
        best_label=best.label if best else None,
        moves=moves,
        value=value,
        iterations=done,
        nodes=tree.node_count,
        elapsed=elapsed,
        exact=False,
        extra=extra,
    )
