"""Forest guardians (docs/rules/guardians.md): 1-4 players grow forests of colour tiles, walk
animal pawns along colour paths and complete missions without splitting their forest.

``solver.load_game("guardians", players=3)`` starts a fresh game; ``players=1`` is solo at
``level`` (1..6); without ``players`` a fresh game has 2, as on the command line and in hint
requests, and 1 where a ``level`` is given (docs/rules/guardians.md §7). ``open_backs=True``
plays the open variant (every tile's mission face up; by default a tile's mission lies face
down until it is flipped). ``position=`` takes a :class:`Grove`, a ``.grove`` path or a puzzle
name ``"guardians/NAME"``: player 0 then holds that forest at the mission step of the first
turn.

>>> from solver.games.guardians import SPEC
>>> SPEC.name, SPEC.players
('guardians', (1, 2, 3, 4))
"""

from __future__ import annotations

import os
from typing import Any

from solver.errors import OptionError
from solver.games.guardians.grove_position import Grove
from solver.spec import AgentSpec, GameSpec, OptionChoices, Rung

__all__ = ["SPEC", "Grove", "resolve_position"]


def resolve_position(position: Any) -> Grove | None:
    """A :class:`Grove` from a Grove, a ``.grove`` path or a puzzle name ``"guardians/NAME"``."""
    if position is None or isinstance(position, Grove):
        return position
    if isinstance(position, (str, os.PathLike)):
        text = os.fspath(position)
        if isinstance(position, str) and text.startswith("guardians/") and not os.path.exists(text):
            from solver.puzzle_data import load_own

            grove: Grove = load_own(SPEC, text)
            return grove
        from solver.games.guardians.grove_format import load_grove

        return load_grove(text)
    raise OptionError(
        f"position must be a Grove, a .grove path or a puzzle name, not {type(position).__name__}"
    )


GAME_OPTIONS = ("players", "tiles", "level", "open_backs")
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


_HOOKS = "solver.games.guardians.hooks"

LADDER = (
    Rung("random", summary="uniform among the legal moves"),
    Rung("greedy", noise=0.8, summary="greedy, a random move 80% of the time"),
    Rung("greedy", noise=0.5, summary="greedy, a random move half the time"),
    Rung("mcts", 30, noise=0.4, summary="MCTS 30 simulations, a random move 40% of the time"),
    Rung("mcts", 30, noise=0.3, summary="MCTS 30 simulations, a random move 30% of the time"),
    Rung("mcts", 30, noise=0.22, summary="MCTS 30 simulations, a random move 22% of the time"),
    Rung("mcts", 30, noise=0.15, summary="MCTS 30 simulations, a random move 15% of the time"),
    Rung("mcts", 3000, summary="MCTS, 3000 simulations a decision"),
    Rung("planner", summary="the planner (whole turns planned, exact mission search)"),
    Rung("lookahead", 4, summary="lookahead, 4 continuations a decision (the default agent)"),
)

SPEC = GameSpec(
    name="guardians",
    title="forest guardians",
    summary="1-4 players grow tile forests and walk pawns to complete missions",
    players=(1, 2, 3, 4),
    engines={"kernel": _kernel, "reference": _reference},
    open=f"{_HOOKS}:open_position",
    options={
        "level": "the solo level, 1 to 6 (a solo game's: without a player count the game is "
        "solo; refused with more players)",
        "tiles": "a tile-set file (JSON) to play with instead of the standard tiles",
        "open_backs": "true: every tile's mission side is seen before it is flipped (the open "
        "variant, for puzzles and analysis; default false: backs lie face down)",
    },
    option_choices={"level": OptionChoices(values=(1, 2, 3, 4, 5, 6), players=(1,))},
    constant_sum=True,
    heuristic=True,
    exact=False,
    agents={
        "greedy": AgentSpec(
            f"{_HOOKS}:greedy",
            summary="the richest walk first, placements that open the most walks",
        ),
        "mcts": AgentSpec(
            "solver.games.guardians.agent:mcts_agent",
            iterations=10_000,
            summary="compiled MCTS to the end of the turn on the planner's evaluation, the "
            "exact mission plan at the mission step",
        ),
        "lookahead": AgentSpec(
            "solver.games.guardians.lookahead:lookahead_agent",
            iterations=4,
            budget="continuations a decision",
            summary="the planner, its best turns weighed by what they leave the other players "
            "(their planned replies, draws and reveals sampled); the strongest measured: the "
            "default",
        ),
        "broad": AgentSpec(
            "solver.games.guardians.broad:broad_agent",
            iterations=4,
            budget="times the planner's candidate turns",
            summary="the planner searching 4 times as many candidate turns (--iterations: the "
            "factor); the default agent's solo player but for its last two rounds",
        ),
        "planner": AgentSpec(
            "solver.games.guardians.planner:planner_agent",
            summary="whole turns planned with mission prospects and the exact mission search "
            "(the baseline lookahead searches on)",
        ),
    },
    # the strongest agent, measured (docs/rules/guardians.md §13, bench/results/
    # guardians_match.md): the default of every command, of hints' strength ladder (level 10)
    # and of the web table's engine seats
    default_agent="lookahead",
    # the colour heuristic values every placement alike until a pawn stands by it: best-move and
    # hints lead such ties with the default agent's choice (solver/agent_first.py)
    hint_agent="lookahead",
    play_games=10,  # two lookahead seats: about 4 s a game (100 games took 434 s)
    ladder=LADDER,
    open_text=f"{_HOOKS}:open_text",
    state_players=f"{_HOOKS}:state_players",
    state_options=f"{_HOOKS}:state_options",
    source_option="position",
    extensions=(".grove",),
    load_file="solver.games.guardians.grove_format:load_grove",
    puzzles="guardians",
    default_source=True,
    render_text=f"{_HOOKS}:render_text",
    render_svg=f"{_HOOKS}:render_svg",
    table_view="solver.games.guardians.table:table_view",
    svg_line="solver.games.guardians.render_line:svg_line",
    legend=f"{_HOOKS}:legend",
    puzzle_summary=f"{_HOOKS}:puzzle_summary",
    puzzle_players=f"{_HOOKS}:puzzle_players",
    scores=f"{_HOOKS}:scores",
    add_commands="solver.games.guardians.cli:add_commands",
    analysis="solver.games.guardians.analysis:analysis_hooks",
)
"""Forest guardians' declaration (see :class:`solver.spec.GameSpec`)."""
