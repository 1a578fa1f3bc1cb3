"""The built-in games: one package per game, each a plug-in declaring itself with a ``SPEC``.

This module only lists them (as ``"package:attribute"`` strings, imported lazily by
:mod:`solver.registry`); it imports nothing, so there is no import cycle between the registry and
the games. Games shipped by other distributions register through the ``forest_solver.games``
entry-point group instead (see ``docs/adding-a-game.md``).
"""

BUILTIN_GAMES: tuple[str, ...] = (
    "solver.games.dog:SPEC",
    "solver.games.guardians:SPEC",
    "solver.games.trial:SPEC",
)
"""Where each built-in game's :class:`~solver.spec.GameSpec` lives."""
