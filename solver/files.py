"""Reading the user's files safely: a size cap and errors that name the file.

Every game file, state file and results file the library reads goes through :func:`read_bytes`, so
a missing file, a folder, an unreadable file or a file far too large for what it claims to be is an
:class:`~solver.errors.OptionError` naming the path, never a raw ``OSError`` or a ``MemoryError``.

>>> read_bytes("/no/such/file.forest", "forest file")
Traceback (most recent call last):
...
solver.errors.OptionError: /no/such/file.forest: no such forest file
"""

from __future__ import annotations

import json
import os
from typing import Any

from solver.errors import FormatError, OptionError

__all__ = ["MAX_FILE_BYTES", "decode_json", "read_bytes"]

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest game, state or position file read (16 MB): no real one comes close."""


def read_bytes(
    path: str | os.PathLike[str], what: str = "file", limit: int = MAX_FILE_BYTES
) -> bytes:
    """The bytes of ``path``, refused past ``limit`` bytes; errors name the path and ``what``."""
    name = os.fspath(path)
    if name == "":
        raise OptionError(f"an empty path is not a {what}")
    try:
        with open(name, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise OptionError(f"{name}: no such {what}") from None
    except IsADirectoryError:
        raise OptionError(f"{name}: is a folder, not a {what}") from None
    except OSError as exc:
        raise OptionError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise OptionError(
            f"{name}: larger than {limit // (1024 * 1024)} MB, too large for a {what}"
        )
    return data


def decode_json(data: bytes, what: str) -> Any:
    """The JSON document in ``data``; bad UTF-8, bad JSON and nesting too deep for Python are
    :class:`~solver.errors.FormatError` with the line and column where known."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", errors="replace").split("\n")
        raise FormatError(
            "UTF-8 text", line=len(before), column=len(before[-1]) + 1, found="an invalid byte"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(what, line=exc.lineno, column=exc.colno, found=exc.msg) from None
    except RecursionError:
        raise FormatError(f"{what} nested less deeply", line=1, column=1) from None
