"""A request's position: the game its options open, the state it starts from, the actions played.

:func:`open_position` is shared by every endpoint that takes a position (hints, the web table's
pictures, reviews). The game is opened through its declaration (:class:`~solver.spec.GameSpec`:
``open``, ``open_text``, ``source_option``); games opened from a puzzle name or inline text are
cached. Nothing here knows any game.

A file option may name a path only where the transport allows it (stdio). Then only a regular
file is opened, without blocking (a FIFO, ``/dev/stdin`` or a device is refused by name before
any read), at most :data:`MAX_PATH_BYTES` of it is read, and an error about it names the path and
the problem (the parser's line, column and expectation), never the file's content. The file is
read without blocking too: a pseudo-file that stat calls regular but that waits for data
(``/proc/kmsg``) is refused, not waited on.
"""

from __future__ import annotations

import functools
import json
import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from solver import option_values
from solver.errors import (
    FormatError,
    OptionError,
    SolverError,
    json_quoted,
    path_said,
    shortened,
)
from solver.fields import JSONValue, shown
from solver.files import (
    bytes_said,
    irregular_kind,
    open_without_blocking,
    pseudo_file,
    read_without_blocking,
)
from solver.game import LabelReader, Refuse, Why, play_item
from solver.hint.errors import HintError
from solver.hint.ingress import parse_json
from solver.spec import GameSpec, Opened

if TYPE_CHECKING:
    from solver.game import State

__all__ = [
    "GAME_CACHE_SIZE",
    "MAX_PATH_BYTES",
    "OpenedPosition",
    "open_position",
    "read_path",
]

GAME_CACHE_SIZE = 32
"""Games opened from a puzzle name or inline text are kept (least recently used dropped), so a
stream of hints on one game does not read and parse its file every time."""

MAX_PATH_BYTES = 16 << 20
"""The most bytes read of a file a request names by path (16 MiB: no game file comes close)."""


@dataclass
class OpenedPosition:
    """A request's game, position and the actions replayed to reach it."""

    spec: GameSpec
    game: Any
    state: Any
    actions: list[int]
    line: list[dict[str, Any]] | None = None
    """Each replayed action from ``labels_from`` on as ``{"action", "label", "player"}`` (the
    player who chose it, -1 a chance outcome), for the web table's move list; empty unless
    :func:`open_position` was asked for labels."""


_GAMES: OrderedDict[str, Any] = OrderedDict()
_GAMES_LOCK = threading.Lock()


@functools.lru_cache(maxsize=64)
def _puzzle_names(folder: str) -> frozenset[str]:
    from solver import puzzles

    return frozenset(puzzles.names(folder))


def _cached_open(key: str, opener: Callable[[], Any]) -> Any:
    with _GAMES_LOCK:
        if key in _GAMES:
            _GAMES.move_to_end(key)
            kept = _GAMES[key]
            return Opened(game=kept.game, state=kept.state.clone(), source=kept.source)
    opened = opener()
    with _GAMES_LOCK:
        _GAMES[key] = opened
        while len(_GAMES) > GAME_CACHE_SIZE:
            _GAMES.popitem(last=False)
    return Opened(game=opened.game, state=opened.state.clone(), source=opened.source)


def _refuse_pseudo(name: str, field: str, what: str) -> None:
    """A kernel pseudo-file (``/proc/self/environ``: the engine's environment) is never read as
    a game, though it passes for a regular file."""
    real = pseudo_file(name)
    if real is not None:
        said, real_said = path_said(name), path_said(real)
        raise HintError(f"{field}: {said}: is a kernel pseudo-file ({real_said}), not a {what} "
                        "file", field, "bad_game")  # fmt: skip


