"""The shipped puzzle data, read through a game's declaration (no registry needed).

:mod:`solver.puzzles` names puzzles ``"GAME/NAME"`` across every registered game; this module
does the reading for a given set of games (``folders``: name -> (folder, extension)), so a game
can resolve its own puzzle names (:func:`load_own`, ``"dog/NAME"`` given to the dog's factories)
without reaching up to the registry.

>>> from solver.games.dog import SPEC
>>> load_own(SPEC, "dog/tiny-example").width
6
"""

from __future__ import annotations

import difflib
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.errors import OptionError, close_names, path_said

if TYPE_CHECKING:
    from solver.spec import GameSpec

__all__ = [
    "NAME",
    "Folders",
    "as_path",
    "folder_of",
    "load_own",
    "names_in",
    "own_folders",
    "resource",
    "unknown",
]

Folders = dict[str, tuple[Traversable, str]]
"""Games' puzzle folders: game name -> (its folder, its files' extension)."""

_PACKAGE = "solver._puzzles"
_SOURCE_ROOT = Path(__file__).resolve().parent.parent / "puzzles"
NAME = re.compile(r"([a-z_][a-z0-9_]*)/([A-Za-z0-9][A-Za-z0-9_.-]*)")
"""A puzzle name: ``GAME/NAME``."""


def folder_of(game: str, where: str) -> Traversable:
    """A game's ``puzzles`` declaration as a folder: ``"module:folder"`` inside the package
    ``module`` (a plug-in's own data), else a folder of this library's puzzle data."""
    module, colon, folder = where.partition(":")
    if not colon:
        return _data_root().joinpath(where)
    try:
        root = resources.files(module)
    except ModuleNotFoundError:
        raise OptionError(f"game {game!r}: puzzles={where!r} names no module {module!r}") from None
    return root.joinpath(folder) if folder else root


def own_folders(spec: GameSpec) -> Folders:
    """``spec``'s puzzle folder alone (none if it ships no puzzles)."""
    if spec.puzzles is None or not spec.extensions:
        return {}
    return {spec.name: (folder_of(spec.name, spec.puzzles), spec.extensions[0])}


def _data_root() -> Traversable:
    """The puzzle data: the installed package ``solver._puzzles``, else the source ``puzzles/``."""
    try:
        return resources.files(_PACKAGE)
    except ModuleNotFoundError:
        return _SOURCE_ROOT


def as_path(item: Traversable) -> Path:
    return item if isinstance(item, Path) else Path(str(item))


def names_in(game: str, folders: Folders) -> list[str]:
    """Every puzzle name of ``game`` (one of ``folders``), sorted."""
    if game not in folders:
        known = ", ".join(folders)
        raise OptionError(f"unknown game {game!r} for puzzles; expected one of {known}")
    folder, suffix = folders[game]
    if not folder.is_dir():
        return []
    return sorted(
        f"{game}/{item.name[: -len(suffix)]}"
        for item in folder.iterdir()
        if item.name.endswith(suffix) and item.is_file() and NAME.fullmatch(f"{game}/{item.name}")
    )


def unknown(
    name: str, folders: Folders, *, files: bool = True, listing: str | None = None
) -> OptionError:
    """The error for a puzzle name that names no puzzle of ``folders``, with close matches (a
    name given with its file extension, ``dog/stick.forest``: the puzzle without it). ``files``:
    whether the reader also reads a file of that name (the command line, stdio; not HTTP, whose
    refusal then names no file); ``listing``: where the puzzles are listed, said instead of the
    command line's ``forest GAME list``."""
    first = name.partition("/")[0]
    if first in folders and not NAME.fullmatch(name):
        what = "neither a file nor a puzzle name" if files else "not a puzzle name"
        return OptionError(
            f"{path_said(name)!r} is {what}: a puzzle is {first}/NAME, NAME made of letters, "
            f"digits, '-', '_' and '.' (no '/'); {listing or f'`forest {first} list` shows them'}"
        )
    game, _, stem = name.rpartition("/")  # no game named: close matches among every game's
    extensions = folders
    known = (
        names_in(game, folders)
        if game in extensions
        else [n for g in extensions for n in names_in(g, folders)]
    )
    stems = {n.split("/", 1)[1].lower(): n for n in known}
    stem = stem.lower()
    suffix = folders[game][1].lower() if game in folders else ""
    if suffix and stem.endswith(suffix) and stem != suffix:  # the file's name, not the puzzle's
        meant = close_names(stem[: -len(suffix)], stems, most=1)
        if meant:
            return OptionError(
                f"unknown puzzle {path_said(name)!r}; did you mean {stems[meant[0]]!r}? (a "
                f"puzzle is named without its file's extension {suffix})"
            )
    close = [stems[s] for s in difflib.get_close_matches(stem, list(stems), n=6, cutoff=0.6)]
    close += [n for s, n in stems.items() if len(stem) >= 3 and stem in s and n not in close]
    if game not in extensions:
        hint = f"puzzle names start with {' or '.join(g + '/' for g in extensions)}"
        if close:
            hint += "; close matches: " + ", ".join(repr(n) for n in close[:6])
    elif close:
        hint = "close matches: " + ", ".join(repr(n) for n in close[:6])
    elif known:
        hint = "known puzzles: " + ", ".join(known)
    else:
        hint = f"there are no {game} puzzles"
    return OptionError(f"unknown puzzle {path_said(name)!r}; {hint}")


def resource(
    name: str, folders: Folders, *, files: bool = True, listing: str | None = None
) -> Traversable:
    """The file of puzzle ``name`` among ``folders`` (an :class:`OptionError` if none, worded as
    :func:`unknown` says for ``files`` and ``listing``)."""
    if not isinstance(name, str):
        raise OptionError(f"a puzzle name must be a string like 'dog/NAME', not {name!r}")
    match = NAME.fullmatch(name)
    if match is None or match.group(1) not in folders:
        raise unknown(name, folders, files=files, listing=listing)
    game, stem = match.groups()
    folder, suffix = folders[game]
    item = folder.joinpath(stem + suffix)
    try:
        found = item.is_file()
    except OSError:  # a name too long for a file name (ENAMETOOLONG): no puzzle has it
        found = False
    if not found:
        raise unknown(name, folders, files=files, listing=listing)
    return item


def load_own(spec: GameSpec, name: str) -> Any:
    """Puzzle ``name`` of ``spec``'s own game, read by its file reader (how a game resolves a
    ``"GAME/NAME"`` given to its factory, without the registry)."""
    item = resource(name, own_folders(spec))
    reader = spec.require("load_file", "reading puzzle files")
    return reader(str(as_path(item)))
