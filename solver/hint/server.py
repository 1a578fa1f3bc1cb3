"""``forest serve``: the hint engine over HTTP (FastAPI + uvicorn), and the web table at ``/``.

Endpoints: ``POST /v1/hint``, ``POST /v1/analyse``, ``POST /v1/review``, ``POST /v1/position``
(what the web table draws: the picture, the legal moves, the chance outcomes), ``GET /v1/games``,
``GET /v1/schema``, ``GET /health``; OpenAPI at ``/openapi.json``. Every search runs in a process
pool, so the event loop only moves bytes. Admission is bounded: ``workers`` requests run and
``queue`` more wait; past that a request is answered ``503`` with ``Retry-After``. Bodies larger
than ``max_body_bytes`` get ``413``; a request that fails validation gets ``400`` with ``{"id",
"error", "field", "code"}`` (not FastAPI's 422). CORS is off unless origins are named. Access logs
are one JSON object a line on stderr. On shutdown the running searches finish (each is bounded
by the per-request cap) and the queued ones are cancelled.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from solver.errors import OptionError, SolverError
from solver.hint.engine import Caps, HintError, answer, error_answer, open_position
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
    json_schema,
)

__all__ = ["ServerConfig", "create_app", "run_server"]

STATUS = {
    "invalid_request": 400,
    "malformed": 400,
    "unknown_game": 400,
    "illegal_action": 400,
    "bad_state": 400,
    "bad_game": 400,
    "unsupported": 400,
    "hidden_information": 400,
    "budget": 400,
    "too_large": 413,
    "overloaded": 503,
    "timeout": 504,
    "internal": 500,
}
"""The HTTP status of each error code (``docs/hint-engine.md``)."""


ADMITTED_HEADER = "X-Seconds-Since-Admission"
"""A response header: seconds from admission (queue wait included) to the answer."""


@dataclass(frozen=True)
class ServerConfig:
    """How the service runs: budget caps, pool size, admission queue, body limit, CORS, logs."""

    caps: Caps = field(default_factory=Caps)
    workers: int = 2
    queue: int = 32
    max_body_bytes: int = 1 << 20
    cors_origins: tuple[str, ...] = ()
    access_log: bool = True
    retry_after: int = 1


# -- work done in the pool's processes (top-level functions: picklable) ---------------------------
def _warm() -> bool:
    import solver.hint.engine  # noqa: F401  (imports the searchers once per worker)

    return True


def _hint_job(raw: dict[str, Any], caps: Caps) -> dict[str, Any]:
    return answer(raw, caps=caps, allow_paths=False)


def _position_job(raw: dict[str, Any]) -> dict[str, Any]:
    """What the web table shows of a position: the picture, the moves, the outcomes, the points
    of the picture where each move lands and along ``pv`` (the hinted line)."""
    request = PositionRequest.model_validate(raw)
    position = open_position(request, allow_paths=False)
    spec, game, state = position.spec, position.game, position.state
    legal = [] if state.is_terminal() else state.legal_actions()
    moves = [{"action": a, "label": state.action_to_string(a)} for a in legal]
    outcomes = [
        {"action": a, "label": state.action_to_string(a), "probability": p}
        for a, p in (state.chance_outcomes() if state.is_chance_node() else [])
    ]
    svg = spec.render_svg(game, state, position.actions) if spec.render_svg else None
    text = spec.render_text(game, state) if spec.render_text is not None else None
    point = spec.svg_point
    move_points: dict[str, Any] = {}
    pv_points: list[Any] = []
    if point is not None:
        if not state.is_terminal() and not state.is_chance_node():
            for a in legal:
                child = state.clone()
                child.apply_action(a)
                move_points[str(a)] = point(game, child)
        walker = state.clone()
        pv_points.append(point(game, walker))
        for index, action in enumerate(request.pv):
            if walker.is_terminal() or action not in walker.legal_actions():
                raise HintError(f"pv.{index}: action {action} is not legal there", f"pv.{index}")
            walker.apply_action(action)
            pv_points.append(point(game, walker))
    return {
        "game": spec.name,
        "currentPlayer": state.current_player(),
        "terminal": state.is_terminal(),
        "chance": state.is_chance_node(),
        "returns": state.returns() if state.is_terminal() else None,
        "moves": moves,
        "outcomes": outcomes,
        "actions": position.actions,
        "svg": svg,
        "text": text,
        "point": pv_points[0] if pv_points else None,
        "movePoints": move_points,
        "pvPoints": pv_points,
        "valueKind": spec.value_kind,
    }


def _analyse_job(raw: dict[str, Any]) -> dict[str, Any]:
    import importlib

    from solver.registry import game_spec

    started = time.monotonic()
    request = AnalyseRequest.model_validate(raw)
    try:
        spec = game_spec(request.game)
    except OptionError as exc:
        raise HintError(str(exc), "game", "unknown_game") from None
    hooks = spec.analysis
    if hooks is None or spec.source_option is None:
        raise HintError(f"analysis is not supported for {spec.name}", "game", "unsupported")
    field_name = f"options.{spec.source_option}"
    source = request.options.get(spec.source_option)
    if not isinstance(source, str) or not source.strip():
        raise HintError(f"{field_name}: a puzzle name or the file's text", field_name)
    from solver import puzzles

    if spec.puzzles is not None and source in puzzles.names(spec.puzzles):
        instance = hooks.load(str(puzzles.path(source)))
        name = source
    elif "\n" in source:
        if len(source) > hooks.max_file_bytes:
            raise HintError(f"{field_name}: larger than {hooks.max_file_bytes} bytes", field_name)
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / f"inline{hooks.extension}"
            target.write_text(source, encoding="utf-8")
            try:
                instance = hooks.load(str(target))
            except (SolverError, ValueError) as exc:
                raise HintError(f"{field_name}: {exc}", field_name, "bad_game") from None
        name = "inline"
    else:
        raise HintError(f"{field_name}: not a puzzle name, nor a file's text", field_name)

    class _Held:
        def __init__(self) -> None:
            self.source = name

        def load(self) -> Any:
            return instance

    module, _, function = hooks.analyse.partition(":")
    analyse = getattr(importlib.import_module(module), function)
    row = analyse(_Held())
    clean = json.loads(json.dumps(row, default=str))
    return AnalyseAnswer(
        id=request.id, game=spec.name, row=clean, elapsed=round(time.monotonic() - started, 6)
    ).model_dump(by_alias=True)


def _roll_job(raw: dict[str, Any]) -> dict[str, Any]:
    """A rolled instance as the options of a request (its file's text inline)."""
    from solver.registry import game_spec

    request = RollRequest.model_validate(raw)
    try:
        spec = game_spec(request.game)
    except OptionError as exc:
        raise HintError(str(exc), "game", "unknown_game") from None
    hooks = spec.analysis
    if hooks is None or hooks.roll is None or spec.source_option is None:
        raise HintError(f"rolling an instance is not supported for {spec.name}", "game",
                        "unsupported")  # fmt: skip
    low, high = hooks.size_range
    for name in ("width", "height"):
        value = getattr(request, name)
        if not low <= value <= high:
            raise HintError(f"{name} must be {low}..{high} for {spec.name}", name)
    if request.turns is not None and hooks.turns_range is not None:
        first, last = hooks.turns_range
        if not first <= request.turns <= last:
            raise HintError(f"turns must be {first}..{last} for {spec.name}", "turns")
    instance = hooks.roll(request.seed, (request.width, request.height), request.turns)
    text = hooks.dump(instance)
    return {"game": spec.name, "options": {spec.source_option: text},
            "source": f"seed:{request.seed} {request.width}x{request.height}"}  # fmt: skip


def _review_job(raw: dict[str, Any], caps: Caps) -> dict[str, Any]:
    from solver.review import review_record

    request = ReviewRequest.model_validate(raw)
    record = {"game": request.game, "options": request.options, "seed": request.seed,
              "actions": request.actions}  # fmt: skip
    if request.engine is not None:
        record["engine"] = request.engine
    result = review_record(
        record, iterations=request.limit.iterations, seconds=request.limit.seconds,
        exact=request.exact, caps=caps, allow_paths=False,
    )  # fmt: skip
    return ReviewAnswer(id=request.id, **result).model_dump(by_alias=True)


def _guarded(job: Callable[..., dict[str, Any]], raw: Any, *args: Any) -> dict[str, Any]:
    """Run ``job``; a client's mistake becomes an error answer, never a traceback."""
    ident = raw.get("id") if isinstance(raw, dict) else None
    try:
        return job(raw, *args)
    except HintError as exc:
        return error_answer(ident, str(exc), exc.field, exc.code)
    except SolverError as exc:
        return error_answer(ident, str(exc), None, "invalid_request")
    except RecursionError:
        return error_answer(ident, "nested too deeply", None, "invalid_request")


# -- the app ---------------------------------------------------------------------------------------
class _Admission:
    """Bounded admission: ``capacity`` requests in the service at once, the rest refused."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.inside = 0
        self.served = 0
        self.refused = 0

    def enter(self) -> bool:
        if self.inside >= self.capacity:
            self.refused += 1
            return False
        self.inside += 1
        return True

    def leave(self) -> None:
        self.inside -= 1
        self.served += 1


def _error_response(reply: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(reply, status_code=STATUS.get(reply.get("code", ""), 400), headers=headers)


class _BodyLimit:
    """ASGI middleware: bodies over the limit get 413 (by Content-Length, or while reading: the
    body is read whole, at most ``limit`` bytes, before the app sees it)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_large = error_answer(None, f"the body is larger than {self.limit} bytes", None,
                                 "too_large")  # fmt: skip
        if length is not None and length.isdigit() and int(length) > self.limit:
            await JSONResponse(too_large, status_code=413)(scope, receive, send)
            return
        chunks: list[bytes] = []
        seen = 0
        more = True
        while more:  # bounded: every message adds bytes, and past the limit reading stops
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # a disconnect: let the app see it
                return
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                await JSONResponse(too_large, status_code=413)(scope, receive, send)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _static_dir() -> Path:
    return Path(str(resources.files("solver.hint").joinpath("static")))


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The FastAPI app (the pool starts with the app and stops with it)."""
    config = config or ServerConfig()
    admission = _Admission(config.workers + config.queue)
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = ProcessPoolExecutor(
            max_workers=config.workers, mp_context=multiprocessing.get_context("spawn")
        )
        state["pool"] = pool
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(pool, _warm) for _ in range(config.workers)))
        try:
            yield
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    app = FastAPI(
        title="forest-solver hint engine",
        version="1",
        description="Hints, analyses and reviews for the forest games (docs/hint-engine.md).",
        lifespan=lifespan,
    )

    if config.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware, allow_origins=list(config.cors_origins), allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
        )  # fmt: skip

    @app.middleware("http")
    async def access_log(request: Request, call_next: Callable[[Request], Awaitable[Response]]):
        started = time.monotonic()
        response = await call_next(request)
        if config.access_log:
            entry = {
                "ts": round(time.time(), 3), "method": request.method, "path": request.url.path,
                "status": response.status_code, "ms": round(1000 * (time.monotonic() - started), 2),
                "client": request.client.host if request.client else None,
            }  # fmt: skip
            print(json.dumps(entry), file=sys.stderr, flush=True)
        return response

    app.add_middleware(_BodyLimit, limit=config.max_body_bytes)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        body = exc.body if isinstance(exc.body, dict) else None
        errors = exc.errors()
        first = errors[0] if errors else {}
        loc = [str(p) for p in first.get("loc", ()) if p != "body"]
        from solver.hint.schema import _type_tag

        loc = [p for p in loc if not _type_tag(p)]
        kind = first.get("type", "")
        where = None if kind == "json_invalid" else ".".join(loc) or None
        message = first.get("msg", "invalid request")
        code = "malformed" if kind == "json_invalid" else "invalid_request"
        reply = ErrorAnswer(
            id=body.get("id") if body and isinstance(body.get("id"), str) else None,
            error=f"{where}: {message}" if where else message,
            field=where,
            code=code,
        )
        return JSONResponse(reply.model_dump(by_alias=True), status_code=400)

    async def run(job: Callable[..., dict[str, Any]], raw: Any, *args: Any) -> JSONResponse:
        if not admission.enter():
            reply = error_answer(
                raw.get("id") if isinstance(raw, dict) else None,
                "the server is busy: retry after the Retry-After seconds", None, "overloaded",
            )  # fmt: skip
            return _error_response(reply, {"Retry-After": str(config.retry_after)})
        admitted = time.monotonic()
        try:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(state["pool"], _guarded, job, raw, *args)
            limit = 2 * config.caps.max_seconds + 30
            try:
                reply = await asyncio.wait_for(future, timeout=limit)
            except TimeoutError:
                reply = error_answer(raw.get("id"), f"no answer within {limit:g} s", None,
                                     "timeout")  # fmt: skip
            except Exception as exc:  # a worker died: a bug, answered without a traceback
                reply = error_answer(raw.get("id"), f"internal error: {type(exc).__name__}",
                                     None, "internal")  # fmt: skip
        finally:
            admission.leave()
        timing = {ADMITTED_HEADER: f"{time.monotonic() - admitted:.6f}"}
        if "error" in reply:
            return _error_response(reply, timing)
        return JSONResponse(reply, headers=timing)

    errors = {
        400: {"model": ErrorAnswer, "description": "a bad request"},
        413: {"model": ErrorAnswer, "description": "the body is too large"},
        503: {"model": ErrorAnswer, "description": "busy: retry after Retry-After seconds"},
    }

    @app.post("/v1/hint", response_model=HintAnswer, responses=errors)  # type: ignore[arg-type]
    async def hint(request: HintRequest) -> JSONResponse:
        """The ranked moves and the value of a position (the schema of ``forest hint``)."""
        raw = request.model_dump(by_alias=True, exclude_unset=True)
        raw["id"] = request.id
        return await run(_hint_job, raw, config.caps)

    @app.post("/v1/analyse", response_model=AnalyseAnswer, responses=errors)  # type: ignore[arg-type]
    async def analyse(request: AnalyseRequest) -> JSONResponse:
        """A game file's solvability class, par and value (games with analysis hooks)."""
        return await run(_analyse_job, request.model_dump(by_alias=True))

    @app.post("/v1/review", response_model=ReviewAnswer, responses=errors)  # type: ignore[arg-type]
    async def review(request: ReviewRequest) -> JSONResponse:
        """Every decision of a game record against the best move: losses, marks, the curve."""
        return await run(_review_job, request.model_dump(by_alias=True), config.caps)

    @app.post("/v1/position", responses=errors)  # type: ignore[arg-type]
    async def position(request: PositionRequest) -> JSONResponse:
        """A position as the web table shows it: picture, legal moves, chance outcomes."""
        return await run(_position_job, request.model_dump(by_alias=True, exclude_unset=True))

    @app.post("/v1/roll", responses=errors)  # type: ignore[arg-type]
    async def roll(request: RollRequest) -> JSONResponse:
        """A new instance from the game's generator, as a request's ``options`` (inline text)."""
        return await run(_roll_job, request.model_dump())

    @app.get("/v1/games")
    async def games() -> list[dict[str, Any]]:
        """The registered games, with what the web table needs to offer them."""
        from solver import puzzles
        from solver.registry import game_specs

        rows = []
        for spec in game_specs():
            names = puzzles.names(spec.puzzles) if spec.puzzles else []
            rows.append({
                "name": spec.name, "title": spec.title, "summary": spec.summary,
                "players": list(spec.players), "engines": spec.engine_names(),
                "valueKind": spec.value_kind, "exact": spec.exact, "puzzles": names,
                "sourceOption": spec.source_option, "defaultSource": spec.default_source,
                "svg": spec.render_svg is not None, "analysis": spec.analysis is not None,
                "roll": bool(spec.analysis and spec.analysis.roll and spec.source_option),
            })  # fmt: skip
        return rows

    @app.get("/v1/schema")
    async def schema() -> dict[str, Any]:
        """The request and answer schema as JSON Schema."""
        return json_schema()

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Liveness and load (answered by the event loop, never queued)."""
        return {"status": "ok", "inside": admission.inside, "capacity": admission.capacity,
                "served": admission.served, "refused": admission.refused,
                "workers": config.workers}  # fmt: skip

    static = _static_dir()

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(static / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app


def run_server(args: argparse.Namespace) -> int:
    """``forest serve``: bind, announce the address, serve until interrupted (status 0)."""
    import uvicorn

    from solver.hint.cli import caps_from

    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port must be 0..65535, not {args.port}")
    config = ServerConfig(
        caps=caps_from(args),
        workers=args.workers,
        queue=args.queue,
        max_body_bytes=args.max_body_bytes,
        cors_origins=tuple(args.cors_origin),
        access_log=not args.quiet,
    )
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # proto=IPPROTO_TCP: asyncio sets TCP_NODELAY only on sockets that say they are TCP; without
    # it every kept-alive response waited ~40 ms for the client's delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise OptionError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    sock.listen(128)
    port = sock.getsockname()[1]
    uv_config = uvicorn.Config(
        create_app(config),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=int(config.caps.max_seconds) + 5,
    )
    server = uvicorn.Server(uv_config)
    print(f"forest serve: http://{args.host}:{port}/ (the web table; API under /v1)",
          file=sys.stderr, flush=True)  # fmt: skip
    if args.port_file:
        Path(args.port_file).write_text(f"{port}\n", encoding="utf-8")
    # uvicorn re-raises the signal that stopped it once it has shut down gracefully; with these
    # handlers in place that ends here, with status 0, instead of killing the process.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: None)
    server.run(sockets=[sock])
    with contextlib.suppress(OSError):
        sock.close()
    if args.port_file:
        with contextlib.suppress(OSError):
            os.unlink(args.port_file)
    return 0
