"""The commands every game gets: ``forest GAME show | list | render | best-move | solve | play |
review``, their parsers.

They are written once, over the game protocol and the game's declaration
(:class:`~solver.spec.GameSpec`); a game adds its own commands through ``GameSpec.add_commands``.
A command whose hook a game lacks says ``... is not supported for GAME`` (exit 2).

This module builds the parsers, one function a command, from shared option groups. The handlers
live with what they do: ``show``, ``render`` and ``list`` in :mod:`solver.cli_show`, ``play`` in
:mod:`solver.cli_play`, ``best-move`` and ``solve`` in :mod:`solver.cli_search`, ``review`` in
:mod:`solver.cli_review`; the last two import the searchers, so they are imported when their
command runs, never to build a parser.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from solver.cli_play import play_command
from solver.cli_position import DEFAULT_ITERATIONS, DEFAULT_MEMORY_MB, memory_mb
from solver.cli_show import list_command, render_command, show_command
from solver.cmdkit import (
    output_option,
    path_arg,
    positive_float,
    positive_int,
    progress_option,
    seed_int,
    simulations_int,
    whole_int,
)
from solver.errors import OptionError
from solver.spec import HINT_ITERATIONS, GameSpec

__all__ = ["add_game_commands"]

Handler = Callable[[GameSpec, argparse.Namespace], int]


def add_game_commands(games: Any, spec: GameSpec) -> None:
    """Add ``forest NAME`` with the generic commands and the game's own to ``games``."""
    parser = games.add_parser(
        spec.name, help=f"{spec.title}: {spec.summary}",
        description=f"{spec.title[:1].upper()}{spec.title[1:]}: {spec.summary}.",
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in _COMMANDS:
        add(commands, spec)
    if spec.add_commands is not None:
        spec.add_commands(commands)


def _bind(p: argparse.ArgumentParser, spec: GameSpec, handler: Handler) -> None:
    p.set_defaults(handler=lambda args: handler(spec, args))


# -- one parser a command ------------------------------------------------------------------------
def _add_show(commands: Any, spec: GameSpec) -> None:
    p = commands.add_parser("show", help="draw a position as text")
    _common(p, spec)
    _state_option(p)
    _bind(p, spec, show_command)


def _add_render(commands: Any, spec: GameSpec) -> None:
    p = commands.add_parser("render", help="draw a position as an SVG picture")
    _common(p, spec)
    _state_option(p)
    output_option(p, "-o", "--output", help="the .svg file to write (default: stdout)")
    p.add_argument(
        "--random-game", type=seed_int, metavar="SEED", default=None,
        help="draw the end of a random game played with this seed",
    )  # fmt: skip
    _bind(p, spec, render_command)


def _add_list(commands: Any, spec: GameSpec) -> None:
    shipped = "" if spec.puzzles else f" (none for {spec.title})"
    p = commands.add_parser(
        "list", help=f"list the curated puzzles shipped with the library{shipped}"
    )
    p.add_argument("--json", action="store_true", help="print a JSON list")
    _bind(p, spec, list_command)


def _add_best_move(commands: Any, spec: GameSpec) -> None:
    searched = "ISMCTS from the player's view" if spec.hidden_information else "MCTS"
    p = commands.add_parser(
        "best-move",
        help=f"the best move from a position (exact where it fits, else {searched})"
        if spec.exact
        else f"the best move from a position (an estimate: {searched})",
    )
    _common(p, spec)
    _state_option(p)
    p.add_argument(
        "--player", type=whole_int, default=None, metavar="P",
        help="the seat whose view the values are from (default: the player to move)",
    )  # fmt: skip
    _budget_options(
        p, iterations=f"{spec.sampler} simulations a search (default {DEFAULT_ITERATIONS})"
    )
    _exact_options(p, spec, estimate="an MCTS estimate")
    _strength_option(p, "also name the move this level of the strength ladder plays (1-10)")
    p.set_defaults(iterations=DEFAULT_ITERATIONS)
    _bind(p, spec, _best_move)


def _solve_summary(spec: GameSpec) -> str:
    """``forest GAME --help``'s line for solve: which agent's games estimate the value by default
    (a game's quick agent where it declares one: the Trial's heuristic, not its strongest)."""
    if spec.solve_agent is None:
        who = "the strongest agent wins from there"
    else:
        who = (f"the quick {spec.solve_agent} agent wins from there (--agent "
               f"{spec.strongest_agent} for the strongest)")  # fmt: skip
    if spec.exact:
        return f"the value of a position: exact where it fits, else what {who}"
    return f"the value of a position, an estimate: what {who}"


def _add_solve(commands: Any, spec: GameSpec) -> None:
    p = commands.add_parser("solve", help=_solve_summary(spec))
    _common(p, spec)
    _state_option(p)
    p.add_argument(
        "--agent", default=None, metavar="A",
        help=f"the agent playing every seat of the games (default: {_solve_agent_help(spec)}"
        + ("; naming one plays its games instead of the exact search" if spec.exact else "")
        + f"); one of {_agents_help(spec)}",
    )  # fmt: skip
    _budget_options(
        p, iterations=f"the agent's budget, in its own unit (default: {_solve_budget_help(spec)})"
    )
    _exact_options(p, spec, estimate="the agent's games")
    p.add_argument(
        "--games", type=positive_int, default=200,
        help="games played for the agent's estimate, at most (default 200)",
    )  # fmt: skip
    p.add_argument(
        "--seconds", type=positive_float, default=spec.solve_seconds, metavar="S",
        help="stop starting new games after S seconds of them; the games played so far give "
        f"the estimate, and the answer says how many (default {spec.solve_seconds:g}; at "
        "least one game is played: a game still playing at S finishes with every search at "
        "its least work)",
    )  # fmt: skip
    _strength_option(p, "play the games with this level of the strength ladder (1-10): "
                     "--agent levelK")  # fmt: skip
    _bind(p, spec, _solve)


def _solve_budget_help(spec: GameSpec) -> str:
    """``solve --iterations``'s default in words: the agent's own, or the game's budget for the
    strongest agent's games in the default estimate (``GameSpec.solve_iterations``)."""
    if spec.solve_iterations is None:
        return "its own"
    budget = spec.agent(spec.strongest_agent).budget_text(spec.solve_iterations)
    return (f"its own; the default {spec.strongest_agent} plays {budget}, so that --seconds "
            "fits enough games for a useful interval")  # fmt: skip


def _solve_agent_help(spec: GameSpec) -> str:
    """``solve --agent``'s default in words: the strongest agent, or the game's quick one."""
    strongest = f"the game's strongest, {spec.strongest_agent}"
    if spec.solve_agent is None or spec.solve_agent == spec.strongest_agent:
        return strongest
    return (f"{spec.solve_agent}, a quick estimate, unless --iterations is given; then "
            f"{strongest}")  # fmt: skip


def _add_play(commands: Any, spec: GameSpec) -> None:
    p = commands.add_parser("play", help="play games between agents and report their win rates")
    _common(p, spec, players=True)
    p.add_argument(
        "--agents", default=None, metavar="A[,B,...]",
        help="one agent per seat, comma-separated (seats rotate between games); "
        "one name fills every seat",
    )  # fmt: skip
    p.add_argument(
        "--agent", default=None, metavar="A",
        help=f"one agent in every seat (default: the game's strongest, {spec.strongest_agent}); "
        f"one of {_agents_help(spec)}",
    )  # fmt: skip
    p.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help=f"the number of games (default {spec.play_games})",
    )
    _budget_options(p, iterations=_play_iterations_help(spec))
    if spec.exact:
        _memory_option(p)  # the exact agent's cap
    p.add_argument(
        "--human", action="store_true",
        help="play one game yourself in seat 0: moves by number or label (any case); 'hint' "
        "asks the engine, 'undo' takes your last move back, 'help', 'quit'",
    )  # fmt: skip
    output_option(
        p, "--record", metavar="FILE",
        help="play one game and write its record (JSON) to FILE, for `review`",
    )  # fmt: skip
    _strength_option(p, "every seat the strength ladder's level K (1-10): --agent levelK")
    _bind(p, spec, play_command)


