"""``forest GAME play --human`` and ``play --record FILE``: one game at the table.

Written once over the game protocol and its declaration, like the other commands every game
gets (:mod:`solver.cli_game` wires them into the parser).

- ``play --human``: you hold seat 0, the agents (``--agent``/``--agents``; default: the game's
  strongest) the others. Before each of your decisions the position is drawn as ``forest GAME
  show`` draws it (the dog's turn, stamina, curiosity and steps left; guardians' forests, scores
  and pool; the Trial from your seat: your hand, food, backpack), then your legal moves,
  numbered. Rolls and draws are shown (in a hidden-information game only those your seat can
  see: the rest read "(hidden from you)"), and every agent's move.
- You answer a move's number or its label in any case (``n``, ``End turn``), or one of
  :data:`COMMANDS`: ``hint`` (the engine's best moves from your view, as ``best-move`` finds
  them), ``undo`` (back to your previous decision: the rolls and draws after it come again the
  same, and an agent facing the same position plays the same move), ``help`` (the commands and
  the game's legend, which is also printed before the first position) and ``quit`` (ends
  the game cleanly, exit 0; ``--record`` is still written, marked unfinished). Input that ends
  before the game does is an error (status 2), but ``--record`` is still written the same way.
- The end says who won, with the scores.
- ``play --record FILE``: plays one game (with ``--human`` or the agents alone) and writes its
  record ``{"game", "options", "seed", "actions", "labels", "agents", "engine", "returns",
  "finished"}``; a game file named by path is embedded as text, so the record stands alone
  (``forest GAME review FILE`` reads it).

Rolls and draws come from ``--seed`` as in ``play``: the same seed and the same moves give the
same game.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.errors import OptionError, shortened
from solver.labels import HIDDEN_LABEL, shown_label
from solver.render.ascii import count, line_text
from solver.rng import SplitMix64
from solver.spec import GameSpec, Opened

# HIDDEN_LABEL and shown_label live in solver.labels (the hint engine uses them too); named here
# as well, where play --human's tests have always imported them.
__all__ = ["COMMANDS", "HIDDEN_LABEL", "Screen", "play_recorded", "record_options", "shown_label"]

COMMANDS = {
    "hint": "the engine's best moves from here, with their values",
    "undo": "take back your last move (the rolls and draws after it come again the same)",
    "help": "this list and the drawing's legend",
    "quit": "leave the game (a --record file is still written)",
}
"""What the human may answer besides a move, and what each does."""
ALIASES = {"h": "hint", "u": "undo", "?": "help", "q": "quit", "exit": "quit"}
MAX_PROMPTS = 10_000
"""The most answers one decision reads before giving up (a stuck input never loops forever)."""
HINT_MOVES = 3
"""The moves a hint lists."""
Hinter = Callable[..., dict[str, Any]]
"""``hinter(spec, state, args, *, observer, top) -> {"what", "moves", "notes", "exact"}``: the
best moves shown for ``hint``, the notes said after them and whether the values are exact
(:func:`solver.cli_search.hint_report`)."""

NO_VISITS = "\u2014"
"""The visits cell of an exact hint's move: a dash (no simulation ran), as the web table shows."""
HUMAN = "human"


class Screen:
    """Output through rich when it is installed, plain text otherwise."""

    def __init__(self) -> None:
        try:
            from rich.console import Console
        except ImportError:  # pragma: no cover - rich comes with the serve extra
            self.console = None
        else:
            # a file or a pipe has no width: rich's 80 columns folded every long label of a
            # review or a hint over several lines (COLUMNS, when set, still decides)
            sized = sys.stdout.isatty() or "COLUMNS" in os.environ
            self.console = Console(highlight=False, width=None if sized else 1000)
            self.console.on_broken_pipe = _reader_gone  # type: ignore[method-assign]

    def print(self, text: str = "", style: str | None = None) -> None:
        if self.console is not None:
            self.console.print(text, style=style, markup=False, soft_wrap=True)
        else:
            print(text, flush=True)

    def table(self, title: str, header: list[str], rows: list[list[str]]) -> None:
        if self.console is None:  # the header too, and the columns aligned, as rich does
            print(title)
            widths = [max(map(len, column)) for column in zip(header, *rows, strict=True)]
            for row in (header, *rows):
                cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
                print("  ".join(cells).rstrip(), flush=True)
            return
        from rich.table import Table

        # the title is a line of its own: rich's padded it with spaces to the table's width
        # (and folded a title wider than the table)
        self.print(title)
        table = Table()
        for name in header:
            table.add_column(name)
        for row in rows:
            table.add_row(*row)
        self.console.print(table)


