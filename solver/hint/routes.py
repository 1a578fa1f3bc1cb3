"""The HTTP service's endpoints, as routers: the API under ``/v1`` (plus ``/health``) and the
web table's files at ``/``. :mod:`solver.hint.server` builds the app around them; a richer
table adds its own router beside these.

Every POST runs its job (:mod:`solver.hint.jobs`) on the worker pool through
:class:`Service.run`, which admits it (or answers 503), bounds it (the job's timeout: its worker
is recycled past it, 504) and turns the reply into a response (4xx by error code).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from solver.errors import needs_extra

with needs_extra("the hint service"):  # the serve extra: the API names it
    from fastapi import APIRouter, FastAPI, Request
    from fastapi.responses import FileResponse, JSONResponse
    from fastapi.staticfiles import StaticFiles

from solver.fields import JSONValue
from solver.hint import jobs
from solver.hint.engine import (
    Caps,
    HintError,
    applied_limit,
    error_answer,
    ignored_note,
    misspelt_refusal,
)
from solver.hint.pool import JobTimeout, JobUnrun, WorkerDied, WorkerPool
from solver.hint.schema import (
    AnalyseAnswer,
    AnalyseRequest,
    ErrorAnswer,
    HintAnswer,
    HintRequest,
    PositionRequest,
    ReviewAnswer,
    ReviewRequest,
    RollRequest,
    TableHintRequest,
    TableLineRequest,
    TableMoveRequest,
    TableRecordRequest,
    TableSessionRequest,
    TableStartRequest,
    json_schema,
)
from solver.hint.session import (
    Session,
    Sessions,
    SessionsFull,
    advance_job,
    line_job,
    takeback_job,
)

__all__ = ["STATUS", "SafeJSONResponse", "Service", "api_router", "mount_web", "table_router"]

STATUS = {
    "invalid_request": 400,
    "malformed": 400,
    "unknown_game": 400,
    "illegal_action": 400,
    "illegal_line": 400,
    "unknown_session": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "session_busy": 409,
    "game_not_over": 409,
    "game_over": 409,
    "engine_pending": 409,
    "bad_state": 400,
    "bad_game": 400,
    "unsupported": 400,
    "hidden_information": 400,
    "budget": 400,
    "too_large": 413,
    "content_type": 415,
    "content_encoding": 415,
    "client_gone": 499,
    "overloaded": 503,
    "too_many_sessions": 503,
    "timeout": 504,
    "internal": 500,
}
"""The HTTP status of each error code (``docs/hint-engine.md``)."""

ADMITTED_HEADER = "X-Seconds-Since-Admission"
"""A response header: seconds from admission (queue wait included) to the answer."""

GONE_POLL_SECONDS = 0.1
"""How often a request waiting for a worker checks that its client is still connected."""

Job = Callable[..., dict[str, Any]]
"""A job the worker pool runs (:mod:`solver.hint.jobs`): the request's fields in, a reply out."""

Gone = Callable[[], Awaitable[bool]]
"""Whether the client of a request has hung up (Starlette's ``Request.is_disconnected``)."""


class _Abandoned(Exception):
    """The client hung up while its request waited for a worker: the job was dropped unrun."""


GRACE_SECONDS = 5.0
"""A job's timeout past its budget (opening the game, building the answer, a loaded machine);
every search already stops at its budget, so this only catches a fault."""

TYPICAL_WEIGHT = 0.2
"""The weight of the last job in :attr:`Service.typical` (an exponential moving average)."""


def job_kind(job: Job) -> str:
    """The kind of ``job`` that :attr:`Service.typical` keeps apart: its function's name
    (``hint_job``, ``review_job``, ``advance_job``...)."""
    return str(getattr(job, "__name__", type(job).__name__))


GET_AND_HEAD = ["GET", "HEAD"]
"""The methods of the web table's page: HTTP requires HEAD wherever GET is (a monitor's
``HEAD /``); the server sends the head only. The API's GET paths add HEAD the same way."""

ANALYSE_SECONDS = 60.0
"""A solvability analysis's timeout (its hooks bound their own searches, within
``jobs.ANALYSIS_SECONDS``; this catches the rest)."""


