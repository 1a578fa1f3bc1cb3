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

import os
import re
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from solver.puzzle_data import Folders, as_path, folder_of, names_in, resource

__all__ = ["describe", "headline", "load", "names", "other_game", "path"]


def _folders() -> Folders:
    """Each registered game that ships puzzles: its puzzle folder and its file extension."""
    from solver.registry import game_specs

    return {
        spec.name: (folder_of(spec.name, spec.puzzles), spec.extensions[0])
        for spec in game_specs()
        if spec.puzzles is not None and spec.extensions
    }


def _game(game: str) -> str:
    """The game whose puzzles ``game`` names: a game's name, or its ``puzzles`` declaration."""
    from solver.registry import game_specs

    for spec in game_specs():
        if spec.puzzles is not None and game == spec.puzzles:
            return spec.name
    return game


def names(game: str = "dog") -> list[str]:
    """Every puzzle name of ``game``, sorted (``"dog/corridor"``, ``"dog/tiny-example"``...).

    >>> "dog/corridor" in names()
    True
    >>> names("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: unknown game 'chess' for puzzles; expected one of dog...
    """
    return names_in(_game(game), _folders())


def _resource(name: str) -> Traversable:
    return resource(name, _folders())


def path(name: str, *, files: bool = True, listing: str | None = None) -> Path:
    """The file of puzzle ``name`` (refused as :func:`solver.puzzle_data.unknown` words it for a
    reader that reads files or not, ``files``, and lists the puzzles where ``listing`` says).

    >>> path("dog/tiny-example").name
    'tiny-example.forest'
    """
    return as_path(resource(name, _folders(), files=files, listing=listing))


def load(name: str) -> Any:
    """Puzzle ``name`` read by its game's file reader (a dog puzzle gives a ``Forest``).

    >>> load("dog/corridor").turns
    3
    """
    from solver.puzzle_data import load_own
    from solver.registry import game_spec

    _resource(name)  # an unknown name: the error lists every game's close matches
    return load_own(game_spec(name.split("/", 1)[0]), name)


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


def other_game(name: str, game: str, fix: str) -> str | None:
    """Why ``name``, given where ``game`` is read, is refused when it is another game's shipped
    puzzle and no path on disk: one line naming the mismatch, ending with ``fix`` (how to run it
    as that game's puzzle, ``{other}`` filled in), then where ``game``'s own puzzles are listed.
    ``None`` when ``name`` is no such puzzle: the caller's own error says what it is. A game name
    given with another game's puzzle was told "no such set-up file".

    >>> other_game("guardians/order-trap", "dog", "use --game {other}")
    'guardians/order-trap is a guardians puzzle, not a dog one: use --game guardians, or pick a \
dog puzzle (forest dog list)'
    >>> other_game("dog/stick", "dog", "use --game {other}") is None
    True
    """
    other = name.split("/", 1)[0]
    if other == game or "/" not in name or os.path.lexists(name):
        return None
    folders = _folders()
    if other not in folders or name not in names_in(other, folders):
        return None
    own = (
        f"pick a {game} puzzle (forest {game} list)"
        if game in folders
        else f"give a {game} file ({game} ships no puzzles)"
    )
    return f"{name} is a {other} puzzle, not a {game} one: {fix.format(other=other)}, or {own}"


def headline(name: str) -> str:
    """The first sentence of puzzle ``name``'s description, its lines joined: what ``forest GAME
    list`` shows. A description is wrapped prose, so its first line alone could stop
    mid-sentence (``guardians/chain-trap`` was listed as "... the first legal walk each time").

    >>> headline("guardians/chain-trap")[-69:]
    'the first legal walk each time completes only one mission (3 points).'
    >>> headline("dog/walled-in")
    'walled-in: a dog that cannot move.'
    """
    text = " ".join(describe(name).split())
    end = re.search(r"[.!?](?=\s|$)", text)
    return text[: end.end()] if end else text
