"""The dog game (docs/rules/dog.md): a dog crosses a grid forest to reach its human in N turns.

``solver.load_game("dog", forest=F)`` accepts a :class:`Forest`, a path to a ``.forest`` file, or
a curated puzzle name such as ``"dog/tiny-example"``.

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> game.forest.name
'tiny-example'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from solver.errors import OptionError
from solver.games.dog.forest import Forest, Shouter, Terrain
from solver.spec import GameSpec

__all__ = ["SPEC", "Forest", "Shouter", "Terrain", "resolve_forest"]


def resolve_forest(forest: Any) -> Forest:
    """A :class:`Forest` from a Forest, a ``.forest`` path, or a puzzle name ``"dog/NAME"``."""
    if isinstance(forest, Forest):
        return forest
    if forest is None:
        raise OptionError("the dog game needs a forest: a Forest, a .forest path or 'dog/NAME'")
    if isinstance(forest, (str, os.PathLike)):
        text = os.fspath(forest)
        if "\n" in text:
            raise OptionError(
                "forest= holds text with line breaks: give a .forest path, a puzzle name or a "
                "Forest (solver.games.dog.format.parse_forest reads a sheet's text)"
            )
        if isinstance(forest, str) and text.startswith("dog/") and not Path(text).exists():
            from solver import puzzles

            return puzzles.load(text)
        from solver.games.dog.format import load_forest

        return load_forest(text)
    raise OptionError(
        f"forest must be a Forest, a path or a puzzle name, not {type(forest).__name__}"
    )


def _reference(forest: Any = None, **options: Any):
    from solver.games.dog.rules import DogGame

    return DogGame(resolve_forest(forest), **options)


def _kernel(forest: Any = None, **options: Any):
    from solver.games.dog.kernel import KernelDogGame

    return KernelDogGame(resolve_forest(forest), **options)


def _spec() -> GameSpec:
    from solver.games.dog import hooks

    return GameSpec(
        name="dog",
        title="the dog game",
        summary="a dice roll-and-write: a dog crosses a grid forest to its human in N turns",
        players=(1,),
        engines={"kernel": _kernel, "reference": _reference},
        open=hooks.open_forest,
        open_text=hooks.open_forest_text,
        source_option="forest",
        svg_point=hooks.svg_point,
        extensions=(".forest",),
        load_file=_load_file,
        puzzles="dog",
        example="dog/tiny-example",
        file_parameter="forest",
        max_game_length=hooks.max_game_length,
        agents={"greedy": hooks.greedy},
        render_text=hooks.render_text,
        legend=hooks.legend,
        render_svg=hooks.render_svg,
        puzzle_summary=hooks.puzzle_summary,
        add_commands=_add_commands,
        demo=_demo,
        analysis=_analysis_hooks(),
    )


def _load_file(path: str) -> Forest:
    from solver.games.dog.format import load_forest

    return load_forest(path)


def _analysis_hooks() -> Any:
    from solver.games.dog.analysis import analysis_hooks

    return analysis_hooks()


def _demo(argv: Any) -> int:
    from solver.games.dog.demo import main

    return main(argv)


def _add_commands(subparsers: Any) -> None:
    from solver.games.dog.cli import add_commands

    add_commands(subparsers)


SPEC = _spec()
"""The dog game's declaration (see :class:`solver.spec.GameSpec`)."""
