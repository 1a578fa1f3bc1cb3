"""Searchers over the game protocol (MCTS, ISMCTS, expectimax): one budget type, one result type.

The budget is a :class:`Limit`, the options :class:`MCTSOptions` / :class:`ExpectimaxOptions`
(or the same names as keywords); leaves are valued by evaluator objects
(:mod:`solver.search.evaluators`). ``docs/search.md`` describes the algorithms and options.

>>> import solver
>>> from solver.search import mcts
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> state = game.new_initial_state()
>>> state.apply_action(11)                      # roll: 2 steps
>>> result = mcts(state, iterations=200, seed=3)
>>> result.iterations, result.best_label in ("N", "E", "W")
(200, True)
"""

from solver.search.result import MoveInfo, SearchResult  # noqa: I001  (result first)
from solver.search.limit import Limit
from solver.search.evaluators import (
    Evaluator,
    GuidedEvaluator,
    HeuristicEvaluator,
    MixedEvaluator,
    PlayoutEvaluator,
    RolloutEvaluator,
)
from solver.search.options import ExpectimaxOptions, MCTSOptions
from solver.search.expectimax import Solution, expectimax, solve
from solver.search.mcts import MCTS, MCTSTree, mcts, strong_mcts_options
from solver.search.answers import best_move, evaluate, hidden_best_move, hidden_evaluate
from solver.search.auto import ExactPlan, Valued, plan_exact, search_position

__all__ = [
    "MCTS",
    "Evaluator",
    "ExactPlan",
    "ExpectimaxOptions",
    "GuidedEvaluator",
    "HeuristicEvaluator",
    "Limit",
    "MCTSOptions",
    "MCTSTree",
    "MixedEvaluator",
    "MoveInfo",
    "PlayoutEvaluator",
    "RolloutEvaluator",
    "SearchResult",
    "Solution",
    "Valued",
    "best_move",
    "evaluate",
    "expectimax",
    "hidden_best_move",
    "hidden_evaluate",
    "mcts",
    "plan_exact",
    "search_position",
    "solve",
    "strong_mcts_options",
]
