"""Every searcher's entry refuses a position that is no game state by name (an ``OptionError``:
"the position must be a game state (game.new_initial_state()), not KernelDogGame"), as
``solver.best_move`` did; the searchers of ``solver.search`` raised ``AttributeError`` from
inside ('KernelDogGame' object has no attribute 'current_player'). Found by attack: passing the
``Game`` for its ``new_initial_state()`` is the likeliest slip."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import solver
from solver import search
from solver.errors import OptionError
from solver.search import ismcts as ismcts_module

CALLS: dict[str, Callable[[Any], object]] = {
    "mcts": lambda x: search.mcts(x, iterations=5),
    "MCTSTree.search": lambda x: search.MCTSTree().search(x, iterations=5),
    "expectimax": lambda x: search.expectimax(x),
    "solve": lambda x: search.solve(x),
    "ismcts": lambda x: ismcts_module.ismcts(x, iterations=5),
    "search_position": lambda x: search.search_position(x),
    "search.best_move": lambda x: search.best_move(x, iterations=5),
    "search.evaluate": lambda x: search.evaluate(x, iterations=5),
    "hidden_best_move": lambda x: search.hidden_best_move(x, iterations=5),
    "hidden_evaluate": lambda x: search.hidden_evaluate(x, iterations=5),
    "solver.best_move": lambda x: solver.best_move(x, iterations=5),
}


@pytest.mark.parametrize("call", list(CALLS.values()), ids=list(CALLS))
@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_game_or_none_for_the_state_is_refused_by_name(call, engine: str) -> None:
    game = solver.load_game("dog", forest="dog/stick", engine=engine)
    for wrong in (game, None, '{"pos": [1, 2]}'):
        with pytest.raises(OptionError, match=r"must be a game state .*not (\w+)$"):
            call(wrong)
