"""Playing agents by name: the shared ones and each game's own.

An agent is a callable ``agent(state) -> action`` for decision nodes. Every game gets the shared
agents; a game adds its own through its spec (``GameSpec.agents``: the dog's ``greedy``).

- ``random``: uniform among the legal actions (the library's SplitMix64, seeded).
- ``mcts``: MCTS with ``iterations`` simulations per decision (seeded per decision) in the
  strong configuration, :func:`solver.search.strong_mcts_options`: leaves valued by the game's
  heuristic where the state has one (compiled kernels), else by a random rollout. ``forest GAME
  best-move`` and ``solve`` search with the same options, so their numbers agree with ``play``.
- ``exact``: the optimal policy of exact expectimax, solved once from the start.
- ``ismcts``: information-set MCTS (:func:`solver.search.ismcts.ismcts`) from the seat's own
  view, ``iterations`` simulations per decision (seeded per decision), in its default
  configuration; only for games whose states have ``resample_hidden`` (hidden information).

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
from solver.spec import Agent

__all__ = ["SHARED_AGENTS", "Agent", "agent_names", "make_agent", "random_agent"]

SHARED_AGENTS = ("mcts", "ismcts", "exact", "random")
"""The agents every game gets."""


def agent_names(game_name: str) -> list[str]:
    """The agents ``make_agent`` builds for game ``game_name``: shared first, then the game's
    (a game's own agent named like a shared one replaces it and is listed once)."""
    from solver.registry import game_spec

    spec = game_spec(game_name)
    shared = [name for name in SHARED_AGENTS if name != "exact" or spec.exact]
    return shared + sorted(name for name in spec.agents if name not in SHARED_AGENTS)


def random_agent(seed: int = 0) -> Agent:
    """An agent choosing uniformly among the legal actions, seeded."""
    rng = SplitMix64(check_seed(seed))

    def choose(state: State) -> int:
        return rng.pick(state.legal_actions())

    return choose


def _mcts_agent(seed: int, iterations: int) -> Agent:
    from solver.search import mcts, strong_mcts_options

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


def _ismcts_agent(game: Game, seed: int, iterations: int) -> Agent:
    from solver.search.ismcts import has_hidden_information, ismcts

    if not has_hidden_information(game.new_initial_state()):
        from solver.spec import unsupported

        raise unsupported("the ismcts agent (hidden information)", game.name)
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


def _exact_agent(game: Game, memory_mb: float | None) -> Agent:
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
    iterations: int = 1000,
    memory_mb: float | None = None,
) -> Agent:
    """Build the agent called ``name`` for ``game``: the game's own agent of that name if it has
    one (a game may replace a shared agent, as guardians does ``mcts``), else the shared one."""
    from solver.registry import game_spec

    spec = game_spec(game.name)
    if name in spec.agents:
        return spec.agents[name](game, seed=seed, iterations=iterations)
    if name == "random":
        return random_agent(seed)
    if name == "mcts":
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise OptionError(f"iterations must be a whole number of at least 1, not {iterations}")
        if hasattr(game.new_initial_state(), "resample_hidden"):
            # the shared MCTS searches the true state: it would read every hidden card
            raise OptionError(
                f"the mcts agent would read the hidden cards of {game.name} (it searches the "
                "true state); use ismcts, which searches from the player's view"
            )
        return _mcts_agent(seed, iterations)
    if name == "ismcts":
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise OptionError(f"iterations must be a whole number of at least 1, not {iterations}")
        return _ismcts_agent(game, seed, iterations)
    if name == "exact":
        if not spec.exact:
            raise OptionError(
                f"the exact agent is not supported for {game.name}: its positions are too large "
                "for an exact search (use mcts)"
            )
        return _exact_agent(game, memory_mb)
    raise OptionError(
        f"unknown agent {name!r} for {game.name}; expected one of "
        f"{', '.join(agent_names(game.name))}"
    )
