"""The hint engine: one function answering a request dict through the searchers.

:func:`answer` takes a request (a dict, as parsed from a JSON line or an HTTP body), validates it
against :class:`~solver.hint.schema.HintRequest`, opens the game through its declaration
(:class:`~solver.spec.GameSpec`: ``open``, ``open_text``, ``source_option``), replays the actions,
caps the budget (:class:`Caps`) and searches: exact expectimax when asked and the game offers it,
MCTS in the strong configuration otherwise. It never raises for a client's mistake: the answer is
then ``{"id", "error", "field", "code"}``. Nothing here knows any game.

Hidden information: when the game declares it (``GameSpec.hidden_information``), the search
never sees the real hidden cards. It is information-set MCTS (:func:`solver.search.ismcts.ismcts`)
from the observer's view (``player``, default the player to move): every simulation starts from a
state redealt from what the observer sees (``rootInfo.determinizations`` counts them); the
principal variation is the move alone.

>>> reply = answer({"id": "q1", "game": "dog", "options": {"forest": "dog/another-dog"},
...                 "actions": [10], "exact": True, "top_k": 3})
>>> [(m["label"], round(m["value"], 6)) for m in reply["moveInfos"]][2]
('E', 0.333333)
>>> answer({"id": "q2", "game": "chess"})["field"]
'game'
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solver.errors import (
    FormatError,
    IllegalActionError,
    OptionError,
    SearchBudgetError,
    SolverError,
)
from solver.hint.schema import (
    ErrorAnswer,
    HintAnswer,
    HintRequest,
    LimitApplied,
    MoveInfoOut,
    RootInfo,
    ValidationError,
    error_from_validation,
)
from solver.spec import Opened

__all__ = [
    "CHUNK_ITERATIONS",
    "Caps",
    "HintError",
    "OpenedPosition",
    "answer",
    "error_answer",
    "open_position",
]

CHUNK_ITERATIONS = 256
"""When a search may be stopped or report partial answers (stdio), MCTS runs in slices on one
tree: the first of this many simulations, each next one twice as many (at most
:data:`MAX_CHUNK_ITERATIONS`), with a report or a stop between slices. Otherwise (HTTP) it is one
search. Both are deterministic for a given request and iteration budget."""

MAX_CHUNK_ITERATIONS = 8192
"""The largest slice."""


@dataclass(frozen=True)
class Caps:
    """The server's per-request budget caps (a request asking more gets these, and is told).

    ``max_seconds`` also bounds a request that names iterations only, so no request runs longer.
    """

    max_iterations: int = 200_000
    max_seconds: float = 10.0
    max_memory_mb: float = 512.0
    default_iterations: int = 1000

    def __post_init__(self) -> None:
        if self.max_iterations < 1 or self.default_iterations < 1:
            raise OptionError("the iteration caps must be at least 1")
        if not self.max_seconds > 0 or not self.max_memory_mb > 0:
            raise OptionError("the seconds and memory caps must be positive")


class HintError(SolverError):
    """A request the engine cannot answer: the message, the field at fault and a code."""

    def __init__(self, message: str, field: str | None = None, code: str = "invalid_request"):
        super().__init__(message)
        self.field = field
        self.code = code

    def __reduce__(self):  # picklable across the HTTP service's worker processes
        return (HintError, (str(self), self.field, self.code))


def error_answer(
    ident: Any, message: str, field: str | None = None, code: str = "invalid_request"
) -> dict[str, Any]:
    """An error answer as a dict (``id`` is kept only when it is a string)."""
    ident = ident if isinstance(ident, str) else None
    return ErrorAnswer(id=ident, error=message, field=field, code=code).model_dump(by_alias=True)


# -- opening the position -------------------------------------------------------------------------
@dataclass
class OpenedPosition:
    """A request's game, position and the actions replayed to reach it."""

    spec: Any
    game: Any
    state: Any
    actions: list[int]


