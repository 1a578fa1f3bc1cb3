"""``forest GAME play --human``, ``play --record FILE`` and ``forest GAME review FILE``.

Written once over the game protocol, its declaration and the hint engine, like the other
commands every game gets (:mod:`solver.cli_game` wires them into the parser).

- ``play --human``: you hold seat 0, the agents (``--agent``/``--agents``, default ``mcts``;
  ``ismcts`` where cards are hidden) the others; the position is redrawn after every action,
  rolls and draws are shown (in a hidden-information game only those your seat can see: the rest
  read "(hidden from you)"), your legal moves numbered. Answer a number or a move's label,
  ``hint`` (the engine's top moves with their values) or ``quit``. Dice come from ``--seed`` as
  in ``play``.
- ``play --record FILE``: plays one game (with ``--human`` or the agents) and writes its record
  ``{"game", "options", "seed", "actions", ...}``; a game file named by path is embedded as text,
  so the record stands alone.
- ``review FILE``: every decision's value against the best move's, the loss and the marks of
  :data:`solver.review.THRESHOLDS`, and ``--plot`` the curve as PNG or SVG.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solver.errors import OptionError
from solver.render.ascii import count
from solver.spec import GameSpec, Opened

__all__ = ["play_recorded", "review_command"]

MARK_PLURALS = {"inaccuracy": "inaccuracies"}
"""The review's marks whose plural is not the name and an ``s``."""
MAX_PROMPTS = 10_000
"""The most answers one decision reads before giving up (a stuck input never loops forever)."""


def _record_options(spec: GameSpec, opened: Opened, args: argparse.Namespace) -> dict[str, Any]:
    """The hint engine's ``options`` for the opened game (a file path embedded as its text)."""
    from solver import puzzles

    options: dict[str, Any] = {}
    source = getattr(args, "file", None)
    if spec.source_option and source is not None:
        known = spec.puzzles is not None and source in puzzles.names(spec.puzzles)
        if not known and Path(source).is_file() and spec.open_text is not None:
            from solver.cli_common import read_text_file

            options[spec.source_option] = read_text_file(source, "game file")
        else:
            options[spec.source_option] = source
    if len(spec.players) > 1:
        options["players"] = opened.game.num_players()
    return options


class _Screen:
    """Output through rich when it is installed, plain text otherwise."""

    def __init__(self) -> None:
        try:
            from rich.console import Console
        except ImportError:  # pragma: no cover - rich comes with the serve extra
            self.console = None
        else:
            self.console = Console(highlight=False)

    def print(self, text: str = "", style: str | None = None) -> None:
        if self.console is not None:
            self.console.print(text, style=style, markup=False, soft_wrap=True)
        else:
            print(text)

    def table(self, title: str, header: list[str], rows: list[list[str]]) -> None:
        if self.console is None:
            print(title)
            for row in rows:
                print("  ".join(row))
            return
        from rich.table import Table

        table = Table(title=title, title_justify="left")
        for name in header:
            table.add_column(name)
        for row in rows:
            table.add_row(*row)
        self.console.print(table)


def _ask_hint(
    spec: GameSpec, options: dict[str, Any], actions: list[int], args: argparse.Namespace
) -> dict[str, Any]:
    from solver.hint.engine import answer

    request = {"id": "hint", "game": spec.name, "options": options, "actions": actions,
               "limit": {"iterations": args.iterations}, "top_k": 3, "seed": args.seed}  # fmt: skip
    if args.engine:
        request["engine"] = args.engine
    return answer(request, allow_paths=True)


