"""Single-observer information-set MCTS (SO-ISMCTS) over the game protocol.

One observer's search: every simulation starts from a *determinisation*, a copy of the root
with everything hidden from the observer redealt at random (``state.resample_hidden(observer,
rng)``), and walks one tree whose nodes are the observer's information: a step of the observer
is keyed by its action id (the observer knows what it did), a step of another player or of
chance by what the observer sees afterwards (a digest of
``state.information_state_string(observer)``). At a decision node the actions are those legal in
this determinisation: an untried one is expanded (one new edge per simulation), else UCB1 picks
among the legal ones with *availability* counts (how often the action was legal when the node
was visited) in place of the parent's visits. Chance steps are sampled from the
determinisation's exact probabilities. The walk stops at its first new edge or new node (one
node a simulation, chance outcomes included), valued by the evaluator (heavy playouts where the
state has a playout policy, the game's heuristic where it has one, else a random rollout); the
returns of every player are backed up along the path and every mover picks by its own mean.

The search never reads the root's hidden cards except through ``resample_hidden``: labels of
the moves come from determinisations, and the principal variation holds only the observer's
own consecutive decisions, so an answer shows nothing the observer cannot see.

A state whose game declares no hidden information (``GameSpec.hidden_information``:
:func:`~solver.search.clairvoyance.has_hidden_information`) is searched with plain clones and
every step keyed by its action id: UCT with availability counts, where every child of a node is
available at each visit.

Two paths: a compiled-kernel state whose kernel fills the hidden-information slots of its table
(or has no hidden information) is searched by the compiled loop of ``solver._ext.ismcts``, the
twin of :class:`ISMCTSTree`, with the same draws; any other state by :class:`ISMCTSTree` here
(``compiled=`` chooses explicitly; :mod:`solver.search.ismcts_kernel` has the rule). Two random
streams: the tree's ``SplitMix64(seed)`` (chance, expansion, leaves) and the deals'
``SplitMix64(deal_seed(seed))``, handed to ``resample_hidden`` (a kernel state seeds its C redeal
with the stream's next 64-bit draw, the number the compiled loop draws).
``threads > 1`` is root parallelism, as for MCTS.

>>> import solver
>>> game = solver.load_game("trial", players=2)
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> result = ismcts(state, iterations=50, seed=1)
>>> result.iterations, result.extra["observer"], result.best_label.startswith("start on")
(50, 0, True)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from solver.errors import ExtensionMissingError, OptionError
from solver.game import CHANCE, TERMINAL, HiddenInformationState, State, require_state
from solver.kernels import kernel_of
from solver.rng import MASK64, SplitMix64, check_seed, derive_seed, sample_outcome
from solver.search.clairvoyance import has_hidden_information
from solver.search.evaluators import (
    Evaluator,
    EvaluatorLike,
    HeuristicEvaluator,
    PlayoutEvaluator,
    RolloutEvaluator,
    checked_prior,
    checked_returns,
    name_of,
)
from solver.search.ismcts_kernel import KernelTree, Plan, plan
from solver.search.limit import (
    UNSET,
    Limit,
    Unset,
    reject_unknown,
    sampling_budget,
    search_cancel,
    within_seconds,
)
from solver.search.mcts_reference import MAX_VISITS
from solver.search.options import MCTSOptions, option_names, options_from
from solver.search.result import MoveInfo, SearchResult
from solver.search.watch import Sliced, SliceSearch, Watch, run_sliced

__all__ = [
    "DEFAULT_C_ISMCTS",
    "ISMCTSTree",
    "MultiObserverTree",
    "deal_seed",
    "has_hidden_information",
    "has_playout_policy",
    "ismcts",
    "ismcts_options",
]

DEFAULT_ITERATIONS = 1000
"""Simulations when no budget is given."""

DEFAULT_C_ISMCTS = 0.4
"""The UCB constant of :func:`ismcts_options` with the heuristic evaluator (returns in [0, 1])."""

_OPTIONS = option_names(MCTSOptions)
_KNOWN = ("iterations", "seconds", "top_k", "memory_mb", "seed", "limit", "options", "observer",
          "compiled", "multiple_observers", "cancel", "progress", *_OPTIONS)  # fmt: skip

DEAL_SALT = 0x6A09E667F3BCC909
"""Mixed into a search's seed to seed its deal stream (the first 64 bits of √2's fraction)."""


def deal_seed(seed: int) -> int:
    """The seed of the determinisations' stream of a search seeded with ``seed``."""
    return (seed ^ DEAL_SALT) & MASK64