_GAMES: OrderedDict[str, Any] = OrderedDict()
_GAMES_LOCK = threading.Lock()
GAME_CACHE_SIZE = 32
"""Games opened from a puzzle name or inline text are kept (least recently used dropped), so a
stream of hints on one game does not read and parse its file every time."""


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


def _open_game(spec: Any, engine: str | None, options: dict[str, Any], allow_paths: bool) -> Any:
    """The game the options name, opened (a cached game for puzzle names and inline text)."""

    players = options.get("players")
    if players is not None and (
        isinstance(players, bool) or not isinstance(players, int) or players not in spec.players
    ):
        allowed = ", ".join(str(p) for p in spec.players)
        raise HintError(
            f"{spec.name} is played by {allowed} player(s), not {players!r}", "options.players"
        )
    known = {"players"} | ({spec.source_option} if spec.source_option else set())
    for key in options:
        if key not in known:
            raise HintError(
                f"{spec.name} has no option {key!r}; expected one of {', '.join(sorted(known))}",
                f"options.{key}",
            )
    if engine is not None and engine not in spec.engines:
        raise HintError(
            f"{spec.name} has no engine {engine!r}; expected one of "
            f"{', '.join(spec.engine_names())}",
            "engine",
        )
    field = f"options.{spec.source_option}" if spec.source_option else "options"
    source = options.get(spec.source_option) if spec.source_option else None
    try:
        if source is None:
            if not spec.default_source:
                raise HintError(
                    f"{spec.name} needs {field}: a puzzle name or the file's text", field
                )
            return spec.open(None, engine=engine, players=players)
        if not isinstance(source, str) or not source.strip():
            raise HintError(f"{field} must be a puzzle name or a file's text", field)
        key = json.dumps([spec.name, engine, players, source])
        if spec.puzzles is not None and source in _puzzle_names(spec.puzzles):
            return _cached_open(key, lambda: spec.open(source, engine=engine, players=players))
        if "\n" in source:
            if spec.open_text is None:
                raise HintError(f"{spec.name} cannot read a file's text", field, "unsupported")
            return _cached_open(key, lambda: spec.open_text(source, engine=engine, players=players))
        if not allow_paths:
            raise HintError(
                f"{field}: {source[:80]!r} is not a puzzle name; this transport takes puzzle "
                "names and a file's text, never a path",
                field,
            )
        return spec.open(source, engine=engine, players=players)
    except HintError:
        raise
    except (SolverError, ValueError, OSError) as exc:
        raise HintError(f"{field}: {exc}", field, "bad_game") from None


def open_position(request: Any, *, allow_paths: bool = False) -> OpenedPosition:
    """The game, state and replayed actions a validated request names (a :class:`HintError`)."""
    from solver.registry import game_spec

    try:
        spec = game_spec(request.game)
    except OptionError as exc:
        raise HintError(str(exc), "game", "unknown_game") from None
    options = dict(request.options)
    text = None
    if request.state is not None:
        try:
            text = request.state if isinstance(request.state, str) else json.dumps(request.state)
        except (RecursionError, ValueError):
            raise HintError("state: nested too deeply", "state", "bad_state") from None
        if "players" not in options and spec.state_players is not None:
            # a saved state says its player count (as `forest GAME best-move --state` reads it)
            count = spec.state_players(text)
            if count is not None and count in spec.players:
                options["players"] = count
    opened = _open_game(spec, request.engine, options, allow_paths)
    game, state = opened.game, opened.state
    if text is not None:
        try:
            state = game.state_from_json(text)
        except RecursionError:
            raise HintError("state: nested too deeply", "state", "bad_state") from None
        except (SolverError, ValueError, TypeError, KeyError) as exc:
            raise HintError(f"state: {exc}", "state", "bad_state") from None
    played: list[int] = []
    for index, item in enumerate(request.actions):
        field = f"actions.{index}"
        if state.is_terminal():
            raise HintError(f"{field}: the game is over", field, "illegal_action")
        if isinstance(item, str):
            try:
                action = state.string_to_action(item)
            except (SolverError, ValueError, KeyError) as exc:
                raise HintError(f"{field}: {exc}", field, "illegal_action") from None
        else:
            action = item
        if action not in state.legal_actions():
            raise HintError(f"{field}: action {item!r} is not legal here", field, "illegal_action")
        try:
            state.apply_action(action)
        except (SolverError, ValueError) as exc:
            raise HintError(f"{field}: {exc}", field, "illegal_action") from None
        played.append(action)
    return OpenedPosition(spec=spec, game=game, state=state, actions=played)


