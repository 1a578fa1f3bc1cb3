"""forest-solver: play, solve and analyse three forest games.

The public namespace::

    import solver
    game = solver.load_game("dog", forest="dog/tiny-example")
    state = game.new_initial_state()

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> game.new_initial_state().current_player() == solver.CHANCE
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver import puzzles
from solver._version import __version__
from solver.errors import (
    ExtensionMissingError,
    ForestError,
    FormatError,
    IllegalActionError,
    OptionError,
    SolverError,
)
from solver.game import CHANCE, TERMINAL, Game, State, require_state
from solver.kernels import get_include
from solver.registry import game_spec, load_game, registered_games
from solver.spec import GameSpec

if TYPE_CHECKING:
    from solver.search.result import SearchResult


def _registered_spec(state: State) -> GameSpec | None:
    """The spec of ``state``'s game when it is a registered one (else None). Anything that is
    no game state is refused here (an ``OptionError``, not an ``AttributeError`` from inside a
    search)."""
    require_state(state)
    get_game = getattr(state, "get_game", None)
    name = getattr(get_game(), "name", None) if callable(get_game) else None
    if not isinstance(name, str) or name not in registered_games():
        return None
    return game_spec(name)


def _searched_spec(function: str, state: State, keywords: dict[str, Any]) -> GameSpec | None:
    """The spec of ``state``'s game when it declares hidden information (else None), after
    refusing ``exact=True`` for a game whose spec offers no exact search (``GameSpec.exact``
    false), by the game's name, as ``forest GAME best-move --exact`` and a hint request refuse
    it: the searchers' own refusal speaks of the compiled table's buffers."""
    spec = _registered_spec(state)
    if spec is None:
        return None
    if keywords.get("exact") is True and (not spec.exact or spec.hidden_information):
        hidden = " (it hides information: an exact search would read every hidden card)"
        raise OptionError(
            f"{function}(): {spec.name} has no exact search"
            f"{hidden if spec.hidden_information else ''}: its values are estimates; call it "
            "without exact=True"
        )
    return spec if spec.hidden_information else None


def best_move(state: State, **keywords: Any) -> SearchResult:
    """The best move at a decision node (see :func:`solver.search.best_move`).

    MCTS with the strong configuration (what the ``mcts`` agent plays) within a budget, or exact
    expectimax with ``exact=True``. A game that declares hidden information
    (``GameSpec.hidden_information``) is searched with ISMCTS from the information state of the
    player to move, in the game's declared configuration (``GameSpec.ismcts_options``), as
    ``forest GAME best-move`` searches it (:func:`solver.search.hidden_best_move`).

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    >>> state = game.new_initial_state()
    >>> state.apply_action(11)                      # roll: 2 steps
    >>> solver.best_move(state, exact=True).value
    1.0
    """
    from solver.search import best_move as search_best_move
    from solver.search import hidden_best_move

    spec = _searched_spec("best_move", state, keywords)
    if spec is not None:
        return hidden_best_move(state, configure=spec.ismcts_options, **keywords)
    return search_best_move(state, **keywords)


def evaluate(state: State, **keywords: Any) -> float:
    """The win probability from ``state`` (see :func:`solver.search.evaluate`); a game that
    declares hidden information: ISMCTS's estimate from player 0's information state
    (:func:`solver.search.hidden_evaluate`, the game's ``GameSpec.ismcts_options``).

    >>> import solver
    >>> game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    >>> round(solver.evaluate(game.new_initial_state(), exact=True), 4)
    0.6667
    """
    from solver.search import evaluate as search_evaluate
    from solver.search import hidden_evaluate

    spec = _searched_spec("evaluate", state, keywords)
    if spec is not None:
        return hidden_evaluate(state, configure=spec.ismcts_options, **keywords)
    return search_evaluate(state, **keywords)


__all__ = [
    "CHANCE",
    "TERMINAL",
    "ExtensionMissingError",
    "ForestError",
    "FormatError",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "OptionError",
    "SolverError",
    "State",
    "__version__",
    "best_move",
    "evaluate",
    "game_spec",
    "get_include",
    "load_game",
    "puzzles",
    "registered_games",
]
