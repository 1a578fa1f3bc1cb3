"""Forest guardians (docs/rules/guardians.md): 1-4 players grow forests of colour tiles, walk
animal pawns along colour paths and complete missions without splitting their forest.

``solver.load_game("guardians", players=3)`` starts a fresh game; ``players=1`` is solo at
``level`` (1..6). ``position=`` takes a :class:`Grove`, a ``.grove`` path or a puzzle name
``"guardians/NAME"``: player 0 then holds that forest at the mission step of the first turn.

>>> from solver.games.guardians import SPEC
>>> SPEC.name, SPEC.players
('guardians', (1, 2, 3, 4))
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from solver.errors import OptionError
from solver.games.guardians.grove_model import Grove
from solver.spec import GameSpec

__all__ = ["SPEC", "Grove", "resolve_position"]


def resolve_position(position: Any) -> Grove | None:
    """A :class:`Grove` from a Grove, a ``.grove`` path or a puzzle name ``"guardians/NAME"``."""
    if position is None or isinstance(position, Grove):
        return position
    if isinstance(position, (str, os.PathLike)):
        text = os.fspath(position)
        if isinstance(position, str) and text.startswith("guardians/") and not Path(text).exists():
            from solver import puzzles

            grove: Grove = puzzles.load(text)
            return grove
        from solver.games.guardians.grove import load_grove

        return load_grove(text)
    raise OptionError(
        f"position must be a Grove, a .grove path or a puzzle name, not {type(position).__name__}"
    )


GAME_OPTIONS = ("players", "tiles", "level")
"""The keyword options ``load_game("guardians", ...)`` takes besides ``position`` and ``engine``."""


def game_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` checked: unknown names refused by name; ``tiles`` may be a :class:`TileSet`,
    a tile-set file's path or its JSON form (a dict), read and validated here."""
    unknown = sorted(set(options) - set(GAME_OPTIONS))
    if unknown:
        raise OptionError(
            f"unknown guardians option(s): {', '.join(unknown)} "
            f"(expected {', '.join(GAME_OPTIONS)}, position or engine)"
        )
    tiles = options.get("tiles")
    if tiles is not None:
        from solver.games.guardians.tiles import TileSet, load_tile_set, tile_set_from_dict

        if isinstance(tiles, (str, os.PathLike)):
            options = {**options, "tiles": load_tile_set(tiles)}
        elif isinstance(tiles, dict):
            options = {**options, "tiles": tile_set_from_dict(tiles)}
        elif not isinstance(tiles, TileSet):
            raise OptionError(
                "tiles must be a TileSet, a tile-set file's path or its JSON form, "
                f"not {type(tiles).__name__}"
            )
    return options


def _reference(position: Any = None, **options: Any) -> Any:
    from solver.games.guardians.rules import GuardiansGame

    return GuardiansGame(position=resolve_position(position), **game_options(options))


def _kernel(position: Any = None, **options: Any) -> Any:
    from solver.games.guardians.kernel import KernelGuardiansGame

    return KernelGuardiansGame(position=resolve_position(position), **game_options(options))


def _load_file(path: str) -> Grove:
    from solver.games.guardians.grove import load_grove

    return load_grove(path)


def _spec() -> GameSpec:
    from solver.games.guardians import analysis, hooks

    return GameSpec(
        name="guardians",
        title="forest guardians",
        summary="1-4 players grow tile forests and walk pawns to complete missions",
        players=(1, 2, 3, 4),
        engines={"kernel": _kernel, "reference": _reference},
        open=hooks.open_position,
        open_text=hooks.open_text,
        state_players=hooks.state_players,
        source_option="position",
        extensions=(".grove",),
        load_file=_load_file,
        puzzles="guardians",
        default_source=True,
        value_kind="win probability",
        exact=False,
        agents={"greedy": hooks.greedy, "mcts": hooks.mcts, "planner": hooks.planner},
        render_text=hooks.render_text,
        render_svg=hooks.render_svg,
        legend=hooks.legend,
        puzzle_summary=hooks.puzzle_summary,
        scores=hooks.scores,
        default_engine="kernel",
        add_commands=_add_commands,
        analysis=analysis.analysis_hooks(),
    )


def _add_commands(subparsers: Any) -> None:
    from solver.games.guardians.cli import add_commands

    add_commands(subparsers)


SPEC = _spec()
"""Forest guardians' declaration (see :class:`solver.spec.GameSpec`)."""