# -- budgets -------------------------------------------------------------------------------------
def applied_limit(request: HintRequest, caps: Caps) -> LimitApplied:
    """The request's budget after the caps; ``capped`` names every field the server set."""
    asked = request.limit
    capped: list[str] = []
    iterations = asked.iterations
    if iterations is None and asked.seconds is None:
        iterations = caps.default_iterations
    if iterations is not None and iterations > caps.max_iterations:
        iterations = caps.max_iterations
        capped.append("iterations")
    seconds = asked.seconds
    if seconds is None or seconds > caps.max_seconds:
        if seconds is not None:
            capped.append("seconds")
        seconds = caps.max_seconds
    memory = asked.memory_mb
    if memory is None or memory > caps.max_memory_mb:
        if memory is not None:
            capped.append("memoryMb")
        memory = caps.max_memory_mb
    return LimitApplied(iterations=iterations, seconds=seconds, memoryMb=memory, capped=capped)


# -- searching -----------------------------------------------------------------------------------
Report = Callable[[dict[str, Any]], None]


@dataclass
class _Found:
    """What a search found, before it becomes an answer."""

    moves: list[tuple[int, str, int, float, list[str]]]  # action, label, visits, value, pv
    value: float
    visits: int
    exact: bool
    player: int
    determinizations: int = 0
    terminated: bool = False


def _pv_ids(state: Any, labels: list[str]) -> tuple[list[int], list[str]]:
    """The principal variation's labels replayed as action ids (stops where a label fails)."""
    ids: list[int] = []
    kept: list[str] = []
    walker = state.clone()
    for label in labels:
        try:
            action = walker.string_to_action(label)
            walker.apply_action(action)
        except (SolverError, ValueError, KeyError):
            break
        ids.append(int(action))
        kept.append(label)
    return ids, kept


def _moves_of(result: Any) -> list[tuple[int, str, int, float, list[str]]]:
    return [(m.action, m.label, m.visits, float(m.value), list(m.pv)) for m in result.moves]


def _exact(state: Any, limit: LimitApplied, view: int) -> _Found:
    from solver.search import Limit, expectimax

    budget = Limit(memory_mb=limit.memory_mb)
    result = expectimax(state, exact=True, limit=budget)
    if state.is_chance_node():
        value = float(result.extra["values"][view])
        return _Found(moves=[], value=value, visits=0, exact=True, player=view)
    return _Found(_moves_of(result), float(result.value), 0, True, state.current_player())


def _chunked_mcts(
    state: Any,
    limit: LimitApplied,
    seed: int,
    deadline: float,
    cancel: threading.Event | None,
    partial: Callable[[Any, int], None] | None,
) -> tuple[Any, int, bool]:
    """MCTS on one tree in slices; returns (last result, simulations, terminated)."""
    from solver.rng import derive_seed
    from solver.search import Limit, MCTSTree, strong_mcts_options

    options = strong_mcts_options(state)
    tree = MCTSTree()
    total = 0
    result = None
    target = limit.iterations
    whole = cancel is None and partial is None  # nobody to stop or report to: one search
    size = CHUNK_ITERATIONS
    for index in range(1_000_000_000):  # bounded by the budget: every slice runs ≥ 1 simulation
        left = deadline - time.monotonic()
        if cancel is not None and cancel.is_set():
            return result, total, True
        if left <= 0 or (target is not None and total >= target):
            break
        if index:
            size = min(2 * size, MAX_CHUNK_ITERATIONS)
        if whole:
            size = target - total if target is not None else 1 << 62
        elif target is not None:
            size = min(size, target - total)
        budget = Limit(iterations=size, seconds=left, memory_mb=limit.memory_mb)
        result = tree.search(state, limit=budget, options=options, seed=derive_seed(seed, index))
        total += result.iterations
        if partial is not None:
            partial(result, total)
        if result.iterations == 0 or result.extra.get("stopped_by") == "max_nodes":
            break
    return result, total, False