class SafeJSONResponse(JSONResponse):
    """JSON that always renders: UTF-8 where it can, ASCII escapes for anything else (a string
    that is not Unicode text never turns an answer into a 500)."""

    def render(self, content: object) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False,
                              separators=(",", ":")).encode("ascii")  # fmt: skip


@dataclass
class _Admission:
    """Bounded admission: ``capacity`` requests in the service at once, the rest refused."""

    capacity: int
    inside: int = 0
    served: int = 0
    refused: int = 0

    def enter(self) -> bool:
        if self.inside >= self.capacity:
            self.refused += 1
            return False
        self.inside += 1
        return True

    def leave(self) -> None:
        self.inside -= 1
        self.served += 1


@dataclass
class Service:
    """What the endpoints share: the caps, the admission count, the worker pool."""

    caps: Caps
    workers: int
    queue: int
    retry_after: int = 1
    admission: _Admission = field(init=False)
    pool: WorkerPool | None = None
    timeouts: int = 0
    abandoned: int = 0
    sessions: Sessions = field(default_factory=Sessions)
    inside: dict[int, tuple[float, float, bool, str]] = field(default_factory=dict, init=False)
    """The requests admitted, each as (the admission its budget is spent from, its budget in
    seconds, whether it spends the whole budget, its job's kind: :func:`job_kind`)."""
    typical: dict[str, float] = field(default_factory=dict, init=False)
    """The seconds a worker spends on a job of each kind (:func:`job_kind`), lately
    (:data:`TYPICAL_WEIGHT`); a kind absent has had no job run yet. Kept apart: a review's
    minutes must not stretch the hints' estimate, nor quick hints shrink a review's."""
    _tickets: itertools.count[int] = field(default_factory=itertools.count, init=False)

    def __post_init__(self) -> None:
        self.admission = _Admission(self.workers + self.queue)

    def retry_seconds(self) -> int:
        """The ``Retry-After`` of a refused request: the seconds the requests inside are
        expected to take, shared over the workers, so a retry then finds the queue drained; at
        least ``retry_after`` (1 s). Each request counts what its budget has left (from its
        admission, whether it runs or waits: a take back's step from the take back's), or the
        :attr:`typical` seconds of a job of its kind when fewer (a hint bounded by its
        iterations ends long before its seconds); a request that spends its whole budget (a
        search bounded by seconds alone) counts it, whatever the others took."""
        now = time.monotonic()
        left = 0.0
        for admitted, budget, whole, kind in self.inside.values():
            own = max(0.0, admitted + budget - now)
            typical = self.typical.get(kind)
            left += own if whole or typical is None else min(own, typical)
        return max(self.retry_after, math.ceil(left / max(1, self.workers)))

    def _ran(self, kind: str, seconds: float) -> None:
        """Fold a job's seconds on a worker into :attr:`typical` of its ``kind``."""
        typical = self.typical.get(kind)
        self.typical[kind] = (
            seconds if typical is None else typical + TYPICAL_WEIGHT * (seconds - typical)
        )

    def error_response(self, reply: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        status = STATUS.get(reply.get("code", ""), 400)
        return SafeJSONResponse(reply, status_code=status, headers=headers)

    async def run(self, job: Job, raw: JSONValue, *args: object, **how: Any) -> Any:
        """:meth:`call`'s reply as a response (an error answer with its status); ``how``: the
        keywords :meth:`call` takes (``timeout``, ``gone``, ``timed``)."""
        reply, headers = await self.call(job, raw, *args, **how)
        if "error" in reply:
            return self.error_response(reply, headers)
        return SafeJSONResponse(reply, headers=headers)

    async def call(
        self,
        job: Job,
        raw: JSONValue,
        *args: object,
        timeout: float,
        gone: Gone | None = None,
        timed: bool = False,
        admitted: float | None = None,
        budget: float | None = None,
        whole: bool = False,
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The job's reply (an answer or an error answer) and the response's headers. With
        ``gone``, a job still waiting for a worker is dropped once its client has hung up
        (``client_gone``): a queue of requests nobody will read would hold the slots and the
        workers of those still waiting. A job a worker has taken runs to its budget. ``timed``:
        the job takes the admission's ``time.monotonic()`` as its last argument, and spends
        its budget from there (the wait for a worker included); ``admitted``: an earlier
        admission to hand it instead (a take back's step: the request's own). ``budget``: the
        seconds the job may spend (``None``: its timeout less the grace), counted in the
        ``Retry-After`` of the requests refused meanwhile (:meth:`retry_seconds`, from
        ``admitted``: the seconds the job may still spend); ``whole``: the job spends all of it
        (a search bounded by its seconds alone), so it counts there whole, not as the
        :attr:`typical` seconds of its kind."""
        ident = raw.get("id") if isinstance(raw, dict) else None
        if not self.admission.enter():
            reply = error_answer(ident, "the server is busy: retry after the Retry-After seconds",
                                 None, "overloaded")  # fmt: skip
            return reply, {"Retry-After": str(self.retry_seconds())}
        now = time.monotonic()
        admitted = now if admitted is None else min(admitted, now)
        if timed:
            args = (*args, admitted)
        ticket = next(self._tickets)
        own = max(0.0, timeout - GRACE_SECONDS) if budget is None else budget
        kind = job_kind(job)
        # counted from the admission the job spends from: a take back's step (admitted at the
        # take back) has less left than its seconds (it was counted from now, in full)
        self.inside[ticket] = (admitted, own, whole, kind)
        began: list[float] = []  # when a worker took the job
        try:
            try:
                reply = await self._unless_abandoned(
                    job, raw, *args, timeout=timeout, gone=gone, since=admitted,
                    began=lambda: began.append(time.monotonic()),
                )  # fmt: skip
            except _Abandoned:
                self.abandoned += 1
                reply = error_answer(ident, "the client hung up before a worker took the "
                                     "request: it was dropped unrun", None,
                                     "client_gone")  # fmt: skip
            except JobTimeout as exc:
                self.timeouts += 1
                what = ("no worker was free in that time: it was not run"
                        if isinstance(exc, JobUnrun) else "its work was stopped")  # fmt: skip
                reply = error_answer(ident, f"no answer within {timeout:g} s of its admission "
                                     "(the request's budget and a grace, the wait for a worker "
                                     f"included): {what}", None, "timeout")  # fmt: skip
            except (WorkerDied, RuntimeError) as exc:  # a bug: answered without a traceback
                reply = error_answer(ident, f"internal error: {exc}", None, "internal")
        finally:
            self.admission.leave()
            del self.inside[ticket]
            if began:
                self._ran(kind, time.monotonic() - began[0])
        return reply, {ADMITTED_HEADER: f"{time.monotonic() - admitted:.6f}"}

    async def _unless_abandoned(
        self,
        *job: object,
        timeout: float,
        gone: Gone | None,
        since: float,
        began: Callable[[], None],
    ) -> dict[str, Any]:
        """``pool.run(jobs.guarded, *job)``'s reply, its ``timeout`` counted from ``since``
        (the admission); :class:`_Abandoned` if ``gone`` says the client hung up before a
        worker took the job (which is then cancelled, unrun). ``began`` is called when a worker
        takes it."""
        assert self.pool is not None, "the service is not started"
        if gone is None:
            reply: dict[str, Any] = await self.pool.run(
                jobs.guarded, *job, timeout=timeout, since=since, started=began
            )
            return reply
        started = asyncio.Event()

        def taken() -> None:
            started.set()
            began()

        run = self.pool.run(jobs.guarded, *job, timeout=timeout, started=taken, since=since)
        work: asyncio.Future[dict[str, Any]] = asyncio.ensure_future(run)
        try:
            while not started.is_set():
                done, _ = await asyncio.wait({work}, timeout=GONE_POLL_SECONDS)
                if done:
                    break
                if await gone() and not started.is_set():  # no await between this and cancel
                    work.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await work
                    raise _Abandoned
            return await work
        except asyncio.CancelledError:
            work.cancel()
            raise

    def health(self) -> dict[str, Any]:
        pool = self.pool
        busy = pool.busy if pool is not None else 0
        alive = pool.alive if pool is not None else 0
        return {
            "status": "ok" if alive == self.workers else "degraded",
            "inside": self.admission.inside,
            "capacity": self.admission.capacity,
            "served": self.admission.served,
            "refused": self.admission.refused,
            "workers": self.workers,
            "busy": busy,
            "idle": max(0, alive - busy),
            "waiting": max(0, self.admission.inside - busy),
            "alive": alive,
            "recycled": pool.recycled if pool is not None else 0,
            "timeouts": self.timeouts,
            "abandoned": self.abandoned,
            "sessions": len(self.sessions),
            "sessionsRefused": self.sessions.refused,
        }


ERROR_WORDS = {
    400: "a bad request",
    404: "no such session (unknown_session)",
    409: "the session cannot take this request now",
    413: "the body is too large",
    415: "the body is not plain JSON (its Content-Type or Content-Encoding)",
    500: "a bug in forest-solver (please report it)",
    503: "busy: retry after Retry-After seconds",
    504: "no answer within the request's budget",
}
"""What each error status a POST route answers means, for its OpenAPI ``responses``."""

PATH_CODES = frozenset({"not_found", "method_not_allowed", "client_gone"})
"""Codes no route's own operation answers: a path or method the app has not (404, 405), and a
hung-up client's (499, which nobody reads)."""


START_CODES = frozenset({"too_many_sessions"})
"""Codes only a table session's start answers (:data:`START_ERRORS`): /v1/hint's 503 listed
``too_many_sessions``, which no hint is ever answered (a new user's pass read it on /docs)."""


def error_responses(*statuses: int, start: bool = False) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of the error statuses a route answers: each the error object
    (:class:`ErrorAnswer`), its description naming the codes :data:`STATUS` gives it (those of
    :data:`START_CODES` only for a session's ``start``)."""
    out: dict[int | str, dict[str, Any]] = {}
    left_out = PATH_CODES if start else PATH_CODES | START_CODES
    for status in statuses:
        codes = [c for c, s in STATUS.items() if s == status and c not in left_out]
        described = f"{ERROR_WORDS[status]}: code {', '.join(codes)}"
        out[status] = {"model": ErrorAnswer, "description": described}
    return out


ERRORS = error_responses(400, 413, 415, 500, 503, 504)
"""The errors of a POST run on the worker pool: a bad request (the ingress's, the schema's, the
job's), a body too large or not plain JSON (the ingress's), the pool's (a bug, busy, a timeout).
FastAPI's 422 is never answered (:func:`solver.hint.apidocs.answered_errors_only` drops it)."""

START_ERRORS = error_responses(400, 413, 415, 500, 503, 504, start=True)
"""The errors of ``/v1/table/start``: :data:`ERRORS`, and a full session table's 503."""

SESSION_ERRORS = error_responses(400, 404, 409, 413, 415, 500, 503, 504)
"""The errors of a table session's step: :data:`ERRORS`, and the session's (unknown, busy...)."""

RECORD_ERRORS = error_responses(400, 404, 409, 413, 415)
"""The errors of ``/v1/table/record``, which runs nothing on the pool."""


def api_router(service: Service) -> APIRouter:
    """``/v1/*`` and ``/health``."""
    router = APIRouter()
    caps = service.caps
    hint_timeout = caps.max_seconds + GRACE_SECONDS
    review_timeout = caps.max_review_seconds + caps.max_seconds + GRACE_SECONDS

    @router.post("/v1/hint", response_model=HintAnswer, responses=ERRORS)
    async def hint(request: HintRequest, http: Request) -> Any:
        """The ranked moves and the value of a position (the schema of ``forest hint``)."""
        raw = request.model_dump(by_alias=True, exclude_unset=True)
        raw["id"] = request.id
        applied = applied_limit(request, caps)  # no iterations: it searches all of its seconds
        return await service.run(jobs.hint_job, raw, caps, timeout=hint_timeout,
                                 gone=http.is_disconnected, timed=True, budget=applied.seconds,
                                 whole=applied.iterations is None)  # fmt: skip

    @router.post("/v1/analyse", response_model=AnalyseAnswer, responses=ERRORS)
    async def analyse(request: AnalyseRequest, http: Request) -> Any:
        """A game file's solvability class, par and value (games with analysis hooks)."""
        raw = request.model_dump(by_alias=True)
        return await service.run(jobs.analyse_job, raw, timeout=ANALYSE_SECONDS,
                                 gone=http.is_disconnected, timed=True)  # fmt: skip

    @router.post("/v1/review", response_model=ReviewAnswer, responses=ERRORS)
    async def review(request: ReviewRequest, http: Request) -> Any:
        """Every decision of a game record against the best move: losses, marks, the curve
        (the whole review bounded by ``totalSeconds``, at most the server's review cap)."""
        raw = request.model_dump(by_alias=True, exclude_unset=True)
        return await service.run(jobs.review_job, raw, caps, timeout=review_timeout,
                                 gone=http.is_disconnected, timed=True)  # fmt: skip

    @router.post("/v1/position", responses=ERRORS)
    async def position(request: PositionRequest, http: Request) -> Any:
        """A position as the web table shows it: picture, legal moves, chance outcomes."""
        raw = request.model_dump(by_alias=True, exclude_unset=True)
        return await service.run(jobs.position_job, raw, timeout=hint_timeout,
                                 gone=http.is_disconnected)  # fmt: skip

    @router.post("/v1/roll", responses=ERRORS)
    async def roll(request: RollRequest, http: Request) -> Any:
        """A new instance from the game's generator, as a request's ``options`` (inline text)."""
        return await service.run(jobs.roll_job, request.model_dump(), timeout=hint_timeout,
                                 gone=http.is_disconnected)  # fmt: skip

    @router.get("/v1/games")
    async def games() -> list[dict[str, Any]]:
        """The registered games and what each offers (``forest games --json``: the same rows).
        Off the event loop: the first call opens each game of several counts once, to read its
        default count (``defaultPlayers``)."""
        from solver.catalog import describe_games

        return await asyncio.to_thread(describe_games)

    @router.get("/v1/schema")
    async def schema() -> dict[str, Any]:
        """The request and answer schema as JSON Schema."""
        return json_schema()

    @router.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness and load, answered by the event loop (never queued): requests inside,
        workers busy and idle, workers recycled after a timeout."""
        return service.health()

    for path, endpoint in (("/v1/games", games), ("/v1/schema", schema), ("/health", health)):
        # HEAD wherever GET is, outside the OpenAPI document (one operation a path there)
        router.add_api_route(path, endpoint, methods=["HEAD"], include_in_schema=False)
    return router


class TableRoutes:
    """The ``/v1/table/*`` endpoints over one service: each a method (its docstring the OpenAPI
    description), sharing the session lookup, the busy set and the step that runs a session's
    job. :func:`table_router` puts them on their paths."""

    def __init__(self, service: Service) -> None:
        self.service = service
        # a step keeps to its seconds (at most the seconds cap): this only catches a fault
        self.step_timeout = service.caps.max_seconds + GRACE_SECONDS
        self.hint_timeout = service.caps.max_seconds + GRACE_SECONDS
        self.busy: set[str] = set()

    def busy_error(self, ident: str) -> Any:
        """The 409 for a request on a session whose previous step still runs (``None`` when it
        is free): a hint, a line or a move now would be of a position about to change."""
        if ident not in self.busy:
            return None
        return self.fail("this session is busy with the previous request (the engine seats are "
                         "playing): ask again once it has answered", "session",
                         "session_busy")  # fmt: skip

    def pending_error(self, session: Session) -> Any:
        """The 409 for a hint or a line while an engine seat is still to move (``None`` when a
        human seat is to move or the game is over): the position's mover is an engine seat, and
        a hint from its view would list its moves (in a hidden-card game, the cards in its hand)."""
        if not session.engines_pending:
            return None
        return self.fail("the engine seats are still to move (enginePending): ask "
                         "/v1/table/view to let them play, then the hint", "session",
                         "engine_pending")  # fmt: skip

    def ready_for_a_hint(self, ident: str) -> Session | Any:
        """The session ``ident`` when a hint or a line may be asked of it now; else the error
        response: unknown, or the 409 refusing it (left by its unfinished record, as a move is;
        busy; or an engine seat to move)."""
        session = self.playing(ident)  # left: the game is over for the table, hints included
        if not isinstance(session, Session):
            return session
        busy = self.busy_error(ident)
        if busy is not None:
            return busy
        pending = self.pending_error(session)
        return session if pending is None else pending

    def left_error(self) -> Any:
        """The answer to a step of a session left by its unfinished record (``game_over``)."""
        return self.fail("the game was saved unfinished, and its record holds every seat's "
                         "cards: the session is left (load the record on the analysis board to "
                         "go on, or start a new session)", "session", "game_over")  # fmt: skip

    def fail(self, message: str, field: str | None, code: str) -> Any:
        return self.service.error_response(error_answer(None, message, field, code))

    def full(self, full: SessionsFull) -> Any:
        """The 503 refusing a new session while every session kept is in use, with the
        seconds until the least recently used may make room (``Retry-After``)."""
        reply = error_answer(None, str(full), full.field, full.code)
        return self.service.error_response(reply, {"Retry-After": str(full.retry_after)})

    def found(self, ident: str) -> Session | Any:
        """The session ``ident``, or the error response saying it is unknown."""
        try:
            return self.service.sessions.get(ident)
        except HintError as exc:
            return self.fail(str(exc), exc.field, exc.code)

    def playing(self, ident: str) -> Session | Any:
        """The session ``ident`` when a step may be asked of it; else the error response:
        unknown, or left by its unfinished record (:meth:`left_error`)."""
        session = self.found(ident)
        if isinstance(session, Session) and session.left:
            return self.left_error()
        return session

    async def call_on(
        self, ident: str, job: Job, raw: JSONValue, *args: object, hold: bool = False, **how: Any
    ) -> tuple[dict[str, Any], dict[str, str]] | Any:
        """:meth:`Service.call`'s reply and headers for ``job`` on the session ``ident``, which
        is in use meanwhile (never dropped to make room); an error reply as its error response.
        ``hold``: the job changes the session, so it is refused while another such job runs
        (:meth:`busy_error`) and marked busy while it runs."""
        if hold:
            busy = self.busy_error(ident)
            if busy is not None:
                return busy
            self.busy.add(ident)
        try:
            with self.service.sessions.using(ident):
                reply, headers = await self.service.call(job, raw, *args, **how)
        finally:
            if hold:
                self.busy.discard(ident)
        if "error" in reply:
            return self.service.error_response(reply, headers)
        return reply, headers

    async def step(
        self,
        ident: str,
        session: Session,
        move: int | None = None,
        *,
        starting: bool = False,
        gone: Gone | None = None,
        admitted: float | None = None,
        notes: list[str] | None = None,
    ) -> Any:
        """Advance ``session`` (with a human ``move``, if any) on the pool, one request a session
        at a time; its view is the answer (``notes``, the request's, added to its own). A
        ``starting`` session is kept only once its first step has answered: a start that fails
        (a bad seat, agent or option; a timeout) takes no slot and drops no other session. With
        ``gone``, a step still waiting for a worker when its client hangs up is dropped unrun
        (``client_gone``): the session stays as it was.
        The step's seconds run from the request's admission (``admitted``, else the step's
        own): its wait for a worker is spent from them."""
        ran = await self.call_on(
            ident, advance_job, session.as_job(), move, hold=True, timeout=self.step_timeout,
            gone=gone, timed=True, admitted=admitted, budget=session.seconds,
        )  # fmt: skip
        if not isinstance(ran, tuple):
            return ran
        reply, headers = ran
        if starting:
            try:  # the others may have filled the room while the first step ran
                self.service.sessions.add(session, ident)
            except SessionsFull as full:
                return self.full(full)
        session.actions = reply["actions"]
        session.view_seconds = reply.get("viewSeconds")  # the next step's reserve for its view
        view = reply["view"]
        if notes:
            view = {**view, "notes": [*view.get("notes", []), *notes]}
        session.over = bool(view["terminal"])
        session.engines_pending = bool(view["enginePending"])
        return SafeJSONResponse({"session": ident, **view}, headers=headers)

    async def start(self, request: TableStartRequest, http: Request) -> Any:
        """A new session: the engine seats play until a human seat is to move."""
        from solver.errors import OptionError
        from solver.registry import game_spec

        try:
            spec = game_spec(request.game)
        except OptionError as exc:
            return self.fail(str(exc), "game", "unknown_game")
        agent = request.agent or spec.strongest_agent
        cap = self.service.caps.max_seconds
        seconds = cap if request.seconds is None else min(request.seconds, cap)
        session = Session(request.game, dict(request.options), list(request.humans), agent,
                          request.iterations, request.seed, seconds=seconds)  # fmt: skip
        try:  # refused before its first step takes a worker
            self.service.sessions.check_room(session)
        except SessionsFull as full:
            return self.full(full)
        return await self.step(Sessions.new_ident(), session, starting=True,
                               gone=http.is_disconnected, notes=ignored_note(request))  # fmt: skip

    async def move(self, request: TableMoveRequest, http: Request) -> Any:
        """A human seat's move; then chance and the engine seats until a human is to move."""
        session = self.playing(request.session)
        if not isinstance(session, Session):
            return session
        if session.over:  # refused here: no worker replays the game to say it
            return self.fail("the game is over: no move is played after its end (start a new "
                             "session)", "session", "game_over")  # fmt: skip
        return await self.step(request.session, session, request.action,
                               gone=http.is_disconnected, notes=ignored_note(request))  # fmt: skip

    async def view(self, request: TableSessionRequest, http: Request) -> Any:
        """The session's position as the human seat concerned sees it."""
        session = self.playing(request.session)  # left: no engine seat plays on after the record
        if not isinstance(session, Session):
            return session
        return await self.step(request.session, session, gone=http.is_disconnected,
                               notes=ignored_note(request))  # fmt: skip

    async def takeback(self, request: TableSessionRequest, http: Request) -> Any:
        """The last human move taken back, with everything after it (the rolls and draws before
        it stay). All or nothing: where the step after the cut gets no view (a full queue, a
        timeout, a client gone), the session keeps its moves."""
        session = self.playing(request.session)
        if not isinstance(session, Session):
            return session
        if session.over:  # its record is out: every seat's cards are known
            return self.fail("the game is over: no move is taken back after its record (start "
                             "a new session)", "session", "game_over")  # fmt: skip
        admitted = time.monotonic()  # the step after the cut spends from the request's seconds
        ran = await self.call_on(  # held: no step may start between the point and the cut
            request.session, takeback_job, session.as_job(), hold=True,
            timeout=self.step_timeout, gone=http.is_disconnected, admitted=admitted,
        )  # fmt: skip
        if not isinstance(ran, tuple):
            return ran
        before = session.actions
        session.actions = before[: ran[0]["keep"]]
        answer = await self.step(request.session, session, gone=http.is_disconnected,
                                 admitted=admitted, notes=ignored_note(request))  # fmt: skip
        if answer.status_code >= 400:  # no view of the cut: the take back did not happen (a
            session.actions = before  # client retrying a 503 would take back two moves)
        return answer

    async def table_hint(self, request: TableHintRequest, http: Request) -> Any:
        """A hint for the human seat to move, from its own view (ISMCTS where cards hide)."""
        session = self.ready_for_a_hint(request.session)
        if not isinstance(session, Session):
            return session
        raw: JSONValue = {"id": "table-hint", "game": session.game, "options": session.options,
               "actions": list(session.actions), "limit": request.limit.model_dump(
                   by_alias=True, exclude_none=True), "top_k": request.top_k}  # fmt: skip
        ran = await self.call_on(request.session, jobs.hint_job, raw, self.service.caps,
                                 timeout=self.hint_timeout, gone=http.is_disconnected,
                                 timed=True)  # fmt: skip
        if not isinstance(ran, tuple):
            return ran
        reply, headers = ran
        reply["notes"] = [*reply.get("notes", []), *ignored_note(request)]
        return SafeJSONResponse(reply, headers=headers)

    async def table_line(self, request: TableLineRequest, http: Request) -> Any:
        """The hinted line on the session's picture (the seat's own moves of ``pv``), and
        ``notes`` naming the request's unknown fields."""
        session = self.ready_for_a_hint(request.session)
        if not isinstance(session, Session):
            return session
        ran = await self.call_on(request.session, line_job, session.as_job(), list(request.pv),
                                 timeout=self.hint_timeout, gone=http.is_disconnected)  # fmt: skip
        if not isinstance(ran, tuple):
            return ran
        reply, headers = ran
        return SafeJSONResponse({**reply, "notes": ignored_note(request)}, headers=headers)

    async def record(self, request: TableRecordRequest) -> Any:
        """The session's full record (every action): once the game is over, or with
        ``unfinished`` the record so far (``"finished": false``, as ``play --record`` writes
        it when the game is left). Where the game hides cards, that record holds every seat's,
        so the session is left: as after the end, no move or take back follows."""
        session = self.found(request.session)
        if not isinstance(session, Session):
            return session
        if not session.over and not request.unfinished:
            try:  # a misspelt "unfinshed" is named, not answered as if it were not sent
                misspelt_refusal(request, "unfinished", "the record so far is given only with it")
            except HintError as exc:
                return self.fail(str(exc), exc.field, exc.code)
            return self.fail(_not_over_words(session.game), "session", "game_not_over")
        busy = self.busy_error(request.session)  # the actions of a step still running
        if busy is not None:
            return busy
        if not session.over and _hides_cards(session.game):
            session.left = True
        record = session.record()
        notes = ignored_note(request)
        if notes:  # only then: the record is the file the web table saves (play --record's)
            record["notes"] = notes
        return SafeJSONResponse(record)


def _not_over_words(game: str) -> str:
    """Why a record asked before the end is refused, and what to ask: the cards a hidden-card
    game's record would show (the session is then left) are named only for such a game (the
    other games' refusals spoke of every seat's cards, which they have none of)."""
    said = "the full record is given once the game is over"
    if _hides_cards(game):
        return (
            f'{said} (it holds every seat\'s cards; ask "unfinished": true for the record '
            "so far, which leaves the game)"
        )
    return f'{said}; ask "unfinished": true for the record so far (the game goes on)'


def _hides_cards(game: str) -> bool:
    """Whether ``game`` hides information from its seats (its spec's ``hidden_information``)."""
    from solver.registry import game_spec

    return bool(game_spec(game).hidden_information)


def table_router(service: Service) -> APIRouter:
    """``/v1/table/*``: sessions the server keeps (:mod:`solver.hint.session`); each answer is the
    human seat's view only, the record only once the game is over (:class:`TableRoutes`)."""
    router = APIRouter()
    routes = TableRoutes(service)
    router.post("/v1/table/start", responses=START_ERRORS)(routes.start)  # no session yet
    for endpoint in (routes.move, routes.view, routes.takeback):
        router.post(f"/v1/table/{endpoint.__name__}", responses=SESSION_ERRORS)(endpoint)
    router.post("/v1/table/hint", response_model=HintAnswer,
                responses=SESSION_ERRORS)(routes.table_hint)  # fmt: skip
    router.post("/v1/table/line", responses=SESSION_ERRORS)(routes.table_line)
    router.post("/v1/table/record", responses=RECORD_ERRORS)(routes.record)
    return router


def static_dir() -> Path:
    return Path(str(resources.files("solver.hint").joinpath("static")))


def mount_web(app: FastAPI) -> None:
    """The web table on ``app``: ``/`` and its files under ``/static``, and ``/favicon.ico``."""
    static = static_dir()

    @app.api_route("/", methods=GET_AND_HEAD, include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(static / "index.html", media_type="text/html")

    @app.api_route("/favicon.ico", methods=GET_AND_HEAD, include_in_schema=False)
    async def favicon() -> FileResponse:
        """The page's icon where browsers and tools look for it first (they ask /favicon.ico
        whatever the page's ``<link rel="icon">`` says): the SVG itself, named by its content
        type, not a redirect to it, so one request answers it and a client that does not follow
        redirects still gets the icon."""
        return FileResponse(static / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
