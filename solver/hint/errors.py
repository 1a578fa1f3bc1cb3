"""The hint engine's one error: a request it cannot answer, with the field at fault and a code.

Both transports turn it into ``{"id", "error", "field", "code"}`` (HTTP: a 4xx, by code); the
codes are listed in ``docs/hint-engine.md``. It imports nothing heavy, so the request checks
(:mod:`solver.hint.ingress`) and the position code use it without pydantic.
"""

from __future__ import annotations

from solver.errors import SolverError

__all__ = ["HintError"]


class HintError(SolverError):
    """A request the engine cannot answer: the message, the field at fault and a code."""

    def __init__(self, message: str, field: str | None = None, code: str = "invalid_request"):
        super().__init__(message)
        self.field = field
        self.code = code

    def __reduce__(self):  # picklable across the HTTP service's worker processes
        return (HintError, (str(self), self.field, self.code))