def _reader_gone() -> None:
    """What the screen's console does when the reader of its output has gone (``forest GAME
    review ... | head``): the ``BrokenPipeError`` the command line ends quietly, exit 0, as
    every other command's output. rich's own handler raised ``SystemExit(1)``: the review
    exited 1, though nothing had failed."""
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def record_options(spec: GameSpec, opened: Opened, args: argparse.Namespace) -> dict[str, Any]:
    """The game's ``options`` for a record (the hint engine's): a file path embedded as its
    text, so the record stands alone, and the game's own options (``--option NAME=VALUE``)."""
    from solver import puzzles

    recorded = getattr(args, "record_options", None)
    if recorded is not None:  # the position is a game record's: its game is the record's
        kept: dict[str, Any] = dict(recorded)
        if len(spec.players) > 1:
            kept["players"] = opened.game.num_players()
        return kept
    options: dict[str, Any] = {}
    source = getattr(args, "file", None)
    if spec.source_option and source is not None and not getattr(args, "file_is_state", False):
        known = spec.puzzles is not None and source in puzzles.names(spec.puzzles)
        if not known and Path(source).is_file() and spec.open_text is not None:
            from solver.cmdkit import read_text_file

            options[spec.source_option] = read_text_file(source, "game file")
        else:
            options[spec.source_option] = source
    if len(spec.players) > 1:
        options["players"] = opened.game.num_players()
    from solver.cli_position import game_options

    options.update(game_options(spec, args))  # --option level=3: the review plays that game
    return options


def _folded(text: str) -> str:
    """A label or an answer compared without case and with runs of spaces as one."""
    return " ".join(text.split()).casefold()


def _move_number(reply: str, moves: int) -> int | None:
    """The move an answer numbers (1 to ``moves``), or None: ASCII digits only, read only when
    short enough to be one (``str.isdigit`` takes ``²``, which ``int`` refuses, and ``int``
    refuses more than 4,300 digits: either was a traceback at the prompt)."""
    digits = reply.lstrip("0")
    if not (reply.isascii() and reply.isdigit()) or len(digits) > len(str(moves)):
        return None
    number = int(digits or "0")
    return number if 1 <= number <= moves else None


@dataclass
class _Step:
    """One action of the game: what it was, its label, and the dice's state before it (so an
    undo puts the dice back where they were)."""

    action: int
    label: str
    dice_before: int


