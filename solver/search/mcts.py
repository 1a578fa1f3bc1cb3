"""Monte Carlo tree search (UCT) with explicit chance nodes, for any game of the protocol.

:func:`mcts` searches from a decision node and returns a
:class:`~solver.search.result.SearchResult`; :class:`MCTSTree` keeps the tree between moves
(``search``, then ``advance`` for every action played, chance outcomes included).

>>> import solver
>>> from solver.search.mcts import mcts
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> state = game.new_initial_state()
>>> state.apply_action(11)                  # roll: 2 steps
>>> result = mcts(state, iterations=1000, seed=1)
>>> result.best_label, result.iterations, result.exact
('E', 1000, False)
>>> result.same_search(mcts(state, iterations=1000, seed=1))
True

**Algorithm.** One iteration (simulation) copies the root state, then selects down the tree:
at a chance node it samples a child by its probability; at a decision node of player ``p`` it
takes an unvisited child (uniformly at random among them) or else the child maximising
``Q_p + c * sqrt(ln N / n)``, ties to the lower action id. It expands the first unexpanded node
it reaches (one child per legal action, or per chance outcome with its probability), evaluates
it (its returns if terminal; else ``rollout``: ``rollouts`` random games to the end, decisions
uniform, chance by probability, returns averaged; ``heuristic``: the kernel's heuristic, per
player; ``guided``: like ``rollout``, but every decision takes the action whose successor has
the highest heuristic for its player, ties broken at random; ``mixed``: the mean of
``heuristic`` and ``guided``) and adds one visit and the returns, per player, to every node of
the path. Several players are searched as max^n: every node keeps a value sum per player and
each player maximises its own. States are not stored in the tree: every iteration replays the
path's actions from the root state (see ``ext/mcts.pyx`` for the node layout: 24 + 8 × players
bytes a node).

**Backups.** ``backup="mean"`` (the default) is plain UCT: a node's value is the mean of every
return backed up through it. ``backup="max"`` (or a weight ``w`` from 0 to 1; ``"max"`` is
``w = 1``) changes two things. (1) With ``evaluator="heuristic"``, expanding a decision node
primes every child with one visit valued by the heuristic (its returns if terminal), so a child
is never judged by its first sampled descendant alone. (2) After the returns are added, the
nodes of the path are re-valued bottom up, each once all its children have visits (until then
they keep the plain mean, their own evaluation in it): a chance node becomes the
probability-weighted mean of its children's values, a decision node of player ``p`` becomes
``w × (the child best for p) + (1 − w) × (the children's pooled mean)``, per player (the sums
become value × visits, so every reader of the mean sees it). Bad moves deep in a good subtree
then no longer drag it down, which with a low ``c`` locked the search out of it. Measured with
the agent's loop (1000 simulations, c = 0.1, heuristic evaluator), 2000 games a small forest of
``bench/strength.py`` with the same dice for every variant (the exact agent on the same dice in
brackets), and the mean win rate on ``roll_forest(9, 9, seed 0-5)`` cut to 6 turns (300 games
each)::

    backup                 another-dog (95.70)  4x4 seed 0 (86.30)  4x4 seed 3 (98.30)  9x9, 6 turns
    mean (old)             94.20%               86.15%              98.40%              48.1%
    max                    95.65%               86.30%              98.15%              53.3%
    0.5                    95.60%               86.25%              98.40%              49.2%
    max, c = 0.3           95.70%               86.30%              98.05%              -
    max, c = 0             95.70%               85.95%              98.15%              -

(The optima: 96.30%, 87.65% and 98.77%.) Every other small forest is within 0.5 points of the
exact agent for every variant. Without the priming the max backup lost (``another-dog``, 1000
games: 92.9% against the mean's 93.4%; re-valuing from the first child tried on, 77%: a decision
node whose first child lost at once was valued 0 and never revisited), and so did the weights
0 to 0.5. Hence the ``mcts`` agent uses ``backup="max"`` with the heuristic evaluator; ``mcts()``
keeps ``"mean"`` as its default.

**The move.** The most visited root child; ties go to the higher mean value, then to the lower
action id. ``MoveInfo.value`` is a child's mean return for the player to move at the root (0 for
an unvisited child), and its principal variation follows the most visited child at every node
(ties: higher value for the node's player, then lower action id) and the most visited outcome at
chance nodes (ties: the more likely, then the lower action id), until a node without visits.
``SearchResult.value`` is the root's value for the player to move, estimated by the chosen
move's mean (the root's own mean, diluted by exploration, is ``extra["root_mean"]``).

**The constant c.** Returns are win probabilities or scores in [0, 1]. With the rollout
evaluators the default is ``c = 1.4`` (≈ √2, the classic UCB1 constant for rewards in [0, 1]),
which explores enough for noisy rollouts. With ``evaluator="heuristic"`` the default is
``c = 0.1`` (``DEFAULT_C_HEURISTIC``): the heuristic is deterministic, so the leaves are not
noisy and little exploration is needed.

**Evaluators, measured.** On the dog game uniform random rollouts are nearly uninformative (a
random policy wins 4–12%), and UCT with them at 1000 simulations a decision falls measurably
below the exact optimum. Measured with the agent's loop (1000 simulations a decision) on the
small forests of ``bench/strength.py`` (8 curated puzzles and ``roll_forest(4, 4, seed)`` cut
to 4 turns, seeds 0–5), 2000 games a forest with the same dice for every variant, win rates
(exact optimum in brackets; every other small forest is within ~1 point for every variant),
and the mean win rate on six ``roll_forest(9, 9, seed 0-5)`` cut to 6 turns (300 games each)::

    evaluator, c          another-dog (96.30)  4x4 seed 2 (100)  4x4 seed 5 (100)  9x9, 6 turns
    rollout, 1.4 (old)    75.6%                96.3%             94.2%             46.3%
    rollout, 0.7          76.4%                95.4%             91.8%             -
    rollout x8, 1.4       75.5%                95.2%             94.7%             -
    guided, 0.7           88.3%                99.0%             98.5%             57.8%
    mixed, 0.3            92.5%                99.7%             99.4%             58.6%
    heuristic, 1.4        82.0%                99.8%             95.7%             44.8%
    heuristic, 0.5        90.6%                100%              100%              50.5%
    heuristic, 0.1        93.7%                100%              100%              50.2%
    heuristic, 0.0        94.5%                100%              100%              49.7%

Hence ``DEFAULT_C_HEURISTIC = 0.1``, and the ``mcts`` agent of :mod:`solver.agents` uses
``evaluator="heuristic"`` where the state has a heuristic (compiled kernels): with the mean
backup it was within 2 points of the optimum on every small forest but ``dog/another-dog``
(93.4% against the exact agent's 94.9% on the same 1000 dice of ``bench/strength.py``); the max
backup (below) closes that gap. ``mcts()`` keeps ``rollout`` (c = 1.4) as
its default evaluator: it works for every game, and the reference engines have no heuristic.
``mixed`` (c = 0.3) is the better choice on larger forests with tight turn limits. The
gap on ``dog/another-dog`` came from the mean backup, not from the search constants (a more
accurate heuristic did not help): see **Backups**.

**Two paths.** A kernel state (it has ``_state_capsule()``) is searched by the compiled loop of
``solver._ext.mcts`` (no GIL, no Python object per node); any other state by a pure-Python
adapter that runs the same algorithm over the protocol (hundreds of times slower). Both use the
searcher's own SplitMix64 generator seeded with ``seed`` (never Python's ``random``) and mirror
each other step by step: where a kernel and its reference engine agree bit for bit on every
observable (the dog game's do, and the tests check that both paths then give the same result),
the results agree too. Only this is promised, though: **each path is deterministic** for a given
state, seed and iteration budget (and tree); results may differ between the paths. A
``seconds`` budget is never deterministic (the clock is read every 16 iterations in the compiled
loop, every iteration in the adapter). ``SearchResult.nodes`` counts the nodes stored, expanded
or not; ``iterations`` the simulations of this search (earlier ones of a reused tree are in
``extra["reused_visits"]``).

**Roots.** The root must be a decision node: a terminal state raises
``OptionError("the game is over")`` and a chance node raises an ``OptionError`` too (a best move
exists only where a player decides: apply a chance outcome first, or ``MCTSTree.advance`` it).
"""

