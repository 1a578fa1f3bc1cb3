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

from typing import Any

from solver.errors import OptionError
from solver.game import Game
from solver.search.agents import (
    exact_agent,
    ismcts_agent,
    mcts_agent,
    random_agent,
    random_factory,
)
from solver.spec import SHARED_AGENTS as SHARED_AGENT_SPECS
from solver.spec import Agent

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
        # a strength level: the spec reaches the ladder by reference (solver.ladder builds its
        # levels from agents by name, so it is above this module: no import circle)
        level: Any = spec.agent(name).factory
        return level(game, seed=seed, iterations=iterations, memory_mb=memory_mb)
    if name in spec.agents:
        return spec.agents[name].build(game, seed=seed, iterations=iterations)
    refusal = spec.refusal(name)  # one wording with GameSpec.agent's (solve, best-move...)
    if refusal is not None:
        raise OptionError(refusal)
    if name == "exact":
        return exact_agent(game, seed=seed, memory_mb=memory_mb)
    return spec.agent(name).build(game, seed=seed, iterations=iterations)
