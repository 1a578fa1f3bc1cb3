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
determinisation's exact probabilities. A new leaf is valued by the evaluator (the game's
heuristic where the state has one, else a random rollout); the returns of every player are
backed up along the path and every mover picks by its own mean.

The search never reads the root's hidden cards except through ``resample_hidden``: labels of
the moves come from determinisations, and the principal variation holds only the observer's
own consecutive decisions, so an answer shows nothing the observer cannot see.

A state without ``resample_hidden`` (perfect information) is searched with plain clones and
every step keyed by its action id: UCT with availability counts, where every child of a node is
available at each visit.

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

import hashlib
import math
import random
import time
from collections.abc import Hashable
from typing import Any

from solver.errors import OptionError
from solver.game import CHANCE, TERMINAL
from solver.rng import SplitMix64, check_seed
from solver.search.evaluators import (
    Evaluator,
    EvaluatorLike,
    HeuristicEvaluator,
    RolloutEvaluator,
    evaluate_with,
    name_of,
)
from solver.search.limit import UNSET, Limit, Unset, reject_unknown, sampling_budget
from solver.search.options import MCTSOptions, options_from
from solver.search.result import MoveInfo, SearchResult

__all__ = ["DEFAULT_C_ISMCTS", "ISMCTSTree", "has_hidden_information", "ismcts", "ismcts_options"]

DEFAULT_ITERATIONS = 1000
"""Simulations when no budget is given."""

DEFAULT_C_ISMCTS = 0.4
"""The UCB constant of :func:`ismcts_options` with the heuristic evaluator (returns in [0, 1])."""

_OPTIONS = ("c", "evaluator", "rollouts", "backup", "max_nodes", "threads")
_KNOWN = ("iterations", "seconds", "top_k", "memory_mb", "seed", "limit", "options", "observer",
          *_OPTIONS)  # fmt: skip


def has_hidden_information(state: Any) -> bool:
    """Whether ``state`` can be redealt from one player's view (``resample_hidden``)."""
    return callable(getattr(state, "resample_hidden", None))


def ismcts_options(state: Any) -> MCTSOptions:
    """ISMCTS's default configuration: the heuristic evaluator with ``c = 0.4`` where the state
    has ``heuristic(player)``, else one random rollout per leaf with ``c = 1.4``."""
    if callable(getattr(state, "heuristic", None)):
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

    def __init__(self, state: Any, observer: int, num_players: int) -> None:
        self.root_state = state
        self.observer = observer
        self.num_players = num_players
        self.hidden = has_hidden_information(state)
        self.root = _Node(num_players)
        self.node_count = 1

    # -- one simulation -------------------------------------------------------------------------
    def _world(self, deal: random.Random) -> Any:
        if self.hidden:
            return self.root_state.resample_hidden(self.observer, deal)
        return self.root_state.clone()

    def _key(self, world: Any, mover: int, action: int) -> Hashable:
        if not self.hidden or mover == self.observer:
            return action
        text = world.information_state_string(self.observer)
        return hashlib.blake2b(text.encode(), digest_size=16).digest()

    def _child(self, node: _Node, key: Hashable) -> _Node:
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = _Node(self.num_players)
            self.node_count += 1
        return child

    def simulate(
        self,
        rng: SplitMix64,
        deal: random.Random,
        evaluator: Evaluator | EvaluatorLike,
        c: float,
    ) -> None:
        world = self._world(deal)
        node = self.root
        path: list[tuple[_Node, int | None]] = []
        returns: list[float] | None = None
        while True:
            if world.is_terminal():
                returns = [float(r) for r in world.returns()]
                break
            mover = world.current_player()
            node.player = mover
            if mover == CHANCE:
                action = _sample(world.chance_outcomes(), rng)
                world.apply_action(action)
                path.append((node, None))
                node = self._child(node, self._key(world, CHANCE, action))
                continue
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
            if untried:
                action = untried[rng.below(len(untried))]
                edges[action] = [0, 1, [0.0] * self.num_players, world.action_to_string(action)]
                world.apply_action(action)
                path.append((node, action))
                node = self._child(node, self._key(world, mover, action))
                if world.is_terminal():
                    returns = [float(r) for r in world.returns()]
                else:
                    returns = _evaluate(evaluator, world, rng, self.num_players)
                break
            action = _ucb(edges, legal, mover, c)
            world.apply_action(action)
            path.append((node, action))
            node = self._child(node, self._key(world, mover, action))
        assert returns is not None
        node.add(returns)
        for visited, taken in path:
            visited.add(returns)
            if taken is None:
                continue
            edge = visited.edges[taken]
            edge[0] += 1
            sums = edge[2]
            for p, r in enumerate(returns):
                sums[p] += r

    def search(
        self,
        rng: SplitMix64,
        deal: random.Random,
        *,
        iterations: int | None,
        seconds: float | None,
        evaluator: Evaluator | EvaluatorLike,
        c: float,
        max_nodes: int,
    ) -> tuple[int, str]:
        """Run simulations until a bound: ``(simulations, stop reason)``; at least one runs."""
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        done = 0
        while True:
            if done > 0 and self.node_count >= max_nodes:
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