def _add_review(commands: Any, spec: GameSpec) -> None:
    p = commands.add_parser(
        "review", help="review a recorded game: every move against the best, marks, a plot"
    )
    p.add_argument("file", metavar="FILE", help="a game record (play --record FILE)")
    p.add_argument(
        "--iterations", type=simulations_int, default=None, metavar="N",
        help=f"{spec.sampler} simulations a position"
        + (" where the review is not exact" if spec.exact else "")
        + f" (default {spec.review_iterations or HINT_ITERATIONS})",
    )  # fmt: skip
    p.add_argument(
        "--seconds", type=positive_float, default=None, metavar="S",
        help=f"{spec.sampler} seconds a position (default: none; alone, it replaces the "
        "default simulations; with --iterations, the first limit reached ends a search)",
    )  # fmt: skip
    p.add_argument(
        "--total-seconds", type=positive_float, default=None, metavar="S",
        help="the whole review's wall-clock budget, from the command's start: each position gets "
        "a fair share of the time left and a review that runs out stops there, said in a note "
        "(default: none, the review takes what its positions take)",
    )  # fmt: skip
    if spec.exact:
        searcher = p.add_mutually_exclusive_group()
        searcher.add_argument(
            "--exact", action="store_true",
            help="exact values only (default: exact where the position fits)",
        )  # fmt: skip
        searcher.add_argument("--mcts", action="store_true", help="MCTS estimates only")
    else:  # no exact search offered: every value is an estimate
        p.set_defaults(exact=False, mcts=True)
        _no_exact_option(p, spec)
    output_option(p, "--plot", metavar="FILE.png|FILE.svg", help="draw the value over the game")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    progress_option(p)
    _bind(p, spec, _review)