def read_path(path: str, field: str, what: str) -> str:
    """The text of the regular file at ``path`` (a :class:`HintError` naming ``field``, the
    path and the problem otherwise). Opened without blocking, so a FIFO never stalls it."""
    name = path.strip()
    said = path_said(name)  # a path of 5,000 characters: its start and length
    _refuse_pseudo(name, field, what)
    try:
        fd = open_without_blocking(name)
    except FileNotFoundError:
        raise HintError(f"{field}: {said}: no such file", field, "bad_game") from None
    except OSError as exc:
        raise HintError(f"{field}: {said}: cannot open it: {exc.strerror}", field,
                        "bad_game") from None  # fmt: skip
    try:
        kind = irregular_kind(fd)
    except OSError as exc:
        os.close(fd)
        raise HintError(f"{field}: {said}: cannot read it: {exc.strerror}", field,
                        "bad_game") from None  # fmt: skip
    if kind is not None:
        os.close(fd)
        raise HintError(f"{field}: {said}: is {kind}, not a {what} file", field, "bad_game")
    try:
        data = read_without_blocking(fd, MAX_PATH_BYTES + 1)
    except BlockingIOError:
        raise HintError(f"{field}: {said}: reading it would wait for data, not a {what} file",
                        field, "bad_game") from None  # fmt: skip
    except OSError as exc:
        raise HintError(f"{field}: {said}: cannot read it: {exc.strerror}", field,
                        "bad_game") from None  # fmt: skip
    finally:
        os.close(fd)
    if len(data) > MAX_PATH_BYTES:
        raise HintError(f"{field}: {said}: larger than {bytes_said(MAX_PATH_BYTES)}, not a {what} "
                        "file", field, "bad_game")  # fmt: skip
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HintError(f"{field}: {said}: not a {what} file (not UTF-8 text at byte "
                        f"{exc.start})", field, "bad_game") from None  # fmt: skip


def _parse_problem(exc: Exception) -> str:
    """What a parser said about a file, without quoting the file (a FormatError's ``found``)."""
    if isinstance(exc, FormatError):
        return f"line {exc.line}, column {exc.column}: expected {exc.expected}"
    return str(exc)


def _open_path(
    spec: GameSpec,
    source: str,
    field: str,
    engine: str | None,
    players: int | None,
    extra: Mapping[str, Any],
) -> Opened:
    """A game named by a path (stdio only): a regular file, read here, errors without content."""
    what = f"{spec.name} {spec.file_parameter}" if spec.file_parameter != "source" else spec.name
    if spec.open_text is None:
        name = source.strip()
        _refuse_pseudo(name, field, what)
        try:
            mode = os.stat(name).st_mode
        except OSError as exc:
            raise HintError(f"{field}: {name}: {exc.strerror}", field, "bad_game") from None
        if not stat.S_ISREG(mode):
            raise HintError(f"{field}: {name}: not a regular file", field, "bad_game")
        try:
            return spec.open(name, engine=engine, players=players, **extra)
        except (SolverError, ValueError, OSError) as exc:
            raise HintError(f"{field}: {name}: not a {what} file ({_parse_problem(exc)})", field,
                            "bad_game") from None  # fmt: skip
    text = read_path(source, field, what)
    try:
        return spec.open_text(text, engine=engine, players=players, **extra)
    except (SolverError, ValueError) as exc:
        raise HintError(f"{field}: {source.strip()}: not a {what} file: {_parse_problem(exc)}",
                        field, "bad_game") from None  # fmt: skip


