"""``forest GAME show``, ``render`` and ``list``: a position drawn as text or SVG, and the
curated puzzles listed.

Written once over the game's declaration (its ``render_text``, ``render_svg`` and ``legend``
hooks, its puzzles), like the other commands every game gets (:mod:`solver.cli_game` builds their
parsers); a game without the hook says ``... is not supported for GAME`` (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from solver.cli_position import open_position
from solver.cmdkit import check_output, check_svg_name, write_output
from solver.errors import OptionError
from solver.spec import GameSpec, Opened

__all__ = ["list_command", "render_command", "show_command"]


def show_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME show``: the position (the file's, or the ``--state`` given) as text, then the
    game's legend."""
    render = spec.require("render_text", "drawing a position as text")
    opened = open_position(spec, args)
    state = opened.state if args.state_given else None
    print(render(opened.game, state))
    if spec.legend is not None:
        print(spec.legend(opened.game, state))
    return 0


def render_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME render``: the position, or the end of a ``--random-game``, as SVG to ``-o
    FILE`` (never replacing a file without ``--overwrite``) or stdout."""
    render = spec.require("render_svg", "drawing a position as SVG")
    check_svg_name(args.output, "-o")
    check_output(args.output, overwrite=args.overwrite)
    opened = open_position(spec, args)
    state = opened.state if args.state_given else None
    actions: list[int] = []
    if args.random_game is not None:
        if args.state_given:
            raise OptionError("give a saved state or --random-game, not both")
        state, actions = _random_actions(opened, args.random_game)
    svg = render(opened.game, state, actions)
    write_output(svg, args.output, overwrite=args.overwrite)
    if args.output not in (None, "-"):
        print(f"wrote {args.output}")
    return 0


def _random_actions(opened: Opened, seed: int) -> tuple[Any, list[int]]:
    """The end of a game of random agents seeded with ``seed``, from the opened position, and its
    actions."""
    from solver.agents import make_agent
    from solver.play import play_game
    from solver.rng import derive_seed

    game = opened.game
    agents = [
        make_agent("random", game, seed=derive_seed(seed, seat))
        for seat in range(game.num_players())
    ]
    record = play_game(game, agents, seed=seed, state=opened.state)
    return record.final, record.actions


def list_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME list``: the game's curated puzzles, one line each (``--json``: a list)."""
    from solver import puzzles

    rows, summaries = [], []
    for name in puzzles.names(spec.puzzles) if spec.puzzles is not None else ():
        summary = spec.puzzle_summary(name) if spec.puzzle_summary else ""
        rows.append(
            {"name": name, "summary": summary.strip(), "description": puzzles.headline(name)}
        )
        summaries.append(summary.rstrip())  # the hook's padding lines its fields up: kept
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:  # an empty list, said where it does not mix with the listing
        print(f"forest: {spec.name} ships no curated puzzles", file=sys.stderr)
    width = max(map(len, summaries), default=0)  # the descriptions in one column
    for row, summary in zip(rows, summaries, strict=True):
        print(f"{row['name']:<28} {summary:<{width}}  {row['description']}".rstrip())
    return 0
