"""The ``forest`` command.

``forest GAME COMMAND``: every registered game gets ``show``, ``list``, ``render``,
``best-move``, ``solve``, ``play`` and ``review`` (:mod:`solver.cli_game`) plus its own commands;
``forest games`` lists the games, ``forest analyse`` runs batch analyses, ``forest hint`` and
``forest serve`` run the hint engine, ``forest --version`` prints the version.

Start-up is lazy: only the command named on the line is built (its module imported, its
arguments declared); every other command is a one-line stub for ``forest --help``, so ``forest
--version`` or ``forest dog show`` import no searcher, no CP-SAT, no pandas and no web framework
(``tests/test_startup.py``; ``bench/startup.py`` times it). A command that needs an optional extra
which is not installed (``forest serve`` without ``forest-solver[serve]``, ``forest analyse``
without ``[analysis]``) says so in one line naming the extra.

An error the user can cause (a bad file, a bad option, an illegal move) prints one line
``forest: error: ...`` on stderr and exits 2. Anything else is a bug: its traceback is printed
with a line asking to report it, exit 1, to forest-solver, or to a plug-in game's authors when the
innermost code of ours or theirs that raised it is the plug-in's (:func:`report_bugs`).

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
import os
import re
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from solver import command_clock
from solver.errors import (
    EXTRAS,
    MOST_QUOTED,
    InterruptedRun,
    MissingExtraError,
    OptionError,
    SolverError,
    close_names,
    missing_extra_error,
    shortened,
)

__all__ = ["EXTRAS", "OptionError", "build_parser", "main", "missing_extra"]

Handler = Callable[[argparse.Namespace], int]
REPORT_BUGS = "this is a bug in forest-solver: please report it with the command and the traceback"
REPORT_PLUGIN_BUGS = (
    "this is a bug in the plug-in {package} (the game {game}), not in forest-solver: please report "
    "it to the plug-in's authors with the command and the traceback"
)


def report_bugs(exc: BaseException) -> str:
    """Whose bug ``exc`` is, and where to report it: the innermost frame of its traceback in a
    plug-in game's package (docs/adding-a-game.md) blames that plug-in, by name; one in
    forest-solver's own code (or none of either), forest-solver."""
    registry = sys.modules.get("solver.registry")
    plugins = registry.plugin_packages() if registry is not None else {}
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        top = str(frame.f_globals.get("__name__", "")).partition(".")[0]
        if top in plugins:
            return REPORT_PLUGIN_BUGS.format(package=top, game=plugins[top])
        if top == "solver":
            break
    return REPORT_BUGS


# The commands that are not games: name -> (the function adding it, its one-line help). The help
# is repeated here so that ``forest --help`` lists them without importing their modules.
_BUILT_IN: dict[str, tuple[str, str]] = {
    "analyse": (
        "solver.analysis.cli_analyse:add_analyse_command",
        "analyse many instances of a game: classes, values, a report, curation",
    ),
    "hint": (
        "solver.hint.cli:add_hint_command",
        "the hint engine over JSON lines (stdin to stdout)",
    ),
    "serve": (
        "solver.hint.cli:add_hint_command",
        "the hint engine over HTTP, with the web table at /",
    ),
}


_ALIASES: dict[str, str] = {"analyze": "analyse"}
"""Other spellings of a command (declared by its parser with ``aliases=``): the command whose
parser is built when one is named."""


def missing_extra(exc: ModuleNotFoundError, what: str) -> OptionError | None:
    """The one-line error for ``what`` (``"forest serve"``) failing because an optional
    dependency is missing, or ``None`` when the missing module belongs to no extra."""
    err = missing_extra_error(exc, what)
    return OptionError(str(err)) if isinstance(err, MissingExtraError) else None


def _games(args: argparse.Namespace) -> int:
    from solver.catalog import describe_games

    rows: list[dict[str, Any]] = describe_games()  # the rows of GET /v1/games
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
    """argparse with one-line errors: ``forest dog play: error: ...`` and exit status 2, and no
    prefix abbreviations (``--game 3`` was read as ``--games 3``): an option is its whole name,
    and a word that is not one gets the close-name suggestion. Every sub-command's parser is
    one of these (``add_subparsers`` makes its parsers of the parent's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """One line: a line break a user's word brought (``$'--x\\ny'``) is shown as ``\\n``,
        and a word that is no choice gets the close choices (``ply``: ``did you mean play?``)."""
        said = message.replace("\r", "\\r").replace("\n", "\\n")
        said = _LONG_QUOTE.sub(_quote_shortened, said) + (
            _command_of_its_own(message) or _choice_meant(message)  # serve: not "solve?"
        )
        self.exit(2, f"{self.prog}: error: {said} (see {self.prog} --help)\n")


_LONG_QUOTE = re.compile(rf"'([^']{{{MOST_QUOTED + 1},}})'")
"""A quoted word of a user's longer than a message quotes (``--games`` given 5,000 digits)."""