from __future__ import annotations

import math
import time
from typing import Any

from solver.errors import ExtensionMissingError, IllegalActionError, OptionError
from solver.game import CHANCE, TERMINAL
from solver.rng import SplitMix64
from solver.search.result import MoveInfo, SearchResult

__all__ = ["DEFAULT_C", "DEFAULT_C_HEURISTIC", "EVALUATORS", "MCTS", "MCTSTree", "mcts"]

DEFAULT_C = 1.4
"""The UCT exploration constant for returns in [0, 1] (≈ √2), for rollout evaluators."""

DEFAULT_C_HEURISTIC = 0.1
"""The UCT constant when ``evaluator="heuristic"`` (measured on the dog game: see above)."""


def default_c(evaluator: str) -> float:
    """The default UCT constant for ``evaluator``: 0.1 for ``heuristic``, else 1.4."""
    return DEFAULT_C_HEURISTIC if evaluator == "heuristic" else DEFAULT_C


EVALUATORS = ("rollout", "heuristic", "guided", "mixed")
_EVALUATOR_CODES = {"rollout": 0, "heuristic": 1, "guided": 2, "mixed": 3}
_UNEXPANDED = -2
_MAX_VISITS = 2**32 - 1
_MAX_ACTIONS = 64  # KERNEL_MAX_ACTIONS of ext/state.pxd: children one expansion may add
DEFAULT_MAX_NODES = 20_000_000
"""The default tree cap: 20 million nodes (640 MB for a one-player game at 32 bytes a node)."""
_MASK64 = 2**64 - 1
_TWO_POW_M53 = 1.0 / 9007199254740992.0


