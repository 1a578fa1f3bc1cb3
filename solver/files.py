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

import os

from solver.errors import OptionError

__all__ = ["MAX_FILE_BYTES", "read_bytes"]

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
