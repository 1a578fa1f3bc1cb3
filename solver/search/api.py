"""One-call answers: the best move in a state and the win probability from a state.

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
>>> state = game.new_initial_state()
>>> round(solver.evaluate(state, exact=True), 4)
0.6667
>>> state.apply_action(11)                      # roll: 2 steps
>>> solver.best_move(state, exact=True).best_label in ("N", "E", "S", "W")
True
"""

from __future__ import annotations

from typing import Any

from solver.errors import OptionError
from solver.search.expectimax import expectimax
from solver.search.mcts import mcts
from solver.search.result import SearchResult

DEFAULT_ITERATIONS = 1000


def best_move(
    state: Any,
    *,
    exact: bool = False,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    **options: Any,
) -> SearchResult:
    """The best move at a decision node: exact expectimax, or MCTS within the budget.

    Without a budget MCTS runs ``DEFAULT_ITERATIONS`` iterations. Extra ``options`` go to the
    searcher (:func:`solver.search.mcts` or :func:`solver.search.expectimax`).
    """
    if state.is_terminal():
        raise OptionError("the game is over: there is no move to choose")
    if state.is_chance_node():
        raise OptionError(
            "this is a chance node (the dice roll next): a best move exists only at a decision node"
        )
    if exact:
        return expectimax(state, exact=True, seed=seed, **options)
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    return mcts(state, iterations=iterations, seconds=seconds, seed=seed, **options)


def evaluate(
    state: Any,
    *,
    exact: bool = False,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    **options: Any,
) -> float:
    """The win probability (expected return of player 0) from ``state``.

    Exact mode solves the game with expectimax. Otherwise MCTS estimates it at decision nodes;
    at a chance node the estimate is the probability-weighted mean over the outcomes.
    """
    if state.is_terminal():
        return float(state.returns()[0])
    if exact:
        return float(expectimax(state, exact=True, seed=seed, **options).value)
    if state.is_chance_node():
        total = 0.0
        for index, (action, probability) in enumerate(state.chance_outcomes()):
            child = state.clone()
            child.apply_action(action)
            total += probability * evaluate(
                child, iterations=iterations, seconds=seconds, seed=seed + index, **options
            )
        return total
    return float(
        best_move(state, iterations=iterations, seconds=seconds, seed=seed, **options).value
    )