# -- options ------------------------------------------------------------------------------------
def _check_options(
    iterations: Any, seconds: Any, seed: Any, c: Any, evaluator: Any, rollouts: Any
) -> tuple[int | None, float | None, int, float, str, int]:
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or iterations <= 0
    ):
        raise OptionError(f"iterations must be a whole number ≥ 1 or None, not {iterations!r}")
    if iterations is not None and iterations > _MAX_VISITS:
        raise OptionError(f"iterations must be at most {_MAX_VISITS}, not {iterations!r}")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise OptionError(f"seconds must be a number > 0 or None, not {seconds!r}")
        if not (math.isfinite(seconds) and seconds > 0):
            raise OptionError(f"seconds must be a finite number > 0 or None, not {seconds!r}")
        seconds = float(seconds)
    if iterations is None and seconds is None:
        raise OptionError("MCTS needs a budget: give iterations and/or seconds")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
        raise OptionError(f"seed must be a whole number from 0 to 2**64 - 1, not {seed!r}")
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c) or c < 0:
        raise OptionError(f"c must be a finite number ≥ 0, not {c!r}")
    if evaluator not in EVALUATORS:
        raise OptionError(
            f"unknown evaluator {evaluator!r}; expected one of {', '.join(map(repr, EVALUATORS))}"
        )
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise OptionError(f"rollouts must be a whole number ≥ 1, not {rollouts!r}")
    return iterations, seconds, seed, float(c), evaluator, rollouts


def _check_backup(backup: Any) -> float:
    """The backup's max weight for the loops: -1 for ``"mean"``, 1 for ``"max"``, else w."""
    if backup == "mean":
        return -1.0
    if backup == "max":
        return 1.0
    if (
        isinstance(backup, bool)
        or not isinstance(backup, (int, float))
        or not (0.0 <= backup <= 1.0)
    ):
        raise OptionError(f"backup must be 'mean', 'max' or a number from 0 to 1, not {backup!r}")
    return float(backup)


def _check_root(state: Any) -> int:
    player = state.current_player()
    if player == TERMINAL or state.is_terminal():
        raise OptionError("the game is over: MCTS needs a state where a player is to move")
    if player == CHANCE:
        raise OptionError(
            "the state is a chance node: a best move exists only at a decision node "
            "(apply a chance outcome first)"
        )
    return player


