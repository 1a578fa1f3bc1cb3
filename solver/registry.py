"""The game registry: built-in games, games from other distributions, and ``load_game``.

Games are found in two places, both read lazily on first use:

- the built-in list :data:`solver.games.BUILTIN_GAMES` (``"package:SPEC"`` strings);
- the entry-point group ``forest_solver.games``: another distribution declares
  ``[project.entry-points."forest_solver.games"] mygame = "mypackage:SPEC"`` and its game appears
  in ``forest games``, ``load_game`` and every generic command (``docs/adding-a-game.md``).

An entry point may name a :class:`~solver.spec.GameSpec` or a callable returning one. A broken
entry point does not break the other games: asking for it raises an
:class:`~solver.errors.OptionError` that names the entry point and what went wrong.

>>> import solver
>>> "dog" in solver.registered_games()
True
>>> solver.load_game("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.OptionError: unknown game 'chess'; expected one of dog...
"""

from __future__ import annotations

import importlib
import os
import threading
from importlib.metadata import entry_points
from typing import Any

from solver import option_values
from solver.errors import OptionError, shortened
from solver.spec import ENGINES, GameSpec

__all__ = [
    "ENGINES",
    "ENTRY_POINT_GROUP",
    "declare",
    "default_engine",
    "default_players",
    "game_spec",
    "game_specs",
    "load_game",
    "plugin_packages",
    "register",
    "registered_games",
    "spec_of_game",
]

ENTRY_POINT_GROUP = "forest_solver.games"

_LOCK = threading.Lock()
_SPECS: dict[str, GameSpec] = {}
_BROKEN: dict[str, str] = {}
_LOADED = False
_DECLARED: dict[str, GameSpec] = {}
"""Specs declared for the searchers only (:func:`declare`), not registered as games."""
_ORIGINS: dict[str, str] = {}
"""An entry-point game's name -> the module its entry point names (``pebbles_game``)."""


def register(spec: GameSpec) -> None:
    """Add ``spec`` to the registry (replacing a game of the same name)."""
    if not isinstance(spec, GameSpec):
        raise OptionError(f"register() takes a GameSpec, not {type(spec).__name__}")
    _SPECS[spec.name] = spec
    _BROKEN.pop(spec.name, None)


def _resolve(target: str) -> Any:
    module, _, attribute = target.partition(":")
    value: Any = importlib.import_module(module)
    for part in attribute.split(".") if attribute else ():
        value = getattr(value, part)
    return value


def _as_spec(value: Any, where: str) -> GameSpec:
    if callable(value) and not isinstance(value, GameSpec):
        value = value()
    if not isinstance(value, GameSpec):
        raise OptionError(f"{where} is not a GameSpec (found {type(value).__name__})")
    return value


def _load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    with _LOCK:
        if _LOADED:
            return
        from solver.games import BUILTIN_GAMES

        for target in BUILTIN_GAMES:
            spec = _as_spec(_resolve(target), target)
            _SPECS.setdefault(spec.name, spec)
        for point in entry_points(group=ENTRY_POINT_GROUP):
            if point.name in _SPECS:
                continue  # a built-in (or an explicitly registered) game wins
            try:
                spec = _as_spec(point.load(), f"entry point {point.name!r} ({point.value})")
            except Exception as exc:  # a third party's bug must not break the other games
                _BROKEN[point.name] = f"{type(exc).__name__}: {exc}"
                continue
            if spec.name != point.name:
                _BROKEN[point.name] = f"its spec is named {spec.name!r}"
                continue
            _SPECS[spec.name] = spec
            _ORIGINS[spec.name] = point.value.partition(":")[0]
        _LOADED = True


def _modules(value: Any) -> list[str]:
    """The modules a spec field's value comes from: a ``"module:attribute"`` reference, a
    :class:`~solver.spec.LazyCallable`, a callable's or an object's ``__module__`` (a mapping:
    its values')."""
    if isinstance(value, str):
        module, colon, attribute = value.partition(":")
        named = colon and all(part.isidentifier() for part in module.split("."))
        return [module] if named and attribute.replace(".", "_").isidentifier() else []
    if isinstance(value, dict):
        return [m for item in value.values() for m in _modules(item)]
    reference = getattr(value, "reference", None)
    if isinstance(reference, str):
        return _modules(reference)
    factory = getattr(value, "factory", None)  # an AgentSpec
    if factory is not None:
        return _modules(factory)
    origin = getattr(value, "__module__", None)
    return [origin] if callable(value) and isinstance(origin, str) else []


def plugin_packages() -> dict[str, str]:
    """The top-level packages of the games registered so far that are not forest-solver's own
    (plug-ins from an entry point or :func:`register`): package -> game name. Nothing is loaded
    to answer (an error report asks it: the games a run met are registered already)."""
    found: dict[str, str] = {}
    for name, spec in list(_SPECS.items()):
        modules = [_ORIGINS.get(name, "")] + [
            m for value in list(vars(spec).values()) for m in _modules(value)
        ]
        for module in modules:
            top = module.partition(".")[0]
            if top and top != "solver":
                found.setdefault(top, name)
    return found


