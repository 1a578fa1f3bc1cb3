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
from typing import Any

from solver.errors import OptionError
from solver.games.dog.forest import Forest, Shouter, Terrain
from solver.spec import AgentSpec, GameSpec, Rung

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
        if isinstance(forest, str) and text.startswith("dog/") and not os.path.exists(text):
            from solver.puzzle_data import load_own

            return load_own(SPEC, text)
        from solver.games.dog.format import load_forest

        return load_forest(text)
    raise OptionError(
        f"forest must be a Forest, a path or a puzzle name, not {type(forest).__name__}"
    )


def _refuse_options(options: dict[str, Any]) -> None:
    """Refuse any option but the forest, by name, for both engines alike: the kernel's game
    refused ``players=1`` with an OptionError while the reference's ``DogGame`` raised a
    TypeError (an unexpected keyword argument)."""
    if options:
        raise OptionError(f"the dog game takes no option {sorted(options)[0]!r} (only the forest)")


def _reference(forest: Any = None, **options: Any):
    from solver.games.dog.rules import DogGame

    _refuse_options(options)
    return DogGame(resolve_forest(forest))


def _kernel(forest: Any = None, **options: Any):
    from solver.games.dog.kernel import KernelDogGame

    _refuse_options(options)
    return KernelDogGame(resolve_forest(forest))


LADDER = (
    Rung("random", summary="uniform among the legal moves"),
    Rung("greedy", noise=0.6, summary="greedy, a random move 60% of the time"),
    Rung("greedy", noise=0.35, summary="greedy, a random move 35% of the time"),
    Rung("greedy", noise=0.2, summary="greedy, a random move 20% of the time"),
    Rung("greedy", noise=0.1, summary="greedy, a random move 10% of the time"),
    Rung("greedy", summary="the stamina-weighted shortest path, no look-ahead"),
    Rung("mcts", 8, summary="MCTS, 8 simulations a decision"),
    Rung("mcts", 32, summary="MCTS, 32 simulations a decision"),
    Rung("mcts", 128, summary="MCTS, 128 simulations a decision"),
    Rung("exact", summary="the optimal policy (exact expectimax)"),
)

SPEC = GameSpec(
    name="dog",
    title="the dog game",
    summary="a dice roll-and-write: a dog crosses a grid forest to its human in N turns",
    players=(1,),
    engines={"kernel": _kernel, "reference": _reference},
    open="solver.games.dog.hooks:open_forest",
    heuristic=True,
    agents={
        "greedy": AgentSpec(
            "solver.games.dog.hooks:greedy",
            summary="the stamina-weighted shortest path, no look-ahead",
        ),
    },
    ladder=LADDER,
    open_text="solver.games.dog.hooks:open_forest_text",
    source_option="forest",
    svg_point="solver.games.dog.hooks:svg_point",
    table_view="solver.games.dog.table:table_view",
    extensions=(".forest",),
    load_file="solver.games.dog.format:load_forest",
    puzzles="dog",
    example="dog/tiny-example",
    file_parameter="forest",
    max_game_length="solver.games.dog.hooks:max_game_length",
    render_text="solver.games.dog.hooks:render_text",
    quiet_turns="solver.games.dog.hooks:quiet_turns",
    legend="solver.games.dog.hooks:legend",
    render_svg="solver.games.dog.hooks:render_svg",
    puzzle_summary="solver.games.dog.hooks:puzzle_summary",
    add_commands="solver.games.dog.cli:add_commands",
    demo="solver.games.dog.demo:main",
    analysis="solver.games.dog.analysis:analysis_hooks",
)
"""The dog game's declaration (see :class:`solver.spec.GameSpec`)."""
