"""The ``forest`` command's standard streams, guarded: a failed write of the output says why in
one line, a failed write of a diagnostic is dropped. Kept apart from :mod:`solver.cmdkit` so the
commonest call, ``forest --version``, imports no more than it needs (tests/test_startup.py)."""

from __future__ import annotations

import contextlib
import os
from typing import TextIO

from solver.errors import OutputError


class StdoutGuard:
    """A command's standard output whose failed write says why: an ``OSError`` (a full disk,
    ``/dev/full``) raises :class:`~solver.errors.OutputError`, which the command line prints as
    its one line (exit 2), where every command printed a traceback and "this is a bug" (found
    by helper 91: ``forest games > /dev/full``). A :class:`BrokenPipeError` (the reader gone)
    goes through as it is. Once a write has failed the descriptor under ``stream`` points at
    ``/dev/null``, so the interpreter's last flush of what is still buffered does not fail
    again at exit ("Exception ignored ..."). Everything else is ``stream``'s."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def _failed(self, exc: OSError) -> OutputError:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self._stream.fileno())
            finally:
                os.close(null)
        except (OSError, ValueError, AttributeError):  # no descriptor (a test's capture)
            pass
        why = exc.strerror or str(exc)
        return OutputError(f"cannot write the output: {why}", reason=why)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


class StderrGuard:
    """A command's stderr, its notes and error lines, whose failed write (a full disk,
    ``2>/dev/full``, a closed pipe) is dropped: a diagnostic nobody can read must not change
    what the command did or its exit status. Everything else is ``stream``'s."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):  # ValueError: closed under us
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)