def has_playout_policy(state: State) -> bool:
    """Whether ``state`` can be valued by heavy playouts (:class:`PlayoutEvaluator`): a kernel
    that fills ``playout_action`` and ``heuristic``, or a Python state with ``playout_action(rng)``
    and ``heuristic(player)``."""
    from solver.search.ismcts_kernel import extension
    from solver.search.mcts import has_heuristic

    capsules = kernel_of(state)
    if capsules is not None:
        try:
            slots = extension().kernel_slots(capsules.handle)
        except ExtensionMissingError:
            return False
        return {"playout_action", "heuristic"} <= set(slots)
    return callable(getattr(state, "playout_action", None)) and has_heuristic(state)


def ismcts_options(state: State) -> MCTSOptions:
    """ISMCTS's default configuration: heavy playouts (:class:`PlayoutEvaluator`, its default
    depth and ``c``) where the state has a playout policy (:func:`has_playout_policy`: a compiled
    kernel's ``playout_action`` slot), else the heuristic evaluator with ``c = 0.4`` where the
    state has ``heuristic(player)``, else one random rollout per leaf with ``c = 1.4``."""
    from solver.search.mcts import has_heuristic

    if has_playout_policy(state):
        return MCTSOptions(c=PlayoutEvaluator.default_c, evaluator=PlayoutEvaluator())
    if has_heuristic(state):
        return MCTSOptions(c=DEFAULT_C_ISMCTS, evaluator="heuristic")
    return MCTSOptions(c=1.4, evaluator="rollout")


class _Node:
    """One information set of the observer: statistics per action and children per step key.

    ``edges[action] = [visits, availability, sums (one per player), label]``; ``player`` is the
    mover seen at the last visit.
    """

    __slots__ = ("children", "edges", "player", "sums", "visits")

    def __init__(self, num_players: int) -> None:
        self.edges: dict[int, list[Any]] = {}
        self.children: dict[Hashable, _Node] = {}
        self.player = TERMINAL
        self.visits = 0
        self.sums = [0.0] * num_players

    def add(self, returns: list[float]) -> None:
        self.visits += 1
        sums = self.sums
        for p, r in enumerate(returns):
            sums[p] += r