def _sample(outcomes: list[tuple[int, float]], rng: SplitMix64) -> int:
    u = rng.uniform()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if u < total:
            return int(action)
    return int(outcomes[-1][0])


def _moves(evaluator: Evaluator | EvaluatorLike, world: Any) -> list[int]:
    if isinstance(evaluator, (HeuristicEvaluator, RolloutEvaluator)):
        return [int(a) for a in world.legal_actions()]
    return [int(a) for a, _ in evaluator.prior(world)]


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


def _evaluate(
    evaluator: Evaluator | EvaluatorLike, world: Any, rng: SplitMix64, n: int
) -> list[float]:
    returns = evaluate_with(evaluator, world, rng)
    if len(returns) != n:
        raise OptionError(
            f"evaluator {type(evaluator).__name__} returned {len(returns)} values for a game of "
            f"{n} players (one value per player expected)"
        )
    return returns


def _budget(
    limit: Limit | None,
    iterations: int | Unset | None,
    seconds: float | Unset | None,
    memory_mb: float | Unset | None,
    top_k: int | Unset | None,
) -> Limit:
    given = {"iterations": iterations, "seconds": seconds, "memory_mb": memory_mb, "top_k": top_k}
    return sampling_budget(
        "ISMCTS", limit, given, default_iterations=DEFAULT_ITERATIONS,
        refused=["depth", "memory_mb"], why="bound it by iterations or seconds",
    )  # fmt: skip


def ismcts(
    state: Any,
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
    **unknown: object,
) -> SearchResult:
    """Search ``state`` from ``observer``'s view (default: the player to move) with ISMCTS.

    The budget is ``iterations`` (default 1000) and/or ``seconds``, ``top_k`` (moves reported),
    as keywords or a :class:`~solver.search.limit.Limit` (``depth`` and ``memory_mb`` are
    refused). Options as for :func:`~solver.search.mcts.mcts` (``c``, ``evaluator``,
    ``rollouts``, ``max_nodes``; ``backup`` must be ``"mean"``, ``threads`` 1); none given:
    :func:`ismcts_options`. The same seed and iteration budget give the same result.

    ``state`` may be a decision node or (for its value) a chance node, where ``observer`` is
    required. ``moves`` are the root's actions met in the determinisations, ranked by visits;
    every ``value`` (and the root ``value``) is the observer's mean return. ``extra`` holds the
    observer, the evaluator, ``c``, the seed, the simulations per second and the stop reason.
    """
    reject_unknown("ismcts", unknown, _KNOWN)
    given = {"c": c, "evaluator": evaluator, "rollouts": rollouts, "backup": backup,
             "max_nodes": max_nodes, "threads": threads}  # fmt: skip
    if options is None and all(v is UNSET for v in given.values()):
        opts = ismcts_options(state)
    else:
        opts = options_from(MCTSOptions, options, given, {})
    if opts.backup_weight() is not None:
        raise OptionError("ISMCTS backs up the mean: backup must be 'mean'")
    if opts.threads != 1:
        raise OptionError("ISMCTS searches one tree: threads must be 1")
    budget = _budget(limit, iterations, seconds, memory_mb, top_k)
    seed = check_seed(seed)
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
    evaluator_object = opts.evaluator_object()
    c_value = opts.resolved_c()
    tree = ISMCTSTree(state, observer, n)
    start = time.perf_counter()
    done, reason = tree.search(
        SplitMix64(seed),
        random.Random(seed),
        iterations=budget.iterations,
        seconds=budget.seconds,
        evaluator=evaluator_object,
        c=c_value,
        max_nodes=opts.max_nodes,
    )
    elapsed = time.perf_counter() - start
    root = tree.root
    ranked = sorted(root.edges.items(), key=lambda kv: (-kv[1][0], -_mean(kv[1], observer), kv[0]))
    if budget.top_k is not None:
        ranked = ranked[: budget.top_k]
    moves = tuple(
        MoveInfo(
            action=a,
            label=str(edge[3]),
            visits=int(edge[0]),
            value=_mean(edge, observer),
            pv=tree.pv(a),
        )
        for a, edge in ranked
    )
    root_mean = root.sums[observer] / root.visits if root.visits else 0.0
    if mover == CHANCE:
        value = root_mean
    else:
        value = moves[0].value if moves and moves[0].visits > 0 else root_mean
    best = moves[0] if moves and mover != CHANCE else None
    extra: dict[str, Any] = {
        "engine": "ismcts",
        "observer": observer,
        "hidden_information": tree.hidden,
        "evaluator": name_of(evaluator_object),
        "c": c_value,
        "seed": seed,
        "stopped_by": reason,
        "root_visits": root.visits,
        "simulations_per_second": done / elapsed if elapsed > 0 else math.inf,
    }
    return SearchResult(
        best_action=best.action if best else None,
        best_label=best.label if best else None,
        moves=moves if mover != CHANCE else (),
        value=value,
        iterations=done,
        nodes=tree.node_count,
        elapsed=elapsed,
        exact=False,
        extra=extra,
    )


def _mean(edge: list[Any], player: int) -> float:
    return float(edge[2][player] / edge[0]) if edge[0] else 0.0
