"""Reading and writing the user's files safely: a size cap, whole writes, errors that name the file.

Every game file, state file and results file the library reads goes through :func:`read_bytes`, so
a missing file, a folder, an unreadable file or a file far too large for what it claims to be is an
:class:`~solver.errors.OptionError` naming the path, never a raw ``OSError`` or a ``MemoryError``.

Every file a command writes goes through :func:`write_whole`: written under a temporary name
beside the target, synced, then put in place in one step, so a reader never sees half a file;
an existing file is never replaced unless the caller says ``overwrite`` (the user's
``--overwrite``), not even one that appeared while the file was being written.

>>> read_bytes("/no/such/file.forest", "forest file")
Traceback (most recent call last):
...
solver.errors.OptionError: /no/such/file.forest: no such forest file
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from solver.errors import (
    MOST_PATH,
    DuplicateKeyError,
    FormatError,
    OptionError,
    path_said,
    shortened,
)
from solver.json_objects import loads

__all__ = [
    "MAX_FILE_BYTES",
    "bytes_said",
    "cannot_write",
    "check_readable",
    "check_writable",
    "current_umask",
    "decode_json",
    "file_format_error",
    "parse_json",
    "pseudo_file",
    "read_bytes",
    "read_json_file",
    "write_whole",
]

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest game, state or position file read (16 MiB): no real one comes close."""


def bytes_said(size: int) -> str:
    """A byte count as every size-limit error says it, in binary units when it is a whole number
    of them: ``16 MiB``, ``64 KiB``, ``1 GiB``, else ``1000 bytes`` (never "MB" for a MiB).

    >>> bytes_said(16 << 20), bytes_said(1 << 16), bytes_said(1 << 30), bytes_said(1000)
    ('16 MiB', '64 KiB', '1 GiB', '1000 bytes')
    """
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if size > 0 and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return "1 byte" if size == 1 else f"{size} bytes"  # serve --max-body-bytes 1: '1 byte'


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

PSEUDO_FOLDERS = ("/proc", "/sys")
"""Kernel pseudo-file systems: their "regular" files are views of the kernel (``/proc/kmsg``
waits for the next kernel message, ``/proc/self/environ`` is the environment), never a game."""


def read_bytes(
    path: str | os.PathLike[str], what: str = "file", limit: int = MAX_FILE_BYTES
) -> bytes:
    """The bytes of the regular file ``path``, refused past ``limit`` bytes; errors name the path
    and ``what`` (an :class:`~solver.errors.OptionError`), never the file's content.

    The library's one opener of an input file: opened without blocking (a FIFO, or a symlink to
    one, never stalls the open), refused unless ``fstat`` calls it a regular file (a FIFO, a
    device, a socket, a folder are named), refused under ``/proc`` and ``/sys``, and read without
    blocking (a "regular" file whose read would wait for data is refused, not waited on)."""
    name = os.fspath(path)
    fd = _open_regular(name, what)
    try:
        data = read_without_blocking(fd, limit + 1)
    except OSError as exc:
        raise _refusal(name, what, exc) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise OptionError(
            f"{path_said(name)}: larger than {bytes_said(limit)}, too large for a {what}"
        )
    return data


def read_head(path: str | os.PathLike[str], size: int) -> bytes | None:
    """The first ``size`` bytes of the regular file ``path``, opened and read as
    :func:`read_bytes` does (never blocking: a FIFO, ``/proc/kmsg``); ``None`` where that would
    refuse it. For a guess at what a file is, made after its own reader has refused it."""
    try:
        fd = _open_regular(os.fspath(path), "file")
    except OptionError:
        return None
    try:
        return read_without_blocking(fd, size)[:size]
    except OSError:
        return None
    finally:
        os.close(fd)


def check_readable(path: str | os.PathLike[str], what: str = "file") -> None:
    """Refuse ``path`` as :func:`read_bytes` would, without reading it: a command checks the
    files it names this way before any work starts.

    >>> check_readable("/", "forest file")
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: /: is a folder, not a forest file
    """
    os.close(_open_regular(os.fspath(path), what))


def pseudo_file(name: str) -> str | None:
    """The real path of ``name`` when it lies under a kernel pseudo-file system
    (:data:`PSEUDO_FOLDERS`), else ``None``: such a file is never read as a game."""
    real = os.path.realpath(name)
    if any(real == top or real.startswith(top + "/") for top in PSEUDO_FOLDERS):
        return real
    return None


