"""Opening the position a command names: FILE, ``--engine``, ``--players``, ``--state``.

Shared by the commands every game gets (:mod:`solver.cli_game`, :mod:`solver.cli_search`,
:mod:`solver.cli_human`), so each reads a game's file, a puzzle name or a saved state the same
way, and refuses the same mistakes with the same one-line errors.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from solver.cmdkit import read_state_text, read_text_file
from solver.errors import FormatError, OptionError
from solver.game import State
from solver.spec import GameSpec, Opened

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_MEMORY_MB",
    "game_options",
    "open_position",
    "value_view",
]

DEFAULT_ITERATIONS = 1000
"""``best-move``'s and ``review``'s MCTS simulations a search, where no exact answer fits."""
DEFAULT_MEMORY_MB = 1024.0
"""The exact search's table cap (``--memory-mb``)."""


# -- opening a position ----------------------------------------------------------------------------
def _saved_state_file(spec: GameSpec, source: str | None) -> bool:
    """Whether FILE names a saved state (``.json``, as ``state.to_json()`` writes) rather than
    one of the game's own files."""
    if source is None or Path(source).suffix.lower() != ".json" or ".json" in spec.extensions:
        return False
    try:
        return Path(source).is_file()
    except OSError:  # a folder on the way that cannot be searched: reading it will say so
        return True


def open_position(spec: GameSpec, args: argparse.Namespace) -> Opened:
    """The game and position the command's FILE, ``--engine``, ``--players`` and ``--state`` say.

    A FILE that is a saved state (``.json``) is read as ``--state FILE`` in the game's default
    set-up where the game has one (a state holds the whole position); a game whose states need
    its file (the dog's forest) refuses it, saying how to give both. ``args.state_given`` tells
    the drawing commands that the position is a saved state, not a file's set-up.
    """
    players = getattr(args, "players", None)
    source = getattr(args, "file", None)
    state_text = read_state_text(args.state) if getattr(args, "state", None) else None
    named = state_text is not None and not args.state.lstrip().startswith("{")
    state_path = args.state if named else None  # --state names a file (not JSON text)
    if _saved_state_file(spec, source):
        assert source is not None
        state_text = _saved_state_text(spec, source, state_text)
        state_path, source = source, None
    args.state_given = state_text is not None
    if players is None and state_text is not None and spec.state_players is not None:
        players = spec.state_players(state_text)
    if players is not None and players not in spec.players:
        allowed = ", ".join(str(p) for p in spec.players)
        raise OptionError(f"{spec.name} is played by {allowed} player(s), not {players}")
    opened = _open(spec, args, source, players)
    if players is not None and opened.game.num_players() != players:
        # a file that fixes its own player count (a saved state) never silently overrides
        raise OptionError(
            f"{opened.source} is a game of {opened.game.num_players()} player(s), not the "
            f"{players} --players asks for"
        )
    if state_text is None:
        return opened
    return Opened(
        game=opened.game,
        state=_read_state(opened, state_text, state_path),
        source=opened.source,
    )


def _saved_state_text(spec: GameSpec, source: str, state_text: str | None) -> str:
    """The text of FILE given as a saved state: refused beside ``--state``, and for a game whose
    states go with the file they were played on (it says how to give both)."""
    if state_text is not None:
        raise OptionError(f"{source} is a saved state: give it as FILE or as --state, not both")
    if not spec.default_source:
        kind = spec.extensions[0] if spec.extensions else "game"
        raise OptionError(
            f"{source} is a saved state, not a {kind} file: a {spec.name} state goes with "
            f"the {kind} file it was played on: give that file and --state {source}"
        )
    return read_text_file(source, "saved state")


def _open(
    spec: GameSpec, args: argparse.Namespace, source: str | None, players: int | None
) -> Opened:
    """The game's opener on FILE (or the default set-up); a file it cannot read is named."""
    try:
        return spec.open(source, engine=args.engine, players=players, **game_options(spec, args))
    except FormatError as exc:  # a parse error names the file it is about
        if source is None or source in str(exc) or not os.path.isfile(source):
            raise
        raise OptionError(f"{source}: {exc}") from None
    except UnicodeDecodeError as exc:  # a game's opener reading a file that is not text
        raise OptionError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    except RecursionError:
        raise OptionError(f"{source}: nested too deeply to read") from None
    except OSError as exc:  # a plug-in's opener reading a FILE that is missing, a folder...
        if source is None or exc.filename is None:
            raise
        raise OptionError(f"{source}: {exc.strerror or exc}") from None


def _read_state(opened: Opened, state_text: str, state_path: str | None) -> State:
    """The saved state in ``state_text``; an error names ``state_path`` when it came from one."""
    try:
        try:
            return opened.game.state_from_json(state_text)
        except RecursionError:
            raise FormatError("a state nested less deeply", line=1, column=1) from None
    except FormatError as exc:
        if state_path is None:
            raise
        raise OptionError(f"{state_path}: {exc}") from None  # the error names the file


def game_options(spec: GameSpec, args: argparse.Namespace) -> dict[str, Any]:
    """``--option NAME=VALUE`` as the opener's keywords: only the names the game declares; a
    VALUE that reads as JSON (``3``, ``true``, ``[1, 2]``) is that value, else the text."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        name, equals, value = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise OptionError(f"--option takes NAME=VALUE, not {item!r}")
        if name not in spec.options:
            known = ", ".join(spec.options) or "none"
            raise OptionError(f"{spec.name} has no option {name!r} (its options: {known})")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


def _hides(game: Any) -> bool:
    """Whether ``game`` declares hidden information (its spec's ``hidden_information``)."""
    from solver.registry import game_spec

    return game_spec(game.name).hidden_information


def value_view(opened: Opened, player: int | None) -> int:
    """The player whose view the values are given from (``--player``; default: the one to move)."""
    state = opened.state
    to_move = state.current_player()
    if player is None:
        return to_move if to_move >= 0 else 0
    n = opened.game.num_players()
    if not 0 <= player < n:
        raise OptionError(f"--player must be a seat from 0 to {n - 1}, not {player}")
    if to_move >= 0 and player != to_move and not _hides(opened.game):
        raise OptionError(
            f"player {player} is not to move (player {to_move} is): a best move is for the "
            "player to move"
        )
    return player
