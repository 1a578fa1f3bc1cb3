"""The hint engine: one function answering a request dict through the searchers.

:func:`answer` takes a request (a dict, as parsed from a JSON line or an HTTP body), checks it
(:mod:`solver.hint.ingress`) and validates it against :class:`~solver.hint.schema.HintRequest`,
opens the position (:mod:`solver.hint.position`), caps the budget (:class:`Caps`) and values
the position through :func:`solver.search.search_position`: exact where it fits (``exact``
omitted: within half of the request's seconds and its memory cap; ``true``: exact, or an
estimate with a note; ``false``: never exact), MCTS otherwise. ``rootInfo.method`` says which
(``exact``, ``mcts``, ``ismcts``). It never raises for a client's mistake: the answer is then
``{"id", "error", "field", "code"}``. Nothing here knows any game.

Hidden information: when the game declares it (``GameSpec.hidden_information``), the search
never sees the real hidden cards. It is information-set MCTS (:func:`solver.search.ismcts.ismcts`)
from the observer's view (``player``, default the player to move): every simulation starts from a
state redealt from what the observer sees (``rootInfo.determinizations`` counts them); the
principal variation is the move alone. A seat not to move may ask too (as ``forest GAME best-move
--player P`` may): the values are then from its view.

Every request honours its seconds (the request's, capped), counted from its admission (the wait
for a worker included: :class:`RequestClock`): the searches stop at the deadline, the exact one
included, and never before every legal move has a value.

>>> reply = answer({"id": "q1", "game": "dog", "options": {"forest": "dog/another-dog"},
...                 "actions": [10], "exact": True, "top_k": 3})
>>> [(m["label"], round(m["value"], 6)) for m in reply["moveInfos"]][2]
('E', 0.333333)
>>> reply["rootInfo"]["method"]
'exact'
>>> answer({"id": "q2", "game": "chess"})["field"]
'game'
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver.errors import (
    FormatError,
    IllegalActionError,
    OptionError,
    SearchBudgetError,
)
from solver.fields import JSONValue
from solver.hint.errors import HintError
from solver.hint.ingress import check_clean
from solver.hint.limits import Caps
from solver.hint.position import OpenedPosition, open_position
from solver.hint.schema import (
    ErrorAnswer,
    HintAnswer,
    HintRequest,
    KeepsUnknown,
    LimitApplied,
    MoveInfoOut,
    RootInfo,
    StrengthMove,
    ValidationError,
    error_from_validation,
)
from solver.search.result import SearchResult, replay_line
from solver.search.value_words import value_label

if TYPE_CHECKING:
    from solver.game import Game, State
    from solver.search.auto import Valued
    from solver.search.coverage import ChanceCoverage
    from solver.spec import GameSpec

__all__ = [
    "Caps",
    "HintError",
    "OpenedPosition",
    "RequestClock",
    "answer",
    "applied_limit",
    "error_answer",
    "ignored_note",
    "misspelt_refusal",
    "open_position",
]


def error_answer(
    ident: JSONValue, message: str, field: str | None = None, code: str = "invalid_request"
) -> dict[str, Any]:
    """An error answer as a dict (``id`` is kept only when it is a string of Unicode text)."""
    from solver.hint.ingress import safe_text

    if not isinstance(ident, str) or safe_text(ident) != ident:
        ident = None
    field = None if field is None else safe_text(field)
    reply = ErrorAnswer(id=ident, error=safe_text(message), field=field, code=code)
    return reply.model_dump(by_alias=True)


# -- budgets -------------------------------------------------------------------------------------
MEMORY_NOT_BOUNDING = (
    "limit.memoryMb does not bound this search: ISMCTS (hidden information) keeps to its "
    "iterations and seconds only (its tree grows by one node a simulation)"
)
"""The note of a hint that names ``limit.memoryMb`` in a hidden-information game: the ISMCTS
searcher takes no memory cap (:func:`solver.search.ismcts.ismcts` refuses ``memory_mb``), so
the answer says the cap did not apply rather than echo it as the budget it ran under."""


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


@dataclass(frozen=True)
class RequestClock:
    """A request's clock: ``admitted``, when the transport took it in (its arrival: the HTTP
    service's admission, the stdio engine's reading of the line), and ``started``, when its
    work began; both ``time.monotonic()`` (system-wide on Linux, macOS and Windows, so a
    worker process reads its parent's admission). The request's seconds run from
    ``admitted``: the wait behind other requests is spent from the budget, as a user timing
    the answer from sending it would count it."""

    admitted: float
    started: float

    @classmethod
    def since(cls, admitted: float | None = None) -> RequestClock:
        """The clock of a request whose work starts now (``admitted``: ``None`` for now; one
        later than now, a clock that disagrees, is read as now)."""
        now = time.monotonic()
        return cls(now if admitted is None else min(admitted, now), now)

    @property
    def queued(self) -> float:
        """Seconds between the admission and the start of the work."""
        return self.started - self.admitted

    def deadline(self, seconds: float) -> float:
        """When ``seconds`` from the admission run out."""
        return self.admitted + seconds


def queue_note(clock: RequestClock, seconds: float) -> list[str]:
    """The note of a request whose wait for a worker took its whole budget (``[]`` otherwise):
    it is answered as a request of a tiny budget is (each search's floor)."""
    if clock.queued < seconds:
        return []
    return [f"the request waited {clock.queued:.3g} s for a worker, all of its {seconds:g} s: "
            "it was answered as a tiny budget is (each search's least work)"]  # fmt: skip


# -- searching -----------------------------------------------------------------------------------
Report = Callable[[dict[str, Any]], None]
Shortfall = Callable[["ChanceCoverage"], None]
"""Told the final search's :class:`~solver.search.coverage.ChanceCoverage`, where it has one."""


@dataclass
class _Found:
    """What a search found, before it becomes an answer."""

    moves: list[tuple[int, str, int, float, list[str]]]  # action, label, visits, value, pv
    value: float
    visits: int
    method: str
    player: int
    determinizations: int = 0
    terminated: bool = False
    notes: tuple[str, ...] = ()
    values: tuple[float, ...] = ()
    searcher: str | None = None
    leaves: str | None = None
    coverage: ChanceCoverage | None = None
    """A chance root's outcomes left unsampled, as numbers (its note is in ``notes``)."""

    @property
    def exact(self) -> bool:
        return self.method == "exact"


def _leaves(result: SearchResult | None, method: str) -> str | None:
    """How an estimate's simulations valued their leaves (the searcher's ``evaluator``)."""
    if result is None or method == "exact":
        return None
    evaluator = result.extra.get("evaluator")
    return None if evaluator is None else str(evaluator)


def _found_of(valued: Valued, determinizations: int = 0) -> _Found:
    """A :class:`~solver.search.auto.Valued` as the answer's pieces."""
    result = valued.result
    moves = [] if result is None else [
        (m.action, m.label, m.visits, float(m.value), list(m.pv)) for m in result.moves
    ]  # fmt: skip
    return _Found(moves, float(valued.value), valued.simulations, valued.method, valued.player,
                  determinizations, valued.terminated, tuple(valued.notes),
                  tuple(float(v) for v in valued.values),
                  None if result is None else result.searcher,
                  _leaves(result, valued.method), valued.coverage)  # fmt: skip


def _searched(
    state: State,
    spec: GameSpec,
    request: HintRequest,
    limit: LimitApplied,
    deadline: float,
    view: int,
    cancel: threading.Event | None,
    partial: Callable[[_Found], None] | None,
) -> _Found:
    """The position valued by :func:`solver.search.search_position`: the exact attempt planned on
    the seconds the request named (iterations only: an untimed call's share), everything bounded
    by what is left of the request's capped seconds."""
    from solver.agent_first import agent_first
    from solver.search import Limit, search_position

    left = max(1e-9, deadline - time.monotonic())
    asked = request.limit.seconds
    budget = Limit(
        iterations=limit.iterations,
        seconds=None if asked is None else min(asked, left),
        memory_mb=limit.memory_mb,
    )
    progress = None
    if partial is not None:

        def progress(valued: Valued) -> None:
            partial(_found_of(valued))

    valued = search_position(
        state,
        exact=request.exact,
        offered=spec.exact and not spec.hidden_information,
        limit=budget,
        seed=request.seed,
        view=view,
        cancel=cancel,
        progress=progress,
        max_seconds=left,
    )
    if time.monotonic() >= deadline or (cancel is not None and cancel.is_set()):
        return _found_of(valued)  # no time left for the hint agent's move: the search's order
    result, tie_note = agent_first(
        spec,
        state,
        valued.result,
        seed=request.seed,
        iterations=limit.iterations,
        deadline=deadline,
        cancel=cancel,
    )
    if tie_note is not None:
        valued = dataclasses.replace(valued, result=result, notes=(*valued.notes, tie_note))
    return _found_of(valued)


def _hidden(
    state: State,
    spec: GameSpec,
    observer: int,
    limit: LimitApplied,
    seed: int,
    deadline: float,
    cancel: threading.Event | None,
    partial: Callable[[_Found], None] | None = None,
) -> _Found:
    """ISMCTS from the observer's view (:mod:`solver.search.ismcts`), in the game's declared
    configuration (``GameSpec.ismcts_options``) if any: every simulation a state redealt from
    what the observer sees; the principal variation is the move alone. A time budget never
    starves it: fewer simulations than legal moves are redone with that many, untimed; a chance
    root takes one at least (its outcomes sampled within the time, noted). ``cancel`` stops it
    between slices and ``partial`` hears of it after each (:mod:`solver.search.watch`)."""
    from solver.search import Limit
    from solver.search.auto import floor_simulations
    from solver.search.ismcts import ismcts

    floor = floor_simulations(state)
    if limit.iterations is not None:
        floor = min(floor, limit.iterations)
    if cancel is not None and cancel.is_set():
        budget = Limit(iterations=floor)
    else:
        left = max(1e-9, deadline - time.monotonic())
        budget = Limit(iterations=limit.iterations, seconds=left)
    options = spec.ismcts_options(state) if spec.ismcts_options else None

    def found(result: SearchResult, terminated: bool) -> _Found:
        return _ismcts_found(state, result, observer, terminated, limit.iterations)

    progress = None if partial is None else (lambda result: partial(found(result, False)))
    result = ismcts(
        state,
        observer=observer,
        limit=budget,
        seed=seed,
        options=options,
        cancel=cancel,
        progress=progress,
    )
    if result.iterations < floor:  # the floor runs whatever the stop says
        result = ismcts(
            state, observer=observer, limit=Limit(iterations=floor), seed=seed, options=options
        )
    return found(result, cancel is not None and cancel.is_set())


def _ismcts_found(
    state: State, result: SearchResult, observer: int, terminated: bool, iterations: int | None
) -> _Found:
    """An ISMCTS result as an answer's moves: the principal variation is the move alone, its id
    and label as the search gave them ([] tells the answer builder so; replaying a label
    through string_to_action costs a compiled engine a decode of every legal label).
    ``iterations``: the request's budget (a chance root's note names what ended the search)."""
    from solver.search.auto import stop_cause
    from solver.search.coverage import chance_coverage

    moves: list[tuple[int, str, int, float, list[str]]] = [
        (m.action, m.label, m.visits, float(m.value), []) for m in result.moves
    ]
    capped = result.extra.get("stopped_by") == "max_nodes"
    cause = stop_cause(
        max_nodes=capped, terminated=terminated, iterations=iterations, total=result.iterations
    )
    short = chance_coverage(state, result.iterations, cause)
    return _Found(moves, float(result.value), result.iterations, "ismcts", observer,
                  result.iterations, terminated, () if short is None else (short.note,),
                  searcher=result.searcher, leaves=_leaves(result, "ismcts"),
                  coverage=short)  # fmt: skip


def _build(
    request: HintRequest,
    spec: GameSpec,
    game: Game,
    state: State,
    found: _Found,
    limit: LimitApplied,
    clock: RequestClock,
    during: bool,
    strength: StrengthMove | None = None,
    notes: tuple[str, ...] = (),
) -> dict[str, Any]:
    moves = found.moves[: request.top_k] if request.top_k else found.moves
    infos = []
    for order, (action, label, visits, value, pv) in enumerate(moves):
        line = replay_line(state, action, label, pv)
        infos.append(
            MoveInfoOut(
                action=action, label=label, order=order, visits=visits, value=value,
                pv=line.ids, pvLabels=line.labels, pvActions=line.ids, pvChance=line.chance,
            )
        )  # fmt: skip
    root = RootInfo(
        value=found.value,
        valueKind=spec.value_kind,
        player=found.player,
        currentPlayer=state.current_player(),
        visits=found.visits,
        exact=found.exact,
        method=found.method,
        determinizations=found.determinizations,
        values=list(found.values),
        searcher=found.searcher,
        leaves=found.leaves,
        valueLabel=value_label(spec.value_kind, found.method, found.leaves),
    )
    reply = HintAnswer(
        id=request.id,
        game=spec.name,
        isDuringSearch=during,
        moveInfos=infos,
        rootInfo=root,
        limitApplied=limit,
        elapsed=round(time.monotonic() - clock.started, 6),
        terminated=found.terminated,
        notes=[*found.notes, *notes, *ignored_note(request)],
        queued=round(clock.queued, 6),
        strengthMove=strength,
    )
    return reply.model_dump(by_alias=True)


def ignored_note(request: KeepsUnknown | None, within: str = "") -> list[str]:
    """A note naming the request's unknown top-level fields, if any (ignored, not refused): a
    hint's, a table session's start (its first view's ``notes``), a position's, a roll's, an
    analysis's, a review's, a table line's or record's (their answers' ``notes``) and a stdio
    terminate's. ``within``: the object's field in its request, dotted (a review's
    ``earlier.``), each name said with it; ``None`` (an object not sent): no note."""
    ignored = [] if request is None else [within + name for name in request.ignored_fields()]
    if not ignored:
        return []
    names = ", ".join(repr(name[:40]) for name in ignored[:8])
    more = f" and {len(ignored) - 8} more" if len(ignored) > 8 else ""
    return [f"unknown fields ignored: {names}{more} (a newer client's, or misspelt?)"]


def misspelt_refusal(request: KeepsUnknown, needed: str, why: str) -> None:
    """Refuse ``request`` (:class:`HintError` on the unknown field) where the field ``needed`` was
    not sent and an unknown one close to it was: without it the request means nothing (``why``:
    a review sent ``action`` for ``actions`` reviewed no move), so it is not merely noted."""
    from solver.errors import close_names, printable

    if needed in request.model_fields_set:
        return
    # a name that is the needed one without its start ("finished" for "unfinished") means the
    # opposite: it is noted, never answered by pointing to a request that leaves the session
    sent = [name for name in request.ignored_fields() if not needed.endswith(name)]
    close = close_names(needed, sent, most=1)
    if close:  # the name as sent in ``field``; in the words, its controls and bidi escaped
        raise HintError(f"{printable(close[0])}: no field of this request; did you mean "
                        f"{needed}? ({why})", close[0])  # fmt: skip


def _is_set(cancel: threading.Event | None) -> bool:
    """Whether ``cancel`` (a request's ``terminate``) has been set."""
    return cancel is not None and cancel.is_set()


def _strength_move(
    request: HintRequest,
    game: Game,
    state: State,
    deadline: float,
    seconds: float,
    notes: list[str],
    cancel: threading.Event | None = None,
) -> StrengthMove | None:
    """The move of the ladder's level ``request.strength`` here (seeded by the request's seed),
    found by the request's ``deadline`` (``search_deadline``: its searches stop there and play
    what they have); ``None`` without strength, at a chance node, at the end, or where the level
    cannot move in time (its exact policy unsolved: a note in ``notes`` says so), or once
    ``cancel`` is set (a ``terminate``: the level's searches hear it through the
    ``search_deadline``, and the request answers at once, not at its deadline; a move the stop
    cut short is not the level's, so none is given)."""
    if request.strength is None or state.is_terminal() or state.is_chance_node():
        return None
    from solver.agents import make_agent
    from solver.search.limit import search_deadline

    name = f"level{request.strength}"
    action: int | None = None
    if not _is_set(cancel):
        try:
            with search_deadline(deadline, cancel):
                action = int(make_agent(name, game, seed=request.seed)(state))
        except SearchBudgetError as exc:
            if not _is_set(cancel):
                notes.append(f"no strength move: {name} could not move within the request's "
                             f"{seconds:g} s ({exc})")  # fmt: skip
                return None
    if action is None or _is_set(cancel):
        notes.append(f"no strength move: the request was terminated before {name} moved")
        return None
    return StrengthMove(
        level=request.strength, agent=name, action=action, label=state.action_to_string(action)
    )


def _observer(request: HintRequest, game: Game, state: State, hidden: bool) -> int:
    """The seat whose view the values are from: ``player``, default the player to move.

    With hidden information any seat may ask (its own view of the position, as ``forest GAME
    best-move --player P`` gives); with perfect information the values are the mover's, so
    another seat is refused (as the command line refuses it)."""
    n = game.num_players()
    to_move = state.current_player()
    if request.player is not None and request.player >= n:
        raise HintError(f"player must be a seat from 0 to {n - 1}", "player")
    if request.player is None:
        return to_move if to_move >= 0 else 0
    if not hidden and to_move >= 0 and request.player != to_move:
        raise HintError(
            f"player {request.player} is not to move (player {to_move} is): a hint is for the "
            "player to move",
            "player",
        )
    return request.player


def _check_exact_offered(spec: GameSpec) -> None:
    """Refuse (``unsupported``) a request for an exact search the game does not offer: none at
    all, or a game that hides cards."""
    if not spec.exact:
        raise HintError(f"exact search is not offered for {spec.name}", "exact", "unsupported")
    if spec.hidden_information:
        raise HintError(
            "exact search needs perfect information; this game hides cards", "exact", "unsupported"
        )


def _answer(
    raw: JSONValue,
    caps: Caps,
    allow_paths: bool,
    report: Report | None,
    cancel: threading.Event | None,
    opened: OpenedPosition | None = None,
    admitted: float | None = None,
    shortfall: Shortfall | None = None,
) -> dict[str, Any]:
    clock = RequestClock.since(admitted)
    if isinstance(raw, dict):
        check_clean(raw)
    try:
        request = HintRequest.model_validate(raw)
    except ValidationError as exc:
        return error_from_validation(exc, raw).model_dump(by_alias=True)
    position = opened if opened is not None else open_position(request, allow_paths=allow_paths)
    spec, game, state = position.spec, position.game, position.state
    limit = applied_limit(request, caps)
    assert limit.seconds is not None
    deadline = clock.deadline(limit.seconds)
    hidden = spec.hidden_information
    observer = _observer(request, game, state, hidden)
    if request.exact:
        _check_exact_offered(spec)
    if state.is_terminal():
        returns = state.returns()
        found = _Found([], float(returns[observer]), 0, "exact", observer,
                       values=tuple(float(r) for r in returns))  # fmt: skip
        return _build(request, spec, game, state, found, limit, clock, False)

    last = [clock.started]

    def partial(found: _Found) -> None:
        if report is None or request.report_during_search_every is None:
            return
        now = time.monotonic()
        if now - last[0] >= request.report_during_search_every:
            last[0] = now
            report(_build(request, spec, game, state, found, limit, clock, True))

    wants = report is not None and request.report_during_search_every is not None
    if hidden:
        watcher = partial if wants else None
        found = _hidden(state, spec, observer, limit, request.seed, deadline, cancel, watcher)
    else:
        found = _searched(state, spec, request, limit, deadline, observer, cancel,
                          partial if wants else None)  # fmt: skip
    if shortfall is not None and found.coverage is not None:
        shortfall(found.coverage)
    notes: list[str] = [MEMORY_NOT_BOUNDING] if hidden and request.limit.memory_mb else []
    notes += queue_note(clock, limit.seconds)
    strength = _strength_move(request, game, state, deadline, limit.seconds, notes, cancel)
    if strength is None and request.strength is not None and _is_set(cancel):
        found.terminated = True
    return _build(request, spec, game, state, found, limit, clock, False, strength, tuple(notes))


def answer(
    raw: JSONValue,
    *,
    caps: Caps | None = None,
    allow_paths: bool = False,
    report: Report | None = None,
    cancel: threading.Event | None = None,
    position: OpenedPosition | None = None,
    admitted: float | None = None,
    shortfall: Shortfall | None = None,
) -> dict[str, Any]:
    """The answer to one hint request (a dict): a :class:`HintAnswer` or an error, as a dict.

    ``caps``: the server's budget caps; ``allow_paths``: whether ``options`` may name a file path
    (the stdio transport; never the HTTP service); ``report(partial)``: called with partial
    answers when the request asks for them; ``cancel``: set it to stop the search, which then
    answers with what it has (``terminated``: true). ``position``: the request's position,
    already opened by the caller (its game and state, the actions applied; the request's own
    ``state`` and ``actions`` are then not read, and the search may change the state: give it a
    copy). A review walks its record once this way, where a request per position would replay
    the record from its start every time. ``admitted``: when the transport took the request
    in (``time.monotonic()``; ``None``: now): its seconds run from there, so the time it waited
    for a worker is spent from them (:class:`RequestClock`); a wait that took them all gets the
    answer of a tiny budget, with a note. ``shortfall``: told the numbers of a chance root's
    outcomes left unsampled (whose note the answer's ``notes`` hold): a review groups them.
    """
    ident = raw.get("id") if isinstance(raw, dict) else None
    try:
        return _answer(raw, caps or Caps(), allow_paths, report, cancel, position, admitted,
                       shortfall)  # fmt: skip
    except HintError as exc:
        return error_answer(ident, str(exc), exc.field, exc.code)
    except SearchBudgetError as exc:
        return error_answer(ident, str(exc), "limit", "budget")
    except (IllegalActionError, FormatError, OptionError) as exc:
        return error_answer(ident, str(exc), None, "invalid_request")
    except RecursionError:
        return error_answer(ident, "the request is nested too deeply", None, "invalid_request")
