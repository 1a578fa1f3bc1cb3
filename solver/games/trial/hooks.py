"""The Trial's hooks for the shared machinery: opening a game, its saved states, its scores.

``open(None)`` is the default game (the shipped content pack, 4 players); a source may be a
content-pack folder (a user's own pack) or a saved state (``.json`` written by ``to_json``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from solver.errors import FormatError, OptionError, path_said
from solver.spec import Opened


def open_trial(
    source: str | None, *, engine: str | None = None, players: int | None = None
) -> Opened:
    """The Trial from ``source`` (``None``: the shipped pack), for ``players`` (default 4)."""
    from solver.games.trial import SPEC

    count = 4 if players is None else players
    if source is None:
        game = SPEC.build(engine=engine, players=count)
        return Opened(game=game, state=game.new_initial_state(), source="default")
    kinds = "a content-pack folder or a saved state (.json)"
    if os.fspath(source) == "":  # Path("") is the current folder
        raise OptionError(f"an empty path is not {kinds}")
    path = Path(os.fspath(source))
    try:
        folder = stat.S_ISDIR(os.stat(path).st_mode)
    except FileNotFoundError:
        folder = False
    except OSError as exc:  # a folder on the way that cannot be searched, a symlink loop
        raise OptionError(f"{path_said(source)}: cannot read: {exc.strerror}") from None
    if folder:
        game = SPEC.build(engine=engine, players=count, pack=str(path))
        return Opened(game=game, state=game.new_initial_state(), source=str(source))
    if path.suffix == ".json":  # read_bytes names a missing file, a folder, a FIFO...
        from solver.files import decode_json, read_bytes

        data = read_bytes(path, "saved Trial state")
        try:
            document = decode_json(data, "a saved Trial state (JSON)")
        except FormatError as exc:  # bad bytes or nesting: the error names the file (unquoted)
            raise exc.in_file(path) from None
        from solver.games.trial.saved import players_of

        text = data.decode("utf-8")
        n = players_of(document) if isinstance(document, dict) else None
        if isinstance(n, bool) or not isinstance(n, int):
            n = count
        game = SPEC.build(engine=engine, players=n)
        return Opened(game=game, state=game.state_from_json(text), source=str(source))
    missing = "" if os.path.exists(path) else f"{path_said(source)}: no such file or folder; "
    raise OptionError(f"{missing}a trial source is {kinds}, not {path_said(source)!r}")


def state_players(text: str) -> int | None:
    """The player count of a saved state (``None`` when the text does not say)."""
    from solver.games.trial.saved import players_of
    from solver.json_objects import loads

    try:
        document = loads(text)
    except (ValueError, RecursionError):
        return None
    count = players_of(document) if isinstance(document, dict) else None
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def scores(state: Any) -> list[float]:
    """Final fame per player."""
    return [float(s) for s in state.scores()]