def _human_agent(
    spec: GameSpec,
    game: Any,
    screen: _Screen,
    options: dict[str, Any],
    played: list[int],
    args: argparse.Namespace,
    read: Callable[[str], str],
) -> Callable[[Any], int]:
    def choose(state: Any) -> int:
        if spec.render_text is not None:
            screen.print(spec.render_text(game, state))
        legal = state.legal_actions()
        labels = [state.action_to_string(a) for a in legal]
        screen.print(f"player {state.current_player()} (you) to move:", style="bold")
        for number, label in enumerate(labels, 1):
            screen.print(f"  {number}. {label}")
        for _ in range(MAX_PROMPTS):
            try:
                reply = read("move (number or label), hint, quit> ").strip()
            except EOFError:
                raise OptionError("the input ended before the game did") from None
            except OSError as exc:  # no terminal to read from (a captured or closed stdin)
                raise OptionError(f"cannot read your moves: {exc}") from None
            if reply in ("quit", "q"):
                raise OptionError("you left the game")
            if reply in ("hint", "h", "?"):
                found = _ask_hint(spec, options, list(played), args)
                if "error" in found:
                    screen.print(f"no hint: {found['error']}", style="red")
                    continue
                rows = [[str(m["order"] + 1), m["label"], f"{m['value']:.4f}", str(m["visits"]),
                         " ".join(m["pvLabels"][1:6])] for m in found["moveInfos"]]  # fmt: skip
                root = found["rootInfo"]
                kind = (
                    "exact"
                    if root["exact"]
                    else "ISMCTS estimate from your view"
                    if root.get("determinizations")
                    else "MCTS estimate"
                )
                screen.table(
                    f"hint: {found['rootInfo']['valueKind']} ({kind})",
                    ["#", "move", "value", "visits", "then"], rows,
                )  # fmt: skip
                continue
            if reply.isdigit() and 1 <= int(reply) <= len(legal):
                return legal[int(reply) - 1]
            if reply in labels:
                return legal[labels.index(reply)]
            screen.print(f"{reply!r} is not a move here: answer 1 to {len(legal)}", style="red")
        raise OptionError(f"no move chosen after {MAX_PROMPTS} answers")

    return choose


REDEALS = 2
"""``play --human``: redeals of what the human cannot see, besides the real state, searched for
an event the human could not tell from the real one (enough for a single-outcome draw whose
content depends on earlier hidden ones)."""
HIDDEN_LABEL = "(hidden from you)"
"""What ``play --human`` prints for a chance outcome or another seat's move that the human's seat
cannot see (a card dealt to another player, a face-down card, a ruin's item)."""


def _shown_label(state: Any, action: int, viewer: int) -> str:
    """``action``'s label as the human in seat ``viewer`` may see it.

    In a game that declares hidden information (``GameSpec.hidden_information``) a chance outcome
    or another seat's move is shown only when the viewer could tell it from every other one: no
    other outcome or legal move — in this state or in a redeal of what the viewer cannot see —
    leaves the viewer with the same information state under a different label. Otherwise the
    label would print what the viewer cannot see (another player's dealt cards, a ruin's item, a
    face-down card), and :data:`HIDDEN_LABEL` is shown.
    """
    from solver.registry import game_spec

    label = str(state.action_to_string(action))
    hidden = game_spec(state.get_game().name).hidden_information
    if not hidden or (not state.is_chance_node() and state.current_player() == viewer):
        return label

    def seen_after(world: Any, choice: int) -> str:
        child = world.clone()
        child.apply_action(choice)
        return str(child.information_state_string(viewer))

    mine = seen_after(state, action)
    import random

    deal = random.Random(0)
    worlds = [state, *(state.resample_hidden(viewer, deal) for _ in range(REDEALS))]
    for world in worlds:
        if world.is_chance_node():
            choices = [a for a, _ in world.chance_outcomes()]
        else:
            choices = list(world.legal_actions())
        for choice in choices:
            if world is state and choice == action:
                continue
            if world.action_to_string(choice) != label and seen_after(world, choice) == mine:
                return HIDDEN_LABEL
    return label