def _quote_shortened(found: re.Match[str]) -> str:
    """The quoted word as a message quotes it: its start and its length (:func:`shortened`).

    >>> _quote_shortened(_LONG_QUOTE.search("found '" + "1" * 70 + "'"))
    "'111111111111111111111111111111111111111111111111111111111111...' (70 characters)"
    """
    word = found[1]
    return f"'{word[:MOST_QUOTED]}...' ({len(word)} characters)"


_INVALID_CHOICE = re.compile(r"invalid choice: (?P<word>.*) \(choose from (?P<choices>.*)\)$")
"""argparse's refusal of a word that is none of a command's or an option's choices (the word as
Python's ``repr`` writes it: ``'pl\\udce9y'`` for the byte 0xE9 of a non-UTF-8 terminal)."""


def _choice_meant(message: str) -> str:
    """The choices close to the word an ``invalid choice`` refusal names (``dgo``: ``; did you
    mean dog?``), or nothing.

    >>> _choice_meant("argument COMMAND: invalid choice: 'ply' (choose from 'show', 'play')")
    '; did you mean play?'
    """
    import difflib

    found = _INVALID_CHOICE.search(message)
    if found is None:
        return ""
    choices = re.findall(r"'([^']*)'", found["choices"]) or found["choices"].split(", ")
    by_form = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(_comparable(found["word"]), by_form, n=2, cutoff=0.6)
    return f"; did you mean {' or '.join(by_form[c] for c in close)}?" if close else ""


def _command_of_its_own(message: str) -> str:
    """Where a game's command is a command of ``forest`` itself (``forest dog analyse``, as
    every other command is ``forest GAME ...``), where it is (a new user's pass: the refusal
    listed the game's commands alone), or nothing.

    >>> _command_of_its_own("argument COMMAND: invalid choice: 'analyse' (choose from 'show')")
    "; analyse is a command of its own, not a game's: forest analyse --help"
    """
    found = _INVALID_CHOICE.search(message)
    word = _comparable(found["word"]) if found and message.startswith("argument COMMAND") else ""
    if word not in _BUILT_IN and word not in _ALIASES:
        return ""
    return f"; {word} is a command of its own, not a game's: forest {word} --help"


def _comparable(quoted: str) -> str:
    """The word argparse quoted (by ``repr``, or plainly) as it is compared with the choices: in
    lower case (``PLAY``: play), and a byte a non-UTF-8 terminal sent (``pl\\xe9y``, which
    Python holds as the surrogate ``\\udce9``) read as Latin-1 (``pléy``: play), as a UTF-8
    ``é`` would have been.

    >>> _comparable(repr("pl\\udce9y")), _comparable("'PLAY'")
    ('pléy', 'play')
    """
    import ast

    try:
        word = ast.literal_eval(quoted)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        word = None
    if not isinstance(word, str):
        word = quoted.strip("'\"")
    return "".join(chr(ord(c) - 0xDC00) if 0xDC80 <= ord(c) <= 0xDCFF else c for c in word).lower()


def _innermost(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The (sub-)parser of the command ``args`` ran: ``forest guardians order``'s for an
    argument it does not take, so its error points at ``forest guardians order --help``, not at
    ``forest --help``."""
    while True:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = getattr(args, action.dest, None)
                if chosen in action.choices:
                    parser = action.choices[chosen]
                    break
        else:
            return parser


def _meant(parser: argparse.ArgumentParser, unknown: list[str]) -> str:
    """The command's options close to a misspelt one (``--agnet``: ``; did you mean
    --agent?``), or to a shortened one, which is no longer read as the option it starts
    (``--iter``: ``; did you mean --iterations?``), or nothing."""
    options = [o for action in parser._actions for o in action.option_strings if o[:2] == "--"]
    for word in (w.split("=", 1)[0] for w in unknown if w.startswith("--")):
        if word == "--":  # no name at all (``--=``, a stray ``--``): every option starts so
            continue
        close = close_names(word, options)
        longer = [o for o in options if o.startswith(word) and o not in close]
        if close or longer:
            return f"; did you mean {' or '.join((close + longer)[:3])}?"
    return ""


def _version() -> str:
    from solver import __version__

    return f"forest {__version__}"


def _add(commands: Any, reference: str) -> None:
    """Import ``"module:function"`` and let it add its commands (a missing optional dependency
    propagates as ``ModuleNotFoundError``, which :func:`main` words with the extra to install)."""
    import importlib

    module, _, function = reference.partition(":")
    getattr(importlib.import_module(module), function)(commands)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``forest`` parser, with one sub-command per registered game.

    ``command``: build only that command in full (its module imported, its arguments declared);
    every other one is a stub that ``forest --help`` lists (``""``: stubs only). ``None``: every
    command in full.
    """
    from solver.registry import game_specs

    parser = _Parser(prog="forest", description="Play, solve and analyse the forest games.")
    parser.add_argument("--version", action="version", version=_version())
    commands = parser.add_subparsers(dest="game", required=True, metavar="COMMAND")
    p = commands.add_parser("games", help="list the registered games")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(handler=_games)
    built: set[str] = set()
    for name, (reference, summary) in _BUILT_IN.items():
        group = [n for n, (r, _) in _BUILT_IN.items() if r == reference]
        if reference in built:
            continue
        if command is None or command in group:
            _add(commands, reference)  # adds every command of its group (hint and serve)
            built.add(reference)
        else:
            commands.add_parser(name, help=summary)
    for spec in game_specs():
        if command is None or command == spec.name:
            from solver.cli_game import add_game_commands

            add_game_commands(commands, spec)
        else:
            commands.add_parser(spec.name, help=f"{spec.title}: {spec.summary}")
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named on the line: the first word that is not an option."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


