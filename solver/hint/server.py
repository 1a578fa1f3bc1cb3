"""``forest serve``: the hint engine over HTTP (FastAPI + uvicorn), and the web table at ``/``.

Endpoints (:mod:`solver.hint.routes`): ``POST /v1/hint``, ``POST /v1/analyse``, ``POST
/v1/review``, ``POST /v1/position`` (what the web table draws), ``POST /v1/roll``, ``GET
/v1/games``, ``GET /v1/schema``, ``GET /health``; OpenAPI at ``/openapi.json``, listed as a page
at ``/docs`` (:mod:`solver.hint.apidocs`: no script or style from elsewhere).

- Every job runs on a pool of worker processes (:mod:`solver.hint.pool`), so the event loop only
  moves bytes; a job past its timeout (its budget plus a grace) gets its worker killed and
  replaced, and is answered 504.
- Admission is bounded: ``workers`` requests run and ``queue`` more wait; past that a request
  is answered 503 with ``Retry-After``.
- Every POST body is read whole (at most ``max_body_bytes``, else 413) and checked before the
  app sees it (:mod:`solver.hint.ingress`: JSON, no NaN, no lone surrogate, at most 64 deep),
  never decoded (a ``Content-Encoding`` other than ``identity`` is 415), the same checks as
  the stdio transport's; a request that fails validation gets 400 with ``{"id", "error",
  "field", "code"}`` (not FastAPI's 422).
- Connections have deadlines (:mod:`solver.hint.connections`): the request head within 10 s,
  the body within 30 s, 5 s idle between requests, 1000 requests a connection.
- CORS is off unless origins are named; access logs are one JSON object a line on stderr. On
  shutdown the running jobs finish (each bounded by its timeout) and the workers stop.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import OptionError, needs_extra, path_said, shortened

with needs_extra("the hint service"):  # the serve extra: the API names it
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

from solver.files import check_writable, write_whole
from solver.hint import jobs
from solver.hint.apidocs import answered_errors_only, mount_docs
from solver.hint.connections import (
    CHUNK_PENDING,
    ConnectionLimits,
    log_line,
    protocol_class,
    too_large_answer,
)
from solver.hint.engine import Caps, HintError, error_answer
from solver.hint.ingress import ident_of, parse_request, safe_text
from solver.hint.pool import WorkerPool
from solver.hint.routes import (
    ADMITTED_HEADER,
    STATUS,
    SafeJSONResponse,
    Service,
    api_router,
    mount_web,
    table_router,
)

__all__ = ["ADMITTED_HEADER", "STATUS", "ServerConfig", "create_app", "run_server"]


@dataclass(frozen=True)
class ServerConfig:
    """How the service runs: budget caps, pool size, admission queue, body limit, CORS, logs,
    connection limits."""

    caps: Caps = field(default_factory=Caps)
    workers: int = 2
    queue: int = 32
    max_body_bytes: int = 1 << 20
    cors_origins: tuple[str, ...] = ()
    access_log: bool = True
    retry_after: int = 1
    connections: ConnectionLimits = field(default_factory=ConnectionLimits)
    max_connections: int = 1000


class _HttpOnly:
    """ASGI middleware's common frame: what is not an HTTP request (the lifespan) passes
    through untouched; a subclass's :meth:`http` sees each HTTP request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one HTTP request (``scope["type"] == "http"``)."""
        raise NotImplementedError