class ISMCTSTree:
    """An ISMCTS tree for one observer at one root (see the module docstring)."""

    def __init__(self, state: State, observer: int, num_players: int) -> None:
        self.root_state = state
        self.observer = observer
        self.num_players = num_players
        self.hidden = has_hidden_information(state)
        self.root = _Node(num_players)
        self.node_count = 1

    # -- one simulation -------------------------------------------------------------------------
    def _world(self, deal: SplitMix64) -> Any:
        if self.hidden:
            return cast(HiddenInformationState, self.root_state).resample_hidden(
                self.observer, deal
            )
        return self.root_state.clone()

    def _key_for(
        self, world: HiddenInformationState, viewer: int, mover: int, action: int
    ) -> Hashable:
        """The child of a step in ``viewer``'s tree: its own move by the action, another's move
        or chance by what ``viewer`` knows after it (the action itself where nothing hides)."""
        if not self.hidden or mover == viewer:
            return action
        return _digest(world.information_state_string(viewer))

    def _enter(self, world: HiddenInformationState) -> list[_Node]:
        """The cursors a walk starts from, one a tree: here the observer's root alone."""
        return [self.root]

    def _viewers(self) -> range:
        """Whose tree each cursor walks: here the observer's alone."""
        return range(self.observer, self.observer + 1)

    def _chooser(self, mover: int) -> int:
        """The cursor whose edges a step of ``mover`` chooses by: here the only one."""
        return 0

    def _child(self, node: _Node, key: Hashable) -> _Node:
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = _Node(self.num_players)
            self.node_count += 1
        return child

    def _play(
        self,
        node: _Node,
        world: State,
        mover: int,
        rng: SplitMix64,
        evaluator: Evaluator | EvaluatorLike,
        c: float,
    ) -> tuple[int, int | None, bool]:
        """One step of a walk at ``node``, applied to ``world``: ``(action, the decision taken or
        None, whether it is a new edge)``. A chance outcome is drawn by its probability; at a
        decision the legal actions with an edge gain an availability, an untried one (uniform)
        is expanded, else UCB1 picks."""
        if mover == CHANCE:
            action = sample_outcome(world.chance_outcomes(), rng)
            world.apply_action(action)
            return action, None, False
        if not 0 <= mover < self.num_players:
            raise RuntimeError(f"current_player() returned {mover!r}")
        legal = _moves(evaluator, world)
        if not legal:
            raise RuntimeError("a non-terminal state without legal actions")
        edges = node.edges
        untried = [a for a in legal if a not in edges]
        for a in legal:
            if a in edges:
                edges[a][1] += 1
        expanded = bool(untried)
        if untried:
            action = untried[rng.below(len(untried))]
            edges[action] = [0, 1, [0.0] * self.num_players, world.action_to_string(action)]
        else:
            action = _ucb(edges, legal, mover, c)
        world.apply_action(action)
        return action, action, expanded

    def _leaf(
        self, world: State, rng: SplitMix64, evaluator: Evaluator | EvaluatorLike
    ) -> list[float]:
        if world.is_terminal():
            return [float(r) for r in world.returns()]
        return checked_returns(evaluator, world, rng, self.num_players)

    def simulate(
        self,
        rng: SplitMix64,
        deal: SplitMix64,
        evaluator: Evaluator | EvaluatorLike,
        c: float,
    ) -> None:
        """One simulation: a determinisation drawn from ``deal``, a walk down every tree the
        search keeps (:meth:`_enter`), a leaf, a backup."""
        world = self._world(deal)
        cursors = self._enter(world)
        path: list[tuple[list[_Node], int, int | None]] = []
        while True:
            if world.is_terminal():
                returns = [float(r) for r in world.returns()]
                break
            mover = world.current_player()
            for node in cursors:
                node.player = mover
            chooser = self._chooser(mover)
            action, taken, expanded = self._play(cursors[chooser], world, mover, rng, evaluator, c)
            path.append((cursors, chooser, taken))
            made = self.node_count
            cursors = [self._child(node, self._key_for(world, t, mover, action))
                       for t, node in zip(self._viewers(), cursors, strict=True)]  # fmt: skip
            if expanded or self.node_count > made:  # a new edge or a node new in any tree
                returns = self._leaf(world, rng, evaluator)
                break
        for node in cursors:
            node.add(returns)
        for nodes, chooser, step in path:
            for node in nodes:
                node.add(returns)
            if step is not None:
                _back_edge(nodes[chooser].edges[step], returns)

    def search(
        self,
        rng: SplitMix64,
        deal: SplitMix64,
        *,
        iterations: int | None,
        seconds: float | None,
        evaluator: Evaluator | EvaluatorLike,
        c: float,
        max_nodes: int,
        resume: bool = False,
    ) -> tuple[int, str]:
        """Run simulations until a bound: ``(simulations, stop reason)``; at least one runs
        unless ``resume`` (a later slice of one search: the node cap is checked before its first
        simulation too, so the slices together are the same search as one call)."""
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        done = 0
        with within_seconds(seconds):  # a leaf's rollouts stop there too
            while True:
                if (done > 0 or resume) and self.node_count >= max_nodes:
                    return done, "max_nodes"
                self.simulate(rng, deal, evaluator, c)
                done += 1
                if iterations is not None and done >= iterations:
                    return done, "iterations"
                if time.perf_counter() >= deadline:
                    return done, "seconds"

    # -- reading ----------------------------------------------------------------------------------
    def pv(self, action: int) -> tuple[str, ...]:
        """The observer's own moves from the root, most visited first, while it stays to move."""
        node = self.root
        labels = []
        while True:
            edge = node.edges[action]
            labels.append(str(edge[3]))
            child = node.children.get(action)
            if child is None or child.player != self.observer or not child.edges:
                break
            if self.hidden and node.player != self.observer:
                break
            action = max(child.edges, key=lambda a: (child.edges[a][0], -a))
            if child.edges[action][0] == 0:
                break
            node = child
        return tuple(labels)