def _mcts(
    state: Any,
    limit: LimitApplied,
    seed: int,
    deadline: float,
    cancel: threading.Event | None,
    partial: Callable[[_Found], None] | None,
) -> _Found:
    from solver.search import Limit
    from solver.search.mcts import search_value, strong_mcts_options

    if state.is_chance_node():
        budget = Limit(
            iterations=limit.iterations,
            seconds=max(1e-3, deadline - time.monotonic()),
            memory_mb=limit.memory_mb,
        )
        value = search_value(state, budget, strong_mcts_options(state), seed)
        return _Found([], float(value), limit.iterations or 0, False, 0)
    player = state.current_player()

    def relay(result: Any, total: int) -> None:
        if partial is not None:
            partial(_Found(_moves_of(result), float(result.value), total, False, player))

    result, total, stopped = _chunked_mcts(state, limit, seed, deadline, cancel, relay)
    if result is None:
        return _Found([], 0.0, 0, False, player, terminated=stopped)
    return _Found(_moves_of(result), float(result.value), total, False, player, terminated=stopped)


def _hidden(
    state: Any,
    observer: int,
    limit: LimitApplied,
    seed: int,
    deadline: float,
    cancel: threading.Event | None,
) -> _Found:
    """ISMCTS from the observer's view (:mod:`solver.search.ismcts`): every simulation a state
    redealt from what the observer sees; the principal variation is the move alone."""
    from solver.search import Limit
    from solver.search.ismcts import ismcts

    if cancel is not None and cancel.is_set():
        return _Found([], 0.0, 0, False, observer, 0, True)
    budget = Limit(iterations=limit.iterations, seconds=max(1e-3, deadline - time.monotonic()))
    result = ismcts(state, observer=observer, limit=budget, seed=seed)
    moves = [(m.action, m.label, m.visits, float(m.value), [m.label]) for m in result.moves]
    player = observer if state.is_chance_node() else state.current_player()
    return _Found(moves, float(result.value), result.iterations, False, player, result.iterations)


def _build(
    request: HintRequest,
    spec: Any,
    state: Any,
    found: _Found,
    limit: LimitApplied,
    started: float,
    during: bool,
    notes: list[str],
) -> dict[str, Any]:
    moves = found.moves[: request.top_k] if request.top_k else found.moves
    infos = []
    for order, (action, label, visits, value, pv) in enumerate(moves):
        ids, kept = _pv_ids(state, pv) if pv else ([action], [label])
        infos.append(
            MoveInfoOut(
                action=action, label=label, order=order, visits=visits, value=value,
                pv=ids or [action], pvLabels=kept or [label],
            )
        )  # fmt: skip
    root = RootInfo(
        value=found.value,
        valueKind=spec.value_kind,
        player=found.player,
        currentPlayer=state.current_player(),
        visits=found.visits,
        exact=found.exact,
        determinizations=found.determinizations,
    )
    reply = HintAnswer(
        id=request.id,
        game=spec.name,
        isDuringSearch=during,
        moveInfos=infos,
        rootInfo=root,
        limitApplied=limit,
        elapsed=round(time.monotonic() - started, 6),
        terminated=found.terminated,
        notes=notes,
    )
    return reply.model_dump(by_alias=True)


