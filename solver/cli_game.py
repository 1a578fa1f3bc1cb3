"""The commands every game gets: ``forest GAME show | list | render | best-move | solve | play``.

They are written once, over the game protocol and the game's declaration
(:class:`~solver.spec.GameSpec`); a game adds its own commands through ``GameSpec.add_commands``.
A command whose hook a game lacks says ``... is not supported for GAME`` (exit 2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from solver.cli_common import (
    check_output,
    nonnegative_int,
    positive_float,
    positive_int,
    progress_of,
    progress_option,
    read_state_text,
    read_text_file,
    write_output,
)
from solver.errors import FormatError, OptionError, SearchBudgetError
from solver.render.ascii import count
from solver.spec import GameSpec, Opened

__all__ = ["add_game_commands"]

DEFAULT_ITERATIONS = 1000
DEFAULT_MEMORY_MB = 1024.0


# -- opening a position ----------------------------------------------------------------------------
def _saved_state_file(spec: GameSpec, source: str | None) -> bool:
    """Whether FILE names a saved state (``.json``, as ``state.to_json()`` writes) rather than
    one of the game's own files."""
    if source is None or Path(source).suffix.lower() != ".json" or ".json" in spec.extensions:
        return False
    return Path(source).is_file()


def _open(spec: GameSpec, args: argparse.Namespace) -> Opened:
    """The game and position the command's FILE, ``--engine``, ``--players`` and ``--state`` say.

    A FILE that is a saved state (``.json``) is read as ``--state FILE`` in the game's default
    set-up where the game has one (a state holds the whole position); a game whose states need
    its file (the dog's forest) refuses it, saying how to give both. ``args.state_given`` tells
    the drawing commands that the position is a saved state, not a file's set-up.
    """
    players = getattr(args, "players", None)
    source = getattr(args, "file", None)
    state_text = read_state_text(args.state) if getattr(args, "state", None) else None
    named = state_text is not None and not args.state.lstrip().startswith("{")
    state_path = args.state if named else None  # --state names a file (not JSON text)
    if _saved_state_file(spec, source):
        assert source is not None
        if state_text is not None:
            raise OptionError(f"{source} is a saved state: give it as FILE or as --state, not both")
        if not spec.default_source:
            kind = spec.extensions[0] if spec.extensions else "game"
            raise OptionError(
                f"{source} is a saved state, not a {kind} file: a {spec.name} state goes with "
                f"the {kind} file it was played on: give that file and --state {source}"
            )
        state_text = read_text_file(source, "saved state")
        state_path, source = source, None
    args.state_given = state_text is not None
    if players is None and state_text is not None and spec.state_players is not None:
        players = spec.state_players(state_text)
    if players is not None and players not in spec.players:
        allowed = ", ".join(str(p) for p in spec.players)
        raise OptionError(f"{spec.name} is played by {allowed} player(s), not {players}")
    try:
        opened = spec.open(source, engine=args.engine, players=players, **_game_options(spec, args))
    except FormatError as exc:  # a parse error names the file it is about
        if source is None or source in str(exc) or not os.path.isfile(source):
            raise
        raise OptionError(f"{source}: {exc}") from None
    except UnicodeDecodeError as exc:  # a game's opener reading a file that is not text
        raise OptionError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    except RecursionError:
        raise OptionError(f"{source}: nested too deeply to read") from None
    if players is not None and opened.game.num_players() != players:
        # a file that fixes its own player count (a saved state) never silently overrides
        raise OptionError(
            f"{opened.source} is a game of {opened.game.num_players()} player(s), not the "
            f"{players} --players asks for"
        )
    if state_text is not None:
        try:
            try:
                state = opened.game.state_from_json(state_text)
            except RecursionError:
                raise FormatError("a state nested less deeply", line=1, column=1) from None
        except FormatError as exc:
            if state_path is None:
                raise
            raise OptionError(f"{state_path}: {exc}") from None  # the error names the file
        return Opened(game=opened.game, state=state, source=opened.source)
    return opened


