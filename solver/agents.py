"""Playing agents by name, for ``forest dog play`` and the strength benchmark.

An agent is a callable ``agent(state) -> action`` for decision nodes.

- ``random``: uniform among the legal actions.
- ``greedy``: the stamina-weighted shortest path, no look-ahead (:mod:`solver.games.dog.greedy`).
- ``mcts``: UCT with ``iterations`` simulations per decision (seeded per decision); leaves are
  valued by the game's heuristic (``evaluator="heuristic"``, c = 0.1, ``backup="max"``) where
  the state has one (compiled kernels), else by one random rollout (c = 1.4, mean backup).
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
from collections.abc import Callable
from typing import Any

from solver.errors import OptionError
from solver.game import Game, State

AGENTS = ("mcts", "exact", "greedy", "random")
Agent = Callable[[State], int]


def _has_heuristic(state: State) -> bool:
    """Whether ``mcts(state, evaluator="heuristic")`` can run: a kernel with a heuristic."""
    if callable(getattr(state, "_state_capsule", None)):
        game = getattr(state, "game", None) or state.get_game()
        try:
            from solver._ext import mcts as ext
        except ImportError:
            return False
        return bool(ext.kernel_has_heuristic(game._kernel_handle()))
    return callable(getattr(state, "heuristic", None))


def make_agent(name: str, game: Game, *, seed: int = 0, iterations: int = 1000) -> Agent:
    """Build the agent called ``name`` for ``game``."""
    if name == "random":
        from solver.games.dog.play import random_agent

        return random_agent(seed)
    if name == "greedy":
        from solver.games.dog.greedy import greedy_agent

        return greedy_agent(game.forest)  # type: ignore[attr-defined]
    if name == "mcts":
        if iterations < 1:
            raise OptionError(f"iterations must be at least 1, not {iterations}")
        from solver.search import mcts

        counter = itertools.count()

        def choose(state: State) -> int:
            legal = state.legal_actions()
            if len(legal) == 1:
                return legal[0]
            # The heuristic evaluator (and its default c = 0.1) where the state has one: on the
            # dog game random rollouts are nearly uninformative (see solver.search.mcts).
            # With the heuristic, backup="max" (children primed by the heuristic, max at
            # decisions, expectation at chance nodes): measured better (solver.search.mcts).
            heuristic = _has_heuristic(state)
            result = mcts(
                state,
                iterations=iterations,
                seed=seed * 1_000_003 + next(counter),
                evaluator="heuristic" if heuristic else "rollout",
                backup="max" if heuristic else "mean",
            )
            return int(result.best_action)  # type: ignore[arg-type]

        return choose
    if name == "exact":
        from solver.search import solve

        solution: Any = solve(game.new_initial_state(), exact=True)

        def optimal(state: State) -> int:
            action = solution.best_action(state)
            if action is None:
                raise OptionError("the exact solution does not cover this state")
            return int(action)

        return optimal
    raise OptionError(f"unknown agent {name!r}; expected one of {', '.join(AGENTS)}")
