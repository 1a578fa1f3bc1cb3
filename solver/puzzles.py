"""Curated puzzles shipped with the library.

A puzzle is named ``"GAME/NAME"``, for example ``"dog/tiny-example"``: the file ``NAME.forest``
(the game's first extension) in the game's puzzle folder, which its spec declares
(``GameSpec.puzzles``). A built-in game's folder is one of this library's puzzle data, the
top-level ``puzzles/`` folder of the source tree, which the wheel installs as the package
``solver._puzzles`` (used when it is importable, otherwise the ``puzzles/`` folder next to the
``solver/`` package: a source checkout). A plug-in ships its puzzles in its own package and
declares ``puzzles="its_package:folder"``; they are then named, listed and loaded the same way.

>>> from solver import puzzles
>>> "dog/tiny-example" in puzzles.names()
True
>>> forest = puzzles.load("dog/tiny-example")
>>> forest.name, forest.width, forest.height
('tiny-example', 6, 5)
>>> puzzles.describe("dog/walled-in").splitlines()[0]
'walled-in: a dog that cannot move.'
>>> puzzles.load("dog/walledin")
Traceback (most recent call last):
...
solver.errors.OptionError: unknown puzzle 'dog/walledin'; close matches: 'dog/walled-in'
"""

from __future__ import annotations

import difflib
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from solver.errors import OptionError

__all__ = ["describe", "load", "names", "path"]

_PACKAGE = "solver._puzzles"
_SOURCE_ROOT = Path(__file__).resolve().parent.parent / "puzzles"


def _folders() -> dict[str, tuple[Traversable, str]]:
    """Each registered game that ships puzzles: its puzzle folder and its file extension."""
    from solver.registry import game_specs

    return {
        spec.name: (_folder(spec.name, spec.puzzles), spec.extensions[0])
        for spec in game_specs()
        if spec.puzzles is not None and spec.extensions
    }


def _folder(game: str, where: str) -> Traversable:
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


def _game(game: str) -> str:
    """The game whose puzzles ``game`` names: a game's name, or its ``puzzles`` declaration."""
    from solver.registry import game_specs

    for spec in game_specs():
        if spec.puzzles is not None and game == spec.puzzles:
            return spec.name
    return game


_NAME = re.compile(r"([a-z_][a-z0-9_]*)/([A-Za-z0-9][A-Za-z0-9_.-]*)")


def _data_root() -> Traversable:
    """The puzzle data: the installed package ``solver._puzzles``, else the source ``puzzles/``."""
    try:
        return resources.files(_PACKAGE)
    except ModuleNotFoundError:
        return _SOURCE_ROOT


def _as_path(item: Traversable) -> Path:
    return item if isinstance(item, Path) else Path(str(item))


def names(game: str = "dog") -> list[str]:
    """Every puzzle name of ``game``, sorted (``"dog/corridor"``, ``"dog/tiny-example"``...).

    >>> "dog/corridor" in names()
    True
    >>> names("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: unknown game 'chess' for puzzles; expected one of dog...
    """
    game = _game(game)
    folders = _folders()
    if game not in folders:
        known = ", ".join(folders)
        raise OptionError(f"unknown game {game!r} for puzzles; expected one of {known}")
    folder, suffix = folders[game]
    if not folder.is_dir():
        return []
    return sorted(
        f"{game}/{item.name[: -len(suffix)]}"
        for item in folder.iterdir()
        if item.name.endswith(suffix) and item.is_file() and _NAME.fullmatch(f"{game}/{item.name}")
    )


def _unknown(name: str) -> OptionError:
    first = name.partition("/")[0]
    if first in _folders() and not _NAME.fullmatch(name):
        return OptionError(
            f"{name!r} is neither a file nor a puzzle name: a puzzle is {first}/NAME, NAME made "
            "of letters, digits, '-', '_' and '.' (no '/'); `forest "
            f"{first} list` shows them"
        )
    game, _, stem = name.rpartition("/")
    game = game or "dog"
    extensions = _folders()
    known = names(game) if game in extensions else [n for g in extensions for n in names(g)]
    stems = {n.split("/", 1)[1].lower(): n for n in known}
    stem = stem.lower()
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
    return OptionError(f"unknown puzzle {name!r}; {hint}")


def _resource(name: str) -> Traversable:
    if not isinstance(name, str):
        raise OptionError(f"a puzzle name must be a string like 'dog/NAME', not {name!r}")
    folders = _folders()
    match = _NAME.fullmatch(name)
    if match is None or match.group(1) not in folders:
        raise _unknown(name)
    game, stem = match.groups()
    folder, suffix = folders[game]
    item = folder.joinpath(stem + suffix)
    if not item.is_file():
        raise _unknown(name)
    return item


def path(name: str) -> Path:
    """The file of puzzle ``name``.

    >>> path("dog/tiny-example").name
    'tiny-example.forest'
    """
    return _as_path(_resource(name))


def load(name: str) -> Any:
    """Puzzle ``name`` read by its game's file reader (a dog puzzle gives a ``Forest``).

    >>> load("dog/corridor").turns
    3
    """
    from solver.registry import game_spec

    item = _resource(name)
    spec = game_spec(name.split("/", 1)[0])
    reader = spec.require("load_file", "reading puzzle files")
    return reader(str(_as_path(item)))


def describe(name: str) -> str:
    """The leading comment of puzzle ``name`` (its ``#`` lines before anything else).

    >>> describe("dog/tiny-example")
    'The example of docs/rules/dog.md §9: one shouter, a squirrel, a scent trail, a puddle.'
    """
    text = _resource(name).read_text(encoding="utf-8-sig")
    lines: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        body = line[1:]
        lines.append(body[1:] if body.startswith(" ") else body)
    return "\n".join(lines).strip()
