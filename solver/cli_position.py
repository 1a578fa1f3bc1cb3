"""Opening the position a command names: FILE, ``--engine``, ``--players``, ``--state``.

Shared by the commands every game gets (:mod:`solver.cli_game`, :mod:`solver.cli_search`,
:mod:`solver.cli_human`), so each reads a game's file, a puzzle name or a saved state the same
way, and refuses the same mistakes with the same one-line errors.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from solver import option_values, puzzles
from solver.cmdkit import decimal_written, positive_float_up_to, read_state_text, read_text_file
from solver.errors import (
    DuplicateKeyError,
    FormatError,
    OptionError,
    SolverError,
    close_names,
    json_quoted,
    path_said,
    printable,
    shortened,
)
from solver.files import file_format_error, parse_json, read_head
from solver.game import LabelReader, State, Why, play_item
from solver.json_objects import loads
from solver.review import RecordError, open_record
from solver.spec import GameSpec, Opened

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_MEMORY_MB",
    "game_options",
    "memory_mb",
    "open_position",
    "value_view",
]

DEFAULT_ITERATIONS = 1000
"""``best-move``'s and ``review``'s MCTS simulations a search, where no exact answer fits."""
DEFAULT_MEMORY_MB = 1024.0
"""The exact search's table cap (``--memory-mb``)."""


def memory_mb(text: str) -> float:
    """A memory cap in megabytes (``--memory-mb``, serve's ``--max-memory-mb``): positive and at
    most what a search takes (``solver.search.limit.MAX_MEMORY_MB``), refused by the option's
    name. ``best-move --memory-mb 1e308`` said 'memory_mb must be at most ...', the API's word."""
    from solver.search.limit import MAX_MEMORY_MB

    return positive_float_up_to(MAX_MEMORY_MB)(text)


# -- opening a position ----------------------------------------------------------------------------
def _saved_state_file(spec: GameSpec, source: str | None) -> bool:
    """Whether FILE names a saved state (``.json``, as ``state.to_json()`` writes) rather than
    one of the game's own files."""
    if source is None or Path(source).suffix.lower() != ".json" or ".json" in spec.extensions:
        return False
    try:
        return Path(source).is_file()
    except OSError:  # a folder on the way that cannot be searched: reading it will say so
        return True


def open_position(spec: GameSpec, args: argparse.Namespace) -> Opened:
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
        state_text = _saved_state_text(spec, args, source, state_text)
        state_path, source = source, None
        args.file_is_state = True  # not the game's file: play --record does not embed it
    args.state_given = state_text is not None
    record = _record_of(state_text, state_path or "--state") if state_text is not None else None
    if record is not None:  # play --record's, the web table's Save buttons': replayed
        return _open_record(spec, args, record, state_path or "--state", source)
    if players is None and state_text is not None and spec.state_players is not None:
        players = spec.state_players(state_text)
    if players is not None and players not in spec.players:
        allowed = ", ".join(str(p) for p in spec.players)
        raise OptionError(f"{spec.name} is played by {allowed} player(s), not {players}")
    recorded = _recorded_options(spec, state_text)
    try:
        opened = _open(spec, args, source, players, recorded)
    except SolverError:
        if source is not None and _looks_saved(source) and ".json" not in spec.extensions:
            raise OptionError(_a_state_as_file(spec, source)) from None
        raise
    if players is not None and opened.game.num_players() != players:
        # a file that fixes its own player count (a saved state) never silently overrides
        raise OptionError(
            f"{path_said(opened.source)} is a game of {opened.game.num_players()} player(s), "
            f"not the {players} --players asks for"
        )
    if state_text is None:
        return opened
    return Opened(
        game=opened.game,
        state=_read_state(spec, args, opened, state_text, state_path),
        source=opened.source,
    )


def _saved_state_text(
    spec: GameSpec, args: argparse.Namespace, source: str, state_text: str | None
) -> str:
    """The text of FILE given as a saved state (a ``.json`` name): refused when it holds the
    game's own file, beside ``--state``, and for a game whose states go with the file they were
    played on (it says how to give both)."""
    text = read_text_file(source, "saved state")
    if _record_of(text, source) is not None:  # a game record as FILE: replayed (open_position)
        if state_text is not None:
            raise OptionError(
                f"{path_said(source)} is a game record: give it as FILE or as --state, not both"
            )
        return text
    if not _looks_saved(source, text) and _game_file(spec, args, source):
        kind = spec.extensions[0]
        raise OptionError(
            f"{path_said(source)} is a {spec.name} {kind} file, not a saved state (what a .json "
            f"FILE must be): rename it {path_said(Path(source).stem + kind)}"
        )
    if state_text is not None:
        raise OptionError(
            f"{path_said(source)} is a saved state: give it as FILE or as --state, not both"
        )
    if not spec.default_source:
        raise OptionError(_a_state_as_file(spec, source))
    return text


