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
timeout closes an idle connection, and a connection is closed after ``max_requests`` answers.
"""

from __future__ import annotations

import asyncio

from solver.errors import needs_extra

with needs_extra("the hint service"):  # the serve extra: the API names it
    from uvicorn.protocols.http.h11_impl import H11Protocol

from solver.hint.limits import CONNECTION_DEFAULTS

__all__ = ["ConnectionLimits", "GuardedH11Protocol", "protocol_class"]


class ConnectionLimits:
    """The connection timeouts (seconds) and the kept-alive requests a connection may make."""

    def __init__(
        self,
        head_seconds: float = CONNECTION_DEFAULTS["head_seconds"],
        body_seconds: float = CONNECTION_DEFAULTS["body_seconds"],
        keep_alive_seconds: float = CONNECTION_DEFAULTS["keep_alive_seconds"],
        max_requests: int = CONNECTION_DEFAULTS["max_requests"],
    ) -> None:
        self.head_seconds = head_seconds
        self.body_seconds = body_seconds
        self.keep_alive_seconds = keep_alive_seconds
        self.max_requests = max_requests


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with head and body deadlines (see the module docstring)."""

    limits = ConnectionLimits()

    # uvicorn's __init__ as it is; each connection's own values start from these
    _deadline: asyncio.TimerHandle | None = None
    _waiting: str | None = None  # "head" or "body": what the deadline is for
    _requests = 0
    _counted: object = None  # the last request cycle counted

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
                cycle.keep_alive = False  # the last request of this connection
        if cycle is None or cycle.response_complete:
            self._arm("head", self.limits.head_seconds)
        elif cycle.more_body:
            self._arm("body", self.limits.body_seconds)
        else:
            self._disarm()  # the app has the whole request: its budget bounds it

    # -- uvicorn's hooks -----------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm("head", self.limits.head_seconds)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.transport.is_closing():
            self._watch()

    def on_response_complete(self) -> None:
        self._disarm()
        super().on_response_complete()  # may start a pipelined request already received
        if not self.transport.is_closing():
            self._watch()  # the next head's deadline (uvicorn's idle timer runs beside it)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol_class(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` subclass with ``limits``."""
    return type("ForestH11Protocol", (GuardedH11Protocol,), {"limits": limits})
