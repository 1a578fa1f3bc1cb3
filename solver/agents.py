"""Playing agents by name: the shared ones and each game's own.

An agent is a callable ``agent(state) -> action`` for decision nodes. Every game gets the shared
agents; a game adds its own through its spec (``GameSpec.agents``: the dog's ``greedy``).

- ``random``: uniform among the legal actions (the library's SplitMix64, seeded).
- ``mcts``: the strong configuration of MCTS with ``iterations`` simulations per decision (seeded
  per decision): leaves valued by the game's heuristic where the state has one (compiled
  kernels; c = 0.1, ``backup="max"``), else by one random rollout (c = 1.4, mean backup). This is
  also what ``forest GAME best-move`` and ``solve`` use, so their numbers agree with ``play``.
- ``exact``: the optimal policy of exact expectimax, solved once from the start.

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
from typing import Any

from solver.errors import OptionError
from solver.game import Game, State
from solver.kernels import kernel_of
from solver.rng import SplitMix64, check_seed, derive_seed
from solver.spec import Agent

__all__ = ["SHARED_AGENTS", "Agent", "agent_names", "make_agent", "strong_mcts_options"]

SHARED_AGENTS = ("mcts", "exact", "random")
"""The agents every game gets."""


def _has_heuristic(state: State) -> bool:
    """Whether ``mcts(state, evaluator="heuristic")`` can run: a kernel with a heuristic."""
    capsules = kernel_of(state)
    if capsules is not None:
        try:
            from solver._ext import mcts as ext
        except ImportError:
            return False
        return bool(ext.kernel_has_heuristic(capsules.handle))
    return callable(getattr(state, "heuristic", None))


def strong_mcts_options(state: State) -> dict[str, Any]:
    """The MCTS configuration the ``mcts`` agent plays (and ``best-move`` shows) for ``state``.

    With a heuristic (compiled kernels): the heuristic evaluator, its default c = 0.1 and
    ``backup="max"`` (measured stronger, see ``docs/search.md``); without: one random rollout per
    leaf, c = 1.4, mean backup.
    """
    if _has_heuristic(state):
        return {"evaluator": "heuristic", "backup": "max"}
    return {"evaluator": "rollout", "backup": "mean"}


def agent_names(game_name: str) -> list[str]:
    """The agents ``make_agent`` builds for game ``game_name``: shared first, then the game's."""
    from solver.registry import game_spec

    return list(SHARED_AGENTS) + sorted(game_spec(game_name).agents)


def random_agent(seed: int = 0) -> Agent:
    """An agent choosing uniformly among the legal actions, seeded."""
    rng = SplitMix64(check_seed(seed))

    def choose(state: State) -> int:
        return rng.pick(state.legal_actions())

    return choose


def _mcts_agent(seed: int, iterations: int) -> Agent:
    from solver.search import mcts

    counter = itertools.count()

    def choose(state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        result = mcts(
            state,
            iterations=iterations,
            seed=derive_seed(seed, next(counter)),
            **strong_mcts_options(state),
        )
        return int(result.best_action)  # type: ignore[arg-type]

    return choose


def _exact_agent(game: Game, memory_mb: float | None) -> Agent:
    from solver.search import solve

    budget = {} if memory_mb is None else {"memory_mb": memory_mb}
    solution: Any = solve(game.new_initial_state(), exact=True, **budget)

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
    """Build the agent called ``name`` for ``game`` (a shared agent or one of the game's own)."""
    if name == "random":
        return random_agent(seed)
    if name == "mcts":
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise OptionError(f"iterations must be a whole number of at least 1, not {iterations}")
        return _mcts_agent(seed, iterations)
    if name == "exact":
        return _exact_agent(game, memory_mb)
    from solver.registry import game_spec

    spec = game_spec(game.name)
    if name in spec.agents:
        return spec.agents[name](game, seed=seed, iterations=iterations)
    raise OptionError(
        f"unknown agent {name!r} for {game.name}; expected one of "
        f"{', '.join(agent_names(game.name))}"
    )
