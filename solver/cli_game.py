"""The commands every game gets: ``forest GAME show | list | render | best-move | solve | play``.

They are written once, over the game protocol and the game's declaration
(:class:`~solver.spec.GameSpec`); a game adds its own commands through ``GameSpec.add_commands``.
A command whose hook a game lacks says ``... is not supported for GAME`` (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from solver.cli_position import (
    DEFAULT_ITERATIONS,
    DEFAULT_MEMORY_MB,
    SOLVE_GAMES_SECONDS,
    open_position,
)
from solver.cmdkit import (
    check_output,
    nonnegative_int,
    positive_float,
    positive_int,
    progress_of,
    progress_option,
    write_output,
)
from solver.errors import OptionError, SearchBudgetError
from solver.render.ascii import count
from solver.spec import GameSpec, Opened

__all__ = ["add_game_commands"]


def _budget_message(exc: SearchBudgetError, memory_mb: float) -> OptionError:
    if exc.cap_bytes is None:
        return OptionError(str(exc))
    return OptionError(
        f"the exact search hit its memory cap of {memory_mb:g} MB after storing {exc.entries} "
        f"positions; raise it with --memory-mb (e.g. --memory-mb {max(1.0, 4 * memory_mb):g}) "
        "or choose another agent"
    )


def _agent_names(args: argparse.Namespace) -> list[str] | None:
    """``--agents A,B,...`` or ``--agent A`` as a list of names (``None``: neither given)."""
    if args.agents is not None and args.agent is not None:
        raise OptionError("give --agents or --agent, not both")
    flag = "--agent" if args.agent is not None else "--agents"
    text = args.agents if args.agents is not None else args.agent
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):  # '' too: an empty list never means the default
        raise OptionError(f"{flag} is a comma-separated list of agent names, not {text!r}")
    return names


def _agent_list(names: list[str], players: int) -> list[str]:
    """One agent name per seat: one name fills every seat."""
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise OptionError(
            f"--agents names {len(names)} agent(s) for {players} player(s): give one per seat, "
            "or one for every seat"
        )
    return names


def _play(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.agents import make_agent
    from solver.play import play_match
    from solver.rng import derive_seed

    given = _agent_names(args)
    if args.strength is not None:
        if given is not None:
            raise OptionError("give --strength or --agent/--agents, not both")
        given = [f"level{args.strength}"]
    if args.players is None and given is not None and len(given) > 1:
        args.players = len(given)
    opened = open_position(spec, args)
    game = opened.game
    players = game.num_players()
    if given is None:
        given = [spec.strongest_agent]
    names = _agent_list(given, players)
    if args.human or args.record:
        from solver.cli_human import play_recorded
        from solver.cli_search import hint_report

        return play_recorded(spec, args, opened, names, hinter=hint_report)
    games = count(args.games, "game")
    with progress_of(args, f"playing {games} ({', '.join(names)})") as progress:
        try:
            agents = [
                make_agent(
                    name, game, seed=derive_seed(args.seed, seat), iterations=args.iterations,
                    memory_mb=args.memory_mb,
                )
                for seat, name in enumerate(names)
            ]  # fmt: skip
            match = play_match(
                game, names, agents, games=args.games, seed=args.seed, scores=spec.scores,
                on_action=lambda g, n: progress.update(f"game {g}/{args.games}, action {n}"),
            )  # fmt: skip
        except SearchBudgetError as exc:
            raise _budget_message(exc, args.memory_mb or DEFAULT_MEMORY_MB) from None
    if args.json:
        print(json.dumps(match.to_dict(), indent=2))
        return 0
    _print_match(match, players)
    return 0


def _print_match(match: Any, players: int) -> None:
    """One line per agent name; with an agent named twice or more, one line per position too."""

    def line(p: Any, name: str) -> str:
        score = f"  mean score {p.mean_score:.3f}" if players > 1 else ""
        return (f"{name}: won {p.wins}/{match.games} = {p.win_rate:.4f}  "
                f"95% CI [{p.ci_low:.4f}, {p.ci_high:.4f}]{score}")  # fmt: skip

    for p in match.players:
        print(line(p, p.agent))
    if len(match.seats) > len(match.players):
        print("by position in --agents (seat in game 0; seats rotate):")
        for p in match.seats:
            print("  " + line(p, f"{p.seat}. {p.agent}"))
    if players > 1:
        print(f"shared first places: {match.ties}")


def _best_move(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.cli_search import best_move_command

    return best_move_command(spec, args)


def _strength_option(p: argparse.ArgumentParser, what: str) -> None:
    """``--strength K``: a level of the game's strength ladder (1 beginner, 10 strongest)."""

    def level(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= 10:
            raise argparse.ArgumentTypeError(f"a level from 1 to 10, not {text!r}")
        return int(text)

    p.add_argument("--strength", type=level, default=None, metavar="K", help=what)


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


# -- pictures and listings -----------------------------------------------------------------------
def _show(spec: GameSpec, args: argparse.Namespace) -> int:
    render = spec.require("render_text", "drawing a position as text")
    opened = open_position(spec, args)
    state = opened.state if args.state_given else None
    print(render(opened.game, state))
    if spec.legend is not None:
        print(spec.legend(opened.game, state))
    return 0


def _random_actions(opened: Opened, seed: int) -> tuple[Any, list[int]]:
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


def _render(spec: GameSpec, args: argparse.Namespace) -> int:
    render = spec.require("render_svg", "drawing a position as SVG")
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


def _list(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver import puzzles

    rows = []
    for name in puzzles.names(spec.puzzles) if spec.puzzles is not None else ():
        summary = spec.puzzle_summary(name) if spec.puzzle_summary else ""
        described = puzzles.describe(name)
        rows.append(
            {"name": name, "summary": summary.strip(),
             "description": described.splitlines()[0] if described else ""}
        )  # fmt: skip
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:  # an empty list, said where it does not mix with the listing
        print(f"forest: {spec.name} ships no curated puzzles", file=sys.stderr)
    for row in rows:
        print(f"{row['name']:<28} {row['summary']}  {row['description']}".rstrip())
    return 0


# -- the parser ----------------------------------------------------------------------------------
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
            "--players", type=positive_int, default=None,
            help=f"the number of players ({counts}; default: the game's or the file's)",
        )  # fmt: skip


def _state_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--state", default=None, metavar="STATE",
        help="a state as JSON (the text, or a file holding it) instead of the file's position",
    )  # fmt: skip