def _game_options(spec: GameSpec, args: argparse.Namespace) -> dict[str, Any]:
    """``--option NAME=VALUE`` as the opener's keywords: only the names the game declares; a
    VALUE that reads as JSON (``3``, ``true``, ``[1, 2]``) is that value, else the text."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        name, equals, value = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise OptionError(f"--option takes NAME=VALUE, not {item!r}")
        if name not in spec.options:
            known = ", ".join(spec.options) or "none"
            raise OptionError(f"{spec.name} has no option {name!r} (its options: {known})")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


def _hides(game: Any) -> bool:
    """Whether ``game`` declares hidden information (its spec's ``hidden_information``)."""
    from solver.registry import game_spec

    return game_spec(game.name).hidden_information


def _value_view(opened: Opened, player: int | None) -> int:
    """The player whose view the values are given from (``--player``; default: the one to move)."""
    state = opened.state
    to_move = state.current_player()
    if player is None:
        return to_move if to_move >= 0 else 0
    n = opened.game.num_players()
    if not 0 <= player < n:
        raise OptionError(f"--player must be a seat from 0 to {n - 1}, not {player}")
    if to_move >= 0 and player != to_move and not _hides(opened.game):
        raise OptionError(
            f"player {player} is not to move (player {to_move} is): a best move is for the "
            "player to move"
        )
    return player


def _budget_message(exc: SearchBudgetError, memory_mb: float) -> OptionError:
    if exc.cap_bytes is None:
        return OptionError(str(exc))
    return OptionError(
        f"the exact search hit its memory cap of {memory_mb:g} MB after storing {exc.entries} "
        f"positions; raise it with --memory-mb (e.g. --memory-mb {max(1.0, 4 * memory_mb):g}) "
        "or drop --exact for an MCTS estimate"
    )


# -- searching -----------------------------------------------------------------------------------
def _search(state: Any, args: argparse.Namespace) -> Any:
    from solver.search import best_move, strong_mcts_options

    if args.exact:
        try:
            return best_move(state, exact=True, memory_mb=args.memory_mb)
        except SearchBudgetError as exc:
            raise _budget_message(exc, args.memory_mb) from None
    if _hides(state.get_game()):  # hidden information: ISMCTS from one player's view
        from solver.search.ismcts import ismcts

        observer = getattr(args, "observer", None)
        return ismcts(state, observer=observer, iterations=args.iterations, seed=args.seed)
    return best_move(
        state, iterations=args.iterations, seed=args.seed, options=strong_mcts_options(state)
    )


def hint_report(
    spec: GameSpec, state: Any, args: argparse.Namespace, *, observer: int, top: int
) -> dict[str, Any]:
    """The best ``top`` moves at ``state`` from seat ``observer``'s view, searched as
    ``best-move`` searches them (``play --human``'s ``hint``): ``{"what", "moves"}``."""
    search = argparse.Namespace(
        exact=False, memory_mb=DEFAULT_MEMORY_MB, seed=args.seed, observer=observer,
        iterations=args.iterations or DEFAULT_ITERATIONS,
        hidden=spec.hidden_information,
    )  # fmt: skip
    result = _search(state, search)
    return {"what": _what_estimates(spec, search), "moves": _move_rows(result)[:top]}


def _move_rows(result: Any) -> list[dict[str, Any]]:
    return [
        {"action": m.action, "label": m.label, "value": m.value, "visits": m.visits,
         "pv": list(m.pv)}
        for m in result.moves
    ]  # fmt: skip


def _decision_report(state: Any, args: argparse.Namespace) -> dict[str, Any]:
    result = _search(state, args)
    return {
        "win_probability": result.value,
        "value": result.value,
        "exact": result.exact,
        "best_action": result.best_label,
        "moves": _move_rows(result),
    }


MAX_TURN_ACTIONS = 64
"""The longest turn ``best-move`` spells out (a guard; no game's turn comes near it)."""
REDEALS = 32
"""Hidden information: the redeals tried for one where the best move is legal (the observer's
own moves are legal in every redeal; this only bounds the search for odd cases)."""


def _best_turn(state: Any, args: argparse.Namespace, first: int) -> list[str]:
    """The player's whole turn from ``state``: the best action, then the best next one, searched
    again (same budget and seed) after each, while the same player is still to move.

    A turn ends at a chance node, the game's end or another player's move. Games whose turn is one
    action (or one step of a chance-split move, as the dog's) get a one-item list.
    """
    player = state.current_player()
    if getattr(args, "hidden", False):
        # walk a redeal from the observer's view: the real state's hidden cards (a fight's
        # face-down cards...) must not decide what the rest of the turn shows. Another seat's
        # turn is its own hidden business: only the move the observer's search ranked first.
        # The first redeal in which that move is legal carries the walk on (the move came from
        # the search's redeals; the real state is never asked, not even for a label).
        import random

        deal = random.Random(args.seed or 0)
        world = None
        for _ in range(REDEALS):
            candidate = state.resample_hidden(args.observer, deal)
            if first in candidate.legal_actions():
                world = candidate
                break
        if world is None or player != args.observer:
            return [args.first_label]
        state = world
        labels = [state.action_to_string(first)]
    else:
        labels = [state.action_to_string(first)]
        state = state.clone()
    state.apply_action(first)
    while (
        len(labels) < MAX_TURN_ACTIONS
        and not state.is_terminal()
        and not state.is_chance_node()
        and state.current_player() == player
    ):
        if getattr(args, "progress", None) is not None:
            args.progress.update(f"action {len(labels) + 1} of the turn")
        action = _search(state, args).best_action
        labels.append(state.action_to_string(action))
        state.apply_action(action)
    return labels


def _chance_report(state: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Best moves for every outcome of a chance node, each searched within the budget."""
    from solver.search import evaluate

    outcomes = []
    total = 0.0
    chances = state.chance_outcomes()
    for number, (action, probability) in enumerate(chances, 1):
        if getattr(args, "progress", None) is not None:
            args.progress.update(f"outcome {number}/{len(chances)}")
        child = state.clone()
        child.apply_action(action)
        label = state.action_to_string(action)
        row: dict[str, Any] = {"outcome": label, "probability": probability}
        if child.is_terminal() or child.is_chance_node():
            try:
                value = evaluate(
                    child, exact=args.exact, iterations=args.iterations, seed=args.seed,
                    **({"memory_mb": args.memory_mb} if args.exact else {}),
                )  # fmt: skip
            except SearchBudgetError as exc:
                raise _budget_message(exc, args.memory_mb) from None
            row.update(win_probability=value, best_action=None, moves=[])
        else:
            decision = _decision_report(child, args)
            row.update(
                win_probability=decision["value"],
                best_action=decision["best_action"],
                moves=decision["moves"],
            )
        total += probability * row["win_probability"]
        outcomes.append(row)
    return {
        "win_probability": total,
        "value": total,
        "exact": bool(args.exact),
        "best_action": None,
        "chance": True,
        "outcomes": outcomes,
    }


def _what_estimates(spec: GameSpec, args: argparse.Namespace) -> str:
    if args.exact:
        return f"{spec.value_kind} (exact)"
    if getattr(args, "hidden", False):
        return (
            f"{spec.value_kind} (ISMCTS estimate from player {args.observer}'s view, "
            f"{args.iterations} iterations)"
        )
    return (
        f"{spec.value_kind} (MCTS estimate, {args.iterations} iterations, the mcts agent's "
        "configuration)"
    )


def _print_moves(rows: list[dict[str, Any]], indent: str = "") -> None:
    for rank, row in enumerate(rows, 1):
        visits = f"  visits {row['visits']:>6}" if row["visits"] else ""
        pv = " ".join(row["pv"][:8])
        print(f"{indent}{rank}. {row['label']:<28} value {row['value']:.4f}{visits}  pv: {pv}")


def _best_move(spec: GameSpec, args: argparse.Namespace) -> int:
    opened = _open(spec, args)
    state = opened.state
    if state.is_terminal():
        raise OptionError("the game is over: there is no move to choose")
    player = _value_view(opened, args.player)
    args.observer, args.hidden = player, spec.hidden_information
    with progress_of(args, f"searching ({_what_estimates(spec, args)})") as progress:
        args.progress = progress
        report = _best_move_report(spec, state, args)
    report = {"game": spec.name, "player": player, "value_kind": spec.value_kind, **report}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{_what_estimates(spec, args)}: {report['value']:.4f}")
    if report.get("chance"):
        for row in report["outcomes"]:
            print(f"if {row['outcome']} (p={row['probability']:.3f}):")
            _print_moves(row["moves"], indent="   ")
    else:
        _print_moves(report["moves"])
        if len(report.get("turn", ())) > 1:
            print("best turn: " + "; ".join(report["turn"]))
    return 0


def _best_move_report(spec: GameSpec, state: Any, args: argparse.Namespace) -> dict[str, Any]:
    if state.is_chance_node() and spec.hidden_information:
        # the outcomes may be hidden from the player: only the value from their view
        value = _search(state, args).value
        report = {"win_probability": value, "value": value, "exact": False, "best_action": None,
                  "moves": []}  # fmt: skip
    elif state.is_chance_node():
        report = _chance_report(state, args)
    else:
        report = _decision_report(state, args)
        best = report["moves"][0]["action"] if report["moves"] else None
        if best is not None:
            args.first_label = report["best_action"]
            report["turn"] = _best_turn(state, args, best)
    return report


def _solve(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.agents import make_agent
    from solver.play import play_match

    opened = _open(spec, args)
    game, state = opened.game, opened.state
    report: dict[str, Any]
    if args.exact:
        from solver.search import expectimax

        try:
            with progress_of(args, f"solving exactly (expectimax, at most {args.memory_mb:g} MB)"):
                result = expectimax(state, exact=True, memory_mb=args.memory_mb)
        except SearchBudgetError as exc:
            raise _budget_message(exc, args.memory_mb) from None
        report = {"win_probability": result.value, "value": result.value, "exact": True,
                  "best_action": result.best_label, "states": result.nodes,
                  "seconds": round(result.elapsed, 3)}  # fmt: skip
    else:
        if state.is_terminal():
            raise OptionError("the game is over: its value is its returns")
        n = game.num_players()
        with progress_of(
            args, f"playing {count(args.games, 'game')} of mcts from the position"
        ) as progress:
            agents = [make_agent("mcts", game, seed=args.seed, iterations=args.iterations)] * n
            match = play_match(
                game, ["mcts"] * n, agents, games=args.games, seed=args.seed, state=state,
                on_action=lambda g, k: progress.update(f"game {g}/{args.games}, action {k}"),
            )  # fmt: skip
        mcts = match.players[0]
        report = {"win_probability": mcts.win_rate, "value": mcts.win_rate, "exact": False,
                  "best_action": None, "ci_low": mcts.ci_low, "ci_high": mcts.ci_high,
                  "games": args.games, "iterations": args.iterations,
                  "mean_score": mcts.mean_score}  # fmt: skip
        if not state.is_chance_node():
            with progress_of(args, "searching the best action"):
                report["best_action"] = _search(state, args).best_label
    report = {"game": spec.name, "value_kind": spec.value_kind, **report}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    if report["exact"]:
        print(f"exact {spec.value_kind}: {report['value']:.6f}"
              f"  ({report['states']} states, {report['seconds']} s)")  # fmt: skip
    else:
        games, per_move = count(args.games, "game"), count(args.iterations, "iteration")
        print(f"MCTS policy win rate: {report['value']:.4f}  95% CI "
              f"[{report['ci_low']:.4f}, {report['ci_high']:.4f}] over {games} "
              f"({per_move} per decision; an estimate of what the mcts agent "
              "wins from here)")  # fmt: skip
    if report["best_action"]:
        print(f"best action: {report['best_action']}")
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


def _play(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.agents import make_agent
    from solver.play import play_match
    from solver.rng import derive_seed

    given = _agent_names(args)
    if args.players is None and given is not None and len(given) > 1:
        args.players = len(given)
    opened = _open(spec, args)
    game = opened.game
    players = game.num_players()
    if given is None:
        given = [spec.strongest_agent]
    names = _agent_list(given, players)
    if args.human or args.record:
        from solver.cli_human import play_recorded

        return play_recorded(spec, args, opened, names)
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


def _review(spec: GameSpec, args: argparse.Namespace) -> int:
    from solver.cli_review import review_command

    return review_command(spec, args)


# -- pictures and listings -----------------------------------------------------------------------
def _show(spec: GameSpec, args: argparse.Namespace) -> int:
    render = spec.require("render_text", "drawing a position as text")
    opened = _open(spec, args)
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
    opened = _open(spec, args)
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


def _search_options(p: argparse.ArgumentParser, *, exact: bool = True, memory: bool = True) -> None:
    """``--iterations``, ``--seed``, ``--json``, ``--no-progress``; ``--exact`` where ``exact``
    and ``--memory-mb`` where ``memory`` (only where the game offers an exact search: help
    never advertises one that is not there)."""
    p.add_argument(
        "--iterations", type=positive_int, default=DEFAULT_ITERATIONS,
        help=f"MCTS simulations per decision (default {DEFAULT_ITERATIONS})",
    )  # fmt: skip
    p.add_argument(
        "--seed", type=nonnegative_int, default=0, help="the seed of searches and dice (default 0)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    progress_option(p)
    if exact:
        p.add_argument(
            "--exact", action="store_true",
            help="exact expectimax instead of MCTS (small positions only)",
        )  # fmt: skip
    else:  # a game without small enough positions (GameSpec.exact false) offers no --exact
        p.set_defaults(exact=False)
    if memory:
        p.add_argument(
            "--memory-mb", type=positive_float, default=DEFAULT_MEMORY_MB,
            help=f"the exact search's memory cap in megabytes (default {DEFAULT_MEMORY_MB:g})",
        )  # fmt: skip
    else:  # no exact search offered: no cap to set
        p.set_defaults(memory_mb=DEFAULT_MEMORY_MB)


def _hides_cards(spec: GameSpec) -> bool:
    """Whether the game hides information from players (its searches are ISMCTS)."""
    return bool(getattr(spec, "hidden_information", False))  # declared (issue 17 §2)


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

    searched = "ISMCTS from the player's view" if _hides_cards(spec) else "MCTS"
    p = commands.add_parser(
        "best-move",
        help=f"the best move from a position ({searched}, or exact with --exact)"
        if spec.exact
        else f"the best move from a position (an estimate: {searched})",
    )
    _common(p, spec)
    _state_option(p)
    p.add_argument(
        "--player", type=int, default=None, metavar="P",
        help="the seat whose view the values are from (default: the player to move)",
    )  # fmt: skip
    _search_options(p, exact=spec.exact, memory=spec.exact)
    bind(p, _best_move)

    p = commands.add_parser(
        "solve", help="the value of a position: exact, or the mcts agent's win rate from there"
    )
    _common(p, spec)
    _state_option(p)
    _search_options(p, exact=spec.exact, memory=spec.exact)
    p.add_argument(
        "--games", type=positive_int, default=200,
        help="games played for the MCTS estimate (default 200)",
    )  # fmt: skip
    bind(p, _solve)

    p = commands.add_parser("play", help="play games between agents and report their win rates")
    _common(p, spec, players=True)
    p.add_argument(
        "--agents", default=None, metavar="A[,B,...]",
        help="one agent per seat, comma-separated (seats rotate between games); "
        "one name fills every seat",
    )  # fmt: skip
    p.add_argument(
        "--agent",
        default=None,
        metavar="A",
        help="one agent in every seat (default mcts; ismcts where cards are hidden)",
    )
    p.add_argument(
        "--games", type=positive_int, default=100, help="the number of games (default 100)"
    )
    _search_options(p, exact=False, memory=spec.exact)  # the exact agent's cap
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
