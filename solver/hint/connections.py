"""Connection timeouts for ``forest serve``: no connection holds a socket for nothing.

uvicorn closes a kept-alive connection only after a response; a connection that never sends a
request, or stalls half-way through its headers or its body (a slowloris client), would stay
open for ever (docs/hint-engine.md measures the deadlines). :class:`GuardedH11Protocol` is
uvicorn's h11 protocol with two deadlines, each absolute (a byte now and then does not extend
it):

- the request head (method, path, headers) must be complete within ``head_seconds`` of the
  connection opening, or of the previous response;
- its body within ``body_seconds`` of the head.

A connection past either is closed. While the app works on a complete request there is no
deadline here (the request's own budget bounds that). Between requests, uvicorn's keep-alive
timeout closes an idle connection, and a connection is closed after ``max_requests`` answers
(the last one says ``Connection: close``).

A body declared larger than ``max_body_bytes`` is refused 413 (``too_large``) at once, not after
the body deadline: a chunk whose size line says more than the limit (the protocol tells the
ingress middleware through :data:`CHUNK_PENDING`), and a Content-Length of more digits than h11
reads (21 or more: h11 called it "bad", a 400, where a 20-digit one was a 413).
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import json
import logging
import re
import sys
import time
from typing import Any

from solver.errors import needs_extra
from solver.files import bytes_said

with needs_extra("the hint service"):  # the serve extra: the API names it
    import h11
    from uvicorn.config import Config
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.server import ServerState

from solver.hint.limits import CONNECTION_DEFAULTS

__all__ = [
    "CHUNK_PENDING",
    "ConnectionLimits",
    "GuardedH11Protocol",
    "log_line",
    "protocol_class",
    "too_large_answer",
]

LIMIT_HEADER = "X-Max-Body-Bytes"
"""A 413's header: the body limit in bytes (``--max-body-bytes``)."""

LIMIT_SAID_HEADER = "X-Max-Body-Said"
"""A 413's header: the same limit in words (``1 MiB``, :func:`solver.files.bytes_said`), which
the web table shows a user whose record is too large (it worded the bytes itself before)."""

CHUNK_PENDING = "forest.chunk_pending"
"""The ASGI scope key where the protocol leaves the bytes the current chunk of a chunked body
still declares (its size line read, its data not yet): the ingress refuses a body whose bytes
read plus these pass the limit, without waiting for data that may never come."""

_HUGE_LENGTH = re.compile(rb"(?im)^content-length:[ \t]*[0-9]{21,}[ \t]*\r?$")
"""A Content-Length header of a number too long for h11 (more than 20 digits)."""


def _error_object(message: str, code: str) -> dict[str, Any]:
    """The service's error object for what is refused before any request is read (no id, no
    field), built here without the request models the engine's ``error_answer`` validates."""
    return {"id": None, "error": message, "field": None, "code": code, "version": 1}


def too_large_answer(limit: int) -> tuple[dict[str, Any], dict[str, str]]:
    """The error object and the headers of the 413 for a body past ``limit`` bytes."""
    reply = _error_object(f"the body is larger than {limit} bytes", "too_large")
    return reply, {LIMIT_HEADER: str(limit), LIMIT_SAID_HEADER: bytes_said(limit)}


def log_line(text: str) -> None:
    """``text`` as one line on stderr, the service's log; a line that cannot be written (a full
    log disk, stderr on ``/dev/full``) is dropped, not raised: the banner's failure ended the
    server before it listened, and an access line's would have failed its request."""
    with contextlib.suppress(OSError, ValueError):  # ValueError: stderr closed under us
        print(text, file=sys.stderr, flush=True)


class ConnectionLimits:
    """The connection timeouts (seconds) and the kept-alive requests a connection may make."""

    def __init__(
        self,
        head_seconds: float = CONNECTION_DEFAULTS["head_seconds"],
        body_seconds: float = CONNECTION_DEFAULTS["body_seconds"],
        keep_alive_seconds: float = CONNECTION_DEFAULTS["keep_alive_seconds"],
        max_requests: int = CONNECTION_DEFAULTS["max_requests"],
        max_body_bytes: int | None = None,
    ) -> None:
        self.head_seconds = head_seconds
        self.body_seconds = body_seconds
        self.keep_alive_seconds = keep_alive_seconds
        self.max_requests = max_requests
        self.max_body_bytes = max_body_bytes  # None: no early 413 here (the ingress still has it)


class _Connection(h11.Connection):
    """h11's connection, remembering the protocol error it last raised: uvicorn's loop catches
    it and answers a bare ``text/plain`` 400, which :class:`GuardedH11Protocol` replaces by the
    service's error object naming the problem."""

    protocol_error: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            return super().next_event()
        except h11.RemoteProtocolError as exc:
            self.protocol_error = exc
            raise