def _budget_options(p: argparse.ArgumentParser, *, iterations: str) -> None:
    """``--iterations`` (``iterations`` is its help), ``--seed``, ``--json``, ``--no-progress``;
    ``--exact``, ``--mcts`` and ``--memory-mb`` default off (:func:`_exact_options` adds them
    where the game offers an exact search: help never advertises one that is not there)."""
    p.add_argument("--iterations", type=positive_int, default=None, metavar="N", help=iterations)
    p.add_argument(
        "--seed", type=nonnegative_int, default=0, help="the seed of searches and dice (default 0)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    progress_option(p)
    p.set_defaults(exact=False, mcts=False, memory_mb=DEFAULT_MEMORY_MB)


def _exact_options(p: argparse.ArgumentParser, spec: GameSpec, *, estimate: str) -> None:
    """``--exact``/``--mcts`` and ``--memory-mb`` where the game offers exact search."""
    if not spec.exact:
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
        "--memory-mb", type=positive_float, default=DEFAULT_MEMORY_MB,
        help=f"the exact search's memory cap in megabytes (default {DEFAULT_MEMORY_MB:g})",
    )  # fmt: skip


def _agents_help(spec: GameSpec) -> str:
    """Every agent of the game with its play default: ``mcts (1000 simulations a decision)``..."""
    parts = []
    for name, agent in spec.offered_agents().items():
        budget = f"{agent.iterations} simulations a decision" if agent.iterations else "no search"
        parts.append(f"{name} ({budget})")
    return ", ".join(parts) + ", or level1 ... level10 (the strength ladder)"


def _play_iterations_help(spec: GameSpec) -> str:
    searching = [f"{name} {agent.iterations}" for name, agent in spec.offered_agents().items()
                 if agent.iterations]  # fmt: skip
    defaults = ", ".join(searching) if searching else "none of them searches"
    return (f"simulations a decision for every searching agent (default: each agent's own: "
            f"{defaults})")  # fmt: skip