class _AccessLog(_HttpOnly):
    """ASGI middleware: one JSON line on stderr for each HTTP request answered (time, method,
    path, status, milliseconds, client). Plain ASGI, not Starlette's ``BaseHTTPMiddleware``:
    under that one a route never sees its client hang up (``Request.is_disconnected`` stays
    false), so a queued request whose client has gone could not be dropped."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        status: list[int] = []

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            await send(message)

        await self.app(scope, receive, sending)
        client = scope.get("client")
        entry = {
            "ts": round(time.time(), 3), "method": scope.get("method"),
            "path": safe_text(scope.get("path", "")), "status": status[0] if status else None,
            "ms": round(1000 * (time.monotonic() - started), 2),
            "client": client[0] if client else None,
        }  # fmt: skip
        log_line(json.dumps(entry))


class _WholeFiles(_HttpOnly):
    """ASGI middleware: a request's ``Range`` header is dropped, so a file is always sent whole
    (200; HTTP lets a server ignore a range, and the web table asks for none). Starlette's file
    responses answered a bad range (``bytes=5-1``) with a text 400, ``Range header: start must
    be less than end``, and one past the end with an empty 416: 4xx answers without the
    service's JSON error object and code. The answers say ``Accept-Ranges: none`` (Starlette's
    said ``bytes``, so a resuming download, ``curl -C -``, asked for a range and got it all)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        kept = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"range"]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, b"none" if k.lower() == b"accept-ranges" else v)
                    for k, v in message.get("headers", [])
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app({**scope, "headers": kept}, receive, sending)


