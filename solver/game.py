"""The Game / State protocol every game implements, and the game registry.

The protocol follows OpenSpiel's shape so its users feel at home::

    game = solver.load_game("dog", forest=solver.puzzles.load("dog/tiny-example"))
    state = game.new_initial_state()
    state.current_player()      # 0..n-1, or solver.CHANCE, or solver.TERMINAL
    state.legal_actions()       # list[int], sorted
    state.chance_outcomes()     # list[(action, probability)] at chance nodes
    state.apply_action(a)       # raises solver.IllegalActionError

Each game has a readable pure-Python reference engine and, where speed matters, a compiled
kernel. ``engine="kernel"`` (the default where a kernel exists) or ``engine="reference"`` picks one;
the environment variable ``SOLVER_ENGINE`` sets the default. There is no silent fallback.

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> state = game.new_initial_state()
>>> state.current_player() == solver.CHANCE
True
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from solver.errors import OptionError

CHANCE: int = -1
"""``current_player()`` at a chance node (as in OpenSpiel)."""
TERMINAL: int = -4
"""``current_player()`` once the game is over (as in OpenSpiel)."""

ENGINES = ("kernel", "reference")


@runtime_checkable
class State(Protocol):
    """One position of a game: what a searcher needs, nothing more."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int) -> None: ...
    def clone(self) -> State: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, label: str) -> int: ...
    def to_json(self) -> str: ...


@runtime_checkable
class Game(Protocol):
    """A game with its fixed options (for the dog game: the forest)."""

    name: str
    engine: str

    def new_initial_state(self) -> State: ...
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int: ...
    def state_from_json(self, text: str) -> State: ...


GameFactory = Callable[..., Game]
_REGISTRY: dict[str, dict[str, GameFactory]] = {}


def register_game(name: str, engine: str, factory: GameFactory) -> None:
    """Make ``load_game(name, engine=engine, **options)`` call ``factory(**options)``."""
    if engine not in ENGINES:
        raise OptionError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    _REGISTRY.setdefault(name, {})[engine] = factory


def registered_games() -> list[str]:
    """The names :func:`load_game` accepts.

    >>> "dog" in registered_games()
    True
    """
    _ensure_builtin_games()
    return sorted(_REGISTRY)


def default_engine() -> str:
    """The engine used when none is named: ``$SOLVER_ENGINE``, else ``"kernel"``."""
    engine = os.environ.get("SOLVER_ENGINE", "kernel")
    if engine not in ENGINES:
        raise OptionError(
            f"SOLVER_ENGINE={engine!r} is not an engine; expected one of {', '.join(ENGINES)}"
        )
    return engine


def load_game(name: str, *, engine: str | None = None, **options: Any) -> Game:
    """Build a game by name.

    ``engine`` is ``"kernel"`` (compiled) or ``"reference"`` (pure Python); the default comes from
    ``$SOLVER_ENGINE`` and is otherwise ``"kernel"``.

    >>> game = load_game("dog", forest="dog/tiny-example", engine="reference")
    >>> game.engine, game.num_players()
    ('reference', 1)
    """
    _ensure_builtin_games()
    if name not in _REGISTRY:
        raise OptionError(f"unknown game {name!r}; expected one of {', '.join(sorted(_REGISTRY))}")
    engine = engine if engine is not None else default_engine()
    engines = _REGISTRY[name]
    if engine not in engines:
        raise OptionError(
            f"game {name!r} has no {engine!r} engine; available: {', '.join(sorted(engines))}"
        )
    return engines[engine](**options)


def _ensure_builtin_games() -> None:
    # Importing the game packages registers them; done lazily to keep `import solver` light.
    import solver.games.dog  # noqa: F401