class MultiObserverTree(ISMCTSTree):
    """Multiple-observer ISMCTS (MO-ISMCTS, Cowling, Powley and Whitehouse 2012): one tree per
    player, walked together by the observer's determinisation. The mover chooses in its own tree
    (so it decides by what it knows in this world, not by the observer's pooled view), and each
    tree follows every step as its player sees it: its own move by the action, another's move or
    chance by its information after the step. Another player's root is entered through its
    information at the root, so it chooses by its own cards from the first step. The observer's
    tree is :attr:`root` (read as the single-observer tree is); the twin of the compiled loop's
    ``multi`` mode."""

    def __init__(self, state: State, observer: int, num_players: int) -> None:
        super().__init__(state, observer, num_players)
        self.roots = [self.root if t == observer else _Node(num_players) for t in
                      range(num_players)]  # fmt: skip
        self.node_count = num_players

    def _enter(self, world: HiddenInformationState) -> list[_Node]:
        if not self.hidden:
            return list(self.roots)
        return [
            root if t == self.observer else
            self._child(root, _digest(world.information_state_string(t)))
            for t, root in enumerate(self.roots)
        ]  # fmt: skip

    def _viewers(self) -> range:
        return range(len(self.roots))

    def _chooser(self, mover: int) -> int:
        # a chance step reads no tree: any cursor stands in for the mover's
        return mover if mover != CHANCE else self.observer


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _back_edge(edge: list[Any], returns: list[float]) -> None:
    edge[0] += 1
    sums = edge[2]
    for p, r in enumerate(returns):
        sums[p] += r


def _moves(evaluator: Evaluator | EvaluatorLike, world: State) -> list[int]:
    if isinstance(evaluator, (HeuristicEvaluator, RolloutEvaluator)):
        return [int(a) for a in world.legal_actions()]
    return [a for a, _ in checked_prior(evaluator, world)]


def _ucb(edges: dict[int, list[Any]], legal: list[int], mover: int, c: float) -> int:
    best = legal[0]
    best_score = -math.inf
    for a in legal:
        visits, avail, sums, _label = edges[a]
        if visits == 0:
            return a
        score = sums[mover] / visits + c * math.sqrt(math.log(avail) / visits)
        if score > best_score:  # ties: the first legal (lowest id)
            best, best_score = a, score
    return best


# -- one tree, either path -------------------------------------------------------------------------
Labels = tuple[str, ...] | Callable[[], tuple[str, ...]]
"""A move's principal variation as labels, or a function reading them when asked (the compiled
path reads labels only for the moves an answer reports)."""


@dataclasses.dataclass(frozen=True)
class _Searched:
    """What one tree found: its root edges ``(action, visits, sums, pv labels)`` and totals."""

    edges: list[tuple[int, int, tuple[float, ...], Labels]]
    root_visits: int
    root_sums: tuple[float, ...]
    nodes: int
    done: int
    reason: str


def _python_tree(
    state: State,
    chosen: Plan,
    observer: int,
    n: int,
    seed: int,
    budget: Limit,
    opts: MCTSOptions,
    watching: Watching,
) -> _Searched:
    kind = MultiObserverTree if chosen.multi else ISMCTSTree
    tree = kind(state, observer, n)
    streams = SplitMix64(seed), SplitMix64(deal_seed(seed))  # a watched search's slices go on

    evaluator, c = opts.evaluator_object(), opts.resolved_c()  # one of each for every slice

    def search(k: int, iterations: int | None, seconds: float | None) -> tuple[int, str]:
        return tree.search(
            *streams,
            iterations=iterations,
            seconds=seconds,
            evaluator=evaluator,
            c=c,
            max_nodes=opts.max_nodes,
            resume=k > 0,
        )

    def found(ran: Sliced) -> _Searched:
        root = tree.root
        edges: list[tuple[int, int, tuple[float, ...], Labels]] = [
            (a, int(e[0]), tuple(e[2]), tree.pv(a)) for a, e in root.edges.items()
        ]
        visits, sums, nodes = root.visits, tuple(root.sums), tree.node_count
        return _Searched(edges, visits, sums, nodes, ran.done, ran.reason)

    return _watched(search, found, budget, watching)