def _is_kernel_state(state: Any) -> bool:
    return callable(getattr(state, "_state_capsule", None))


def _kernel_module() -> Any:
    try:
        from solver._ext import mcts as ext
    except ImportError as exc:
        raise ExtensionMissingError(
            "the compiled MCTS loop (solver._ext.mcts) is not built; build it with "
            "`python setup.py build_ext --inplace` (or `make install`), or search a "
            f"reference-engine state ({exc})"
        ) from None
    return ext


def _state_game(state: Any) -> Any:
    game = getattr(state, "game", None)
    if game is None and callable(getattr(state, "get_game", None)):
        game = state.get_game()
    if game is None or not callable(getattr(game, "_kernel_handle", None)):
        raise OptionError(
            f"{type(state).__name__} has _state_capsule() but its game has no _kernel_handle()"
        )
    return game


def _greedy_action(state: Any, actions: Any, player: int, rng: SplitMix64) -> int:
    """The ``guided`` rollout's decision: the highest heuristic after the action.

    Ties are broken by reservoir sampling, as in ``ext/mcts.pyx``: the ``t``-th tying action
    replaces the pick when ``below(t) == 0`` (no random number is drawn without a tie).
    """
    action = actions[0]
    best = -math.inf
    ties = 0
    for a in actions:
        probe = state.clone()
        probe.apply_action(a)
        h = float(probe.heuristic(player))
        if h > best:
            best, action, ties = h, a, 1
        elif h == best:
            ties += 1
            if rng.below(ties) == 0:
                action = a
    return action