_COMMANDS = (_add_show, _add_render, _add_list, _add_best_move, _add_solve, _add_play, _add_review)
"""The generic commands' parsers, in the order ``forest GAME --help`` lists them."""


# -- options shared by several commands ----------------------------------------------------------
def _file_argument(p: argparse.ArgumentParser, spec: GameSpec) -> None:
    extensions = "/".join(spec.extensions) or "game"
    example = f" such as {spec.puzzles}/NAME" if spec.puzzles else ""
    if spec.default_source:
        p.add_argument(
            "file", nargs="?", default=None, metavar="FILE",
            help=f"a {extensions} file or a puzzle name{example} (default: a new game)",
        )  # fmt: skip
    else:
        p.add_argument(
            "file", metavar="FILE", help=f"a {extensions} file or a puzzle name{example}"
        )


def _common(p: argparse.ArgumentParser, spec: GameSpec, *, players: bool = False) -> None:
    _file_argument(p, spec)
    if spec.options:
        described = "; ".join(f"{name}: {text}" for name, text in spec.options.items())
        p.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE",
            help=f"a game option, repeatable ({described})",
        )  # fmt: skip
    p.add_argument(
        "--engine", choices=spec.engine_names(), default=None,
        help="the engine (default: $SOLVER_ENGINE, else the compiled kernel where there is one)",
    )  # fmt: skip
    if players or len(spec.players) > 1:
        counts = ", ".join(str(n) for n in spec.players)
        p.add_argument(
            "--players", type=positive_int, default=None, metavar="N",
            help=f"the number of players ({counts}; default: the game's or the file's)",
        )  # fmt: skip


def _state_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--state", default=None, type=path_arg, metavar="STATE",
        help="a state as JSON (the text, or a file holding it) instead of the file's position, "
        "or a game record (play --record's, the web table's Save): the position it ends at",
    )  # fmt: skip


