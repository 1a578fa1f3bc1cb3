"""The shared agents as functions of the searchers: ``random``, ``mcts``, ``ismcts``, ``exact``.

An agent is a callable ``agent(state) -> action`` for decision nodes. These are the factories
:data:`solver.spec.SHARED_AGENTS` names (``factory(game, *, seed, iterations)``); they live here,
beside the searchers, so a game's own agents and sub-commands can play them without reaching up
to :mod:`solver.agents` (which builds an agent *by name* for the CLI, through the registry).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from solver.errors import OptionError, SearchBudgetError
from solver.game import Game, State
from solver.rng import SplitMix64, check_seed, derive_seed
from solver.search.result import SearchResult
from solver.spec import Agent, check_iterations

__all__ = [
    "exact_agent",
    "ismcts_agent",
    "mcts_agent",
    "random_agent",
    "random_factory",
]


def random_agent(seed: int = 0) -> Agent:
    """An agent choosing uniformly among the legal actions, seeded."""
    rng = SplitMix64(check_seed(seed))

    def choose(state: State) -> int:
        return rng.pick(state.legal_actions())

    return choose


def random_factory(game: Game, *, seed: int = 0, iterations: int | None = None) -> Agent:
    """The shared ``random`` agent for ``game`` (:func:`random_agent`; it searches nothing, so
    ``iterations`` is ignored)."""
    return random_agent(seed)


def mcts_agent(game: Game, *, seed: int = 0, iterations: int = 1000) -> Agent:
    """The shared ``mcts`` agent: MCTS in the strong configuration, ``iterations`` simulations per
    decision, seeded per decision."""
    from solver.search import mcts, strong_mcts_options

    def search(state: State, decision_seed: int) -> SearchResult:
        options = strong_mcts_options(state)
        return mcts(state, iterations=iterations, seed=decision_seed, options=options)

    return _per_decision("MCTS", search, seed, iterations)


def ismcts_agent(game: Game, *, seed: int = 0, iterations: int = 1000) -> Agent:
    """The shared ``ismcts`` agent: ISMCTS from the seat's own view in its default
    configuration, ``iterations`` simulations per decision, seeded per decision."""
    from solver.search.ismcts import ismcts

    def search(state: State, decision_seed: int) -> SearchResult:
        return ismcts(state, iterations=iterations, top_k=1, seed=decision_seed)

    return _per_decision("ISMCTS", search, seed, iterations)


def _per_decision(
    name: str, search: Callable[[State, int], SearchResult], seed: int, iterations: int
) -> Agent:
    """An agent playing ``search``'s best move, seeded afresh for each decision (the k-th from
    ``derive_seed(seed, k)``); a single legal action is played without searching."""
    check_iterations(iterations)
    counter = itertools.count()

    def choose(state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        result = search(state, derive_seed(seed, next(counter)))
        if result.best_action is None:  # no simulation expanded the root
            raise SearchBudgetError(f"{name} found no move in {iterations} iteration(s)")
        return result.best_action

    return choose


def exact_agent(
    game: Game, *, seed: int = 0, iterations: int | None = None, memory_mb: float | None = None
) -> Agent:
    """The shared ``exact`` agent: the optimal policy of exact expectimax, solved once from the
    start within ``memory_mb`` (the search's default cap when ``None``) and, under a
    :func:`~solver.search.limit.search_deadline`, by its deadline (else a
    :class:`~solver.errors.SearchTimeoutError`: an exact policy has no partial answer); ``seed``
    and ``iterations`` are accepted for the common signature (the exact policy needs neither)."""
    from solver.search import solve
    from solver.search.limit import UNSET, search_cancel, seconds_left

    left = seconds_left()
    solution = solve(
        game.new_initial_state(), exact=True,
        memory_mb=UNSET if memory_mb is None else memory_mb,
        seconds=UNSET if left is None else left,
        _cancel=search_cancel(),
    )  # fmt: skip

    def optimal(state: State) -> int:
        action = solution.best_action(state)
        if action is None:
            raise OptionError("the exact solution does not cover this state")
        return int(action)

    return optimal