def add_game_commands(games: Any, spec: GameSpec) -> None:
    """Add ``forest NAME`` with the generic commands and the game's own to ``games``."""
    parser = games.add_parser(
        spec.name, help=f"{spec.title}: {spec.summary}",
        description=f"{spec.title[:1].upper()}{spec.title[1:]}: {spec.summary}.",
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def bind(p: argparse.ArgumentParser, handler: Any) -> None:
        p.set_defaults(handler=lambda args: handler(spec, args))

    p = commands.add_parser("show", help="draw a position as text")
    _common(p, spec)
    _state_option(p)
    bind(p, _show)

    p = commands.add_parser("render", help="draw a position as an SVG picture")
    _common(p, spec)
    _state_option(p)
    p.add_argument("-o", "--output", default=None, help="the .svg file to write (default: stdout)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output file")
    p.add_argument(
        "--random-game", type=nonnegative_int, metavar="SEED", default=None,
        help="draw the end of a random game played with this seed",
    )  # fmt: skip
    bind(p, _render)

    p = commands.add_parser("list", help="list the curated puzzles shipped with the library")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    bind(p, _list)

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
        "--player", type=int, default=None, metavar="P",
        help="the seat whose view the values are from (default: the player to move)",
    )  # fmt: skip
    _budget_options(p, iterations=f"{searched} simulations a search (default {DEFAULT_ITERATIONS})")
    _exact_options(p, spec, estimate="an MCTS estimate")
    _strength_option(p, "also name the move this level of the strength ladder plays (1-10)")
    p.set_defaults(iterations=DEFAULT_ITERATIONS)
    p.set_defaults(handler=lambda args: _best_move(spec, args))

    strongest = spec.strongest_agent
    p = commands.add_parser(
        "solve",
        help="the value of a position: exact where it fits, else what the strongest agent wins "
        "from there"
        if spec.exact
        else "the value of a position: what the strongest agent wins from there (an estimate)",
    )
    _common(p, spec)
    _state_option(p)
    p.add_argument(
        "--agent", default=None, metavar="A",
        help=f"the agent playing every seat of the games (default: the game's strongest, "
        f"{strongest}; naming one plays its games instead of the exact search); one of "
        f"{_agents_help(spec)}",
    )  # fmt: skip
    _budget_options(p, iterations="the agent's simulations a decision (default: its own)")
    _exact_options(p, spec, estimate="the agent's games")
    p.add_argument(
        "--games", type=positive_int, default=200,
        help="games played for the agent's estimate, at most (default 200)",
    )  # fmt: skip
    p.add_argument(
        "--seconds", type=positive_float, default=SOLVE_GAMES_SECONDS, metavar="S",
        help="stop starting new games after S seconds of them; the games played so far give "
        f"the estimate, and the answer says how many (default {SOLVE_GAMES_SECONDS:g}; at "
        "least one game is played)",
    )  # fmt: skip
    _strength_option(p, "play the games with this level of the strength ladder (1-10): "
                     "--agent levelK")  # fmt: skip
    p.set_defaults(handler=lambda args: _solve(spec, args))

    p = commands.add_parser("play", help="play games between agents and report their win rates")
    _common(p, spec, players=True)
    p.add_argument(
        "--agents", default=None, metavar="A[,B,...]",
        help="one agent per seat, comma-separated (seats rotate between games); "
        "one name fills every seat",
    )  # fmt: skip
    p.add_argument(
        "--agent", default=None, metavar="A",
        help=f"one agent in every seat (default: the game's strongest, {strongest}); one of "
        f"{_agents_help(spec)}",
    )  # fmt: skip
    p.add_argument(
        "--games", type=positive_int, default=100, help="the number of games (default 100)"
    )
    _budget_options(p, iterations=_play_iterations_help(spec))
    if spec.exact:
        _memory_option(p)  # the exact agent's cap
    p.add_argument(
        "--human", action="store_true",
        help="play one game yourself in seat 0: moves by number or label (any case); 'hint' "
        "asks the engine, 'undo' takes your last move back, 'help', 'quit'",
    )  # fmt: skip
    p.add_argument(
        "--record", default=None, metavar="FILE",
        help="play one game and write its record (JSON) to FILE, for `review`",
    )  # fmt: skip
    p.add_argument("--overwrite", action="store_true", help="replace an existing --record file")
    _strength_option(p, "every seat the strength ladder's level K (1-10): --agent levelK")
    bind(p, _play)

    p = commands.add_parser(
        "review", help="review a recorded game: every move against the best, marks, a plot"
    )
    p.add_argument("file", metavar="FILE", help="a game record (play --record FILE)")
    p.add_argument(
        "--iterations", type=positive_int, default=None,
        help="MCTS simulations a position"
        + (" where the review is not exact" if spec.exact else "")
        + " (default 1000)",
    )  # fmt: skip
    p.add_argument("--seconds", type=positive_float, default=None, help="MCTS seconds a position")
    if spec.exact:
        searcher = p.add_mutually_exclusive_group()
        searcher.add_argument(
            "--exact", action="store_true",
            help="exact values only (default: exact where the position fits)",
        )  # fmt: skip
        searcher.add_argument("--mcts", action="store_true", help="MCTS estimates only")
    else:  # no exact search offered: every value is an estimate
        p.set_defaults(exact=False, mcts=True)
    p.add_argument(
        "--plot", default=None, metavar="FILE.png|FILE.svg", help="draw the value over the game"
    )
    p.add_argument("--overwrite", action="store_true", help="replace an existing --plot file")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    progress_option(p)
    p.set_defaults(handler=lambda args: _review(spec, args))

    if spec.add_commands is not None:
        spec.add_commands(commands)


def print_error(message: str) -> None:
    """One line on stderr: ``forest: error: ...``."""
    print(f"forest: error: {message}", file=sys.stderr)