class _Ingress:
    """ASGI middleware: a POST body is read whole, at most ``limit`` bytes (413 past it, by
    Content-Length or while reading), and checked by :func:`solver.hint.ingress.parse_request`
    (400 with the field and code) before the app sees it; the app then reads the same bytes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_large, limit = too_large_answer(self.limit)
        if length is not None and length.isdigit() and int(length) > self.limit:
            await SafeJSONResponse(too_large, 413, limit)(scope, receive, send)
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
            if seen + scope.get(CHUNK_PENDING, 0) > self.limit:  # read, or declared by a chunk
                await SafeJSONResponse(too_large, 413, limit)(scope, receive, send)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        data = b"".join(chunks)
        refused = _encoding_refusal(scope.get("headers") or [], data)
        if refused is None:
            refused = _content_type_refusal(headers.get(b"content-type"), data)
        if refused is not None:
            await SafeJSONResponse(refused, status_code=STATUS[refused["code"]])(
                scope, receive, send
            )
            return
        try:
            raw = parse_request(data, _declared_charset(headers.get(b"content-type")))
        except HintError as exc:
            ident = ident_of(data)
            reply = error_answer(ident, str(exc), exc.field, exc.code)
            await SafeJSONResponse(reply, status_code=STATUS.get(exc.code, 400))(
                scope, receive, send
            )
            return
        del raw
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _is_json_type(value: bytes | None) -> bool:
    """Whether a Content-Type header names JSON: ``application/json`` or ``application/*+json``,
    parameters (``; charset=utf-8``) allowed (the types FastAPI reads a body as JSON under)."""
    if value is None:
        return False
    kind = value.decode("latin-1").split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


def _declared_charset(value: bytes | None) -> str | None:
    """The ``charset`` parameter of a Content-Type header (unquoted), or ``None``: named when a
    body declared ``latin-1`` is refused as not UTF-8 (the service reads UTF-8 only)."""
    if value is None:
        return None
    for parameter in value.decode("latin-1").split(";")[1:]:
        name, _, given = parameter.partition("=")
        if name.strip().lower() == "charset":
            return given.strip().strip('"') or None
    return None


def _content_type_refusal(value: bytes | None, data: bytes) -> dict[str, Any] | None:
    """The error answer (code ``content_type``, 415) for a POST body not sent as JSON, naming
    the type it was sent as; ``None`` for a JSON type. Before, a JSON body sent as
    ``text/plain`` or a form got "Input should be a valid dictionary", which said nothing of
    the header."""
    if _is_json_type(value):
        return None
    named = safe_text(value.decode("latin-1"))[:100] if value is not None else ""
    sent = f"Content-Type {named!r}" if value is not None else "no Content-Type"
    message = f"the body was sent with {sent}: send it as JSON with Content-Type: application/json"
    return error_answer(ident_of(data), message, None, "content_type")


def _encoding_refusal(headers: Iterable[tuple[bytes, bytes]], data: bytes) -> dict[str, Any] | None:
    """The error answer (code ``content_encoding``, 415) for a POST body sent with a
    ``Content-Encoding`` other than ``identity`` (``gzip``, ``br``...), naming it; ``None`` for
    none or ``identity``. The service decodes no body: before, a gzipped body was parsed as if
    it were plain (a ``malformed`` 400 that said nothing of the header). Every
    ``Content-Encoding`` header counts, not the last one only (``gzip`` then ``identity`` is
    still gzip)."""
    named = [
        token.strip()
        for key, value in headers
        if key.lower() == b"content-encoding"
        for token in value.decode("latin-1").split(",")
    ]
    coded = [token for token in named if token and token.lower() != "identity"]
    if not coded:
        return None
    shown = safe_text(", ".join(coded))[:100]
    message = (f"the body was sent with Content-Encoding {shown!r}: the service decodes no "
               "body; send it uncoded (no Content-Encoding, or identity)")  # fmt: skip
    return error_answer(ident_of(data), message, None, "content_encoding")


HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}
"""The codes of the HTTP errors the framework raises before a route runs."""


def _validation_reply(exc: RequestValidationError) -> dict[str, Any]:
    """FastAPI's validation error as our error object (400, the field dotted)."""
    from solver.hint.schema import _type_tag, error_message

    body = exc.body if isinstance(exc.body, dict) else None
    errors = exc.errors()
    first = errors[0] if errors else {}
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    loc = [p for p in loc if not _type_tag(p)]
    kind = first.get("type", "")
    where = None if kind == "json_invalid" else ".".join(loc) or None
    message = error_message(first)
    code = "malformed" if kind == "json_invalid" else "invalid_request"
    ident = body.get("id") if body else None
    return error_answer(ident, f"{where}: {message}" if where else message, where, code)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The FastAPI app (its worker pool starts with the app and stops with it)."""
    config = config or ServerConfig()
    service = Service(config.caps, config.workers, config.queue, config.retry_after)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = WorkerPool(config.workers, warm=jobs.warm)
        await pool.start()
        service.pool = pool
        try:
            yield
        finally:
            await pool.close(timeout=config.caps.max_seconds + 5)

    app = FastAPI(
        title="forest-solver hint engine",
        version="1",
        description="Hints, analyses and reviews for the forest games (docs/hint-engine.md). "
        "Every error is the error object (``ErrorAnswer``) with a stable code, each route's "
        "statuses listed with it (a request that fails validation: 400); any "
        "request whose head is past 16 KiB is answered 431 (``too_large``).",
        lifespan=lifespan,
        default_response_class=SafeJSONResponse,
        # FastAPI's Swagger UI and ReDoc load their files from a CDN (a blank page offline):
        # /docs is our own page instead (solver.hint.apidocs), /openapi.json stays
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    _add_middleware(app, config)
    _add_error_handlers(app)
    app.include_router(api_router(service))
    app.include_router(table_router(service))
    answered_errors_only(app)
    mount_docs(app)
    mount_web(app)
    return app


def _add_middleware(app: FastAPI, config: ServerConfig) -> None:
    """The app's middleware, outermost last: CORS where asked, the ingress checks, whole files,
    and the access log where asked."""
    if config.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware, allow_origins=list(config.cors_origins), allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
        )  # fmt: skip

    # the ingress checks inside the access log (the middleware added last runs first), so a
    # request they refuse (malformed, 413, 415) is logged too: before, it never was
    app.add_middleware(_Ingress, limit=config.max_body_bytes)
    app.add_middleware(_WholeFiles)

    if config.access_log:
        app.add_middleware(_AccessLog)


def _add_error_handlers(app: FastAPI) -> None:
    """A request failing validation and a path or method not served answered with the service's
    error object and a code, never FastAPI's or Starlette's own shapes."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> SafeJSONResponse:
        reply = _validation_reply(exc)
        return SafeJSONResponse(reply, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def not_served(request: Request, exc: StarletteHTTPException) -> SafeJSONResponse:
        """An unknown path or a method a path does not take: our error object with a code (it
        was Starlette's ``{"detail"}``), the ``Allow`` header kept."""
        code = HTTP_CODES.get(exc.status_code, "invalid_request")
        reply = error_answer(None, str(exc.detail), None, code)
        return SafeJSONResponse(reply, status_code=exc.status_code, headers=exc.headers)


def run_server(args: argparse.Namespace, caps: Caps) -> int:
    """``forest serve``: bind, announce the address, serve until interrupted (status 0).
    ``caps``: the search caps the command line set (:func:`solver.hint.cli.caps_from`)."""
    import uvicorn

    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port must be 0..65535, not {args.port}")
    if args.port_file:  # refused before binding: one line, no traceback
        _check_port_file(args.port_file)
    limits = ConnectionLimits(
        head_seconds=args.head_timeout,
        body_seconds=args.body_timeout,
        keep_alive_seconds=args.keep_alive,
        max_requests=args.max_keepalive_requests,
        max_body_bytes=args.max_body_bytes,
    )
    config = ServerConfig(
        caps=caps,
        workers=args.workers,
        queue=args.queue,
        max_body_bytes=args.max_body_bytes,
        cors_origins=tuple(args.cors_origin),
        access_log=not args.quiet,
        connections=limits,
        max_connections=args.max_connections,
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
        host = shortened(args.host)
        raise OptionError(f"cannot listen on {host}:{args.port}: {exc.strerror}") from None
    except (TypeError, ValueError):  # a host the system cannot encode (a byte not UTF-8, NUL)
        sock.close()
        raise OptionError(
            f"--host {shortened(args.host)!r} is no host name or address this system can say"
        ) from None
    sock.listen(1024)
    port = sock.getsockname()[1]
    uv_config = uvicorn.Config(
        create_app(config),
        http=protocol_class(limits, access_log=config.access_log),
        log_level="warning",
        access_log=False,
        timeout_keep_alive=max(1, round(limits.keep_alive_seconds)),
        limit_concurrency=config.max_connections,
        timeout_graceful_shutdown=int(config.caps.max_review_seconds) + 10,
    )
    server = uvicorn.Server(uv_config)
    host = f"[{args.host}]" if family == socket.AF_INET6 else args.host  # a URL's IPv6 form
    # the port file first: one it cannot write (a pipe nobody reads) is refused in one line,
    # never after a banner announcing a server that does not start
    written = _write_port_file(args.port_file, port, sock) if args.port_file else None
    log_line(f"forest serve: http://{host}:{port}/ (the web table; API under /v1)")
    # uvicorn re-raises the signal that stopped it once it has shut down gracefully; with these
    # handlers in place that ends here, with status 0, instead of killing the process.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: None)
    server.run(sockets=[sock])
    with contextlib.suppress(OSError):
        sock.close()
    if written is not None:
        _remove_own_port_file(args.port_file, written)
    return 0


PORT_FILE_TAKEN = (
    "already exists (forest serve writes its port file only where no file is, and removes only "
    "the file it wrote: remove it or name another)"
)


def _check_port_file(path: str) -> None:
    """Refuse ``--port-file`` before binding: a folder, a missing folder, or a file (or link)
    already there, which the server must neither replace nor delete at exit. A device or a FIFO
    the user names is written in place (:func:`~solver.files.write_whole`) and never removed."""
    check_writable(path, overwrite=True)  # a folder, a missing folder: their own messages
    if os.path.islink(path) or os.path.isfile(path):
        raise OptionError(f"{path_said(path)}: {PORT_FILE_TAKEN}")


def _write_port_file(path: str, port: int, sock: socket.socket) -> tuple[int, int] | None:
    """Write the bound port to ``path`` whole (a reader never sees an empty file), refusing a
    file that appeared since the check; the identity (device, inode) of the file written, or
    None for a device or FIFO written in place."""
    try:
        written = write_whole(path, f"{port}\n", overwrite=False)
    except OptionError:
        sock.close()
        if os.path.islink(path) or os.path.isfile(path):  # it appeared since the check
            raise OptionError(f"{path_said(path)}: {PORT_FILE_TAKEN}") from None
        raise  # its own words: a FIFO nobody reads was said to 'already exist'
    if not written.is_file() or written.is_symlink():
        return None
    info = written.stat()
    return info.st_dev, info.st_ino


def _remove_own_port_file(path: str, identity: tuple[int, int]) -> None:
    """Remove ``path`` at exit only if it is still the file this server wrote (the same device
    and inode): a file put there since, by a user or another server, stays."""
    with contextlib.suppress(OSError):
        info = os.lstat(path)
        if (info.st_dev, info.st_ino) == identity:
            os.unlink(path)
