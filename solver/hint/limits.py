"""The hint engine's limits, importable without the serve extra (``forest --help`` reads them).

:class:`Caps` caps each request's budget (both transports); :data:`CONNECTION_DEFAULTS` are
``forest serve``'s connection limits (:mod:`solver.hint.connections`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import OptionError
from solver.spec import HINT_ITERATIONS

__all__ = ["CONNECTION_DEFAULTS", "MAX_CAP_SECONDS", "Caps"]

MAX_CAP_SECONDS = 86_400.0
"""The largest seconds cap (``--max-seconds``, ``--max-review-seconds``): a day. The cap bounds
every request and the server's own waits on its workers; ``--max-seconds 1e308`` was taken, and
``forest serve`` then failed at shutdown (an OverflowError traceback in the workers' join)."""


@dataclass(frozen=True)
class Caps:
    """The server's per-request budget caps (a request asking more gets these, and is told).

    ``max_seconds`` also bounds a request that names iterations only, so no request runs longer;
    ``max_review_seconds`` bounds a whole review (``POST /v1/review``).
    """

    max_iterations: int = 200_000
    max_seconds: float = 10.0
    max_memory_mb: float = 512.0
    default_iterations: int = HINT_ITERATIONS
    max_review_seconds: float = 60.0

    def __post_init__(self) -> None:
        if self.max_iterations < 1 or self.default_iterations < 1:
            raise OptionError("the iteration caps must be at least 1")
        if not self.max_seconds > 0 or not self.max_memory_mb > 0:
            raise OptionError("the seconds and memory caps must be positive")
        if not self.max_review_seconds > 0:
            raise OptionError("the review's seconds cap must be positive")


CONNECTION_DEFAULTS: dict[str, Any] = {
    "head_seconds": 10.0,
    "body_seconds": 30.0,
    "keep_alive_seconds": 5.0,
    "max_requests": 1000,
    "max_connections": 1000,
}
"""``forest serve``'s connection limits: a request head within 10 s of the connection (or of
the last answer), its body within 30 s of the head, 5 s idle between kept-alive requests, 1000
requests a connection, 1000 connections at once (then 503)."""