Watching = tuple[threading.Event | None, Callable[["_Searched"], None] | None] | None
"""A tree's watcher: the stop event and who is told of its progress (None: unwatched)."""


def _watched(
    search: SliceSearch,
    found: Callable[[Sliced], _Searched],
    budget: Limit,
    watching: Watching,
) -> _Searched:
    """A tree's search (:func:`solver.search.watch.run_sliced`), and what it found. Watched, its
    slices are paced (they also end on time): both trees' streams go on from slice to slice, so
    where a slice ends does not change the search, and a slice of 8192 simulations can take
    seconds (the Python tree's; the compiled Trial's, with playouts, most of one)."""
    watch = None
    if watching is not None:
        cancel, report = watching

        def progress(done: int) -> None:
            if report is not None:
                report(found(Sliced(done, "iterations")))

        watch = Watch(cancel, progress)
    return found(run_sliced(search, budget.iterations, budget.seconds, watch, paced=True))


def _labels(world: State, actions: list[int]) -> tuple[str, ...]:
    """The labels of ``actions`` played one after another from ``world`` (left unchanged: a copy
    is made only when the line goes on past its first move), as far as they are legal there (a
    later move of the line may depend on a draw this determinisation made otherwise; a first
    move not legal in it, which the kernel ABI rules out, is shown by its id)."""
    labels: list[str] = []
    for k, a in enumerate(actions):
        if a not in world.legal_actions():
            if k == 0:
                labels.append(str(a))
            break
        labels.append(str(world.action_to_string(a)))
        if k + 1 == len(actions):
            break
        if k == 0:
            world = world.clone()
        world.apply_action(a)
    return tuple(labels)


LABEL_WORLDS = 1024
"""Determinisations tried, at most, for a root move's label: another seat's move (a card in a
hand the observer cannot see) is legal only in the deals that give it that card (a Trial redeal
and its legal moves take about 0.15 ms)."""


def _label_world(state: State, chosen: Plan, observer: int, seed: int, k: int = 1) -> State:
    """Where the compiled path's labels are read: the ``k``-th determinisation of the root (a
    copy of it without hidden information), so no label shows what the observer cannot see."""
    if chosen.hidden and callable(getattr(state, "resample_hidden", None)):
        deal = SplitMix64(derive_seed(deal_seed(seed), k))
        return cast(HiddenInformationState, state).resample_hidden(observer, deal)
    return state.clone()


def _world_for(
    worlds: list[tuple[State, frozenset[int]]],
    make: Callable[[int], State],
    action: int,
    tries: int,
) -> State:
    """The first of the determinisations ``make(1)``, ``make(2)``... (made as needed, kept in
    ``worlds`` with their legal moves) where ``action`` is legal, trying ``tries`` at most; else
    the first."""
    for k in range(tries):
        if k == len(worlds):
            world = make(k + 1)
            worlds.append((world, frozenset(world.legal_actions())))
        if action in worlds[k][1]:
            return worlds[k][0]
    return worlds[0][0]


def _kernel_tree(
    state: State,
    chosen: Plan,
    observer: int,
    seed: int,
    budget: Limit,
    opts: MCTSOptions,
    watching: Watching,
) -> _Searched:
    tree = KernelTree(state, chosen, observer)

    c = opts.resolved_c()

    def search(k: int, iterations: int | None, seconds: float | None) -> tuple[int, str]:
        # slice k > 0 of a watched search goes on from the streams where slice k - 1 left them
        return tree.search(seed, deal_seed(seed), iterations, seconds, c, opts.max_nodes, k > 0)

    worlds: list[tuple[State, frozenset[int]]] = []
    tries = LABEL_WORLDS if chosen.hidden else 1

    def labels(action: int) -> tuple[str, ...]:
        world = _world_for(
            worlds, lambda k: _label_world(state, chosen, observer, seed, k), action, tries
        )
        return _labels(world, tree.pv_actions(action))

    def found(ran: Sliced) -> _Searched:
        edges: list[tuple[int, int, tuple[float, ...], Labels]] = [
            (a, visits, sums, functools.partial(labels, a)) for a, visits, sums in tree.root_edges()
        ]
        visits, sums = tree.root()
        return _Searched(edges, visits, sums, tree.node_count, ran.done, ran.reason)

    return _watched(search, found, budget, watching)


