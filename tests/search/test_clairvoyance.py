"""``mcts()``, ``expectimax()`` and ``solve()`` on a state that hides information refuse, naming
ISMCTS, unless asked for the clairvoyant value by ``clairvoyant=True``.

Plain searches read the whole state, every hidden card included; ``solver.best_move`` searches
the same game with ISMCTS. The independent check of the opt-in: with ``clairvoyant=True`` the
answer is the one the search gives when the hidden cards are dealt openly, that is a state with
the same cards whose game declares no hidden information (a wrapper): the refusal changes no
value. The declaration (``GameSpec.hidden_information``) is what is read, not the state's methods.
"""

from __future__ import annotations

import dataclasses
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


class _OpenGame:
    """The Trial played with open hands: a game no spec declares (so it hides nothing)."""

    name = "open-trial"

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class _Open:
    """``state`` with its hidden cards in the open: its game declares no hidden information, and
    it has no ``resample_hidden``."""

    def __init__(self, state: Any) -> None:
        self._state = state

    def __getattr__(self, name: str) -> Any:
        if name in ("resample_hidden", "game"):
            raise AttributeError(name)
        return getattr(self._state, name)

    def get_game(self) -> _OpenGame:
        return _OpenGame(self._state.get_game())

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


def test_the_declaration_decides_not_the_states_methods(monkeypatch) -> None:
    """Whether a state hides information is its game's declaration: a Trial state without
    ``resample_hidden`` is still refused, and one of a game declared without hidden information
    is searched even with it. ``has_hidden_information`` read ``resample_hidden`` on the state."""
    from solver import registry
    from solver.search.clairvoyance import has_hidden_information

    state = _midgame()

    class Stripped(_Open):  # the Trial's own game, only resample_hidden hidden
        def get_game(self) -> Any:
            return self._state.get_game()

    assert not hasattr(Stripped(state), "resample_hidden")
    assert has_hidden_information(Stripped(state))
    with pytest.raises(OptionError, match="hides information"):
        mcts(Stripped(state), iterations=10)
    spec = registry.game_spec("trial")
    monkeypatch.setitem(
        registry._SPECS, "trial", dataclasses.replace(spec, hidden_information=False)
    )
    assert hasattr(state, "resample_hidden") and not has_hidden_information(state)
    assert mcts(state, iterations=10, seed=2).iterations == 10