def _budget_options(p: argparse.ArgumentParser, *, iterations: str) -> None:
    """``--iterations`` (``iterations`` is its help), ``--seed``, ``--json``, ``--no-progress``;
    ``--exact``, ``--mcts`` and ``--memory-mb`` default off (:func:`_exact_options` adds them
    where the game offers an exact search: help never advertises one that is not there)."""
    p.add_argument("--iterations", type=simulations_int, default=None, metavar="N", help=iterations)
    p.add_argument(
        "--seed", type=seed_int, default=0, help="the seed of searches and dice (default 0)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    progress_option(p)
    p.set_defaults(exact=False, mcts=False, memory_mb=DEFAULT_MEMORY_MB)


class _NotOffered(argparse.Action):
    """An option the game does not offer (``--exact`` of a game without exact search): not in
    ``--help``, and given, one line saying why (status 2) rather than 'unrecognized arguments'."""

    def __init__(self, option_strings: list[str], dest: str, why: str = "", **kwargs: Any):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help=argparse.SUPPRESS)  # fmt: skip
        self.why = why

    def __call__(self, parser: argparse.ArgumentParser, *_: Any, **__: Any) -> None:
        parser.error(self.why)


def _no_exact_option(p: argparse.ArgumentParser, spec: GameSpec) -> None:
    """``--exact`` of a game whose spec offers no exact search: refused with the reason."""
    hidden = " (it hides information: an exact search would read every hidden card)"
    why = (f"{spec.name} has no exact search{hidden if spec.hidden_information else ''}: its "
           "values are estimates")  # fmt: skip
    p.add_argument("--exact", action=_NotOffered, why=why)


def _exact_options(p: argparse.ArgumentParser, spec: GameSpec, *, estimate: str) -> None:
    """``--exact``/``--mcts`` and ``--memory-mb`` where the game offers exact search (else a
    hidden ``--exact`` that says there is none)."""
    if not spec.exact:
        _no_exact_option(p, spec)
        return
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--exact", action="store_true",
        help="insist on the exact value (default: exact where it fits the memory cap and a "
        f"time share, else {estimate}); where it cannot finish, {estimate} with a note",
    )  # fmt: skip
    mode.add_argument("--mcts", action="store_true", help=f"never exact: {estimate}")
    _memory_option(p)


def _memory_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--memory-mb", type=memory_mb, default=DEFAULT_MEMORY_MB, metavar="MB",
        help=f"the exact search's memory cap in megabytes (default {DEFAULT_MEMORY_MB:g})",
    )  # fmt: skip


def _strength_option(p: argparse.ArgumentParser, what: str) -> None:
    """``--strength K``: a level of the game's strength ladder (1 beginner, 10 strongest)."""

    def level(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= 10:
            raise argparse.ArgumentTypeError(f"a level from 1 to 10, not {text!r}")
        return int(text)

    p.add_argument("--strength", type=level, default=None, metavar="K", help=what)


def _agents_help(spec: GameSpec) -> str:
    """Every agent of the game with its play default: ``mcts (1000 simulations a decision)``..."""
    parts = [f"{name} ({agent.budget_text()})" for name, agent in spec.offered_agents().items()]
    return ", ".join(parts) + ", or level1 ... level10 (the strength ladder)"


def _play_iterations_help(spec: GameSpec) -> str:
    searching = [f"{name} {agent.budget_text()}" for name, agent in spec.offered_agents().items()
                 if agent.iterations]  # fmt: skip
    defaults = ", ".join(searching) if searching else "none of them searches"
    return (f"every searching agent's budget, in its own unit (default: "
            f"each agent's own: {defaults})")  # fmt: skip


# -- the handlers imported when their command runs (they import the searchers) -----------------
def _best_move(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.cli_search import best_move_command

    return best_move_command(spec, args)


def _solve(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.cli_search import solve_command

    if args.strength is not None:  # --strength K is --agent levelK
        if args.agent is not None:
            raise OptionError("give --strength or --agent, not both")
        args.agent = f"level{args.strength}"

    return solve_command(spec, args)


def _review(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.cli_review import review_command

    return review_command(spec, args)