@dataclass
class _Table:
    """One game at the table: the seats, the dice, the actions played so far."""

    spec: GameSpec
    game: Any
    start: Any
    args: argparse.Namespace
    seats: list[str]
    agents: dict[int, Callable[[Any], int]]
    read: Callable[[str], str]
    hinter: Hinter | None = None
    screen: Screen = field(default_factory=Screen)
    steps: list[_Step] = field(default_factory=list)
    human_plies: list[int] = field(default_factory=list)
    agent_moves: dict[tuple[int, ...], int] = field(default_factory=dict)
    hidden_run: int = 0  # chance outcomes hidden from the human, not printed yet

    # -- the game ---------------------------------------------------------------------------------
    def play(self) -> tuple[Any, bool]:
        """Play until the end or the human's ``quit``: the last state, and whether it ended."""
        from solver.cmdkit import progress_of
        from solver.play import MAX_ACTIONS, sample_chance
        from solver.rng import check_seed

        dice = SplitMix64(check_seed(self.args.seed))
        state = self.start.clone()
        watching = self.args.human
        while not state.is_terminal():
            if len(self.steps) >= MAX_ACTIONS:
                raise OptionError(f"the game did not end within {MAX_ACTIONS} actions")
            before = dice.state
            if state.is_chance_node():
                action = sample_chance(state, dice)
                if watching:
                    self.chance(shown_label(state, action, 0))
            elif self.seats[state.current_player()] == HUMAN:
                self.chance(None)
                answer = self.ask(state)
                if answer == "quit":
                    return state, False
                if answer == "undo":
                    state = self.undo(state, dice)
                    continue
                assert isinstance(answer, int)
                self.human_plies.append(len(self.steps))
                action = answer
            else:
                seat = state.current_player()
                key = tuple(step.action for step in self.steps)
                if key not in self.agent_moves:  # the same position after an undo: same move
                    what = f"player {seat} ({self.seats[seat]}) is thinking"
                    with progress_of(self.args, what):
                        self.agent_moves[key] = self.agents[seat](state)
                action = self.agent_moves[key]
                if watching:
                    self.chance(None)
                    self.screen.print(
                        f"player {seat} ({self.seats[seat]}): {shown_label(state, action, 0)}"
                    )
            self.steps.append(_Step(action, state.action_to_string(action), before))
            self.apply(state, action, watching)
        self.chance(None)
        return state, True

    def apply(self, state: Any, action: int, watching: bool) -> None:
        """Play ``action`` on ``state``; watching, print the turns it spent with no decision
        (the game's ``quiet_turns``: the dog's skipped turn, say, and why)."""
        quiet = self.spec.quiet_turns if watching else None
        if quiet is None:
            state.apply_action(action)
            return
        before = state.clone()
        state.apply_action(action)
        lines = quiet(self.game, before, state)
        if lines:
            self.chance(None)
        for line in lines:
            self.screen.print(line, style="yellow")

    def chance(self, label: str | None) -> None:
        """Print a chance outcome, folding a run of hidden ones into one line (a Trial set-up
        deals the other seats a dozen cards and tents: a dozen lines of '(hidden from you)');
        ``None``: the run ends (before anything else is printed)."""
        if label == HIDDEN_LABEL:
            self.hidden_run += 1
            return
        if self.hidden_run:
            what = "chance event" if self.hidden_run == 1 else "chance events"
            self.screen.print(f"chance: {self.hidden_run} {what} {HIDDEN_LABEL}", style="cyan")
            self.hidden_run = 0
        if label is not None:
            self.screen.print(f"chance: {label}", style="cyan")

    def undo(self, state: Any, dice: Any) -> Any:
        """Back to the human's previous decision (the current one when the human has not moved
        since): the actions from there are taken back and the dice rewound."""
        ply = len(self.steps)
        earlier = [p for p in self.human_plies if p < ply]
        if not earlier:
            self.screen.print("nothing to undo: this is your first move", style="red")
            return state
        back = earlier[-1]
        self.human_plies = [p for p in self.human_plies if p < back]
        dice.state = self.steps[back].dice_before
        del self.steps[back:]
        state = self.start.clone()
        for step in self.steps:
            state.apply_action(step.action)
        self.screen.print(
            "took back your move and what followed it: it is your move again", style="cyan"
        )
        return state

    # -- the human's decision ---------------------------------------------------------------------
    def ask(self, state: Any) -> int | str:
        """The human's answer at ``state``: a legal action, ``"undo"`` or ``"quit"``."""
        if self.spec.render_text is not None:
            self.screen.print(self.spec.render_text(self.game, state))
        legal = state.legal_actions()
        labels = [str(state.action_to_string(a)) for a in legal]
        self.screen.print(f"player {state.current_player()} (you) to move:", style="bold")
        for number, label in enumerate(labels, 1):
            self.screen.print(f"  {number}. {label}")
        folded = [_folded(label) for label in labels]
        for _ in range(MAX_PROMPTS):
            reply = self.read_answer()
            word = ALIASES.get(_folded(reply), _folded(reply))
            chosen = _move_number(reply, len(legal))
            if chosen is not None:
                return int(legal[chosen - 1])
            if word in folded:
                return int(legal[folded.index(word)])
            if word in ("quit", "undo"):
                return word
            if word == "help":
                self.help(state)
            elif word == "hint":
                self.hint(state)
            elif reply:
                self.screen.print(
                    f"{shortened(reply)!r} is not a move here: answer 1 to {len(legal)}, a "
                    "move's label, or help",
                    style="red",
                )
        raise OptionError(f"no move chosen after {MAX_PROMPTS} answers")

    def read_answer(self) -> str:
        """One answer read at the prompt (stripped); the input's end or a stdin that cannot be
        read is an error."""
        try:
            return self.read("move (number or label), hint, undo, help, quit> ").strip()
        except EOFError:  # the prompt's line is left open (Ctrl-D echoes nothing): end it
            print(flush=True)
            raise _InputEnded("the input ended before the game did") from None
        except OSError as exc:  # no terminal to read from (a captured or closed stdin)
            raise OptionError(f"cannot read your moves: {exc}") from None

    def help(self, state: Any) -> None:
        self.screen.print("answer a move's number or its label (any case), or:")
        for word, what in COMMANDS.items():
            self.screen.print(f"  {word:<5} {what}")
        self.legend(state)

    def legend(self, state: Any) -> None:
        """What the drawing's symbols mean (``forest GAME show``'s legend), where the game has
        one: printed before the first position and by ``help``."""
        if self.spec.legend is not None:
            self.screen.print(self.spec.legend(self.game, state))

    def hint(self, state: Any) -> None:
        if self.hinter is None:
            self.screen.print("no hint: this table has no hint engine", style="red")
            return
        try:
            report = self.hinter(self.spec, state, self.args, observer=0, top=HINT_MOVES)
        except OptionError as exc:
            self.screen.print(f"no hint: {exc}", style="red")
            return
        exact = bool(report.get("exact"))
        rows = [[str(rank), m["label"], f"{m['value']:.4f}",
                 NO_VISITS if exact else str(m["visits"]),
                 line_text(m["pv"][1:], 5, m.get("pvChance", ())[1:])]
                for rank, m in enumerate(report["moves"], 1)]  # fmt: skip
        self.screen.table(f"hint: {report['what']}", ["#", "move", "value", "visits", "then"], rows)
        for note in report.get("notes", ()):  # as best-move says them: ties, caps, whose view
            self.screen.print(f"note: {note}")


