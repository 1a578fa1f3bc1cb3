"""Leaf evaluators for MCTS, in the shape of OpenSpiel's ``Evaluator``.

An evaluator values a non-terminal state the tree has just reached and names the moves to try
there:

- ``evaluate(state, rng=None) -> list[float]``: the estimated return of every player;
- ``prior(state) -> [(action, probability)]``: the moves a new decision node gets as children
  (the built-ins: every legal action, uniformly). Plain UCT's selection ignores the
  probabilities; an evaluator can still order or restrict the moves searched.

``rng`` is the searcher's own :class:`~solver.rng.SplitMix64`, so a seeded search is
reproducible; an evaluator called without one draws from its own generator (seeded 0). An object
that is not an :class:`Evaluator` subclass is called OpenSpiel's way, ``evaluate(state)``.

The built-ins, by their public names (``mcts(state, evaluator="guided")``):

- ``"rollout"``, :class:`RolloutEvaluator`: ``n_rollouts`` uniformly random games to the end
  (chance by its probabilities), returns averaged. Works for every game.
- ``"heuristic"``, :class:`HeuristicEvaluator`: the game's heuristic per player
  (``state.heuristic(player)``, or the kernel's). Deterministic, so with ``backup="max"`` a new
  decision node's children are primed with one visit each.
- ``"guided"``, :class:`GuidedEvaluator`: rollouts whose decisions take the action with the
  highest heuristic one ply ahead (ties at random).
- ``"mixed"``, :class:`MixedEvaluator`: the mean of the heuristic and a guided rollout.

:class:`PlayoutEvaluator` (an object, no name) is the heavy playout of ISMCTS: a few actions
of the game's playout policy, then the heuristic.

On the compiled path these four are mapped to the loop's internal codes; any other evaluator
makes the search run on the pure-Python path (``extra["engine"] == "python"``).

>>> import solver
>>> from solver.rng import SplitMix64
>>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
>>> state = game.new_initial_state()
>>> RolloutEvaluator(4).evaluate(state, SplitMix64(1)) in ([0.0], [0.25], [0.5], [0.75], [1.0])
True
>>> state.apply_action(11)
>>> [(state.action_to_string(a), p) for a, p in RolloutEvaluator().prior(state)]
[('N', 0.5), ('W', 0.5)]
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, cast, runtime_checkable

from solver.errors import OptionError
from solver.game import CHANCE, TERMINAL, HeuristicState, PlayoutState, State
from solver.rng import SplitMix64, sample_outcome
from solver.search.limit import deadline_passed

__all__ = [
    "DEFAULT_C",
    "DEFAULT_C_HEURISTIC",
    "EVALUATORS",
    "Evaluator",
    "EvaluatorLike",
    "GuidedEvaluator",
    "HeuristicEvaluator",
    "MixedEvaluator",
    "PlayoutEvaluator",
    "RolloutEvaluator",
    "checked_prior",
    "checked_returns",
    "evaluate_with",
    "evaluator_from",
]

DEFAULT_C = 1.4
"""The UCT exploration constant for noisy leaves with returns in [0, 1] (≈ √2)."""

DEFAULT_C_HEURISTIC = 0.1
"""The UCT constant for the deterministic heuristic leaves (measured: ``docs/search.md``)."""


@runtime_checkable
class EvaluatorLike(Protocol):
    """Anything with OpenSpiel's evaluator methods."""

    def evaluate(self, state: State) -> Sequence[float]: ...

    def prior(self, state: State) -> list[tuple[int, float]]: ...


def _players(state: State) -> int:
    return len(state.returns())


def _uniform_prior(state: State) -> list[tuple[int, float]]:
    if state.current_player() == CHANCE:
        return [(int(a), float(p)) for a, p in state.chance_outcomes()]
    actions = list(state.legal_actions())
    share = 1.0 / len(actions) if actions else 0.0
    return [(a, share) for a in actions]