def _merge(found: list[_Searched], observer: int, top_k: int | None) -> list[MoveInfo]:
    """The root moves of the trees, merged by action (visits and value sums added; a move's pv
    from the tree that visited it most), ranked by visits, then the observer's mean, then id;
    the first ``top_k`` (None: all), their labels read only for them."""
    merged: dict[int, list[Any]] = {}  # action -> [visits, observer's sum, pv visits, pv]
    for tree in found:
        for action, visits, sums, pv in tree.edges:
            slot = merged.setdefault(action, [0, 0.0, -1, ()])
            slot[0] += visits
            slot[1] += sums[observer]
            if visits > slot[2]:
                slot[2], slot[3] = visits, pv
    ranked = [(a, slot[0], float(slot[1] / slot[0]) if slot[0] else 0.0, slot[3])
              for a, slot in merged.items()]  # fmt: skip
    ranked.sort(key=lambda m: (-m[1], -m[2], m[0]))
    moves = []
    for action, visits, value, pv in ranked if top_k is None else ranked[:top_k]:
        labels = pv() if callable(pv) else pv
        label = labels[0] if labels else str(action)
        moves.append(MoveInfo(action=action, label=label, visits=visits, value=value, pv=labels))
    return moves


def ismcts(
    state: State,
    *,
    observer: int | None = None,
    iterations: int | Unset | None = UNSET,
    seconds: float | Unset | None = UNSET,
    seed: int = 0,
    c: float | Unset | None = UNSET,
    evaluator: str | Evaluator | EvaluatorLike | Unset = UNSET,
    rollouts: int | Unset | None = UNSET,
    max_nodes: int | Unset = UNSET,
    backup: str | float | Unset = UNSET,
    threads: int | Unset = UNSET,
    memory_mb: float | Unset | None = UNSET,
    top_k: int | Unset | None = UNSET,
    limit: Limit | None = None,
    options: MCTSOptions | None = None,
    compiled: bool | None = None,
    multiple_observers: bool = False,
    cancel: threading.Event | None = None,
    progress: Callable[[SearchResult], None] | None = None,
    **unknown: object,
) -> SearchResult:
    """Search ``state`` from ``observer``'s view (default: the player to move) with ISMCTS.

    The budget is ``iterations`` (default 1000 when neither it, ``seconds`` nor ``limit`` is
    given) and/or ``seconds``, ``top_k`` (moves reported),
    as keywords or a :class:`~solver.search.limit.Limit` (``depth`` and ``memory_mb`` are
    refused). Options as for :func:`~solver.search.mcts.mcts` (``c``, ``evaluator`` — also a
    :class:`~solver.search.evaluators.PlayoutEvaluator` — ``rollouts``, ``max_nodes``,
    ``threads`` for root parallelism; ``backup`` must be ``"mean"``); without ``evaluator``
    (and ``options``) the evaluator and ``c`` are :func:`ismcts_options`'s. The same seed,
    iteration budget and thread count give the same result. ``compiled``: None picks the path
    by the state's kind (a compiled kernel that fills the hidden-information slots, or has no
    hidden information: the compiled loop), True requires the compiled loop, False the
    Python tree (``extra["compiled"]`` says which ran). ``multiple_observers``: MO-ISMCTS, one
    tree per player, each mover choosing in its own (:class:`MultiObserverTree`; both paths).

    ``state`` may be a decision node or (for its value) a chance node, where ``observer`` is
    required. ``moves`` are the root's actions met in the determinisations, ranked by visits;
    every ``value`` (and the root ``value``) is the observer's mean return. ``extra`` holds the
    observer, the evaluator, ``c``, the seed, the simulations per second and the stop reason.

    ``cancel``: set from another thread to stop the search (the result is what it had;
    ``extra["stopped_by"]`` is ``"stopped"``); without it, the cancel event of a
    :func:`~solver.search.limit.search_deadline` in force, if any (a hint's strength move hears a
    ``terminate``). ``progress(partial)``: called with the result so far after each slice (one
    tree only). Either runs the search in slices (:mod:`solver.search.watch`) that go on from one
    another: the same search as an unwatched one, whatever the slices (unless stopped).
    """
    reject_unknown("ismcts", unknown, _KNOWN)
    given = {"c": c, "evaluator": evaluator, "rollouts": rollouts, "backup": backup,
             "max_nodes": max_nodes, "threads": threads}  # fmt: skip
    opts = _options(state, options, given, evaluator is UNSET)
    budget = sampling_budget(
        "ISMCTS", limit, {"iterations": iterations, "seconds": seconds, "memory_mb": memory_mb,
        "top_k": top_k}, default_iterations=DEFAULT_ITERATIONS, refused=["depth", "memory_mb"],
        why="bound it by iterations or seconds", max_iterations=MAX_VISITS,
    )  # fmt: skip
    seed = check_seed(seed)
    mover, observer, n = _seats(state, observer)
    chosen = _chosen_plan(state, opts, compiled, multiple_observers)
    seeds, shares = _shares(seed, opts.threads, budget.iterations)
    start = time.perf_counter()

    def report(tree: _Searched) -> None:
        assert progress is not None
        spent = time.perf_counter() - start
        progress(_result([tree], state, mover, observer, chosen, opts, seed, seeds, budget, spent))

    watching: Watching = None
    if cancel is None:
        cancel = search_cancel()
    if cancel is not None or progress is not None:
        watching = (cancel, report if progress is not None and len(seeds) == 1 else None)
    found = _run_trees(state, chosen, observer, n, seeds, shares, budget, opts, watching)
    elapsed = time.perf_counter() - start
    return _result(found, state, mover, observer, chosen, opts, seed, seeds, budget, elapsed)


