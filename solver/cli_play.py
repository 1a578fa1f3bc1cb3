"""``forest GAME play``: agents in the seats, a match of games, the agents' win rates.

Written once over the game protocol and the game's declaration, like the other commands every game
gets (:mod:`solver.cli_game` builds their parsers); ``--human`` and ``--record`` play one game at
the table (:mod:`solver.cli_human`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from solver.cli_position import DEFAULT_MEMORY_MB, open_position
from solver.cmdkit import progress_of
from solver.errors import OptionError, SearchBudgetError
from solver.render.ascii import count
from solver.spec import GameSpec

__all__ = ["play_command"]


def _one_game_only(args: argparse.Namespace) -> None:
    """``--human`` and ``--record`` play one game and print it as it goes: a ``--games`` above 1
    or ``--json`` would be ignored, so they are refused by name before any game."""
    mode = "--human" if args.human else "--record"
    if args.games is not None and args.games != 1:
        raise OptionError(f"{mode} plays one game; leave out --games {args.games}")
    if args.json:
        raise OptionError(f"{mode} plays one game and prints it as text; leave out --json")


def play_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME play``: a match between agents, or one game with a human or a record."""
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

        _one_game_only(args)
        from solver.cli_search import hint_report

        return play_recorded(spec, args, opened, names, hinter=hint_report)
    if args.games is None:
        args.games = spec.play_games
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
    _print_match(match, players, keeps_score=spec.scores is not None)
    return 0


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


def _budget_message(exc: SearchBudgetError, memory_mb: float) -> OptionError:
    if exc.cap_bytes is None:
        return OptionError(str(exc))
    return OptionError(
        f"the exact search hit its memory cap of {memory_mb:g} MB after storing {exc.entries} "
        f"positions; raise it with --memory-mb (e.g. --memory-mb {max(1.0, 4 * memory_mb):g}) "
        "or choose another agent"
    )


# -- printing ----------------------------------------------------------------------------------
def _print_match(match: Any, players: int, *, keeps_score: bool) -> None:
    """One line per agent name; with an agent named twice or more, one line per position too.
    The mean score where it says more than the win rate: with several players, or alone in a
    game that keeps a score (guardians solo's VP; a dog game's score is its return, 1 or 0)."""

    def line(p: Any, name: str) -> str:
        score = f"  mean score {p.mean_score:.3f}" if players > 1 or keeps_score else ""
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