class Evaluator:
    """Base class of the built-in evaluators (and of user evaluators that want the search's rng).

    ``name`` is how results report it (``extra["evaluator"]``), ``default_c`` the UCT constant
    used when ``MCTSOptions.c`` is None, ``deterministic`` whether ``evaluate`` draws no random
    number (then the max backup primes new children with it).
    """

    name: ClassVar[str] = "custom"
    default_c: ClassVar[float] = DEFAULT_C
    deterministic: ClassVar[bool] = False
    needs_heuristic: ClassVar[bool] = False

    def evaluate(self, state: State, rng: SplitMix64 | None = None) -> list[float]:
        """The estimated return of every player at ``state`` (not changed)."""
        raise NotImplementedError

    def prior(self, state: State) -> list[tuple[int, float]]:
        """The moves to try at ``state``: every legal action, uniformly (chance: its outcomes)."""
        return _uniform_prior(state)


def _greedy_action(state: State, actions: Sequence[int], player: int, rng: SplitMix64) -> int:
    """The action whose successor has the highest heuristic for ``player``.

    Ties are broken by reservoir sampling, as in ``ext/mcts.pyx``: the ``t``-th tying action
    replaces the pick when ``below(t) == 0`` (no random number is drawn without a tie).
    """
    action = actions[0]
    best = -math.inf
    ties = 0
    for a in actions:
        probe = state.clone()
        probe.apply_action(a)
        h = _heuristic_value(probe, player)
        if h > best:
            best, action, ties = h, a, 1
        elif h == best:
            ties += 1
            if rng.below(ties) == 0:
                action = a
    return action


def rollout(state: State, rng: SplitMix64, guided: bool = False) -> list[float]:
    """Play ``state`` (changed) to the end and return its returns.

    Chance picks by probability; decisions uniformly at random, or (``guided``) greedily by the
    heuristic one ply ahead.
    """
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return [float(r) for r in state.returns()]
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            if not outcomes:
                raise RuntimeError("a chance node without chance outcomes")
            action = sample_outcome(outcomes, rng)
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


MAX_ROLLOUTS = 2**31 - 1
"""The most rollouts a leaf: the compiled searches read the count as a C int (a larger one
raised OverflowError from ``mcts(state, rollouts=2**31)``)."""


def _check_rollouts(n_rollouts: object) -> int:
    if (
        isinstance(n_rollouts, bool)
        or not isinstance(n_rollouts, int)
        or not 1 <= n_rollouts <= MAX_ROLLOUTS
    ):
        raise OptionError(
            f"rollouts must be a whole number from 1 to {MAX_ROLLOUTS}, not {n_rollouts!r}"
        )
    return n_rollouts


def _heuristic_value(state: State, player: int) -> float:
    """``state.heuristic(player)``: the evaluators that read it are chosen for games declaring
    one (``has_heuristic``)."""
    return float(cast(HeuristicState, state).heuristic(player))


def _heuristic(state: State, players: int) -> list[float]:
    """Every player's heuristic value: ``state.heuristics()`` where the state offers it (one
    call valuing every seat: a game whose value is a share of all players' scores scores them
    once, not once a seat), else ``heuristic(p)`` for each."""
    every = getattr(state, "heuristics", None)
    if callable(every):
        return [float(v) for v in every()]
    return [_heuristic_value(state, p) for p in range(players)]


@dataclass(frozen=True)
class _Rollouts(Evaluator):
    """An evaluator that plays ``n_rollouts`` rollouts, a whole number >= 1 checked when made."""

    n_rollouts: int = 1

    def __post_init__(self) -> None:
        _check_rollouts(self.n_rollouts)


@dataclass(frozen=True)
class RolloutEvaluator(_Rollouts):
    """The mean returns of ``n_rollouts`` random games from the state."""

    name: ClassVar[str] = "rollout"
    guided: ClassVar[bool] = False

    def evaluate(self, state: State, rng: SplitMix64 | None = None) -> list[float]:
        rng = rng if rng is not None else SplitMix64(0)
        if self.n_rollouts == 1:
            return rollout(state.clone(), rng, self.guided)
        total: list[float] = []
        played = 0
        for _ in range(self.n_rollouts):
            one = rollout(state.clone(), rng, self.guided)
            total = one if not total else [t + r for t, r in zip(total, one, strict=True)]
            played += 1
            if deadline_passed():  # the search's time is up: the mean of those played
                break
        return [t / played for t in total]