def _chosen_plan(
    state: State, opts: MCTSOptions, compiled: bool | None, multiple_observers: bool
) -> Plan:
    """Which path searches (:func:`plan`), one tree or one per observer, checked against the
    evaluator's policy."""
    evaluator_object = opts.evaluator_object()
    chosen = plan(state, evaluator_object, compiled)
    if not isinstance(multiple_observers, bool):
        raise OptionError(f"multiple_observers must be True or False, not {multiple_observers!r}")
    chosen = dataclasses.replace(chosen, multi=multiple_observers)
    _check_policy(state, chosen, evaluator_object)
    return chosen


def _options(
    state: State, options: MCTSOptions | None, given: Mapping[str, object], no_evaluator: bool
) -> MCTSOptions:
    """The search's options: ``given`` over ``options``, over :func:`ismcts_options`'s evaluator
    and ``c`` when neither an evaluator nor options were given; the backup must be the mean."""
    defaults: dict[str, object] = {}
    if options is None and no_evaluator:
        base = ismcts_options(state)
        defaults = {"evaluator": base.evaluator, "c": base.c}
    opts = options_from(MCTSOptions, options, given, defaults)
    if opts.backup_weight() is not None:
        raise OptionError("ISMCTS backs up the mean: backup must be 'mean'")
    return opts


def _seats(state: State, observer: int | None) -> tuple[int, int, int]:
    """The mover, the observer (default: the mover; named at a chance node) and the number of
    players; refused at the end of the game or for an observer who is not a seat."""
    require_state(state)
    mover = state.current_player()
    if mover == TERMINAL or state.is_terminal():
        raise OptionError("the game is over: ISMCTS needs a state where a player is to move")
    n = len(state.returns())
    if observer is None:
        if mover == CHANCE:
            raise OptionError("a chance node has nobody to move: name the observer")
        observer = int(mover)
    if isinstance(observer, bool) or not isinstance(observer, int) or not 0 <= observer < n:
        raise OptionError(f"observer must be a seat from 0 to {n - 1}, not {observer!r}")
    return mover, observer, n


