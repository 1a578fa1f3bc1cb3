"""Searchers over the game protocol: MCTS and expectimax, one result type.

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
from solver.search.expectimax import Solution, expectimax, solve
from solver.search.mcts import MCTS, MCTSTree, mcts
from solver.search.api import best_move, evaluate

__all__ = [
    "MCTS",
    "MCTSTree",
    "MoveInfo",
    "SearchResult",
    "Solution",
    "best_move",
    "evaluate",
    "expectimax",
    "mcts",
    "solve",
]