def registered_games() -> list[str]:
    """The names :func:`load_game` accepts, sorted.

    >>> "dog" in registered_games()
    True
    """
    _load_all()
    return sorted(_SPECS)


def game_specs() -> list[GameSpec]:
    """Every registered game's spec, sorted by name."""
    _load_all()
    return [_SPECS[name] for name in sorted(_SPECS)]


def game_spec(name: str) -> GameSpec:
    """The spec of game ``name``; an :class:`OptionError` for an unknown or broken game."""
    _load_all()
    if not isinstance(name, str):
        raise OptionError(f"a game name is a string, not {type(name).__name__}")
    if name in _SPECS:
        return _SPECS[name]
    if name in _BROKEN:
        raise OptionError(
            f"game {name!r} (entry point of group {ENTRY_POINT_GROUP}) failed to load: "
            f"{_BROKEN[name]}"
        )
    raise OptionError(f"unknown game {name!r}; expected one of {', '.join(sorted(_SPECS))}")


def declare(spec: GameSpec) -> None:
    """Make ``spec`` the declaration :func:`spec_of_game` finds for games of its name without
    registering the game (no ``load_game``, no listing): a game played through another
    library's registry (OpenSpiel's ``register_spec``) whose states this library searches. A
    registered game of the same name keeps its own spec."""
    if not isinstance(spec, GameSpec):
        raise OptionError(f"declare() takes a GameSpec, not {type(spec).__name__}")
    _DECLARED[spec.name] = spec


def spec_of_game(game: Any) -> GameSpec | None:
    """The spec registered under ``game``'s name (``game.name``, as :func:`game_spec` finds it),
    else the one :func:`declare` made; ``None`` for an object with no name or a name no spec
    declares (a test's toy game)."""
    name = getattr(game, "name", None)
    if not isinstance(name, str):
        return None
    _load_all()
    return _SPECS.get(name) or _DECLARED.get(name)


def default_engine(spec: GameSpec | None = None) -> str:
    """The engine used when none is named: ``$SOLVER_ENGINE``, else the game's default.

    A game that lacks the engine ``$SOLVER_ENGINE`` names uses its own default (a game with only
    a reference engine still loads under ``SOLVER_ENGINE=kernel``); a value that is no engine of
    any game is an error (:meth:`GameSpec.chosen_engine`).
    """
    known = [e for s in _SPECS.values() for e in s.engines]
    if spec is not None:
        return spec.chosen_engine(known=known)
    wanted = os.environ.get("SOLVER_ENGINE")
    if wanted is not None and wanted not in (*ENGINES, *known):
        raise OptionError(
            f"SOLVER_ENGINE={shortened(wanted)!r} is not an engine; expected one of "
            f"{', '.join(ENGINES)}"
        )
    return "kernel" if wanted is None else wanted


_DEFAULT_PLAYERS: dict[GameSpec, int] = {}
"""Each spec's own count, once read (keyed by the spec itself, not its name: a game declared
again under the same name, :func:`declare`, opens with its own opener)."""


def default_players(spec: GameSpec) -> int:
    """The game's own player count: the one ``load_game(NAME)``, ``forest NAME play``, a hint
    request without ``options.players``, the OpenSpiel bridge and the web table start it with,
    not the smallest it allows (docs/hint-engine.md lists each game's). The spec declares only the
    counts it allows; the default is its opener's when none is asked, read once per game from
    its default set-up (its :attr:`~solver.spec.GameSpec.example` where it names one)."""
    if len(spec.players) == 1:
        return spec.players[0]
    if spec not in _DEFAULT_PLAYERS:
        opened = spec.open(spec.example, players=None)
        _DEFAULT_PLAYERS[spec] = int(opened.game.num_players())
    return _DEFAULT_PLAYERS[spec]


def load_game(name: str, *, engine: str | None = None, **options: Any) -> Any:
    """Build game ``name`` with ``options`` (for the dog game: ``forest=``).

    ``engine`` is ``"kernel"`` (compiled) or ``"reference"`` (pure Python); the default comes from
    ``$SOLVER_ENGINE`` and is otherwise the game's default (``"kernel"`` where there is one). There
    is no silent fallback: asking for an engine the game lacks is an error.

    Without ``players`` a game has the player count its command line and hint requests start
    with: the dog 1, guardians 2 (1 where a ``level`` is given: levels are solo only, or for a
    solo position; docs/rules/guardians.md §7), the Trial 4. A value of the wrong JSON type for
    one of the game's declared options (``level=[3]``) is refused naming the option and what it
    takes (:func:`solver.option_values.value_refusal`); every refusal is a
    :class:`~solver.errors.SolverError`.

    >>> game = load_game("dog", forest="dog/tiny-example", engine="reference")
    >>> game.engine, game.num_players()
    ('reference', 1)
    """
    spec = game_spec(name)
    for option, value in options.items():  # a wrong JSON type named first (level=[3])
        if option in spec.options:
            refused = option_values.value_refusal(spec, option, value, option, api=True)
            if refused is not None:
                raise OptionError(refused)
    return spec.build(engine=engine if engine is not None else default_engine(spec), **options)