@dataclass(frozen=True)
class GuidedEvaluator(RolloutEvaluator):
    """Like :class:`RolloutEvaluator`, but decisions greedily maximise the heuristic."""

    name: ClassVar[str] = "guided"
    guided: ClassVar[bool] = True
    needs_heuristic: ClassVar[bool] = True


@dataclass(frozen=True)
class HeuristicEvaluator(Evaluator):
    """The game's heuristic for every player: deterministic, no rollout."""

    name: ClassVar[str] = "heuristic"
    default_c: ClassVar[float] = DEFAULT_C_HEURISTIC
    deterministic: ClassVar[bool] = True
    needs_heuristic: ClassVar[bool] = True

    def evaluate(self, state: State, rng: SplitMix64 | None = None) -> list[float]:
        return _heuristic(state, _players(state))


@dataclass(frozen=True)
class MixedEvaluator(_Rollouts):
    """The mean of the heuristic and ``n_rollouts`` guided rollouts (averaged first)."""

    name: ClassVar[str] = "mixed"
    needs_heuristic: ClassVar[bool] = True

    def evaluate(self, state: State, rng: SplitMix64 | None = None) -> list[float]:
        guided = GuidedEvaluator(self.n_rollouts).evaluate(state, rng)
        heuristic = _heuristic(state, len(guided))
        return [0.5 * (h + g) for h, g in zip(heuristic, guided, strict=True)]


@dataclass(frozen=True)
class PlayoutEvaluator(Evaluator):
    """A heavy playout: up to ``depth`` actions of the game's playout policy (chance by its
    probabilities), then the heuristic for every player (the returns if the game ended).

    The policy is :meth:`policy`: ``state.playout_action(rng)`` (the game's own move rules,
    drawing tie-breaks from the search's generator); a subclass may override it for states
    without one. On a compiled kernel (the compiled ISMCTS) the kernel's ``playout_action`` slot
    plays instead, with the same draws. Not among the named evaluators: pass the object.
    """

    depth: int = 24
    name: ClassVar[str] = "playout"
    default_c: ClassVar[float] = 0.4
    needs_heuristic: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if isinstance(self.depth, bool) or not isinstance(self.depth, int) or self.depth < 0:
            raise OptionError(f"depth must be a whole number ≥ 0, not {self.depth!r}")

    def policy(self, state: State, rng: SplitMix64) -> int:
        """The action the playout takes at the decision node ``state``."""
        return int(cast(PlayoutState, state).playout_action(rng))

    def evaluate(self, state: State, rng: SplitMix64 | None = None) -> list[float]:
        rng = rng if rng is not None else SplitMix64(0)
        world = state.clone()
        for _ in range(self.depth):
            player = world.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                world.apply_action(sample_outcome(world.chance_outcomes(), rng))
            else:
                world.apply_action(self.policy(world, rng))
        if world.is_terminal():
            return [float(r) for r in world.returns()]
        return _heuristic(world, _players(world))


EVALUATORS = ("rollout", "heuristic", "guided", "mixed")
"""The public names of the built-in evaluators."""


def evaluator_from(spec: object, rollouts: int | None = None) -> Evaluator | EvaluatorLike:
    """The evaluator object for a public name (with ``rollouts``) or an evaluator object."""
    if isinstance(spec, str):
        n = 1 if rollouts is None else _check_rollouts(rollouts)
        if spec == "rollout":
            return RolloutEvaluator(n)
        if spec == "heuristic":
            return HeuristicEvaluator()
        if spec == "guided":
            return GuidedEvaluator(n)
        if spec == "mixed":
            return MixedEvaluator(n)
    elif isinstance(spec, (Evaluator, EvaluatorLike)):
        if rollouts is not None:
            raise OptionError(
                "rollouts= goes with an evaluator name; an evaluator object carries its own "
                "(e.g. RolloutEvaluator(n_rollouts=4))"
            )
        return spec
    raise OptionError(
        f"unknown evaluator {spec!r}; expected one of {', '.join(map(repr, EVALUATORS))} "
        "or an object with evaluate(state) and prior(state)"
    )