def _named(words: list[str]) -> str:
    """The command ``words`` name, as a user would say it: ``serve`` (not ``serve --port``),
    ``dog review`` (a game's command), ``analyse``."""
    from solver.registry import registered_games

    games = set(registered_games())
    named: list[str] = []
    for word in words:
        if word.startswith("-"):
            break
        named.append(word)
        if named[0] not in games or len(named) == 2:
            break
    return " ".join(named)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``forest`` command; returns the exit status. Its clock
    (:mod:`solver.command_clock`) starts at the process's start when ``argv`` is not given (the
    real command line: a budget such as ``--seconds`` counts Python's start-up), else now.
    A line stderr cannot take (a full disk, ``2>/dev/full``) is dropped: the status stays the
    command's (an error's 2, a finished analysis's 0), where the failed write of a note or of
    the error line itself raised on, a traceback nobody could read and status 1."""
    from solver.stream_guards import StderrGuard

    stderr = sys.stderr
    if stderr is not None:
        sys.stderr = StderrGuard(stderr)
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr


def _main(argv: Sequence[str] | None) -> int:
    command_clock.mark(from_process_start=argv is None)
    words = list(sys.argv[1:] if argv is None else argv)
    command = _command_of(words)
    command = _ALIASES.get(command, command) if command is not None else None
    if command is None and words[:1] == ["--version"]:
        print(_version())  # the commonest call, answered before any parser is built
        return 0
    try:
        parser = build_parser(command if command is not None else "")
    except ModuleNotFoundError as exc:  # first: a MissingExtraError is named for the command
        error = missing_extra(exc, f"forest {command}")
        if error is None:
            raise
        print(f"forest: error: {error}", file=sys.stderr)
        return 2
    except SolverError as exc:  # e.g. a broken SOLVER_ENGINE or game declaration
        print(f"forest: error: {exc}", file=sys.stderr)
        return 2
    args, unknown = parser.parse_known_args(words)
    if unknown:  # named by the command they were given to, whose --help lists its options
        innermost = _innermost(parser, args)
        given = shortened(" ".join(unknown), 200)  # a hostile word of 5,000 characters: its start
        innermost.error(f"unrecognized arguments: {given}{_meant(innermost, unknown)}")
    return _run(args.handler, args, words)


def _run(handler: Handler, args: argparse.Namespace, words: list[str]) -> int:
    """The command's handler run: its exit status, or the one line (and status) an error gets
    (a bug: the traceback and where to report it)."""
    from solver.stream_guards import StdoutGuard

    stdout, stdin = sys.stdout, sys.stdin
    # a failed write says why; a closed stream (`>&-`, `<&-`: Python's None, which code that
    # asks isatty() or input() tripped on, a traceback) is /dev/null: output discarded, as
    # Python's print discards it there, and an empty input
    out = stdout if stdout is not None else open(os.devnull, "w")  # noqa: SIM115 - closed below
    given = stdin if stdin is not None else open(os.devnull)  # noqa: SIM115 - closed below
    sys.stdout, sys.stdin = StdoutGuard(out), given
    try:
        return handler(args)
    except BrokenPipeError:  # pragma: no cover - `forest ... | head`
        return 0
    except ModuleNotFoundError as exc:  # first: a MissingExtraError is named for the command
        error = missing_extra(exc, f"forest {_named(words)}".strip())
        if error is None:
            traceback.print_exc()
            print(f"forest: {report_bugs(exc)}", file=sys.stderr)
            return 1
        print(f"forest: error: {error}", file=sys.stderr)
        return 2
    except SolverError as exc:
        print(f"forest: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        # a terminal has echoed ^C where the cursor was (after a prompt): a line of its own
        start = "\n" if sys.stderr.isatty() else ""
        said = " ".join(str(exc).split()) if isinstance(exc, InterruptedRun) else ""
        print(f"{start}forest: {said or 'interrupted'}", file=sys.stderr)  # what was kept
        # 128 + the signal, as shells report it: 130 for Ctrl-C, 143 for a SIGTERM that
        # stopped a run (an exit, not a death by the signal, so the worker pool's own exit
        # handlers still run)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    except Exception as exc:
        traceback.print_exc()
        print(f"forest: {report_bugs(exc)}", file=sys.stderr)
        return 1
    finally:
        sys.stdout, sys.stdin = stdout, stdin
        for stream, was in ((out, stdout), (given, stdin)):
            if was is None:  # the /dev/null opened for a closed stream
                stream.close()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