def _check_nameable(name: str, what: str) -> None:
    """Refuse a path no file can have: a NUL character, or text the file system's encoding
    cannot say (a lone surrogate such as ``"\\ud800"``); the operating system's calls raised a
    ``ValueError`` or a ``UnicodeEncodeError`` for them, not a library error."""
    if "\0" in name:
        said = shortened(repr(name), MOST_PATH)
        raise OptionError(f"{said}: a path holds no NUL character; it names no {what}")
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        said = shortened(repr(name), MOST_PATH)
        raise OptionError(f"{said}: not a path this system can name (it cannot be encoded); "
                          f"it names no {what}") from None  # fmt: skip


def _open_regular(name: str, what: str) -> int:
    """An open descriptor of the regular file ``name`` (not under ``/proc`` or ``/sys``), opened
    without blocking; an :class:`~solver.errors.OptionError` naming it otherwise."""
    if name == "":
        raise OptionError(f"an empty path is not a {what}")
    _check_nameable(name, what)
    real = pseudo_file(name)
    if real is not None:
        said = path_said(name)
        raise OptionError(f"{said}: is a kernel pseudo-file ({path_said(real)}), not a {what}")
    try:
        fd = open_without_blocking(name)
    except OSError as exc:
        raise _refusal(name, what, exc) from None
    try:
        kind = irregular_kind(fd)
    except OSError as exc:
        os.close(fd)
        raise _refusal(name, what, exc) from None
    if kind is not None:
        os.close(fd)
        raise OptionError(f"{path_said(name)}: is {kind}, not a {what}")
    return fd


def open_without_blocking(name: str) -> int:
    """A read-only descriptor of ``name`` (the caller closes it), opened without blocking: a FIFO,
    or a symlink to one, never stalls the open, and a terminal never becomes the controlling one.
    Raises what :func:`os.open` raises."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    return os.open(name, flags | getattr(os, "O_CLOEXEC", 0))


def irregular_kind(fd: int) -> str | None:
    """What the open file ``fd`` is when it is not a regular file (``"a folder"``, ``"a pipe
    (FIFO)"``, ...), None when it is one. Raises what :func:`os.fstat` raises."""
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode):
        return None
    return next((word for test, word in _KINDS if test(mode)), "not a regular file")


def _refusal(name: str, what: str, exc: OSError) -> OptionError:
    """The error of an input file the system would not open or read, naming it and why."""
    if isinstance(exc, FileNotFoundError):
        return OptionError(f"{path_said(name)}: no such {what}")
    if isinstance(exc, IsADirectoryError):
        return OptionError(f"{path_said(name)}: is a folder, not a {what}")
    if isinstance(exc, BlockingIOError):
        return OptionError(f"{path_said(name)}: reading it would wait for data, not a {what}")
    return OptionError(f"{path_said(name)}: cannot read: {exc.strerror or exc}")