def _looks_saved(path: str, text: str | None = None) -> bool:
    """Whether the file ``path`` (its ``text`` when read already) holds JSON, as a saved state
    does (``False`` for a file that cannot be read without blocking, or is no regular file: a
    FIFO, ``/proc/kmsg``; the caller's error stands)."""
    if text is None:
        head = read_head(path, 64)  # without blocking: /proc/kmsg is a "regular" file too
        if head is None:
            return False
        text = head.decode("utf-8", "replace")
    return text.lstrip().startswith("{")


def _game_file(spec: GameSpec, args: argparse.Namespace, path: str) -> bool:
    """Whether the game's opener reads ``path`` as one of the game's own files."""
    if not spec.extensions or ".json" in spec.extensions:
        return False
    try:
        spec.open(path, engine=args.engine, players=None, **game_options(spec, args))
    except Exception:  # any failure: not a file of the game's
        return False
    return True


def _a_state_as_file(spec: GameSpec, source: str) -> str:
    """The error for a saved state given as FILE where the game wants its own file there."""
    said = path_said(source)
    if not spec.extensions:
        return f"{said} is a saved {spec.name} state: give it as --state {said}"
    kind = spec.extensions[0]
    if spec.default_source:
        return (
            f"{said} is a saved {spec.name} state, not a {kind} file: give it as --state "
            f"{said} (or name it .json)"
        )
    return (
        f"{said} is a saved {spec.name} state, not a {kind} file (FILE): give the {kind} file "
        f"it was played on as FILE and --state {said}"
    )


def _recorded_options(spec: GameSpec, state_text: str | None) -> dict[str, Any]:
    """The game options the saved state records (``spec.state_options``; a solo guardians
    state's level), taken where ``--option`` gives none: the game the state was saved in."""
    if state_text is None or spec.state_options is None:
        return {}
    return dict(spec.state_options(state_text))


def _open(
    spec: GameSpec,
    args: argparse.Namespace,
    source: str | None,
    players: int | None,
    recorded: dict[str, Any] | None = None,
) -> Opened:
    """The game's opener on FILE (or the default set-up), with the options ``--option`` gives
    over those the saved state records (``recorded``); a file it cannot read is named."""
    options = {**(recorded or {}), **game_options(spec, args)}
    try:
        return spec.open(source, engine=args.engine, players=players, **options)
    except FormatError as exc:  # a parse error names the file it is about
        if source is None or path_said(source) in str(exc) or not os.path.isfile(source):
            raise
        raise OptionError(f"{path_said(source)}: {exc}") from None
    except UnicodeDecodeError as exc:  # a game's opener reading a file that is not text
        raise OptionError(f"{path_said(source)}: not UTF-8 text (byte {exc.start})") from None
    except RecursionError:
        raise OptionError(f"{path_said(source)}: nested too deeply to read") from None
    except OSError as exc:  # a plug-in's opener reading a FILE that is missing, a folder...
        if source is None or exc.filename is None:
            raise
        raise OptionError(f"{path_said(source)}: {exc.strerror or exc}") from None
    except OptionError as exc:  # `forest dog show stick`: a missing file a puzzle's name ends
        command = f"use forest {{other}} {getattr(args, 'command', '')}".rstrip()
        wrong = None if source is None else puzzles.other_game(source, spec.name, command)
        if wrong is not None:  # `forest trial show guardians/order-trap`: the game's mismatch
            raise OptionError(wrong) from None
        meant = _puzzles_meant(spec, source)
        if not meant:
            raise
        raise OptionError(f"{exc}; did you mean the puzzle {' or '.join(meant)}?") from None


def _puzzles_meant(spec: GameSpec, source: str | None) -> list[str]:
    """The game's puzzles a missing FILE named with no folder may have meant: its name (less
    the game's extension) is a puzzle's, or close to some (``stick``, ``stik.forest`` ->
    ``dog/stick``). A path or a ``GAME/NAME`` has its own error (close puzzle names there)."""
    from solver import puzzles

    if source is None or spec.puzzles is None or "/" in source or os.path.lexists(source):
        return []
    stem = os.path.basename(source)
    for extension in spec.extensions:
        stem = stem.removesuffix(extension)
    names = puzzles.names(spec.name)
    stems = {name.split("/", 1)[1]: name for name in names}
    if stem in stems:
        return [stems[stem]]
    return [stems[s] for s in close_names(stem, stems)]