def evaluate_with(
    evaluator: Evaluator | EvaluatorLike, state: State, rng: SplitMix64
) -> list[float]:
    """Call ``evaluator`` on ``state``: with the search's ``rng`` if it is an :class:`Evaluator`."""
    if isinstance(evaluator, Evaluator):
        return evaluator.evaluate(state, rng)
    return [float(v) for v in evaluator.evaluate(state)]


def _own(evaluator: Evaluator | EvaluatorLike) -> bool:
    """One of the library's evaluators (checked by its tests), not a caller's."""
    return isinstance(evaluator, Evaluator) and evaluator.name != "custom"


def checked_returns(
    evaluator: Evaluator | EvaluatorLike, state: State, rng: SplitMix64, players: int
) -> list[float]:
    """:func:`evaluate_with`, held to the protocol: one finite number per player. A caller's
    evaluator that breaks it is an :class:`~solver.errors.OptionError` naming it (a NaN was
    searched silently into NaN values; ``None`` or a text raised ``TypeError``)."""
    who = type(evaluator).__name__
    try:
        returns = evaluate_with(evaluator, state, rng)
    except (TypeError, ValueError) as exc:
        if _own(evaluator):
            raise
        raise OptionError(f"evaluator {who} must return one number per player ({exc})") from None
    if len(returns) != players:
        raise OptionError(
            f"evaluator {who} returned {len(returns)} values for a game of {players} players "
            "(one value per player expected)"
        )
    if not _own(evaluator) and not all(math.isfinite(v) for v in returns):
        raise OptionError(f"evaluator {who} returned {returns}: each value must be finite")
    return returns


def checked_prior(evaluator: Evaluator | EvaluatorLike, state: State) -> list[tuple[int, float]]:
    """``evaluator.prior(state)`` as ``(action, probability)`` pairs, a caller's held to the
    protocol: legal actions, each once, probabilities finite and at least 0, one pair at least.
    Before, ``None`` raised ``TypeError``, ``[]`` a ``RuntimeError``, an illegal action the
    game's ``IllegalActionError`` from inside the search, and a repeated one was listed twice
    among the moves."""
    raw = evaluator.prior(state)
    if _own(evaluator):
        return [(int(a), float(p)) for a, p in raw]
    who = type(evaluator).__name__
    try:
        moves = [(operator.index(a), float(p)) for a, p in raw]
    except (TypeError, ValueError):
        said = repr(raw)
        said = said if len(said) <= 60 else said[:57] + "..."
        raise OptionError(
            f"evaluator {who}'s prior must give (action, probability) pairs, not {said}"
        ) from None
    legal = set(state.legal_actions())
    seen: set[int] = set()
    for action, p in moves:
        if action not in legal or action in seen or not (math.isfinite(p) and p >= 0.0):
            raise OptionError(
                f"evaluator {who}'s prior gave ({action}, {p}): each legal action at most once, "
                f"with a finite probability of at least 0 (legal: {sorted(legal)})"
            )
        seen.add(action)
    if not moves:
        raise OptionError(f"evaluator {who}'s prior gave no move where {len(legal)} are legal")
    return moves


def name_of(evaluator: Evaluator | EvaluatorLike) -> str:
    """How results report the evaluator: its public name, else its class name."""
    if isinstance(evaluator, Evaluator) and evaluator.name != "custom":
        return evaluator.name
    return type(evaluator).__name__


def default_c(evaluator: Evaluator | EvaluatorLike) -> float:
    """The UCT constant for ``evaluator`` when none is given (1.4; 0.1 for the heuristic)."""
    return evaluator.default_c if isinstance(evaluator, Evaluator) else DEFAULT_C