def _result_lines(spec: GameSpec, state: Any, seats: list[str], finished: bool) -> list[str]:
    """Who won (or where the game was left), and the scores."""

    def name(seat: int) -> str:
        return "you" if seats[seat] == HUMAN else f"player {seat} ({seats[seat]})"

    returns = state.returns()
    if not finished:
        return []
    scores = spec.scores(state) if spec.scores is not None else returns
    if len(returns) == 1:  # solo: the score too, where the game keeps one (guardians' VP)
        won = returns[0] > 0.5
        said = ("you won!" if won else "you lost") if seats[0] == HUMAN else (
            f"{name(0)} {'won' if won else 'lost'}")  # fmt: skip
        return [said] + ([f"score: {scores[0]:g}"] if spec.scores is not None else [])
    best = max(returns)
    first = [seat for seat, value in enumerate(returns) if value == best]
    if len(first) == 1:
        verb = "win" if seats[first[0]] == HUMAN else "wins"
        lines = [f"{name(first[0])} {verb}"]
    else:
        lines = ["shared first place: " + ", ".join(name(seat) for seat in first)]
    lines.append("scores: " + ", ".join(f"{name(s)} {v:g}" for s, v in enumerate(scores)))
    return lines


class _InputEnded(OptionError):
    """The human's input ended before the game did (an error: status 2)."""


def play_recorded(
    spec: GameSpec,
    args: argparse.Namespace,
    opened: Opened,
    names: list[str],
    *,
    hinter: Hinter | None = None,
) -> int:
    """Play one game (seat 0 human with ``--human``), show it, and write ``--record``.
    ``hinter`` answers the human's ``hint`` (``forest GAME play`` passes
    :func:`solver.cli_search.hint_report`; passed in, so this module imports no command's)."""
    from solver.agents import make_agent
    from solver.rng import derive_seed

    if args.record:
        from solver.cmdkit import check_output

        check_output(args.record, overwrite=args.overwrite)  # before a game of minutes
    game = opened.game
    seats = [HUMAN if args.human and seat == 0 else names[seat] for seat in range(len(names))]
    agents = {
        seat: make_agent(name, game, seed=derive_seed(args.seed, seat),
                         iterations=args.iterations, memory_mb=args.memory_mb)
        for seat, name in enumerate(seats) if name != HUMAN
    }  # fmt: skip
    table = _Table(spec, game, opened.state, args, seats, agents, read=input, hinter=hinter)
    if args.human:
        table.screen.print("you are player 0; answer help for the commands", style="bold")
        table.legend(opened.state)
    try:
        state, finished = table.play()
    except _InputEnded:
        if args.record:  # the moves made so far are kept, as after quit
            _write_record(spec, args, opened, table, None)
        raise
    screen = table.screen
    played = len(table.steps)
    if args.human and finished and spec.render_text is not None:
        screen.print(spec.render_text(game, state))
    if finished:
        screen.print(f"game over after {count(played, 'action')}", style="bold")
    else:
        screen.print(f"you left the game after {count(played, 'action')}", style="bold")
    for line in _result_lines(spec, state, seats, finished):
        screen.print(line, style="bold")
    if args.record:
        _write_record(spec, args, opened, table, state if finished else None)
    return 0


def _engine_of(spec: GameSpec, args: argparse.Namespace, opened: Opened) -> str:
    """The engine the game was opened with: its ``engine`` attribute where the game has one
    (the built-in games do), else the one the spec chose (the protocol does not ask a plug-in's
    game for it)."""
    engine = getattr(opened.game, "engine", None)
    return engine if isinstance(engine, str) else spec.chosen_engine(getattr(args, "engine", None))


def _write_record(
    spec: GameSpec, args: argparse.Namespace, opened: Opened, table: _Table, final: Any
) -> None:
    """``--record``: the game's record, marked unfinished when ``final`` is None."""
    from solver.cmdkit import write_output
    from solver.review import game_record

    start: dict[str, Any] = {}
    from_file = spec.source_option is None and getattr(args, "file", None) is not None
    if from_file or getattr(args, "state_given", False):
        # no option names the game's file, or the game started from a saved state (or a
        # record's end): the review starts from the position itself
        start["state"] = opened.state.to_json()
    record = game_record(
        spec.name, record_options(spec, opened, args), args.seed,
        [step.action for step in table.steps], **start,
        labels=[step.label for step in table.steps],
        agents=table.seats, engine=_engine_of(spec, args, opened),
        returns=None if final is None else final.returns(), finished=final is not None,
    )  # fmt: skip
    write_output(json.dumps(record, indent=1), args.record, overwrite=args.overwrite)
    table.screen.print(f"wrote {args.record}")
