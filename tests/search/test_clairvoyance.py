"""``mcts()``, ``expectimax()`` and ``solve()`` on a state that hides information refuse, naming
ISMCTS, unless asked for the clairvoyant value by ``clairvoyant=True``.

Plain searches read the whole state, every hidden card included; ``solver.best_move`` searches
the same game with ISMCTS. The independent check of the opt-in: with ``clairvoyant=True`` the
answer is the one the search gives when the hidden cards are dealt openly, that is a state with
the same cards but no ``resample_hidden`` (a wrapper hiding it): the refusal changes no value.
"""

from __future__ import annotations

from typing import Any

import pytest

import solver
from solver.errors import OptionError
from solver.rng import SplitMix64
from solver.search import expectimax, mcts, solve
from solver.testing import uniform_action

pytestmark = pytest.mark.usefixtures("require_kernels")


def _midgame() -> Any:
    state = solver.load_game("trial", players=2, engine="reference").new_initial_state()
    rng = SplitMix64(5)
    for _ in range(120):
        state.apply_action(uniform_action(state, rng))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_terminal()
    return state


class _Open:
    """``state`` with its hidden cards in the open: everything but ``resample_hidden``."""

    def __init__(self, state: Any) -> None:
        self._state = state

    def __getattr__(self, name: str) -> Any:
        if name == "resample_hidden":
            raise AttributeError(name)
        return getattr(self._state, name)

    def clone(self) -> _Open:
        return _Open(self._state.clone())


@pytest.mark.parametrize(
    "search",
    [
        lambda s, **k: mcts(s, iterations=50, **k),
        lambda s, **k: expectimax(s, exact=False, depth=1, **k),
        lambda s, **k: solve(s, exact=False, depth=1, **k),
    ],
    ids=["mcts", "expectimax", "solve"],
)
def test_a_hidden_information_state_is_refused_naming_ismcts(search) -> None:
    state = _midgame()
    with pytest.raises(OptionError, match=r"hides information.*ISMCTS.*clairvoyant=True"):
        search(state)
    with pytest.raises(OptionError, match="clairvoyant must be True or False"):
        search(state, clairvoyant="yes")


def test_clairvoyant_true_is_the_open_deal_search() -> None:
    state = _midgame()
    opened = mcts(_Open(state), iterations=60, seed=2)
    asked = mcts(state, iterations=60, seed=2, clairvoyant=True)
    assert asked.best_action == opened.best_action
    assert [m.visits for m in asked.moves] == [m.visits for m in opened.moves]


def test_a_perfect_information_state_needs_no_opt_in() -> None:
    game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    state = game.new_initial_state()
    state.apply_action(11)
    assert mcts(state, iterations=30).iterations == 30
    assert expectimax(state).exact