# -- the pure-Python adapter: the same tree over the protocol ------------------------------------
class _PyTree:
    """The compiled ``Tree``'s twin over the Python protocol (flat lists, node 0 is the root)."""

    def __init__(self, state: Any, num_players: int) -> None:
        self.root_state = state.clone()
        self.num_players = num_players
        self._fresh_root()

    def _fresh_root(self) -> None:
        self.first: list[int] = [-1]
        self.nchild: list[int] = [0]
        self.visits_: list[int] = [0]
        self.action: list[int] = [-1]
        self.prob: list[float] = [1.0]
        self.player_: list[int] = [_UNEXPANDED]
        self.values: list[float] = [0.0] * self.num_players

    @property
    def node_count(self) -> int:
        return len(self.first)

    @property
    def bytes_per_node(self) -> int:  # of the compiled layout, for comparison
        return 24 + 8 * self.num_players

    def matches(self, state: Any) -> bool:
        return bool(self.root_state.to_json() == state.to_json())

    # -- one iteration ---------------------------------------------------------------------------
    def _expand(self, node: int, state: Any, prior: bool = False) -> None:
        player = state.current_player()
        if player == TERMINAL:
            self.player_[node] = TERMINAL
            return
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            probs = [float(p) for _, p in outcomes]
        elif 0 <= player < self.num_players:
            actions = list(state.legal_actions())
            probs = [0.0] * len(actions)
        else:
            raise RuntimeError(f"current_player() returned {player!r}, not a player or CHANCE")
        if not actions:
            raise RuntimeError("a non-terminal node without legal actions or chance outcomes")
        first = len(self.first)
        n = len(actions)
        self.first.extend([-1] * n)
        self.nchild.extend([0] * n)
        self.visits_.extend([0] * n)
        self.action.extend(actions)
        self.prob.extend(probs)
        self.player_.extend([_UNEXPANDED] * n)
        self.values.extend([0.0] * (n * self.num_players))
        if prior and player != CHANCE:
            np_ = self.num_players
            for k, a in enumerate(actions):
                probe = state.clone()
                probe.apply_action(a)
                if probe.current_player() == TERMINAL or probe.is_terminal():
                    h = [float(r) for r in probe.returns()]
                else:
                    h = [float(probe.heuristic(p)) for p in range(np_)]
                self.visits_[first + k] = 1
                self.values[(first + k) * np_ : (first + k + 1) * np_] = h
        self.first[node] = first
        self.nchild[node] = n
        self.player_[node] = player

    def _select(self, node: int, rng: SplitMix64, c: float) -> int:
        first = self.first[node]
        n = self.nchild[node]
        if self.player_[node] == CHANCE:
            u = rng.uniform()
            total = 0.0
            prob = self.prob
            for k in range(first, first + n):
                total += prob[k]
                if u < total:
                    return k
            return first + n - 1
        visits = self.visits_
        unvisited = [k for k in range(first, first + n) if visits[k] == 0]
        if unvisited:
            return unvisited[rng.below(len(unvisited))]
        p = self.player_[node]
        np_ = self.num_players
        values = self.values
        logn = math.log(float(visits[node]))
        best = first
        best_score = -math.inf
        sqrt = math.sqrt
        for k in range(first, first + n):
            v = float(visits[k])
            score = values[k * np_ + p] / v + c * sqrt(logn / v)
            if score > best_score:
                best_score = score
                best = k
        return best

    def _rollout(self, state: Any, rng: SplitMix64, guided: bool = False) -> list[float]:
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return [float(r) for r in state.returns()]
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                if not outcomes:
                    raise RuntimeError("a chance node without chance outcomes")
                u = rng.uniform()
                total = 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    total += p
                    if u < total:
                        action = a
                        break
            else:
                actions = state.legal_actions()
                if not actions:
                    raise RuntimeError("a non-terminal node without legal actions")
                if not guided:
                    action = actions[rng.below(len(actions))]
                elif len(actions) == 1:
                    action = actions[0]
                else:
                    action = _greedy_action(state, actions, player, rng)
            state.apply_action(action)

    def _evaluate(self, state: Any, rng: SplitMix64, evaluator: int, rollouts: int) -> list[float]:
        if evaluator == 1:
            return [float(state.heuristic(p)) for p in range(self.num_players)]
        guided = evaluator >= 2
        mixed = evaluator == 3
        if rollouts == 1:
            # the work state is not needed afterwards, unless the heuristic is still to come
            ret = self._rollout(state.clone() if mixed else state, rng, guided)
        else:
            acc = [0.0] * self.num_players
            for _ in range(rollouts):
                one = self._rollout(state.clone(), rng, guided)
                for p in range(self.num_players):
                    acc[p] += one[p]
            ret = [a / rollouts for a in acc]
        if mixed:
            ret = [0.5 * (float(state.heuristic(p)) + ret[p]) for p in range(self.num_players)]
        return ret

    def _rebackup(self, node: int, w: float) -> None:
        np_ = self.num_players
        values = self.values
        visits = self.visits_
        prob = self.prob
        first = self.first[node]
        n = self.nchild[node]
        player = self.player_[node]
        for k in range(first, first + n):
            if visits[k] == 0:
                return  # not all children tried yet: keep the plain mean (own evaluation in it)
        acc = [0.0] * np_
        if player == CHANCE:
            tot = 0.0
            for k in range(first, first + n):
                if visits[k] == 0:
                    continue
                v = float(visits[k])
                tot += prob[k]
                for p in range(np_):
                    acc[p] += prob[k] * (values[k * np_ + p] / v)
            if tot <= 0.0:
                return
            acc = [a / tot for a in acc]
        else:
            best = -1
            best_q = -math.inf
            cvis = 0
            csum = [0.0] * np_
            for k in range(first, first + n):
                if visits[k] == 0:
                    continue
                v = float(visits[k])
                cvis += visits[k]
                for p in range(np_):
                    csum[p] += values[k * np_ + p]
                mean = values[k * np_ + player] / v
                if mean > best_q:
                    best_q, best = mean, k
            if best < 0:
                return
            v = float(visits[best])
            acc = [
                w * (values[best * np_ + p] / v) + (1.0 - w) * (csum[p] / float(cvis))
                for p in range(np_)
            ]
        v = float(visits[node])
        for p in range(np_):
            values[node * np_ + p] = acc[p] * v

    def _iterate(
        self, rng: SplitMix64, c: float, evaluator: int, rollouts: int, backup: float = -1.0
    ) -> None:
        work = self.root_state.clone()
        node = 0
        path = [0]
        player = self.player_
        action = self.action
        while player[node] != _UNEXPANDED and player[node] != TERMINAL:
            node = self._select(node, rng, c)
            work.apply_action(action[node])
            path.append(node)
        if player[node] == _UNEXPANDED:
            self._expand(node, work, backup >= 0.0 and evaluator == 1)
        if player[node] == TERMINAL:
            ret = [float(r) for r in work.returns()]
        else:
            ret = self._evaluate(work, rng, evaluator, rollouts)
        visits = self.visits_
        values = self.values
        np_ = self.num_players
        for n in path:
            visits[n] += 1
            base = n * np_
            for p in range(np_):
                values[base + p] += ret[p]
        if backup >= 0.0:
            for i in range(len(path) - 2, -1, -1):
                self._rebackup(path[i], backup)

    def search(
        self,
        iterations: int,
        seconds: float,
        seed: int,
        c: float,
        evaluator: int,
        rollouts: int,
        check_every: int = 1,
        max_nodes: int = -1,
        backup: float = -1.0,
    ) -> tuple[int, str]:
        rng = SplitMix64(seed)
        timed = seconds > 0.0
        limit = _MAX_VISITS - self.visits_[0]
        if 0 < iterations < limit:
            limit = iterations
        if limit <= 0:
            raise OptionError("the tree's root has reached the maximum number of visits")
        deadline = time.perf_counter() + seconds if timed else 0.0
        done = 0
        while True:
            if max_nodes > 0 and done > 0 and len(self.first) + _MAX_ACTIONS > max_nodes:
                return done, "max_nodes"
            self._iterate(rng, c, evaluator, rollouts, backup)
            done += 1
            if done >= limit:
                return done, "iterations"
            if timed and done % check_every == 0 and time.perf_counter() >= deadline:
                return done, "seconds"

    # -- reading and re-rooting --------------------------------------------------------------------
    def player(self, node: int) -> int:
        return self.player_[node]

    def visits(self, node: int) -> int:
        return self.visits_[node]

    def value_sums(self, node: int) -> tuple[float, ...]:
        base = node * self.num_players
        return tuple(self.values[base : base + self.num_players])

    def children(self, node: int) -> list[tuple[int, int, float, int, tuple[float, ...]]]:
        first = self.first[node]
        if first < 0:
            return []
        return [
            (k, self.action[k], self.prob[k], self.visits_[k], self.value_sums(k))
            for k in range(first, first + self.nchild[node])
        ]

    def advance(self, action: int) -> None:
        self.root_state.apply_action(action)  # raises IllegalActionError, state unchanged
        child = next((k for k, a, *_ in self.children(0) if a == action), -1)
        if child < 0 or self.visits_[child] == 0:
            self._fresh_root()
            return
        # Breadth first from the child: every node's children stay contiguous.
        origin = [child]
        head = 0
        while head < len(origin):
            old = origin[head]
            if self.first[old] >= 0:
                origin.extend(range(self.first[old], self.first[old] + self.nchild[old]))
            head += 1
        np_ = self.num_players
        first: list[int] = []
        count = 1
        for old in origin:
            if self.first[old] >= 0:
                first.append(count)
                count += self.nchild[old]
            else:
                first.append(-1)
        self.first = first
        self.nchild = [self.nchild[o] for o in origin]
        self.visits_ = [self.visits_[o] for o in origin]
        self.action = [self.action[o] for o in origin]
        self.prob = [self.prob[o] for o in origin]
        self.player_ = [self.player_[o] for o in origin]
        self.values = [self.values[o * np_ + p] for o in origin for p in range(np_)]
        self.action[0] = -1
        self.prob[0] = 1.0


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
        self._tree: Any = None
        self._kind: str | None = None  # "kernel" or "python"
        self._game: Any = None

    @property
    def engine(self) -> str | None:
        """``"kernel"`` (compiled loop), ``"python"`` (adapter) or None before the first search."""
        return self._kind

    @property
    def nodes(self) -> int:
        """Nodes stored (0 before the first search)."""
        return 0 if self._tree is None else self._tree.node_count

    @property
    def root_visits(self) -> int:
        """Visits of the root: simulations kept from earlier searches."""
        return 0 if self._tree is None else self._tree.visits(0)

    @property
    def bytes_per_node(self) -> int | None:
        """Bytes of one node in the compiled layout (None before the first search)."""
        return None if self._tree is None else self._tree.bytes_per_node

    def reset(self) -> None:
        """Forget the tree; the next search adopts its state as the root."""
        self._tree = None
        self._kind = None
        self._game = None

    def advance(self, action: int) -> None:
        """Re-root on the child reached by ``action`` (a decision or a chance outcome).

        Raises :class:`~solver.errors.IllegalActionError` when the action is not legal at the
        root. Before the first search there is no tree, and advancing does nothing.
        """
        if self._tree is None:
            return
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action {action!r} is not an action id")
        if self._kind == "kernel":
            try:
                self._tree.advance(action)
            except (ValueError, OverflowError) as exc:
                raise IllegalActionError(str(exc)) from None
        else:
            self._tree.advance(action)

    def search(
        self,
        state: Any,
        iterations: int | None = 1000,
        seconds: float | None = None,
        seed: int = 0,
        c: float | None = None,
        evaluator: str = "rollout",
        rollouts: int = 1,
        max_nodes: int = DEFAULT_MAX_NODES,
        backup: str | float = "mean",
    ) -> SearchResult:
        """Search from ``state`` (equal to the tree's root); see :func:`mcts`."""
        if c is None:
            c = default_c(evaluator)
        iterations, seconds, seed, c, evaluator, rollouts = _check_options(
            iterations, seconds, seed, c, evaluator, rollouts
        )
        root_player = _check_root(state)
        kernel = _is_kernel_state(state)
        if kernel:
            ext = _kernel_module()
            game = _state_game(state)
            if evaluator != "rollout" and not ext.kernel_has_heuristic(game._kernel_handle()):
                raise OptionError(
                    f"evaluator {evaluator!r} needs a kernel with a heuristic; {game!r} has none"
                )
        else:
            game = getattr(state, "game", None)
            if evaluator != "rollout" and not callable(getattr(state, "heuristic", None)):
                raise OptionError(
                    f"evaluator {evaluator!r} needs a compiled kernel state or a state with a "
                    f"heuristic(player) method; {type(state).__name__} has none"
                )
        self._adopt(state, kernel, game)
        tree = self._tree
        reused = tree.visits(0)
        start = time.perf_counter()
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise OptionError(f"max_nodes must be a whole number ≥ 1, not {max_nodes!r}")
        weight = _check_backup(backup)
        done, stop_reason = tree.search(
            -1 if iterations is None else iterations,
            0.0 if seconds is None else seconds,
            seed,
            c,
            _EVALUATOR_CODES[evaluator],
            rollouts,
            max_nodes=max_nodes,
            backup=weight,
        )
        elapsed = time.perf_counter() - start
        extra = {
            "engine": self._kind,
            "evaluator": evaluator,
            "c": c,
            "seed": seed,
            "rollouts": rollouts,
            "backup": backup,
            "reused_visits": reused,
            "stopped_by": stop_reason,
            "simulations_per_second": done / elapsed if elapsed > 0 else math.inf,
        }
        return _build_result(tree, state, root_player, done, elapsed, extra)

    def _adopt(self, state: Any, kernel: bool, game: Any) -> None:
        kind = "kernel" if kernel else "python"
        if self._tree is not None:
            same_game = self._game is game
            if kind == self._kind and same_game:
                if kernel:
                    same = self._tree.matches(state._state_capsule())
                else:
                    same = self._tree.matches(state)
                if same:
                    return
            raise OptionError(
                "the tree's root is not this state: advance the tree with every action played "
                "(tree.advance(action)), or reset() it"
            )
        if kernel:
            ext = _kernel_module()
            self._tree = ext.Tree(game, game._kernel_handle(), state._state_capsule())
        else:
            self._tree = _PyTree(state, len(state.returns()))
        self._kind = kind
        self._game = game