def _check_options(
    spec: GameSpec, engine: str | None, options: dict[str, Any], allow_paths: bool
) -> tuple[Any, dict[str, Any]]:
    """The request's player count and the game's own options (``GameSpec.options``: guardians'
    ``level``, as ``--option level=3``), which the opener takes as keywords. A game option given
    as text may name a file (guardians' ``tiles``), so it is taken only where paths are
    (stdio, the command line's review); elsewhere an object (the file's content) is. A text for
    an option that takes a boolean, a number or one of a few values is refused everywhere,
    naming what it takes (:func:`_text_refused`)."""
    players = options.get("players")
    if players is not None and (
        isinstance(players, bool) or not isinstance(players, int) or players not in spec.players
    ):
        allowed = ", ".join(str(p) for p in spec.players)
        said = players if type(players) is int else option_values.described(players)  # as JSON
        raise HintError(
            f"{spec.name} is played by {allowed} player(s), not {said}", "options.players"
        )
    known = {"players"} | ({spec.source_option} if spec.source_option else set())
    extra: dict[str, Any] = {}
    for key in options:
        if key in spec.options and key not in known:
            refused = _text_refused(spec, key, options[key], allow_paths)
            if refused is None and not isinstance(options[key], str):  # level: [3]
                refused = option_values.value_refusal(spec, key, options[key], f"options.{key}")
            if refused is not None:
                raise HintError(refused, f"options.{shortened(key)}")
            extra[key] = options[key]
        elif key not in known:
            expected = ", ".join(sorted(known | set(spec.options)))
            raise HintError(
                f"{spec.name} has no option {shortened(key)!r}; expected one of {expected}",
                f"options.{shortened(key)}",
            )
    if engine is not None and engine not in spec.engines:
        raise HintError(
            f"{spec.name} has no engine {engine!r}; expected one of "
            f"{', '.join(spec.engine_names())}",
            "engine",
        )
    return players, extra


_JSON_KINDS = {bool: "a boolean", int: "a number", float: "a number", list: "a list",
               dict: "an object", type(None): "null"}  # fmt: skip
"""What a text that reads as JSON stands for, as a refusal names it."""


def _text_refused(spec: GameSpec, key: str, value: Any, allow_paths: bool) -> str | None:
    """Why option ``key`` given as ``value`` is refused, or ``None``. Only a text is: one that
    reads as JSON (``"true"``, ``"3"``) names the value expected in its place (the boolean
    ``true``, not the text); any other names the option and what it takes, from the game's
    declaration or default (:mod:`solver.option_values`: ``options.open_backs takes a boolean,
    true or false, not the text "yes"``). An option that may take a text (a file's path, as
    far as the game's default says) is refused only where no path is read."""
    if not isinstance(value, str):
        return None
    words = option_values.expected(spec, key)
    if words is None and allow_paths:
        return None
    try:
        meant = json.loads(value)
    except (ValueError, RecursionError):
        meant = value
    kind = _JSON_KINDS.get(type(meant))
    fits = option_values.value_refusal(spec, key, meant, key) is None  # "3" for tiles: no
    if kind is not None and fits:
        expected = "a boolean, true or false" if isinstance(meant, bool) else kind
        return (
            f"options.{key}: expected {expected} ({shortened(json_quoted(meant))}), not the text "
            f"{json_quoted(shortened(value))}"
        )
    refused = option_values.text_refusal(spec, key, value, f"options.{key}")
    if refused is not None:
        return refused
    given = option_values.described(value)
    if option_values.takes_file(spec, key):  # guardians' tiles: a file's path or its JSON form
        return (
            f"options.{key} takes the file's JSON form (an object) here, not {given}: this "
            "transport never reads a path"
        )
    return (
        f"options.{key}: a text value may name a file, and this transport never reads a path; "
        f"give the value itself, not {given}"
    )


def _refuse_unknown_puzzle(spec: GameSpec, source: str, field: str, allow_paths: bool) -> None:
    """A ``GAME/NAME`` that names no puzzle (and, where paths are read, no file) is refused as
    the command line refuses it, with the puzzles close to it (``dog/stik``: ``close matches:
    'dog/stick'``), not as a missing file or a path this transport never reads."""
    if spec.puzzles is None or "\n" in source or not source.startswith(f"{spec.name}/"):
        return
    if allow_paths and os.path.lexists(source.strip()):
        return
    from solver import puzzles

    try:  # where no path is read, the refusal names no file: the puzzles are in GET /v1/games
        puzzles.path(source, files=allow_paths,
                     listing=None if allow_paths else "GET /v1/games lists them")  # fmt: skip
    except OptionError as exc:
        raise HintError(f"{field}: {exc}", field, "bad_game" if allow_paths else
                        "invalid_request") from None  # fmt: skip


