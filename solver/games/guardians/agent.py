"""Forest guardians' ``mcts`` agent: MCTS for growth and placement, the exact plan for missions.

At the mission step the agent does not search: it plays the first step of the best mission
order (the most missions this turn, then the most points; :func:`plan_missions`), and ``end
turn`` once the plan is empty. The plan comes from
:func:`~solver.games.guardians.order_solve.solve_order`, the rule of ``forest guardians order``
(exhaustive search, else CP-SAT within its model cap, else the first legal order). Every other
decision with more than one legal action is searched
by the shared MCTS in its strong configuration (heuristic leaves,
:func:`solver.search.strong_mcts_options`), seeded per decision; inside the search the tree
orders missions by itself. On the kernel engine (the default) the simulations run in the compiled
loop (``ext/mcts.pyx``) over the kernel's C transitions and heuristic, walks included; on the
reference engine in the Python path. Both build the same tree, so the agent plays the same moves
on either engine (``tests/games/guardians/test_kernel_search.py``), about 70x faster on the
kernel.

>>> import solver
>>> from solver.games.guardians.grove import parse_grove
>>> game = solver.load_game("guardians", position=parse_grove(
...     "grid:\\n[GR]b G:BB R:BB Y:BB\\n. . [YR]g .\\n"))
>>> agent = mcts_agent(game, seed=1, iterations=10)
>>> state = game.new_initial_state()
>>> state.action_to_string(agent(state))   # the chain first: 2 missions, not 1
'walk green pawn: (1,2) -> (0,2) (0,3)'
"""

from __future__ import annotations

import itertools
from typing import Any

from solver.errors import OptionError, SearchBudgetError
from solver.games.guardians.actions import END_TURN
from solver.rng import derive_seed
from solver.spec import Agent

__all__ = ["mcts_agent", "plan_missions"]


PLAN_TIME_LIMIT = 2.0
"""Seconds a mission step's CP-SAT solve may take in play (the best plan found by then, never
worse than the first legal order)."""


def plan_missions(state: Any) -> Any:
    """The best mission plan at the mission step, by the ``order`` command's rule
    (:func:`~solver.games.guardians.order_solve.solve_order`, ``auto``): exhaustive search,
    else CP-SAT within its model cap and :data:`PLAN_TIME_LIMIT`, else the first legal order."""
    from solver.games.guardians.order_solve import solve_order

    return solve_order(state, time_limit=PLAN_TIME_LIMIT).plan


def mcts_agent(game: Any, *, seed: int = 0, iterations: int = 1000) -> Agent:
    """The guardians ``mcts`` agent (see the module docstring)."""
    from solver.games.guardians.rules import Phase
    from solver.search import mcts, strong_mcts_options

    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise OptionError(f"iterations must be a whole number of at least 1, not {iterations}")
    counter = itertools.count()

    def choose(state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if state.phase == Phase.MISSIONS:
            plan = plan_missions(state)
            return plan.steps[0].action if plan.steps else END_TURN
        result = mcts(
            state,
            iterations=iterations,
            seed=derive_seed(seed, next(counter)),
            options=strong_mcts_options(state),
        )
        if result.best_action is None:
            raise SearchBudgetError(f"MCTS found no move in {iterations} iteration(s)")
        return int(result.best_action)

    return choose