MCTS = MCTSTree
"""Another name for :class:`MCTSTree`."""


def mcts(
    state: Any,
    iterations: int | None = 1000,
    seconds: float | None = None,
    seed: int = 0,
    c: float | None = None,
    evaluator: str = "rollout",
    rollouts: int = 1,
    reuse: MCTSTree | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    backup: str | float = "mean",
) -> SearchResult:
    """Search ``state`` (a decision node) with UCT and return the ranked moves.

    ``iterations`` and/or ``seconds`` bound the search (at least one; it stops at the first
    reached; a ``seconds`` budget is not deterministic). ``seed`` (0..2**64-1) seeds the
    searcher's own generator; the same seed and iteration budget give the same result.
    ``c`` is the UCT constant (None: 0.1 for ``heuristic``, else 1.4; see the module
    docstring), ``evaluator`` is ``"rollout"`` (``rollouts`` random playouts per leaf),
    ``"heuristic"`` (compiled kernels with a heuristic, or states with a ``heuristic(player)``
    method), ``"guided"`` (``rollouts`` playouts per leaf whose decisions greedily maximise the
    heuristic one ply ahead; needs a heuristic too) or ``"mixed"`` (the mean of ``heuristic``
    and ``guided``). ``reuse``: an :class:`MCTSTree`
    whose statistics the search continues (its root must equal ``state``). ``max_nodes`` caps
    the tree's size (memory: 24 + 8 × players bytes a node on the compiled path): the search
    stops early, with ``extra["stopped_by"] == "max_nodes"``, rather than grow past it.
    ``backup`` is ``"mean"`` (plain UCT), ``"max"`` or a weight from 0 to 1 of the best child
    at decision nodes (chance nodes: the probability-weighted mean of their children; with
    ``evaluator="heuristic"`` new decision nodes' children are primed with one heuristic visit
    each, counted in ``MoveInfo.visits``): see the module docstring.

    Raises :class:`~solver.errors.OptionError` for bad options, for a terminal state
    ("the game is over") and for a chance node (a best move exists only at a decision node).

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
    >>> state = game.new_initial_state()
    >>> state.apply_action(11)                  # roll: 2 steps
    >>> result = mcts(state, iterations=1000, seed=1)
    >>> [m.label for m in result.moves], result.moves[0].pv[:2]
    (['E', 'N', 'W'], ('E', 'N'))
    """
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
    )