def read_without_blocking(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes of ``fd`` (opened non-blocking), read to its end: a file on disk
    reads as usual, while a pseudo-file that is "regular" but waits for data (``/proc/kmsg``)
    raises :class:`BlockingIOError` instead of stalling the reader."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(fd, min(limit - size, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


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
    return parse_json(text, what)


def parse_json(text: object, what: str) -> Any:
    """The JSON document in the string ``text``: the library's one JSON-text reader. ``what``
    says what was expected (``"a JSON object"``, ``"a saved Trial state (JSON)"``); anything
    wrong is a :class:`~solver.errors.FormatError`: not a string, a syntax error (where the
    decoder stopped and why), nesting too deep for Python, a number the decoder refuses, an
    object naming a key twice (:class:`~solver.errors.DuplicateKeyError`, through the one
    loader :func:`solver.json_objects.loads`).

    >>> parse_json('{"a": [1, 2]}', "a JSON object")
    {'a': [1, 2]}
    >>> parse_json('{"a": }', "a JSON object")
    Traceback (most recent call last):
    ...
    solver.errors.FormatError: line 1, column 7: expected a JSON object (Expecting value), found '}'
    """
    if not isinstance(text, str):
        raise FormatError(f"a JSON text ({what})", line=1, column=1, found=type(text).__name__)
    try:
        return loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except DuplicateKeyError:  # its own words: the key, its place and position
        raise
    except _NotJSONNumber as exc:  # NaN, Infinity, 1e400: no JSON number Python can hold
        line, column = _position(text, exc.text)
        written = exc.text.lstrip("-")[:1].isdigit()  # 1e400, not NaN or Infinity
        beyond = " (beyond a float's range)" if written else ""
        raise FormatError(
            "a finite JSON number", line=line, column=column,
            found=f"{shortened(exc.text)!r}{beyond}",
        ) from None  # fmt: skip
    except json.JSONDecodeError as exc:
        rest = text[exc.pos : exc.pos + 20]
        found = repr(rest) if rest else "end of input"
        raise FormatError(
            f"{what} ({exc.msg})", line=exc.lineno, column=exc.colno, found=found
        ) from None
    except RecursionError:
        raise FormatError(
            f"{what} nested less deeply", line=1, column=1, found="JSON nested too deeply"
        ) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise FormatError(
            what, line=1, column=1, found=f"a value the decoder refuses ({str(exc)[:60]})"
        ) from None


class _NotJSONNumber(Exception):
    """``NaN``, ``Infinity`` or a number out of a float's range (``1e400``, which Python reads
    as infinity) in a JSON document: JSON has no such number (the hint engine refuses them too,
    :mod:`solver.hint.ingress`), and a state or record holding one was refused as holding
    ``inf`` players. Not a ``ValueError``, which the decoder's callers read otherwise."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _no_constant(name: str) -> Any:
    raise _NotJSONNumber(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSONNumber(text)
    return value


def _position(text: str, word: str) -> tuple[int, int]:
    """The line and column of the first ``word`` of ``text`` outside a string (1, 1 if none):
    where a refused number stands (only on the refusal's path)."""
    inside, escaped, start = False, False, 0
    for found in re.finditer(re.escape(word), text):
        for char in text[start : found.start()]:  # the string state up to the candidate
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = inside
            elif char == '"':
                inside = not inside
        start = found.start()
        if not inside:
            line = text.count("\n", 0, start) + 1
            return line, start - (text.rfind("\n", 0, start) + 1) + 1
    return 1, 1


def read_json_file(
    path: str | os.PathLike[str],
    what: str,
    expected: str,
    build: Callable[[Any], Any] | None = None,
) -> Any:
    """The JSON document in the file ``path`` (a ``what``: ``"tile set"``), read through
    :func:`read_bytes`; bad UTF-8, bad JSON or nesting too deep is a
    :class:`~solver.errors.FormatError` naming the file that never quotes the start of a file
    that is not JSON at all (:meth:`~solver.errors.FormatError.in_file`: ``/etc/passwd``).
    ``build``: what the document is made into (a ``TileSet``); its refusal of the content
    names the file too (a game record given as a tile set was told "expected tile set field
    actions to be absent" with no file named)."""
    name = os.fspath(path)
    try:
        document = decode_json(read_bytes(path, what), expected)
    except FormatError as exc:
        raise exc.in_file(name) from None
    if build is None:
        return document
    try:
        return build(document)
    except FormatError as exc:  # the JSON read: what it found in it may be quoted
        if exc.path is not None or isinstance(exc, DuplicateKeyError):
            raise
        raise FormatError(
            exc.expected, line=exc.line, column=exc.column, found=exc.found, path=name
        ) from None


def file_format_error(exc: FormatError, path: str, text: str) -> FormatError:
    """``exc``, an error reading the document ``text`` of the file ``path``, as an error naming
    the file. A file that is not JSON at all gets :meth:`~solver.errors.FormatError.in_file`'s
    rule (its first bytes are not quoted: it may be ``/etc/passwd`` or a copy of an
    environment); a JSON document's own content error keeps what it found."""
    if isinstance(exc, DuplicateKeyError):
        return exc.in_file(path)
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return exc.in_file(path)
    if exc.path is not None:
        return exc
    return FormatError(exc.expected, line=exc.line, column=exc.column, found=exc.found, path=path)


def cannot_write(name: str | os.PathLike[str], why: OSError | str) -> OptionError:
    """The error of an output path the system would not let be written, naming it and why (an
    ``OSError``'s own words, else ``why``): every writer's refusal reads alike.

    >>> cannot_write("out/r.csv", PermissionError(13, "Permission denied"))
    OptionError('out/r.csv: cannot write: Permission denied')
    """
    said = why if isinstance(why, str) else why.strerror or why
    return OptionError(f"{path_said(name)}: cannot write: {said}")


EXISTS_HINT = "add --overwrite to replace it"
"""How an error about an existing output file says what to do (the commands' flag)."""


def check_writable(path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """``path`` as a file to write, refused at once when :func:`write_whole` would refuse it
    (a folder, a missing parent folder, an existing file without ``overwrite``), so a long
    computation is never run for an answer that cannot be written.

    >>> check_writable("/no/such/folder/out.txt")
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: /no/such/folder/out.txt: the folder /no/such/folder does not exist
    """
    name = os.fspath(path)
    target = Path(name)
    if name == "":
        raise OptionError("an empty path is not a file to write")
    mode = _mode_of(target, name)
    if mode is not None and stat.S_ISDIR(mode):
        raise OptionError(f"{path_said(name)}: is a folder, not a file to write")
    if mode is not None and not stat.S_ISREG(mode):  # a device or a pipe: written in place
        if stat.S_ISCHR(mode):
            _probe_device(target, name)
        return target
    if not overwrite and mode is not None:
        raise OptionError(f"{path_said(name)}: already exists ({EXISTS_HINT})")
    folder = target.parent if str(target.parent) else Path(".")
    folder_mode = _mode_of(folder, name)
    if folder_mode is None or not stat.S_ISDIR(folder_mode):
        raise OptionError(f"{path_said(name)}: the folder {path_said(folder)} does not exist")
    _probe_folder(folder, name)
    return target


def _mode_of(path: Path, name: str) -> int | None:
    """``path``'s file mode (links followed), ``None`` when nothing is there; a path that cannot
    be looked at (a folder on the way without permission) is refused naming ``name``."""
    try:
        return os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise cannot_write(name, exc) from None


FULL_DEVICE = (1, 7)
"""Linux's ``/dev/full`` (major, minor): every write to it fails with "no space left"."""


def _probe_device(target: Path, name: str) -> None:
    """Refuse a character device that cannot be written: not openable for writing, or the
    always-full device. Nothing is written (a pipe is never probed: opening and closing its
    write end would end the reader's input)."""
    try:
        handle = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise cannot_write(name, exc) from None
    try:
        rdev = os.fstat(handle).st_rdev
    finally:
        os.close(handle)
    if (os.major(rdev), os.minor(rdev)) == FULL_DEVICE:
        full = os.strerror(errno.ENOSPC)
        raise cannot_write(name, f"{full} (it takes no data)")


def _probe_folder(folder: Path, name: str) -> None:
    """Refuse a folder where no file can be made (no permission, a read-only file system) or
    that has no free block left: an empty file is made and removed at once."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".probe.", dir=folder)
    except OSError as exc:
        raise cannot_write(name, exc) from None
    os.close(handle)
    os.unlink(probe)
    blocks = os.statvfs(folder)
    if (blocks.f_bavail if os.geteuid() else blocks.f_bfree) == 0:
        raise cannot_write(name, os.strerror(errno.ENOSPC))


def current_umask() -> int:
    """The process's file-creation mask (read by setting it and setting it back), for a file or
    folder made under a temporary name to get the mode a plain ``open``/``mkdir`` would give."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


class _TermDuringWrite(BaseException):
    """A SIGTERM that came while :func:`removed_on_terminate` held a temporary file."""


@contextlib.contextmanager
def sigterm_raises(error: type[BaseException]) -> Iterator[None]:
    """While the block runs, SIGTERM raises ``error`` where the main thread stands, and its
    default action is back after. Only on the main thread, and only where SIGTERM has its
    default action (a program that handles it, as ``forest serve`` and ``forest hint`` do,
    keeps its own): elsewhere the block runs as it is."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        yield
        return

    def raise_it(_signum: int, _frame: object) -> None:
        if _Held.depth:  # raised once the held block is done (sigterm_held)
            _Held.pending = error
            return
        raise error

    signal.signal(signal.SIGTERM, raise_it)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Held:
    """The blocks of :func:`sigterm_held` running (``depth``) and the error a SIGTERM that came
    meanwhile is to raise once they are done (``pending``)."""

    depth = 0
    pending: type[BaseException] | None = None


@contextlib.contextmanager
def sigterm_held() -> Iterator[None]:
    """While the block runs, a SIGTERM that :func:`sigterm_raises` catches waits, and is raised
    as soon as the block is done (also where the block raised: the signal wins): a step that
    must be done whole or not at all (placing a run's files one by one: stopped halfway, a
    ``--report`` folder held some of the new files beside the old). Elsewhere (no
    :func:`sigterm_raises` around it) the block runs as it is."""
    _Held.depth += 1
    try:
        yield
    finally:
        _Held.depth -= 1
        if not _Held.depth and _Held.pending is not None:
            error, _Held.pending = _Held.pending, None
            raise error


@contextlib.contextmanager
def removed_on_terminate() -> Iterator[None]:
    """While the block runs, SIGTERM raises inside it (:func:`sigterm_raises`), so its
    ``finally`` and ``except BaseException`` clauses remove their temporary files; once the
    block has unwound, the process ends by the signal as it would have (status -15). Without it
    a ``timeout``, a CI runner or ``kill`` stopping a write left ``.out.svg.x1y2z3.svg`` beside
    the output."""
    with sigterm_raises(_TermDuringWrite):
        try:
            yield
        except _TermDuringWrite:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)  # the block has cleaned up: end as SIGTERM ends
            raise  # pragma: no cover - only if the signal is blocked


def write_whole(
    path: str | os.PathLike[str],
    content: str | bytes | Callable[[str], None],
    *,
    overwrite: bool = False,
) -> Path:
    """Write ``content`` to ``path`` whole or not at all; return the path written.

    ``content`` is text (UTF-8), bytes, or a function writing the file it is given (a plot's
    ``savefig``; the temporary name keeps the target's suffix, which such writers read). An
    existing file is refused unless ``overwrite``, also one that appears meanwhile; a folder, a
    missing parent folder or a full disk is an :class:`OptionError` naming the path and leaves
    nothing behind. A device that exists (``/dev/null``) is written in place. The file gets the
    permissions a plain ``open`` would give (``0o666`` less the umask).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     target = write_whole(tmp + "/a.txt", "one")
    ...     write_whole(target, "two")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: .../a.txt: already exists (add --overwrite to replace it)
    """
    name = os.fspath(path)
    target = check_writable(name, overwrite=overwrite)
    mode = _mode_of(target, name)
    if mode is not None and not stat.S_ISREG(mode):
        return _write_device(target, content)  # /dev/null, /dev/stdout, a FIFO the user named
    folder = target.parent if str(target.parent) else Path(".")
    with removed_on_terminate():  # a SIGTERM meanwhile leaves no temporary file behind
        return _write_through_temporary(target, name, folder, content, overwrite)


def _write_through_temporary(
    target: Path,
    name: str,
    folder: Path,
    content: str | bytes | Callable[[str], None],
    overwrite: bool,
) -> Path:
    """:func:`write_whole`'s write: a temporary file in ``folder``, synced, then linked (or with
    ``overwrite`` renamed) to ``target``; the temporary file removed whatever happens."""
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=target.suffix, dir=folder
        )
    except OSError as exc:
        raise cannot_write(name, exc) from None
    try:
        try:
            os.fchmod(handle, 0o666 & ~current_umask())
            if callable(content):
                os.close(handle)
                handle = -1
                content(temporary)
                handle = os.open(temporary, os.O_RDONLY)
            else:
                data = content.encode("utf-8") if isinstance(content, str) else content
                view = memoryview(data)
                while view:
                    view = view[os.write(handle, view) :]
            os.fsync(handle)
        finally:
            if handle >= 0:
                os.close(handle)
        if overwrite:
            os.replace(temporary, target)
        else:
            os.link(temporary, target)  # fails if a file appeared meanwhile: never replaced
            os.unlink(temporary)
    except FileExistsError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise OptionError(f"{path_said(name)}: already exists ({EXISTS_HINT})") from None
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise cannot_write(name, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


def _write_device(target: Path, content: str | bytes | Callable[[str], None]) -> Path:
    """A device or pipe the user named (``/dev/null``, ``/dev/stdout``): written in place. A
    named pipe nobody reads is refused at once (opened without blocking), never waited on."""
    if callable(content):
        raise OptionError(f"{path_said(target)}: not a regular file to write this into")
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        handle = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        why = "nothing reads this pipe" if exc.errno == errno.ENXIO else exc.strerror or exc
        raise cannot_write(target, why) from None
    try:
        os.set_blocking(handle, True)
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view) :]
    except OSError as exc:
        raise cannot_write(target, exc) from None
    finally:
        os.close(handle)
    return target