def _read_state(
    spec: GameSpec,
    args: argparse.Namespace,
    opened: Opened,
    state_text: str,
    state_path: str | None,
) -> State:
    """The saved state in ``state_text``; an error names ``state_path`` when it came from one
    (and says so when that file is one of the game's own, not a state)."""
    try:
        try:
            return opened.game.state_from_json(state_text)
        except RecursionError:
            raise FormatError("a state nested less deeply", line=1, column=1) from None
    except FormatError as exc:
        if state_path is None:
            raise
        if not _looks_saved(state_path, state_text) and _game_file(spec, args, state_path):
            kind = spec.extensions[0]
            path = Path(state_path)
            named = (
                f" named {path_said(path.stem + kind)}" if path.suffix.lower() == ".json" else ""
            )
            raise OptionError(
                f"{path_said(state_path)} is a {spec.name} {kind} file, not a saved state (what "
                f"--state takes): give it as FILE{named}"
            ) from None
        # the error names the file, and never quotes the start of one that is not JSON at all
        raise OptionError(str(file_format_error(exc, state_path, state_text))) from None


def _record_of(text: str, where: str) -> dict[str, Any] | None:
    """The game record ``text`` holds (``{"game", "options", "actions", ...}``: ``play
    --record``'s, the web table's Save buttons' game or position) when it is one, else None.
    An object naming a key twice, record or state, is refused naming ``where`` (the file)."""
    try:
        data = loads(text)
    except DuplicateKeyError as exc:
        raise exc.in_file(where) from None
    except (ValueError, RecursionError):
        return None
    if (isinstance(data, dict) and isinstance(data.get("game"), str)
            and isinstance(data.get("actions"), list) and "options" in data):  # fmt: skip
        try:  # a record as the one JSON reader reads it: NaN or 1e400 is no JSON number
            parse_json(text, "a JSON game record")
        except FormatError as exc:
            raise file_format_error(exc, where, text) from None
        return data
    return None


def _open_record(
    spec: GameSpec,
    args: argparse.Namespace,
    record: dict[str, Any],
    where: str,
    source: str | None,
) -> Opened:
    """The position a game record ends at: its game rebuilt from ``game``/``options`` (and the
    saved ``state`` it started from, where it has one), its ``actions`` replayed. Refused in one
    line: a record of another game, beside a FILE or ``--option`` it does not hold, an action
    that is not legal where the record plays it (its index and label)."""
    game = record["game"]
    if game != spec.name:
        from solver.registry import registered_games

        if game not in registered_games():  # no command reads it: none is named
            raise OptionError(
                f"{path_said(where)} is a record of {shortened(game)!r}, no game of forest's "
                f"(its games: {', '.join(registered_games())})"
            )
        raise OptionError(
            f"{path_said(where)} is a {game} game record, not a {spec.name} one: "
            f"forest {game} reads it"
        )
    options = record["options"]
    if not isinstance(options, dict):
        raise OptionError(f'{path_said(where)}: a game record\'s "options" is an object')
    if source is not None:
        how = "as FILE or --state" if spec.default_source else "as FILE"
        raise OptionError(
            f"{path_said(where)} is a {game} game record, which holds its own game: give it "
            f"alone ({how}), not beside FILE {path_said(source)}"
        )
    base = {"game": game, "options": options, "state": record.get("state"), "engine": args.engine}
    try:
        opened = open_record(base, [], allow_paths=True)
    except RecordError as exc:
        raise OptionError(f"{path_said(where)}: {exc}") from None
    _check_record_options(opened.game, base, game_options(spec, args), _typed(args), where)
    state = opened.state
    labels = record.get("labels")
    actions = record["actions"]
    if not isinstance(labels, list) or len(labels) != len(actions):
        labels = [None] * len(actions)
    reader = LabelReader(state)  # labels read on the state's label twin, where it has one
    for index, (item, label) in enumerate(zip(actions, labels, strict=True)):
        _replay_one(state, reader, item, label, index, where)
    players = getattr(args, "players", None)
    if players is not None and opened.game.num_players() != players:
        raise OptionError(
            f"{path_said(where)} is a game of {opened.game.num_players()} player(s), not the "
            f"{players} --players asks for"
        )
    args.record_options = dict(options)  # play --record writes the game it was opened as
    return Opened(game=opened.game, state=state, source=where)