def _shares(seed: int, threads: int, total: int | None) -> tuple[list[int], list[int | None]]:
    """Each tree's seed (``seed`` itself for one tree) and share of the ``total`` iterations
    (None: no iteration budget); every tree gets at least one."""
    if total is not None and total < threads:
        raise OptionError(
            f"iterations ({total}) must be at least threads ({threads}): every tree gets a share"
        )
    seeds = [seed] if threads == 1 else [derive_seed(seed, i) for i in range(threads)]
    shares = [
        None if total is None else total // threads + (1 if i < total % threads else 0)
        for i in range(threads)
    ]
    return seeds, shares


def _check_policy(state: State, chosen: Plan, evaluator: Evaluator | EvaluatorLike) -> None:
    """A PlayoutEvaluator on the Python path needs the state's playout_action (or a policy)."""
    if chosen.compiled or not isinstance(evaluator, PlayoutEvaluator):
        return
    kind = type(evaluator)
    own = (
        kind.policy is not PlayoutEvaluator.policy or kind.evaluate is not PlayoutEvaluator.evaluate
    )
    if not own and not callable(getattr(state, "playout_action", None)):
        raise OptionError(
            f"{type(state).__name__} has no playout_action(rng): the playout evaluator has no "
            "policy to play"
        )


def _run_trees(
    state: State,
    chosen: Plan,
    observer: int,
    n: int,
    seeds: list[int],
    shares: list[int | None],
    budget: Limit,
    opts: MCTSOptions,
    watching: Watching = None,
) -> list[_Searched]:
    """One tree per seed, each with its share of the iterations: in parallel on the compiled
    path (the loop releases the GIL), each with the whole of ``seconds``; one after another on
    the Python path, each with ``seconds / trees``, so the call keeps to its budget either way."""
    parallel = len(seeds) > 1 and chosen.compiled
    seconds = budget.seconds
    if seconds is not None and not parallel:
        seconds = seconds / len(seeds)

    def run(i: int) -> _Searched:
        part = dataclasses.replace(budget, iterations=shares[i], seconds=seconds, top_k=None)
        if chosen.compiled:
            return _kernel_tree(state, chosen, observer, seeds[i], part, opts, watching)
        return _python_tree(state, chosen, observer, n, seeds[i], part, opts, watching)

    if not parallel:
        return [run(i) for i in range(len(seeds))]
    with ThreadPoolExecutor(max_workers=len(seeds)) as pool:
        return list(pool.map(run, range(len(seeds))))


def _result(
    found: list[_Searched],
    state: State,
    mover: int,
    observer: int,
    chosen: Plan,
    opts: MCTSOptions,
    seed: int,
    seeds: list[int],
    budget: Limit,
    elapsed: float,
) -> SearchResult:
    moves = _merge(found, observer, budget.top_k)
    root_visits = sum(t.root_visits for t in found)
    root_sum = sum(t.root_sums[observer] for t in found)
    root_mean = root_sum / root_visits if root_visits else 0.0
    if mover != observer:  # chance or another seat moves: the observer's mean over their choices
        value = root_mean
    else:  # the observer moves: its best move's value, as MCTS gives the mover's
        value = moves[0].value if moves and moves[0].visits > 0 else root_mean
    best = moves[0] if moves and mover != CHANCE else None
    done = sum(t.done for t in found)
    extra: dict[str, Any] = {
        "engine": "ismcts",
        "compiled": chosen.compiled,
        "observer": observer,
        "hidden_information": chosen.hidden,
        "multiple_observers": chosen.multi,
        "evaluator": name_of(opts.evaluator_object()),
        "c": opts.resolved_c(),
        "seed": seed,
        "stopped_by": found[0].reason,
        "root_visits": root_visits,
        "simulations_per_second": done / elapsed if elapsed > 0 else math.inf,
    }
    if len(found) > 1:
        extra.update(threads=len(found), tree_seeds=seeds)
    return SearchResult(
        best_action=best.action if best else None,
        best_label=best.label if best else None,
        moves=tuple(moves) if mover != CHANCE else (),
        value=value,
        iterations=done,
        nodes=sum(t.nodes for t in found),
        elapsed=elapsed,
        exact=False,
        extra=extra,
    )
