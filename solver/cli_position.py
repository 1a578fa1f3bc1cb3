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

from solver.cmdkit import positive_float_up_to, read_state_text, read_text_file
from solver.errors import FormatError, OptionError, SolverError
from solver.game import State
from solver.spec import GameSpec, Opened

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_MEMORY_MB",
    "game_options",
    "memory_mb",
    "open_position",
    "value_view",
]

DEFAULT_ITERATIONS = 1000
"""``best-move``'s and ``review``'s MCTS simulations a search, where no exact answer fits."""
DEFAULT_MEMORY_MB = 1024.0
"""The exact search's table cap (``--memory-mb``)."""


def memory_mb(text: str) -> float:
    """A memory cap in megabytes (``--memory-mb``, serve's ``--max-memory-mb``): positive and at
    most what a search takes (``solver.search.limit.MAX_MEMORY_MB``), refused by the option's
    name. ``best-move --memory-mb 1e308`` said 'memory_mb must be at most ...', the API's word."""
    from solver.search.limit import MAX_MEMORY_MB

    return positive_float_up_to(MAX_MEMORY_MB)(text)


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
        state_text = _saved_state_text(spec, args, source, state_text)
        state_path, source = source, None
    args.state_given = state_text is not None
    if players is None and state_text is not None and spec.state_players is not None:
        players = spec.state_players(state_text)
    if players is not None and players not in spec.players:
        allowed = ", ".join(str(p) for p in spec.players)
        raise OptionError(f"{spec.name} is played by {allowed} player(s), not {players}")
    try:
        opened = _open(spec, args, source, players)
    except SolverError:
        if source is not None and _looks_saved(source) and ".json" not in spec.extensions:
            raise OptionError(_a_state_as_file(spec, source)) from None
        raise
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
        state=_read_state(spec, args, opened, state_text, state_path),
        source=opened.source,
    )


def _saved_state_text(
    spec: GameSpec, args: argparse.Namespace, source: str, state_text: str | None
) -> str:
    """The text of FILE given as a saved state (a ``.json`` name): refused when it holds the
    game's own file, beside ``--state``, and for a game whose states go with the file they were
    played on (it says how to give both)."""
    text = read_text_file(source, "saved state")
    record = _record_game(text)
    if record is not None:
        raise OptionError(_a_record(source, record))
    if not _looks_saved(source, text) and _game_file(spec, args, source):
        kind = spec.extensions[0]
        raise OptionError(
            f"{source} is a {spec.name} {kind} file, not a saved state (what a .json FILE "
            f"must be): rename it {Path(source).stem}{kind}"
        )
    if state_text is not None:
        raise OptionError(f"{source} is a saved state: give it as FILE or as --state, not both")
    if not spec.default_source:
        raise OptionError(_a_state_as_file(spec, source))
    return text


def _looks_saved(path: str, text: str | None = None) -> bool:
    """Whether the file ``path`` (its ``text`` when read already) holds JSON, as a saved state
    does (``False`` for a file that cannot be read: the caller's error stands)."""
    if text is None:
        try:
            with open(path, "rb") as handle:
                text = handle.read(64).decode("utf-8", "replace")
        except (OSError, ValueError):
            return False
    return text.lstrip().startswith("{")


def _game_file(spec: GameSpec, args: argparse.Namespace, path: str) -> bool:
    """Whether the game's opener reads ``path`` as one of the game's own files."""
    if not spec.extensions or ".json" in spec.extensions:
        return False
    try:
        spec.open(path, engine=args.engine, players=None, **game_options(spec, args))
    except Exception:  # any failure: not a file of the game's
        return False
    return True


def _a_state_as_file(spec: GameSpec, source: str) -> str:
    """The error for a saved state given as FILE where the game wants its own file there."""
    if not spec.extensions:
        return f"{source} is a saved {spec.name} state: give it as --state {source}"
    kind = spec.extensions[0]
    if spec.default_source:
        return (
            f"{source} is a saved {spec.name} state, not a {kind} file: give it as --state "
            f"{source} (or name it .json)"
        )
    return (
        f"{source} is a saved {spec.name} state, not a {kind} file (FILE): give the {kind} file "
        f"it was played on as FILE and --state {source}"
    )


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


def _read_state(
    spec: GameSpec,
    args: argparse.Namespace,
    opened: Opened,
    state_text: str,
    state_path: str | None,
) -> State:
    """The saved state in ``state_text``; an error names ``state_path`` when it came from one
    (and says so when that file is one of the game's own, not a state)."""
    try:
        try:
            return opened.game.state_from_json(state_text)
        except RecursionError:
            raise FormatError("a state nested less deeply", line=1, column=1) from None
    except FormatError as exc:
        record = _record_game(state_text)
        if record is not None:  # the web table's saved game or position, play --record's
            raise OptionError(_a_record(state_path or "--state", record)) from None
        if state_path is None:
            raise
        if not _looks_saved(state_path, state_text) and _game_file(spec, args, state_path):
            kind = spec.extensions[0]
            path = Path(state_path)
            named = f" named {path.stem}{kind}" if path.suffix.lower() == ".json" else ""
            raise OptionError(
                f"{state_path} is a {spec.name} {kind} file, not a saved state (what --state "
                f"takes): give it as FILE{named}"
            ) from None
        raise OptionError(f"{state_path}: {exc}") from None  # the error names the file


def _a_record(where: str, game: str) -> str:
    """The error for a game record given where a saved state goes (FILE or ``--state``)."""
    return (
        f"{where} is a {game} game record (what play --record and the web table's Save buttons "
        "write), not a saved state (a state's JSON, as state.to_json() writes it): "
        f"forest {game} review reads a record"
    )


def _record_game(text: str) -> str | None:
    """The game a game record names (``{"game", "actions", ...}``: ``play --record``'s, the web
    table's saved game or position) when ``text`` is one, else None."""
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if (isinstance(data, dict) and isinstance(data.get("game"), str)
            and isinstance(data.get("actions"), list) and "options" in data):  # fmt: skip
        return str(data["game"])
    return None


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
