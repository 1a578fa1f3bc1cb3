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


@pytest.mark.parametrize("name", NO_EXACT)
def test_the_reference_engine_s_whole_game_is_refused_as_the_kernel_s(name: str) -> None:
    # Found by attack: expectimax(a guardians reference state) searched the whole game in
    # Python, unbounded (1 GB in 331 s before the memory cap said no), while its kernel twin
    # was refused at once. The Trial's hidden cards are read on purpose: clairvoyant=True.
    state = solver.load_game(name, engine="reference").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for kwargs in ({}, {"adversarial": True}, {"seconds": 60.0}):  # a small table: no hang
        with pytest.raises(OptionError, match=f"^{name} has no exact search.*depth-limited"):
            expectimax(state, clairvoyant=True, memory_mb=1.0, **kwargs)  # type: ignore[arg-type]
    bounded = expectimax(state, exact=False, depth=1, clairvoyant=True)
    assert bounded.extra["engine"] == "python" and bounded.moves
