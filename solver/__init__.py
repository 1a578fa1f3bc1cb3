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

from solver import puzzles
from solver.errors import (
    ExtensionMissingError,
    FormatError,
    ForestError,
    IllegalActionError,
    OptionError,
    SolverError,
)
from solver.game import CHANCE, TERMINAL, Game, State, load_game, registered_games

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ExtensionMissingError",
    "ForestError",
    "FormatError",
    "Game",
    "IllegalActionError",
    "OptionError",
    "SolverError",
    "State",
    "__version__",
    "load_game",
    "puzzles",
    "registered_games",
]
