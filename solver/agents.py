"""Playing agents by name: the shared ones and each game's own.

An agent is a callable ``agent(state) -> action`` for decision nodes. Every game gets the shared
agents; a game adds its own through its spec (``GameSpec.agents``: the dog's ``greedy``).

- ``random``: uniform among the legal actions (the library's SplitMix64, seeded).
- ``mcts``: MCTS with ``iterations`` simulations per decision (seeded per decision) in the
  strong configuration, :func:`solver.search.strong_mcts_options`: leaves valued by the game's
  heuristic where the state has one (compiled kernels), else by a random rollout. ``forest GAME
  best-move`` and ``solve`` search with the same options, so their numbers agree with ``play``.
- ``exact``: the optimal policy of exact expectimax, solved once from the start.
- ``level1`` ... ``level10``: the game's strength ladder (:mod:`solver.ladder`), from a
  beginner to its strongest agent, each a fixed budget and noise.
- ``ismcts``: information-set MCTS (:func:`solver.search.ismcts.ismcts`) from the seat's own
  view, ``iterations`` simulations per decision (seeded per decision), in its default
  configuration; only for games that declare hidden information (``mcts`` only for those that
  do not: it would read the hidden cards).

Which agents a game offers and their play defaults (the ``iterations`` used when none is given)
are declared in its spec (:meth:`solver.spec.GameSpec.offered_agents`).

>>> import solver
>>> from solver.agents import make_agent
>>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
>>> agent = make_agent("exact", game)
>>> state = game.new_initial_state(); state.apply_action(11)
>>> state.action_to_string(agent(state)) in ("N", "E", "S", "W")
True
"""

from __future__ import annotations

import itertools

from solver.errors import OptionError, SearchBudgetError
from solver.game import Game, State
from solver.rng import SplitMix64, check_seed, derive_seed
from solver.spec import SHARED_AGENTS as SHARED_AGENT_SPECS
from solver.spec import Agent, unsupported

__all__ = [
    "SHARED_AGENTS",
    "Agent",
    "agent_names",
    "exact_agent",
    "ismcts_agent",
    "make_agent",
    "mcts_agent",
    "random_agent",
    "random_factory",
]

SHARED_AGENTS = tuple(SHARED_AGENT_SPECS)
"""The agents every game gets where its capabilities allow (:data:`solver.spec.SHARED_AGENTS`)."""


def agent_names(game_name: str) -> list[str]:
    """The agents ``make_agent`` builds for game ``game_name`` (:meth:`GameSpec.agent_names`):
    the shared ones its capabilities allow first, then the game's own."""
    from solver.registry import game_spec

    return game_spec(game_name).agent_names()


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


def _check_iterations(iterations: object) -> None:
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise OptionError(f"iterations must be a whole number of at least 1, not {iterations}")


def mcts_agent(game: Game, *, seed: int = 0, iterations: int = 1000) -> Agent:
    """The shared ``mcts`` agent: MCTS in the strong configuration, ``iterations`` simulations per
    decision, seeded per decision."""
    from solver.search import mcts, strong_mcts_options

    _check_iterations(iterations)
    counter = itertools.count()

    def choose(state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        result = mcts(
            state,
            iterations=iterations,
            seed=derive_seed(seed, next(counter)),
            options=strong_mcts_options(state),
        )
        if result.best_action is None:  # no simulation expanded the root
            raise SearchBudgetError(f"MCTS found no move in {iterations} iteration(s)")
        return result.best_action

    return choose


def ismcts_agent(game: Game, *, seed: int = 0, iterations: int = 1000) -> Agent:
    """The shared ``ismcts`` agent: ISMCTS from the seat's own view in its default
    configuration, ``iterations`` simulations per decision, seeded per decision."""
    from solver.search.ismcts import ismcts

    _check_iterations(iterations)
    counter = itertools.count()

    def choose(state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        result = ismcts(state, iterations=iterations, seed=derive_seed(seed, next(counter)))
        if result.best_action is None:
            raise SearchBudgetError(f"ISMCTS found no move in {iterations} iteration(s)")
        return result.best_action

    return choose


def exact_agent(
    game: Game, *, seed: int = 0, iterations: int | None = None, memory_mb: float | None = None
) -> Agent:
    """The shared ``exact`` agent: the optimal policy of exact expectimax, solved once from the
    start within ``memory_mb`` (the search's default cap when ``None``); ``seed`` and
    ``iterations`` are accepted for the common signature (the exact policy needs neither)."""
    from solver.search import solve
    from solver.search.limit import UNSET

    solution = solve(
        game.new_initial_state(), exact=True, memory_mb=UNSET if memory_mb is None else memory_mb
    )

    def optimal(state: State) -> int:
        action = solution.best_action(state)
        if action is None:
            raise OptionError("the exact solution does not cover this state")
        return int(action)

    return optimal


def make_agent(
    name: str,
    game: Game,
    *,
    seed: int = 0,
    iterations: int | None = None,
    memory_mb: float | None = None,
) -> Agent:
    """Build the agent called ``name`` for ``game``: the game's own agent of that name if it has
    one (a game may replace a shared agent, as guardians does ``mcts``), else the shared one its
    declared capabilities allow (:meth:`GameSpec.offered_agents`).

    ``iterations``: simulations per decision; ``None``: the agent's play default
    (:meth:`GameSpec.play_iterations`). ``memory_mb`` is the exact agent's table cap.
    """
    from solver.registry import game_spec

    spec = game_spec(game.name)
    if name not in spec.agents and name.startswith("level"):
        from solver.ladder import is_level, level_agent

        if is_level(name):
            return level_agent(game, name, seed=seed, iterations=iterations, memory_mb=memory_mb)
    if name in spec.agents:
        return spec.agents[name].build(game, seed=seed, iterations=iterations)
    if name == "mcts" and spec.hidden_information:
        # the shared MCTS searches the true state: it would read every hidden card
        raise OptionError(
            f"the mcts agent would read the hidden cards of {game.name} (it searches the "
            "true state); use ismcts, which searches from the player's view"
        )
    if name == "ismcts" and not spec.hidden_information:
        raise unsupported("the ismcts agent (hidden information)", game.name)
    if name == "exact" and not spec.exact:
        raise OptionError(
            f"the exact agent is not supported for {game.name}: its positions are too large "
            "for an exact search (use mcts)"
        )
    if name == "exact":
        return exact_agent(game, seed=seed, memory_mb=memory_mb)
    return spec.agent(name).build(game, seed=seed, iterations=iterations)