def _observer(request: HintRequest, game: Any, state: Any, hidden: bool) -> int:
    n = game.num_players()
    to_move = state.current_player()
    if request.player is not None and request.player >= n:
        raise HintError(f"player must be a seat from 0 to {n - 1}", "player")
    if request.player is None:
        return to_move if to_move >= 0 else 0
    if hidden and to_move >= 0 and request.player != to_move:
        raise HintError(
            f"player {request.player} cannot see player {to_move}'s hidden cards: in a "
            "hidden-information game a hint is for the player to move",
            "player",
            "hidden_information",
        )
    if to_move >= 0 and request.player != to_move:
        # the search values moves from the mover's view: never answer another seat silently
        # (the CLI's best-move --player refuses the same way)
        raise HintError(
            f"player {request.player} is not to move (player {to_move} is): a hint is for the "
            "player to move",
            "player",
        )
    return request.player


def _answer(
    raw: Any,
    caps: Caps,
    allow_paths: bool,
    report: Report | None,
    cancel: threading.Event | None,
) -> dict[str, Any]:
    started = time.monotonic()
    try:
        request = HintRequest.model_validate(raw)
    except ValidationError as exc:
        return error_from_validation(exc, raw).model_dump(by_alias=True)
    position = open_position(request, allow_paths=allow_paths)
    spec, game, state = position.spec, position.game, position.state
    limit = applied_limit(request, caps)
    assert limit.seconds is not None
    deadline = started + limit.seconds
    hidden = spec.hidden_information
    observer = _observer(request, game, state, hidden)
    notes: list[str] = []
    if request.exact and not spec.exact:
        raise HintError(f"exact search is not offered for {spec.name}", "exact", "unsupported")
    if request.exact and hidden:
        raise HintError(
            "exact search needs perfect information; this game hides cards", "exact", "unsupported"
        )
    if state.is_terminal():
        returns = state.returns()
        found = _Found([], float(returns[observer]), 0, True, observer)
        return _build(request, spec, state, found, limit, started, False, notes)

    def partial(found: _Found) -> None:
        if report is None or request.report_during_search_every is None:
            return
        now = time.monotonic()
        if now - last[0] >= request.report_during_search_every:
            last[0] = now
            report(_build(request, spec, state, found, limit, started, True, notes))

    last = [started]
    if request.exact:
        try:
            found = _exact(state, limit, observer)
        except SearchBudgetError:
            notes.append(
                f"the exact search hit the {limit.memory_mb:g} MB cap: the values are MCTS "
                "estimates"
            )
            found = _mcts(state, limit, request.seed, deadline, cancel, partial)
    elif hidden:
        found = _hidden(state, observer, limit, request.seed, deadline, cancel)
    else:
        found = _mcts(state, limit, request.seed, deadline, cancel, partial)
    return _build(request, spec, state, found, limit, started, False, notes)


def answer(
    raw: Any,
    *,
    caps: Caps | None = None,
    allow_paths: bool = False,
    report: Report | None = None,
    cancel: threading.Event | None = None,
) -> dict[str, Any]:
    """The answer to one hint request (a dict): a :class:`HintAnswer` or an error, as a dict.

    ``caps``: the server's budget caps; ``allow_paths``: whether ``options`` may name a file path
    (the stdio transport; never the HTTP service); ``report(partial)``: called with partial
    answers when the request asks for them; ``cancel``: set it to stop the search, which then
    answers with what it has (``terminated``: true).
    """
    ident = raw.get("id") if isinstance(raw, dict) else None
    try:
        return _answer(raw, caps or Caps(), allow_paths, report, cancel)
    except HintError as exc:
        return error_answer(ident, str(exc), exc.field, exc.code)
    except SearchBudgetError as exc:
        return error_answer(ident, str(exc), "limit", "budget")
    except (IllegalActionError, FormatError, OptionError) as exc:
        return error_answer(ident, str(exc), None, "invalid_request")
    except RecursionError:
        return error_answer(ident, "the request is nested too deeply", None, "invalid_request")