def _open_game(
    spec: GameSpec, engine: str | None, options: dict[str, Any], allow_paths: bool
) -> Any:
    """The game the options name, opened (a cached game for puzzle names and inline text)."""
    players, extra = _check_options(spec, engine, options, allow_paths)
    field = f"options.{spec.source_option}" if spec.source_option else "options"
    source = options.get(spec.source_option) if spec.source_option else None
    try:
        if source is None:
            if not spec.default_source:
                raise HintError(
                    f"{spec.name} needs {field}: a puzzle name or the file's text", field
                )
            return _open_default(spec, engine, players, extra)
        if not isinstance(source, str) or not source.strip():
            paths = ", a file's text or its path" if allow_paths else " or a file's text"
            given = option_values.described(source)
            raise HintError(f"{field} must be a puzzle name{paths}, not {given}", field)
        return _open_source(spec, source, field, engine, players, extra, allow_paths)
    except HintError:
        raise
    except (SolverError, ValueError, OSError) as exc:
        if source is None:  # no file: the game's options are at fault (a level out of range)
            # a file named by an option's text (stdio's tiles path): that option's field
            said = str(exc)
            named = [
                key
                for key, value in extra.items()
                if isinstance(value, str) and said.startswith(path_said(value.strip()))
            ]
            at = f"options.{shortened(named[0])}" if len(named) == 1 else "options"
            raise HintError(f"{at}: {exc}", at) from None
        raise HintError(f"{field}: {exc}", field, "bad_game") from None


def _open_default(
    spec: GameSpec, engine: str | None, players: int | None, extra: dict[str, Any]
) -> Any:
    """The game's default set-up (no source option), cached as a puzzle's game is: opening the
    Trial compiles its content pack into C tables, 0.19 s of every hint and table step before.
    Options given as text are not cached: on stdio a text may name a file (guardians'
    ``tiles``), which may change between requests."""
    if any(isinstance(value, str) for value in extra.values()):
        return spec.open(None, engine=engine, players=players, **extra)
    key = json.dumps([spec.name, engine, players, None, extra], sort_keys=True)
    return _cached_open(key, lambda: spec.open(None, engine=engine, players=players, **extra))


def _open_source(
    spec: GameSpec,
    source: str,
    field: str,
    engine: str | None,
    players: int | None,
    extra: dict[str, Any],
    allow_paths: bool,
) -> Any:
    """The game a non-empty source option names: a puzzle name or a file's text (both cached),
    or a path where the transport allows one."""
    key = json.dumps([spec.name, engine, players, source, extra], sort_keys=True)
    if spec.puzzles is not None and source in _puzzle_names(spec.puzzles):
        return _cached_open(key, lambda: spec.open(source, engine=engine, players=players, **extra))
    _refuse_unknown_puzzle(spec, source, field, allow_paths)
    if "\n" in source:
        open_text = spec.open_text
        if open_text is None:
            raise HintError(f"{spec.name} cannot read a file's text", field, "unsupported")
        return _cached_open(key, lambda: open_text(source, engine=engine, players=players, **extra))
    if not allow_paths:
        raise HintError(
            f"{field}: {source[:80]!r} is not a puzzle name; this transport takes puzzle "
            "names and a file's text, never a path",
            field,
        )
    return _open_path(spec, source, field, engine, players, extra)


def _state_text(spec: GameSpec, state: Mapping[str, JSONValue] | str) -> str:
    """A request's ``state`` as canonical JSON text, checked clean (a string state is parsed)."""
    value = parse_json(state, ["state"], code="bad_state") if isinstance(state, str) else state
    try:
        return json.dumps(value)
    except (RecursionError, ValueError):
        raise HintError("state: nested too deeply", "state", "bad_state") from None


