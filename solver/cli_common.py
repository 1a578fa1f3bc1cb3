"""Helpers shared by the ``forest`` command's modules: argument types and safe output files.

Argument types raise :class:`argparse.ArgumentTypeError`, which argparse turns into one line
``forest ...: error: argument --size: ...`` and exit status 2. Output files are written whole or
not at all (a temporary file in the same folder, then an atomic rename) and an existing file is
never replaced unless the user asked with ``--overwrite``.

>>> parse_size("9x7")
(9, 7)
>>> positive_float("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a positive number, found '0'
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable

from solver.errors import OptionError
from solver.files import MAX_FILE_BYTES, check_writable, read_bytes, write_whole

__all__ = [
    "MAX_INPUT_BYTES",
    "nonnegative_int",
    "parse_size",
    "positive_float",
    "positive_int",
    "progress_line",
    "read_state_text",
    "read_text_file",
    "write_output",
]


def parse_size(text: str) -> tuple[int, int]:
    """``"9x9"`` → ``(width, height)``; an :class:`argparse.ArgumentTypeError` otherwise.

    The range is checked by the command that uses the size (it depends on the game).

    >>> parse_size("12X4")
    (12, 4)
    >>> parse_size("9")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a size like 9x9, found '9'
    """
    parts = text.strip().lower().split("x")
    try:
        width, height = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size like 9x9, found {text!r}") from None
    return width, height


def _whole_at_least(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of at least {minimum}, found {text!r}"
        )
    return value


MAX_COUNT = 2**63 - 1
"""The largest count (simulations, games, workers...) a command takes: what a signed 64-bit
integer holds, as the compiled searchers read their budgets."""


def positive_int(text: str) -> int:
    """A whole number from 1 to :data:`MAX_COUNT`."""
    value = _whole_at_least(text, 1)
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of at most {MAX_COUNT}, found {text!r}"
        )
    return value


def nonnegative_int(text: str) -> int:
    """A whole number ≥ 0."""
    return _whole_at_least(text, 0)


def positive_float(text: str) -> float:
    """A finite number > 0 (``nan``, ``inf``, 0 and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, found {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, found {text!r}")
    return value


MAX_INPUT_BYTES = MAX_FILE_BYTES
"""The largest state or game file the command line reads."""


def read_text_file(path: str, what: str = "file") -> str:
    """A UTF-8 text file read whole, refused past :data:`MAX_INPUT_BYTES` with a clear error."""
    data = read_bytes(path, what, MAX_INPUT_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OptionError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read_state_text(value: str) -> str:
    """``--state``: JSON text as given (it starts with ``{``), or the text of the file it names."""
    if value.lstrip().startswith("{"):
        if len(value) > MAX_INPUT_BYTES:
            raise OptionError(f"--state is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB")
        return value
    return read_text_file(value, "state file")


def progress_line(label: str, total: int) -> Callable[[int], None] | None:
    """A progress callback that redraws ``label 37/500`` on stderr, or ``None`` off a terminal."""
    if not sys.stderr.isatty() or total < 2:
        return None

    def show(done: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\r{label} {done}/{total}", end=end, file=sys.stderr, flush=True)

    return show


def check_output(path: str | None, *, overwrite: bool = False) -> None:
    """Refuse at once an output path :func:`write_output` would refuse (a folder, a missing
    parent folder, an existing file without ``overwrite``), so a long computation is not run
    for an answer that cannot be written. ``None`` and ``"-"`` (stdout) always pass."""
    if path is None or path == "-":
        return
    check_writable(path, overwrite=overwrite)


def write_output(text: str, path: str | None, *, overwrite: bool = False) -> None:
    """Write ``text`` to ``path`` (``None`` or ``"-"``: stdout), whole or not at all
    (:func:`solver.files.write_whole`).

    An existing file is refused unless ``overwrite``; a folder, a missing parent folder or a full
    disk is an :class:`OptionError` naming the path, and leaves no partial file behind.
    """
    if not text.endswith("\n"):
        text += "\n"
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    write_whole(path, text, overwrite=overwrite)