def _check_record_options(
    game: Any, base: dict[str, Any], asked: dict[str, Any], typed: dict[str, str], where: str
) -> None:
    """Refuse (one line) a record whose game's options are not what ``--option`` asks for,
    quoting each as typed (``typed``: ``tiles=my.json``, not JSON's ``tiles="my.json"``).

    An option whose value differs from the record's as written (``open_backs=false`` for a
    record that omits it) is compared as the games hold it: the record's ``game`` and the game
    opened with the asked values, each option read as the game's own attribute of that name, so
    an explicit default is the same game while a different value is still refused."""
    options = base["options"]
    differing = {name: value for name, value in asked.items() if options.get(name) != value}
    if not differing:
        return
    wanted = _game_with(base, differing)
    for name, value in differing.items():
        if wanted is None or not _same_option(game, wanted, name):
            had = f"the default {name}"
            if name in options:
                had = f"{name}={json_quoted(options[name])}"
            raise OptionError(
                f"{path_said(where)} is a record of a game with {had}, not the "
                f"{name}={printable(shortened(typed.get(name, json_quoted(value))))} --option "
                "asks for"
            )


def _typed(args: argparse.Namespace) -> dict[str, str]:
    """``--option NAME=VALUE``'s values as typed, by name (:func:`game_options` reads them)."""
    typed = {}
    for item in getattr(args, "option", None) or []:
        name, _, value = item.partition("=")
        typed[name.strip()] = value.strip()
    return typed


def _game_with(base: dict[str, Any], changed: dict[str, Any]) -> Any:
    """The game the record ``base`` opens with ``changed`` over its options (``None`` when those
    values build no game: they are then not the record's)."""
    options = {**base["options"], **changed}
    try:
        return open_record({**base, "options": options}, [], allow_paths=True).game
    except (SolverError, ValueError, OSError):
        return None


def _same_option(game: Any, other: Any, name: str) -> bool:
    """Whether two games hold the same value of option ``name`` (their attribute of that name;
    a game that does not expose it is never taken as the same)."""
    missing = object()
    mine = getattr(game, name, missing)
    return mine is not missing and mine == getattr(other, name, missing)


_RECORD_REFUSALS: dict[Why, str] = {
    "over": "comes after the end of the game",
    "unread": "is not legal where the record plays it",
    "not_an_action": "is neither an action id nor a label",
    "illegal": "is not legal where the record plays it",
    "refused": "is not legal where the record plays it",
}
"""What a record's refused action is said to be, by :func:`solver.game.play_item`'s
reason."""


def _replay_one(
    state: State, reader: LabelReader, item: Any, label: Any, index: int, where: str
) -> None:
    """Play the record's action ``index`` (an id or a label) in ``state``, or raise the one line
    saying why it is not legal there (its index and label)."""

    def refused(why: Why, action: int | None, exc: Exception | None) -> OptionError:
        said = _RECORD_REFUSALS[why] + (f" ({exc})" if why == "refused" else "")
        return OptionError(f"{path_said(where)}: the record's action {index}, "
                           f"{_named(state, item, label, action)}, {said}")  # fmt: skip

    play_item(state, item, refused, strict=True, labels=reader)


def _named(state: State, item: Any, label: Any, action: int | None) -> str:
    """A record's action as a refusal names it: its recorded label (else the label it was given
    as, else the game's label of its id, where the game can name it) and its id."""
    shown = label if isinstance(label, str) else None
    if shown is None and isinstance(item, str):
        shown = item
    if shown is None and action is not None:
        try:
            shown = state.action_to_string(action)
        except Exception:  # an id the game cannot name: the id alone
            shown = None
    if shown is None:  # as the record writes it (JSON: true, null), not as Python does
        return f"id {shortened(json.dumps(item, default=repr))}"
    return repr(shown) if isinstance(item, str) else f"{shown!r} (id {item})"


