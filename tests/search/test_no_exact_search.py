"""``exact=True`` for a game whose spec offers no exact search is refused by the game's name,
as ``forest GAME best-move --exact`` refuses it, never with the compiled table's buffer sizes
("max_actions 4097 exceeds KERNEL_MAX_ACTIONS 64") first.

The independent fact: the game's spec (``GameSpec.exact`` false) says there is none."""

from __future__ import annotations

from typing import Any

import pytest

import solver
from solver.errors import OptionError
from solver.search import expectimax

pytestmark = pytest.mark.usefixtures("require_kernels")

NO_EXACT = [name for name in solver.registered_games() if not solver.game_spec(name).exact]


def _first_decision(name: str) -> Any:
    state = solver.load_game(name).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_the_games_without_exact_search_are_the_spec_s() -> None:
    assert {"guardians", "trial"} <= set(NO_EXACT)
    assert solver.game_spec("dog").exact


@pytest.mark.parametrize("name", NO_EXACT)
@pytest.mark.parametrize("call", [solver.evaluate, solver.best_move], ids=["evaluate", "best"])
def test_the_api_refuses_naming_the_game(name: str, call: Any) -> None:
    with pytest.raises(OptionError) as caught:
        call(_first_decision(name), exact=True)
    message = str(caught.value)
    assert message.startswith(f"{call.__name__}(): {name} has no exact search"), message
    assert "KERNEL_MAX_ACTIONS" not in message


def test_the_searcher_s_own_refusal_names_the_game_first() -> None:
    with pytest.raises(OptionError) as caught:
        expectimax(_first_decision("guardians"))
    assert str(caught.value).startswith("guardians has no exact search"), caught.value
