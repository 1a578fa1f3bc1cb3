"""The pure-Python MCTS: the compiled loop's twin over the game protocol, with node objects.

It searches any state of the protocol (the reference engines, third-party games, or a kernel
state with a user-defined evaluator) and mirrors ``ext/mcts.pyx`` step by step: the same
random numbers drawn in the same order, the same float operations, the same tie-breaks. Where a
kernel and its reference engine agree on every observable, both paths give the same result (the
tests hold them to it). The algorithm is described in ``docs/search.md``.

>>> import solver
>>> from solver.rng import SplitMix64
>>> from solver.search.evaluators import RolloutEvaluator
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> state = game.new_initial_state()
>>> state.apply_action(11)                  # roll: 2 steps
>>> tree = PythonTree(state, num_players=1)
>>> tree.search(SplitMix64(1), iterations=100, evaluator=RolloutEvaluator())
(100, 'iterations')
>>> tree.root.visits, len(tree.root.children)
(100, 3)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator

from solver.errors import OptionError
from solver.game import CHANCE, TERMINAL, State
from solver.rng import SplitMix64, weighted_index
from solver.search.evaluators import Evaluator, EvaluatorLike, checked_prior, checked_returns
from solver.search.limit import within_seconds

__all__ = ["MAX_ACTIONS", "MAX_VISITS", "UNEXPANDED", "Node", "PythonTree"]

UNEXPANDED = -2
"""``Node.player`` of a node whose children are not created yet."""
MAX_VISITS = 2**32 - 1
"""The most visits a node can count (the compiled node's 32-bit counter)."""
MAX_ACTIONS = 64
"""``KERNEL_MAX_ACTIONS`` of ``ext/state.pxd``: the most children one expansion may add."""

ChildRow = tuple["Node", int, float, int, tuple[float, ...]]


class Node:
    """One node of the tree: the action that led here, its statistics and its children.

    ``player`` is the player to move (0..n-1), ``CHANCE``, ``TERMINAL`` or ``UNEXPANDED``;
    ``prior`` is the probability of a chance outcome (decision children: the evaluator's prior);
    ``sums`` holds the summed returns, one per player (divide by ``visits`` for the means).
    """

    __slots__ = ("action", "children", "player", "prior", "sums", "visits")

    def __init__(self, action: int, prior: float, num_players: int) -> None:
        self.action = action
        self.prior = prior
        self.player = UNEXPANDED
        self.visits = 0
        self.sums = [0.0] * num_players
        self.children: list[Node] = []

    @property
    def expanded(self) -> bool:
        return self.player != UNEXPANDED

    def mean(self, player: int) -> float:
        return self.sums[player] / self.visits if self.visits else 0.0

    def ucb(self, player: int, c: float, log_parent: float) -> float:
        """UCB1: the mean for ``player`` plus the exploration bonus (visited nodes only)."""
        visits = float(self.visits)
        return self.sums[player] / visits + c * math.sqrt(log_parent / visits)

    def add(self, returns: list[float]) -> None:
        self.visits += 1
        sums = self.sums
        for p, r in enumerate(returns):
            sums[p] += r

    def subtree(self) -> Iterator[Node]:
        """This node and every node below it."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children)


class PythonTree:
    """An MCTS tree over a protocol state: ``search`` runs simulations, ``advance`` re-roots."""

    bytes_per_node_compiled = 24  # of the compiled layout, plus 8 per player (for comparison)

    def __init__(self, state: State, num_players: int) -> None:
        self.root_state = state.clone()
        self.num_players = num_players
        self.root = Node(-1, 1.0, num_players)
        self.node_count = 1

    @property
    def bytes_per_node(self) -> int:
        return self.bytes_per_node_compiled + 8 * self.num_players

    def matches(self, state: State) -> bool:
        return bool(self.root_state.to_json() == state.to_json())

    # -- one simulation ---------------------------------------------------------------------------
    def search(
        self,
        rng: SplitMix64,
        *,
        iterations: int | None,
        evaluator: Evaluator | EvaluatorLike,
        seconds: float | None = None,
        c: float = 1.4,
        max_nodes: int | None = None,
        backup: float | None = None,
        resume: bool = False,
    ) -> tuple[int, str]:
        """Run simulations until a bound is reached: ``(simulations, stop_reason)``.

        ``backup`` is None for the plain mean, else the max weight ``w`` (see ``docs/search.md``).
        At least one simulation runs unless ``resume`` (a later slice of one search, ``rng`` the
        stream the last slice left: the node cap is checked before its first simulation too, so
        the slices together are the same search as one call); the clock is read after every
        simulation.
        """
        limit = MAX_VISITS - self.root.visits
        if iterations is not None and iterations < limit:
            limit = iterations
        if limit <= 0:
            raise OptionError("the tree's root has reached the maximum number of visits")
        deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        prime = backup is not None and isinstance(evaluator, Evaluator) and evaluator.deterministic
        done = 0
        with within_seconds(seconds):  # a leaf's rollouts stop there too
            while True:
                full = max_nodes is not None and self.node_count + MAX_ACTIONS > max_nodes
                if full and (done > 0 or resume):
                    return done, "max_nodes"
                self.simulate(rng, evaluator, c, backup, prime)
                done += 1
                if done >= limit:
                    return done, "iterations"
                if time.perf_counter() >= deadline:
                    return done, "seconds"

    def simulate(
        self,
        rng: SplitMix64,
        evaluator: Evaluator | EvaluatorLike,
        c: float,
        backup: float | None,
        prime: bool,
    ) -> None:
        """Select down to a new node, expand it, evaluate it and back the returns up the path."""
        state = self.root_state.clone()
        node = self.root
        path = [node]
        while node.expanded and node.player != TERMINAL:
            node = self.select(node, rng, c)
            state.apply_action(node.action)
            path.append(node)
        if not node.expanded:
            self.expand(node, state, evaluator, rng, prime)
        if node.player == TERMINAL:
            returns = [float(r) for r in state.returns()]
        else:
            returns = checked_returns(evaluator, state, rng, self.num_players)
        for visited in path:
            visited.add(returns)
        if backup is not None:
            for parent in reversed(path[:-1]):
                self.revalue(parent, backup)

    def select(self, node: Node, rng: SplitMix64, c: float) -> Node:
        """Chance: an outcome by its probability. Decision: an untried child, else the best UCB."""
        children = node.children
        if node.player == CHANCE:
            return children[weighted_index([child.prior for child in children], rng.uniform())]
        untried = [child for child in children if child.visits == 0]
        if untried:
            return untried[rng.below(len(untried))]
        log_parent = math.log(float(node.visits))
        player = node.player
        best = children[0]
        best_score = -math.inf
        for child in children:
            score = child.ucb(player, c, log_parent)
            if score > best_score:  # ties: the first (lowest action id)
                best, best_score = child, score
        return best

    def expand(
        self,
        node: Node,
        state: State,
        evaluator: Evaluator | EvaluatorLike,
        rng: SplitMix64,
        prime: bool,
    ) -> None:
        """Give ``node`` its children; ``prime``: decision children get one evaluated visit."""
        player = state.current_player()
        if player == TERMINAL:
            node.player = TERMINAL
            return
        if player == CHANCE:
            moves = [(int(a), float(p)) for a, p in state.chance_outcomes()]
        elif 0 <= player < self.num_players:
            moves = checked_prior(evaluator, state)
        else:
            raise RuntimeError(f"current_player() returned {player!r}, not a player or CHANCE")
        if not moves:
            raise RuntimeError("a non-terminal node without legal actions or chance outcomes")
        n = self.num_players
        node.children = [Node(action, prior, n) for action, prior in moves]
        self.node_count += len(moves)
        node.player = player
        if prime and player != CHANCE:
            for child in node.children:
                probe = state.clone()
                probe.apply_action(child.action)
                if probe.current_player() == TERMINAL or probe.is_terminal():
                    child.add([float(r) for r in probe.returns()])
                else:
                    child.add(checked_returns(evaluator, probe, rng, self.num_players))

    def revalue(self, node: Node, w: float) -> None:
        """The max backup: once every child has a visit, set the node's value from them.

        Chance: the probability-weighted mean of the children's means. Decision of player
        ``p``: ``w`` × the child best for ``p`` + (1 − ``w``) × the children's pooled mean.
        """
        children = node.children
        if any(child.visits == 0 for child in children):
            return  # not all tried yet: keep the plain mean (its own evaluation in it)
        n = self.num_players
        if node.player == CHANCE:
            weight = 0.0
            value = [0.0] * n
            for child in children:
                visits = float(child.visits)
                weight += child.prior
                for p in range(n):
                    value[p] += child.prior * (child.sums[p] / visits)
            if weight <= 0.0:
                return
            value = [v / weight for v in value]
        else:
            player = node.player
            best = children[0]
            best_mean = -math.inf
            pooled_visits = 0
            pooled = [0.0] * n
            for child in children:
                pooled_visits += child.visits
                for p in range(n):
                    pooled[p] += child.sums[p]
                mean = child.sums[player] / float(child.visits)
                if mean > best_mean:
                    best, best_mean = child, mean
            visits = float(best.visits)
            value = [
                w * (best.sums[p] / visits) + (1.0 - w) * (pooled[p] / float(pooled_visits))
                for p in range(n)
            ]
        visits = float(node.visits)
        node.sums = [v * visits for v in value]

    # -- reading and re-rooting ------------------------------------------------------------------
    @property
    def root_handle(self) -> Node:
        return self.root

    def player(self, node: Node) -> int:
        return node.player

    def visits(self, node: Node) -> int:
        return node.visits

    def value_sums(self, node: Node) -> tuple[float, ...]:
        return tuple(node.sums)

    def children(self, node: Node) -> list[ChildRow]:
        """``[(child, action, probability, visits, value sums)]``, as the compiled tree reads."""
        return [(k, k.action, k.prior, k.visits, tuple(k.sums)) for k in node.children]

    def most_visited(self, node: Node, player: int) -> ChildRow | None:
        """The row of the node's most visited child, ties to the higher mean for seat
        ``player``, then the lower action (the compiled tree's ``most_visited``); None without
        children."""
        rows = self.children(node)
        if not rows:
            return None
        return min(rows, key=lambda r: (-r[3], -(r[4][player] / r[3] if r[3] else 0.0), r[1]))

    def advance(self, action: int) -> None:
        """Apply ``action`` to the root state; its child, if visited, becomes the root."""
        self.root_state.apply_action(action)  # raises IllegalActionError, state unchanged
        child = next((k for k in self.root.children if k.action == action), None)
        if child is None or child.visits == 0:
            child = Node(-1, 1.0, self.num_players)
        child.action, child.prior = -1, 1.0
        self.root = child
        self.node_count = sum(1 for _ in child.subtree())