def bad_http_answer(error: h11.RemoteProtocolError | None) -> tuple[int, bytes]:
    """The status and the JSON body of the answer to bytes that are not an HTTP/1.1 request (a
    bad request line, a Content-Length that is not a number, two of them, a broken chunk, a
    head past h11's 16 KiB): the error object of every refusal (``malformed``; ``too_large``,
    431, for a head too large), h11's words in the message, cut and ASCII."""
    said = str(error) if error is not None else "unreadable bytes"
    said = said.encode("ascii", "backslashreplace").decode("ascii")
    said = said if len(said) <= 120 else f"{said[:120]}..."
    status = error.error_status_hint if error is not None else 400
    if status == 431:
        message = (
            f"the request head is too large ({said}): at most 16 KiB of request line and headers"
        )
        code = "too_large"
    else:
        status = 400
        message = f"not an HTTP/1.1 request: {said}"
        code = "malformed"
    return status, json.dumps(_error_object(message, code)).encode("ascii")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with head and body deadlines (see the module docstring), and the
    service's error object (``malformed``) for bytes that are not HTTP, where uvicorn answers
    ``Invalid HTTP request received.`` as plain text, without a code."""

    limits = ConnectionLimits()
    access_log_json = True  # the server's access log is on: a refusal here writes its line

    # uvicorn's __init__ as it is; each connection's own values start from these
    _deadline: asyncio.TimerHandle | None = None
    _waiting: str | None = None  # "head" or "body": what the deadline is for
    _requests = 0
    _counted: object = None  # the last request cycle counted
    _head = b""  # the bytes received since the last answer, the head among them (16 KiB at most)

    # -- the deadlines -----------------------------------------------------------------------
    def _arm(self, what: str, seconds: float) -> None:
        if self._waiting == what:
            return  # an absolute deadline: data arriving does not move it
        self._disarm()
        self._waiting = what
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._waiting = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _watch(self) -> None:
        """Arm the deadline for what the connection is waiting for now."""
        cycle = self.cycle
        if cycle is not None and cycle is not self._counted:
            self._counted = cycle
            self._requests += 1
            if self._requests >= self.limits.max_requests:
                # the last request of this connection: its answer says so, as HTTP/1.1 asks,
                # so a keep-alive client opens a new connection for the next one (closed
                # unannounced, its next request went into the closed socket: a reset)
                cycle.keep_alive = False
                cycle.default_headers = [*cycle.default_headers, (b"connection", b"close")]
        if cycle is None or cycle.response_complete:
            self._arm("head", self.limits.head_seconds)
        elif cycle.more_body:
            self._arm("body", self.limits.body_seconds)
        else:
            self._disarm()  # the app has the whole request: its budget bounds it

    # -- uvicorn's hooks -----------------------------------------------------------------------
    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        size = self.config.h11_max_incomplete_event_size
        self.conn = _Connection(
            h11.SERVER, **({} if size is None else {"max_incomplete_event_size": size})
        )

    def send_400_response(self, msg: str) -> None:
        error = self.conn.protocol_error if isinstance(self.conn, _Connection) else None
        status, body = bad_http_answer(error)
        extra: list[tuple[bytes, bytes]] = []
        limit = self.limits.max_body_bytes
        if limit is not None and error is not None and _HUGE_LENGTH.search(self._head):
            status = 413  # a number, only too long for h11: too large, as a shorter one is
            reply, named = too_large_answer(limit)
            body = json.dumps(reply).encode("ascii")
            extra = [(k.lower().encode(), v.encode()) for k, v in named.items()]
        if self.access_log_json:  # the access log's line, in place of uvicorn's plain warning
            entry = {"ts": round(time.time(), 3), "method": None, "path": None, "status": status,
                     "ms": 0.0, "client": self.client[0] if self.client else None}  # fmt: skip
            log_line(json.dumps(entry))
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *extra,
        ]
        try:
            for event in (h11.Response(
                status_code=status, headers=headers, reason=http.HTTPStatus(status).phrase
            ), h11.Data(data=body),
                          h11.EndOfMessage()):  # fmt: skip
                self.transport.write(self.conn.send(event) or b"")
        except h11.LocalProtocolError:  # an answer already started (a body broken under it)
            pass
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm("head", self.limits.head_seconds)

    def data_received(self, data: bytes) -> None:
        if self.cycle is None or self.cycle.response_complete:  # a head may be among them
            self._head = (self._head + data)[-17_000:]
        super().data_received(data)
        if not self.transport.is_closing():
            self._watch()
            self._declare_chunk()

    def _declare_chunk(self) -> None:
        """Tell the ingress what the current chunk still declares (``CHUNK_PENDING``) and wake
        it: a chunk size past the limit is refused before its data, which may never come.
        (h11's chunk reader keeps the size in ``_bytes_in_chunk``: without it, nothing here.
        h11 has no public way to it: as of 0.16 a ``Connection`` offers ``next_event``,
        ``their_state`` and ``trailing_data``, and a ``Data`` event only ``chunk_start`` and
        ``chunk_end``, which come with the chunk's first bytes, never with its size line alone.
        Parsing the chunked framing here again would be a second parser to drift from h11's.
        ``test_a_body_declared_too_large_is_413_at_once`` fails if the attribute goes.)"""
        cycle = self.cycle
        pending = getattr(getattr(self.conn, "_reader", None), "_bytes_in_chunk", None)
        if cycle is None or cycle.response_complete or not isinstance(pending, int):
            return
        cycle.scope[CHUNK_PENDING] = pending  # type: ignore[literal-required]
        if pending > 0:
            cycle.message_event.set()  # the ingress reads (no new bytes) and weighs it

    def on_response_complete(self) -> None:
        self._disarm()
        self._head = b""
        super().on_response_complete()  # may start a pipelined request already received
        if not self.transport.is_closing():
            self._watch()  # the next head's deadline (uvicorn's idle timer runs beside it)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class _NoBareWarning(logging.Filter):
    """Drops uvicorn's plain-text ``Invalid HTTP request received.``: the protocol answers it
    with the error object and logs it as one JSON line (or, ``--quiet``, not at all)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "Invalid HTTP request received."


def protocol_class(limits: ConnectionLimits, access_log: bool = True) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` subclass with ``limits`` (``access_log``: a request refused
    here is logged as the server's access log logs, one JSON object a line on stderr)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _NoBareWarning) for f in logger.filters):
        logger.addFilter(_NoBareWarning())
    return type(
        "ForestH11Protocol",
        (GuardedH11Protocol,),
        {"limits": limits, "access_log_json": access_log},
    )