def play_recorded(
    spec: GameSpec, args: argparse.Namespace, opened: Opened, names: list[str]
) -> int:
    """Play one game (seat 0 human with ``--human``), show it, and write ``--record``."""
    from solver.agents import make_agent
    from solver.play import MAX_ACTIONS, sample_chance
    from solver.rng import SplitMix64, check_seed, derive_seed

    if args.record:
        from solver.cli_common import check_output

        check_output(args.record, overwrite=args.overwrite)  # before a game of minutes
    game = opened.game
    players = game.num_players()
    screen = _Screen()
    options = _record_options(spec, opened, args)
    played: list[int] = []
    agents: list[Callable[[Any], int]] = []
    seats = []
    for seat in range(players):
        if args.human and seat == 0:
            agents.append(_human_agent(spec, game, screen, options, played, args, input))
            seats.append("human")
        else:
            seed = derive_seed(args.seed, seat)
            agent = make_agent(
                names[seat], game, seed=seed, iterations=args.iterations, memory_mb=args.memory_mb
            )
            agents.append(agent)
            seats.append(names[seat])
    rng = SplitMix64(check_seed(args.seed))
    state = opened.state.clone()
    labels: list[str] = []
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state, rng)
            if args.human:
                shown = _shown_label(state, action, 0)
                screen.print(f"chance: {shown}", style="cyan")
        else:
            seat = state.current_player()
            action = agents[seat](state)
            if args.human and seats[seat] != "human":
                screen.print(f"player {seat} ({seats[seat]}): {_shown_label(state, action, 0)}")
        labels.append(state.action_to_string(action))
        state.apply_action(action)
        played.append(action)
    returns = state.returns()
    if args.human and spec.render_text is not None:
        screen.print(spec.render_text(game, state))
    outcome = ", ".join(f"player {p} ({seats[p]}): {r:g}" for p, r in enumerate(returns))
    screen.print(f"game over after {len(played)} actions; returns {outcome}", style="bold")
    if args.record:
        from solver.cli_common import write_output
        from solver.review import game_record

        record = game_record(spec.name, options, args.seed, played, labels=labels, agents=seats,
                             engine=game.engine, returns=returns)  # fmt: skip
        write_output(json.dumps(record, indent=1), args.record, overwrite=args.overwrite)
        screen.print(f"wrote {args.record}")
    return 0


def review_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME review FILE``: the review as a table (or JSON), and the plot."""
    from solver.review import read_record, review_record, write_plot

    try:
        record = read_record(args.file)
    except RecursionError:
        raise OptionError(f"{args.file}: a game record nested too deeply") from None
    if record.get("game") != spec.name:
        raise OptionError(f"{args.file} records a game of {record.get('game')!r}, not {spec.name}")
    exact = True if args.exact else (False if args.mcts else None)
    if args.plot:
        from solver.cli_common import check_output

        if Path(args.plot).suffix.lower() not in (".png", ".svg"):
            raise OptionError(f"the plot is a .png or .svg file, not {args.plot!r}")
        check_output(args.plot, overwrite=args.overwrite)  # before the review's searches
    review = review_record(
        record, iterations=args.iterations, seconds=args.seconds, exact=exact, allow_paths=True
    )
    if args.plot:
        from solver.files import write_whole

        write_whole(args.plot, lambda temporary: write_plot(review, temporary),
                    overwrite=args.overwrite)  # fmt: skip
    if args.json:
        print(json.dumps(review, indent=2))
        return 0
    screen = _Screen()
    kind = "exact" if review["exact"] else "MCTS estimates"
    rows = [[str(d["ply"]), str(d["player"]), d["label"], _num(d["value"]), d["bestLabel"] or "",
             _num(d["best"]), _num(d["loss"]), d["mark"] or ""]
            for d in review["decisions"]]  # fmt: skip
    screen.table(
        f"review of {args.file}: {review['valueKind']} ({kind})",
        ["ply", "player", "move", "value", "best", "best value", "loss", "mark"], rows,
    )  # fmt: skip
    marks = ", ".join(
        count(n, name, MARK_PLURALS.get(name)) for name, n in review["summary"].items()
    )
    limits = ", ".join(f"{name} ≥ {t:g}" for name, t in review["thresholds"].items())
    screen.print(f"{marks}  (loss thresholds: {limits})")
    if args.plot:
        screen.print(f"wrote {args.plot}")
    sys.stdout.flush()
    return 0


def _num(value: float | None) -> str:
    return "?" if value is None else f"{value:.4f}"
