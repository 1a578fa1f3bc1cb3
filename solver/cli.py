"""The ``forest`` command.

``forest GAME COMMAND``: every registered game gets ``show``, ``list``, ``render``,
``best-move``, ``solve`` and ``play`` (:mod:`solver.cli_game`) plus its own commands; ``forest
games`` lists the games, ``forest analyse`` runs batch analyses, ``forest --version`` prints the
version.

An error the user can cause (a bad file, a bad option, an illegal move) prints one line
``forest: error: ...`` on stderr and exits 2. Anything else is a bug in forest-solver: its
traceback is printed with a line asking to report it, exit 1.

Examples::

    forest games
    forest dog generate --seed 7 --size 9x9 -o seven.forest
    forest dog show seven.forest
    forest dog best-move dog/tiny-example --json
    forest dog play dog/another-dog --agent mcts --games 100 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from solver.errors import OptionError, SolverError

__all__ = ["OptionError", "build_parser", "main"]

Handler = Callable[[argparse.Namespace], int]
REPORT_BUGS = "this is a bug in forest-solver: please report it with the command and the traceback"


def _games(args: argparse.Namespace) -> int:
    from solver.registry import game_specs

    rows: list[dict[str, Any]] = [
        {"name": spec.name, "engines": spec.engine_names(), "players": list(spec.players),
         "title": spec.title, "summary": spec.summary}
        for spec in game_specs()
    ]  # fmt: skip
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        players = ", ".join(str(p) for p in row["players"])
        print(
            f"{row['name']:<10} {row['title']}: {row['summary']} "
            f"(players: {players}; engines: {', '.join(row['engines'])})"
        )
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``forest dog play: error: ...`` and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The whole ``forest`` parser, with one sub-command per registered game."""
    from solver import __version__
    from solver.analysis.cli_analyse import add_analyse_command
    from solver.cli_game import add_game_commands
    from solver.hint.cli import add_hint_command
    from solver.registry import game_specs

    parser = _Parser(prog="forest", description="Play, solve and analyse the forest games.")
    parser.add_argument("--version", action="version", version=f"forest {__version__}")
    commands = parser.add_subparsers(dest="game", required=True, metavar="COMMAND")
    p = commands.add_parser("games", help="list the registered games")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(handler=_games)
    add_analyse_command(commands)
    add_hint_command(commands)
    for spec in game_specs():
        add_game_commands(commands, spec)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``forest`` command; returns the exit status."""
    try:
        parser = build_parser()
    except SolverError as exc:  # e.g. a broken SOLVER_ENGINE or game declaration
        print(f"forest: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except BrokenPipeError:  # pragma: no cover - `forest ... | head`
        return 0
    except SolverError as exc:
        print(f"forest: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("forest: interrupted", file=sys.stderr)
        return 130
    except Exception:
        traceback.print_exc()
        print(f"forest: {REPORT_BUGS}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