def game_options(spec: GameSpec, args: argparse.Namespace) -> dict[str, Any]:
    """``--option NAME=VALUE`` as the opener's keywords: only the names the game declares; a
    VALUE that reads as JSON (``3``, ``true``, ``[1, 2]``) is that value, else the text, which
    an option taking a boolean, a number or one of a few values refuses by name, as it does a
    value of another JSON type (:mod:`solver.option_values`: ``--option open_backs takes a
    boolean, true or false, not the text "yes"``, ``--option level takes one of 1, 2, 3, 4, 5,
    6, not the list [3]``). An option named twice is refused, as a request's repeated key is."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        name, equals, value = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise OptionError(f"--option takes NAME=VALUE, not {item!r}")
        if name not in spec.options:
            known = ", ".join(spec.options) or "none"
            unknown = shortened(name)
            raise OptionError(f"{spec.name} has no option {unknown!r} (its options: {known})")
        if name in options:  # the last one was taken, silently (a request's JSON refuses it)
            raise OptionError(f"--option {name} is given twice: give it once")
        try:
            options[name] = loads(value, parse_constant=_no_constant, parse_float=_finite)
        except DuplicateKeyError as exc:  # JSON, but read as no one value
            raise OptionError(f"--option {shortened(name)}: {exc}") from None
        except _OutOfRange as exc:  # 1e400: no number a float holds (it read as Infinity)
            raise OptionError(_out_of_range(spec, name, value, exc.text)) from None
        except ValueError:  # no JSON (NaN and Infinity included, which JSON has not): a text
            if _past_int_digits(value):  # a number, but of more digits than int() converts
                raise OptionError(_out_of_range(spec, name, value, value.strip())) from None
            options[name] = _whole_or_text(spec, name, value)
        except RecursionError:
            raise OptionError(f"--option {shortened(name)}: nested too deeply to read") from None
        refused = option_values.value_refusal(
            spec, name, options[name], f"--option {name}", typed=value
        )
        if refused is not None:
            raise OptionError(refused)
    return options


def _whole_or_text(spec: GameSpec, name: str, value: str) -> Any:
    """A VALUE that is no JSON, for option ``name``: the whole number it writes in decimal digits
    of any script (``level=٣``, ``level=05``), as a numeric flag reads them
    (:func:`solver.cmdkit.decimal_written`), where the option takes no text; else the text.
    ``--option level=٣`` was refused as 'not the text "٣"' while ``--iterations ٣`` ran."""
    written = decimal_written(value)
    if written is None or option_values.expected(spec, name) is None:
        return value  # no number, or an option that may take a text (a file's path)
    sign, significant = written
    most = sys.get_int_max_str_digits()
    if 0 < most < len(significant):  # a number, but of more digits than int() converts
        raise OptionError(_out_of_range(spec, name, value, value.strip()))
    return int(sign + (significant or "0"))


def _past_int_digits(text: str) -> bool:
    """Whether ``text`` is a JSON whole number (``-?[1-9][0-9]*``) of more digits than int()
    converts (``sys.get_int_max_str_digits()``), which JSON's reader refuses though it is one: a
    number out of range. ``05`` (JSON has no leading zero) is a text, not a number too large.
    """
    digits = text.strip().removeprefix("-")
    most = sys.get_int_max_str_digits()
    return digits.isascii() and digits.isdigit() and digits[0] != "0" and 0 < most < len(digits)


class _OutOfRange(Exception):
    """A number in ``--option``'s JSON too large for a float (``1e400``); ``text`` as typed. No
    ``ValueError``: the caller reads a ``ValueError`` as "no JSON, so a text"."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _finite(text: str) -> float:
    """JSON's ``parse_float`` refusing a number a float cannot hold (Python reads it as inf)."""
    value = float(text)
    if not math.isfinite(value):
        raise _OutOfRange(text)
    return value


def _no_constant(name: str) -> Any:
    """JSON's ``parse_constant``: ``NaN`` and ``Infinity`` are no JSON, so the value is a text."""
    raise ValueError(f"{name} is not a JSON number")


def _out_of_range(spec: GameSpec, name: str, value: str, number: str) -> str:
    """The refusal of ``--option NAME=VALUE`` holding a number out of a float's range: it quotes
    the number as typed and says what the option takes (``--option level takes one of 1, 2, 3,
    4, 5, 6, not the number 1e400, which is out of range``)."""
    whole = value.strip() == number
    said = f"the number {shortened(number)}" if whole else f"{shortened(value)!r}"
    why = "which is out of range" if whole else f"whose number {shortened(number)} is out of range"
    takes = option_values.takes(spec, name)
    if takes is None:
        return (
            f"--option {name}: {said} is out of range"
            if whole
            else f"--option {name}: {said}, {why}"
        )
    return f"--option {name} takes {takes}, not {said}, {why}"


def _hides(game: Any) -> bool:
    """Whether ``game`` declares hidden information (its spec's ``hidden_information``)."""
    from solver.registry import game_spec

    return game_spec(game.name).hidden_information


def value_view(opened: Opened, player: int | None) -> int:
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