# -- results ------------------------------------------------------------------------------------
def _mean(sums: tuple[float, ...], visits: int, player: int) -> float:
    return sums[player] / visits if visits else 0.0


def _pv(tree: Any, state: Any, node: int, action: int) -> tuple[str, ...]:
    labels = []
    s = state.clone()
    while True:
        labels.append(s.action_to_string(action))
        s.apply_action(action)
        kids = tree.children(node)
        if not kids:
            break
        player = tree.player(node)
        if player == CHANCE:
            best = min(kids, key=lambda k: (-k[3], -k[2], k[1]))
        else:
            best = min(kids, key=lambda k: (-k[3], -_mean(k[4], k[3], player), k[1]))
        if best[3] == 0:
            break
        node, action = best[0], best[1]
    return tuple(labels)


def _build_result(
    tree: Any, state: Any, root_player: int, done: int, elapsed: float, extra: dict[str, Any]
) -> SearchResult:
    kids = tree.children(0)
    ranked = sorted(kids, key=lambda k: (-k[3], -_mean(k[4], k[3], root_player), k[1]))
    moves = tuple(
        MoveInfo(
            action=action,
            label=state.action_to_string(action),
            visits=visits,
            value=_mean(sums, visits, root_player),
            pv=_pv(tree, state, index, action),
        )
        for index, action, _prob, visits, sums in ranked
    )
    root_visits = tree.visits(0)
    root_mean = _mean(tree.value_sums(0), root_visits, root_player)
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
