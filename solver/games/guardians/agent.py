"""Forest guardians' ``mcts`` agent: compiled MCTS searching with the planner's evaluation.

Why: the shared MCTS with the old heuristic (colours lined up next to a pawn) won no solo game
and built straight lines; the ``planner`` plays well because of how it values a position (its
mission templates, :mod:`solver.games.guardians.evaluation`). This agent searches every
decision (growth, the tile to flip, placements, pawns, missions) with the compiled MCTS loop
(``ext/mcts.pyx``) over the kernel's C transitions, on the game's *search twin*, whose heuristic
is the planner's evaluation compiled (``ext/guardians.pyx``; the Python twin is
``evaluation.heuristic``; the game's own heuristic, which the hint engine's searches read, stays
the colour heuristic of :mod:`~solver.games.guardians.heuristic`). With
the ``max`` backup every new decision node's children are primed with one evaluated visit each
(the evaluation as the prior: the most promising moves are searched first and deepest), and
chance nodes (draws, the reveals of hidden backs) average their outcomes by probability. So the
search sees what the planner's scoring sees and, on top of it, tries more placements and pairs,
the missions with the chains they open, and the reveals' odds. At the mission step itself the
agent plays the best mission order (:func:`plan_missions`, the rule of ``forest guardians
order``: the most missions, then the most points), as the search at a small budget can miss a
long chain.

Deterministic for a seed and an iteration budget: decision ``k`` of a game is searched with
``derive_seed(seed, k)``. A decision with one legal action is not searched. On the reference
engine the same tree is built in Python (hundreds of times slower; for tests).

>>> import solver
>>> opened = solver.game_spec("guardians").open("guardians/order-matters")
>>> agent = mcts_agent(opened.game, seed=1, iterations=50)
>>> opened.state.action_to_string(agent(opened.state))   # the chain first: 2 missions, not 1
'walk green pawn: (1,2) -> (0,2) (0,3)'
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from solver.errors import SearchBudgetError
from solver.rng import derive_seed
from solver.spec import Agent, check_iterations

__all__ = ["DEFAULT_ITERATIONS", "EXPLORATION", "mcts_agent", "plan_missions", "search_options"]

DEFAULT_ITERATIONS = 10_000
"""Simulations per decision: about 0.1-0.3 s a move on the kernel on a loaded machine (the
placements' branching is wide: at 200 the agent scored a median of 40 at solo level 1, at
10 000-20 000 about 60)."""
PLAN_TIME_LIMIT = 2.0
"""Seconds a mission step's CP-SAT solve may take in play (the best plan found by then, never
worse than the first legal order)."""


def plan_missions(state: Any) -> Any:
    """The best mission plan at the mission step, by the ``order`` command's rule
    (:func:`~solver.games.guardians.mission_order.solve_order`, ``auto``): exhaustive search,
    else CP-SAT within its model cap and :data:`PLAN_TIME_LIMIT`, else the first legal order
    (the same plan; without the expectimax over the reveals, which only ``order`` reports: on
    a crafted position it ran 15 s for nothing)."""
    from solver.games.guardians.mission_order import solve_order

    return solve_order(state, time_limit=PLAN_TIME_LIMIT, expected=False).plan


EXPLORATION = 0.05
"""The UCT constant: the heuristic's values lie in [0, 1] and differ by a few hundredths
between good placements."""


def search_options() -> Any:
    """The agent's MCTS configuration: the kernel's heuristic (the planner's evaluation) at the
    leaves, children primed with it, the max backup."""
    from solver.search.options import MCTSOptions

    return MCTSOptions(c=EXPLORATION, evaluator="heuristic", backup="max")


def mcts_agent(game: Any, *, seed: int = 0, iterations: int | None = None) -> Agent:
    """The guardians ``mcts`` agent (see the module docstring)."""
    from solver.search import mcts

    if iterations is None:
        iterations = DEFAULT_ITERATIONS
    check_iterations(iterations)
    counter = itertools.count()
    options = search_options()
    twin = game.search_twin() if hasattr(game, "search_twin") else None

    def horizon(state: Any) -> Any:
        return twin.transfer(state) if twin is not None else HorizonState(state.clone())

    def search(state: Any) -> Any:
        result = mcts(
            horizon(state),
            iterations=iterations,
            seed=derive_seed(seed, next(counter)),
            options=options,
        )
        if result.best_action is None:
            raise SearchBudgetError(f"MCTS found no move in {iterations} iteration(s)")
        return result

    def choose(state: Any) -> int:
        from solver.games.guardians.actions import END_TURN, RESET, TAKE_ONE, TAKE_TWO
        from solver.games.guardians.rules import Phase

        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        if state.phase == Phase.MISSIONS:
            plan = plan_missions(state)
            return int(plan.steps[0].action) if plan.steps else END_TURN
        if state.phase == Phase.GROW and TAKE_ONE in legal:
            return _best_take(state, search, (TAKE_TWO, TAKE_ONE))
        candidates = [a for a in legal if a != RESET]
        if state.phase == Phase.GROW and len(candidates) == 1:
            return int(candidates[0])
        return int(search(state).best_action)

    return choose


def _best_take(state: Any, search: Callable[[Any], Any], takes: tuple[int, int]) -> int:
    """Of the growth options ``takes`` (two tiles, one tile), the one that searches to the
    higher value (the first on a tie): they lead to their gains at different depths (a
    placement at once; the flip, its reveal, then the placement), so each is searched on its
    own."""
    best, best_value = takes[0], -1.0
    for option in takes:
        child = state.child(option)
        value = search(child).value
        if value > best_value:
            best, best_value = option, value
    return best


class HorizonState:
    """A reference state seen as the kernel's search twin sees it: ``end turn`` (unless it ends
    the game) is a terminal node whose returns are the evaluation's heuristic. The Python path
    of the search builds the same tree on it as the compiled loop on the twin."""

    def __init__(self, inner: Any, ended: bool = False) -> None:
        self.inner = inner
        self.ended = ended

    def get_game(self) -> Any:
        return self.inner.get_game()

    def current_player(self) -> int:
        from solver.game import TERMINAL

        return TERMINAL if self.ended else int(self.inner.current_player())

    def is_terminal(self) -> bool:
        return self.ended or bool(self.inner.is_terminal())

    def is_chance_node(self) -> bool:
        return not self.ended and bool(self.inner.is_chance_node())

    def legal_actions(self) -> list[int]:
        return [] if self.ended else list(self.inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [] if self.ended else list(self.inner.chance_outcomes())

    def apply_action(self, action: int) -> None:
        from solver.games.guardians.actions import END_TURN
        from solver.games.guardians.rules import Phase

        turn_end = action == END_TURN and self.inner.phase == Phase.MISSIONS
        self.inner.apply_action(action)
        self.ended = turn_end and not self.inner.is_terminal()

    def clone(self) -> HorizonState:
        return HorizonState(self.inner.clone(), self.ended)

    def returns(self) -> list[float]:
        from solver.games.guardians.evaluation import heuristic

        if not self.ended:
            return list(self.inner.returns())
        return [heuristic(self.inner, p) for p in range(self.inner.game.players)]

    def heuristic(self, player: int) -> float:
        from solver.games.guardians.evaluation import heuristic

        return self.returns()[player] if self.ended else float(heuristic(self.inner, player))

    def action_to_string(self, action: int) -> str:
        return str(self.inner.action_to_string(action))

    def string_to_action(self, label: str) -> int:
        return int(self.inner.string_to_action(label))

    def to_json(self) -> str:
        return str(self.inner.to_json())