class PositionAsk(Protocol):
    """What :func:`open_position` reads of a request: the validated models of the service
    (``HintRequest``, ``PositionRequest``...) and the review's record alike."""

    @property
    def game(self) -> str: ...
    @property
    def engine(self) -> str | None: ...
    @property
    def options(self) -> Mapping[str, JSONValue]: ...
    @property
    def state(self) -> Mapping[str, JSONValue] | str | None: ...
    @property
    def actions(self) -> Sequence[int | str]: ...


def requested_spec(name: str) -> GameSpec:
    """The registered game a request names; a :class:`HintError` on its ``game`` field
    (``unknown_game``) otherwise."""
    from solver.registry import game_spec

    try:
        return game_spec(name)
    except OptionError as exc:
        raise HintError(str(exc), "game", "unknown_game") from None


def open_position(
    request: PositionAsk, *, allow_paths: bool = False, labels_from: int | None = None
) -> OpenedPosition:
    """The game, state and replayed actions a validated request names (a :class:`HintError`).
    ``labels_from``: the replayed actions from that index on are labelled in ``line`` (``None``:
    none). Labels, read or written, are read on the state's label twin where it has one
    (:class:`~solver.game.LabelReader`): the Trial's kernel decodes its state once for the
    whole replay."""
    spec = requested_spec(request.game)
    options = dict(request.options)
    text = None
    if request.state is not None:
        text = _state_text(spec, request.state)
        if "players" not in options and spec.state_players is not None:
            # a saved state says its player count (as `forest GAME best-move --state` reads it)
            try:
                count = spec.state_players(text)
            except (SolverError, ValueError, TypeError, KeyError, RecursionError):
                count = None
            if count is not None and count in spec.players:
                options["players"] = count
        if spec.state_options is not None:  # a solo guardians state's level, where none given
            try:
                recorded = spec.state_options(text)
            except (SolverError, ValueError, TypeError, KeyError, RecursionError):
                recorded = {}
            options = {**recorded, **options}
    opened = _open_game(spec, request.engine, options, allow_paths)
    game, state = opened.game, opened.state
    if text is not None:
        try:
            state = game.state_from_json(text)
        except RecursionError:
            raise HintError("state: nested too deeply", "state", "bad_state") from None
        except (SolverError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise HintError(f"state: {exc}", "state", "bad_state") from None
    line: list[dict[str, Any]] = []
    played = _replay(state, request, line, labels_from)
    return OpenedPosition(spec=spec, game=game, state=state, actions=played, line=line)


def _replay(
    state: State, request: PositionAsk, line: list[dict[str, Any]], labels_from: int | None
) -> list[int]:
    """Apply the request's actions (ids or labels) to ``state``; the ids played (``line``: each
    from ``labels_from`` on with its label and who chose it)."""
    played: list[int] = []
    labels = LabelReader(state)
    for index, item in enumerate(request.actions):
        before = None
        if labels_from is not None and index >= labels_from:
            before = functools.partial(_label_into, line, state, labels)
        refuse = _refusal(f"actions.{index}", item)
        played.append(play_item(state, item, refuse, labels=labels, before=before))
    return played


def _label_into(line: list[dict[str, Any]], state: State, labels: LabelReader, action: int) -> None:
    """``action`` (about to be played in ``state``) added to ``line`` with its label (read where
    ``labels`` reads them) and who chooses it."""
    line.append({"action": action, "label": labels.reader().action_to_string(action),
                 "player": state.current_player()})  # fmt: skip


def _refusal(field: str, item: int | str) -> Refuse:
    """The request's refusal of its action ``field`` (``item``): a :class:`HintError`."""

    def refuse(why: Why, action: int | None, exc: Exception | None) -> HintError:
        if why == "over":
            said = "the game is over"
        elif why == "illegal":
            said = f"action {shown(item)} is not legal here"
        else:  # a label the game does not read, or a move the state refused (its own words)
            said = str(exc)
        return HintError(f"{field}: {said}", field, "illegal_action")

    return refuse
