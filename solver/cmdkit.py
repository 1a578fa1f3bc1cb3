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
import os
import sys
import threading
import time
import unicodedata
from collections.abc import Callable
from typing import Protocol, TextIO, TypeAlias

from solver.errors import OptionError, path_said
from solver.files import MAX_FILE_BYTES, bytes_said, check_writable, read_bytes, write_whole

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_WORKER_PROCESSES",
    "Progress",
    "Subcommands",
    "check_svg_name",
    "nonnegative_int",
    "output_option",
    "parse_size",
    "path_arg",
    "positive_float",
    "positive_int",
    "progress_of",
    "progress_option",
    "read_state_text",
    "read_text_file",
    "simulations_int",
    "time_limit_option",
    "whole_from",
    "whole_int",
    "write_output",
]


MAX_WORKER_PROCESSES = max(64, 4 * (os.cpu_count() or 1))
"""The most worker processes one command starts (``forest serve --workers``, ``forest analyse
--jobs`` and ``--dask-local``): each is a whole Python process with the games open, so a
mistyped count (``--workers 100000``) would take the machine down; more than four per CPU only
queues work the CPUs cannot run at once."""

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``parser.add_subparsers()`` returns: the commands a module's ``add_*_command`` joins."""


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


MAX_COUNT = 2**63 - 1
"""The largest count (simulations, games, workers...) a command takes: what a signed 64-bit
integer holds, as the compiled searchers read their budgets."""


def decimal_written(text: str) -> tuple[str, str] | None:
    """``text`` as a whole number written in decimal digits of any script, as int() reads them
    (``'٣'``, full-width ``'３'``, ``'-05'``), an optional sign first: its sign (``""``, ``"+"``
    or ``"-"``) and its digits 0-9 without leading zeros (``""`` for zero); ``None`` where
    ``text`` is no such number. The one rule of a whole number typed on the command line: a
    flag's (:func:`_whole_in`) and a game option's (``--option level=٣``).

    >>> decimal_written(" -٠٣ "), decimal_written("３"), decimal_written("1e2")
    (('-', '3'), ('', '3'), None)
    """
    written = text.strip()
    sign = written[:1] if written[:1] in ("+", "-") else ""
    digits = written[len(sign) :]
    if not digits.isdecimal():
        return None
    return sign, "".join(str(unicodedata.decimal(c)) for c in digits).lstrip("0")


def _whole_in(
    text: str, minimum: int, maximum: int, noun: str = "a whole number", why: str = ""
) -> int:
    """The one whole-number type of a range, which the others are: a number below ``minimum``
    is told the minimum ("expected a whole number of at least 1"), one above ``maximum`` the
    range, in one wording (``f"expected {noun} from 1 to 16{why}"``), however long it is written.

    A number of more digits than either bound holds is out of range by its length, and is
    refused so without int() (which refuses more than 4,300 digits): the digit limit is the
    bounds', not int()'s.

    >>> _whole_in("170", 1, 16)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number from 1 to 16, found '170'
    """
    below = f"expected a whole number of at least {minimum}, found {text!r}"
    above = f"expected {noun} from {minimum} to {maximum}{why}, found {text!r}"
    written = decimal_written(text)
    widest = len(str(max(abs(minimum), abs(maximum))))
    if written is not None:  # the digits int() reads, of any script ('٣', full-width '３')
        # their value without leading zeros: its length is the bounds' business, not int()'s
        # (5,000 Arabic-Indic digits, or 3 after 5,000 zeros, were said to be no number or
        # one of too many digits)
        sign, significant = written
        if len(significant) > widest:
            raise argparse.ArgumentTypeError(below if sign == "-" else above)
        value = int(sign + (significant or "0"))
    else:
        value = whole_int(text)
    if value < minimum:
        raise argparse.ArgumentTypeError(below)
    if value > maximum:
        raise argparse.ArgumentTypeError(above)
    return value


def positive_int(text: str) -> int:
    """A whole number from 1 to :data:`MAX_COUNT`."""
    return _whole_in(text, 1, MAX_COUNT)


MAX_SIMULATIONS = 2**32 - 1
"""The most simulations a search takes: its tree counts a node's visits in 32 bits (the
searches' ``MAX_VISITS``, which refuse more by name once the command has started)."""


def simulations_int(text: str) -> int:
    """A search's ``--iterations``: a whole number from 1 to :data:`MAX_SIMULATIONS`, refused
    as the command line reads it (it was taken up to 2^63 - 1, then refused by the search)."""
    return _whole_in(text, 1, MAX_SIMULATIONS)


def nonnegative_int(text: str) -> int:
    """A whole number from 0 to :data:`MAX_COUNT`."""
    return _whole_in(text, 0, MAX_COUNT)


MAX_SEED = 2**64 - 1
"""The largest seed: the library's generators take 64-bit seeds (a larger one would wrap)."""


def seed_int(text: str) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED` (the hint engine's range too)."""
    return _whole_in(text, 0, MAX_SEED, "a seed", " (64 bits)")


def whole_from_1_to(maximum: int) -> Callable[[str], int]:
    """An argument type: a whole number from 1 to ``maximum``, refused above it by name."""

    def parse(text: str) -> int:
        return _whole_in(text, 1, maximum)

    return parse


def whole_from(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``minimum`` to ``maximum``, any other text refused
    with the range said whole (``--port``: 0 to 65535).

    >>> whole_from(0, 65535)("x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number from 0 to 65535, found 'x'
    """

    def parse(text: str) -> int:
        try:
            return _whole_in(text, minimum, maximum)
        except argparse.ArgumentTypeError:
            said = f"expected a whole number from {minimum} to {maximum}, found {text!r}"
            raise argparse.ArgumentTypeError(said) from None

    return parse


def whole_int(text: str) -> int:
    """An argument type: a whole number of either sign, said in the CLI's words ("expected a
    whole number, found 'x'", not argparse's "invalid int value"), for a flag whose range the
    command checks itself with the range in its own words (``--player``: the game's seats;
    ``analyse --turns``: the game's limit). A number of more digits than int() converts
    (``sys.get_int_max_str_digits()``, 4,300 unless set otherwise) is refused as such.

    >>> whole_int(" -3"), whole_int("+7")
    (-3, 7)
    """
    try:
        return int(text)
    except ValueError:
        written = text.strip()
        digits = written[1:] if written[:1] in ("+", "-") else written
        most = sys.get_int_max_str_digits()
        long = digits.isascii() and digits.isdigit() and 0 < most < len(digits)
        bound = f" of at most {most} digits" if long else ""
        raise argparse.ArgumentTypeError(
            f"expected a whole number{bound}, found {text!r}"
        ) from None


def positive_float(text: str) -> float:
    """A finite number > 0 (``nan``, ``inf``, 0 and negatives are refused); a number written
    out of a float's range is refused as such, quoted as typed (``1e400`` read as infinity,
    ``1e-400`` as 0).

    >>> positive_float("1e400")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a positive number, found '1e400', which is out of range
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, found {text!r}") from None
    written = text.strip().lstrip("+-").lower()
    if written[:1].isdigit() or written[:1] == ".":  # digits, not the words nan or inf
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(
                f"expected a positive number, found {text!r}, which is out of range"
            )
        if (
            value == 0
            and text.strip()[:1] != "-"
            and any(c in "123456789" for c in written.split("e")[0])
        ):
            raise argparse.ArgumentTypeError(
                f"expected a positive number, found {text!r}, which is too small (it reads as 0)"
            )
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, found {text!r}")
    return value


def positive_float_up_to(maximum: float) -> Callable[[str], float]:
    """An argument type: a finite number > 0 and at most ``maximum``, refused above it by name."""

    most = f"{maximum:.0f}" if float(maximum).is_integer() else f"{maximum:g}"

    def parse(text: str) -> float:
        value = positive_float(text)
        if value > maximum:
            raise argparse.ArgumentTypeError(
                f"expected a positive number of at most {most}, found {text!r}"
            )
        return value

    return parse


def path_arg(text: str) -> str:
    """A path given to an option (``--record``, ``-o``, ``--port-file``...): any text but the
    empty one, which names no file (``--record ''`` was taken as no option at all: the game was
    played and nothing written, exit 0)."""
    if text == "":
        raise argparse.ArgumentTypeError("an empty path names no file")
    return text


MAX_INPUT_BYTES = MAX_FILE_BYTES
"""The largest state or game file the command line reads."""


def read_text_file(path: str, what: str = "file") -> str:
    """A UTF-8 text file read whole, refused past :data:`MAX_INPUT_BYTES` with a clear error."""
    data = read_bytes(path, what, MAX_INPUT_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OptionError(f"{path_said(path)}: not UTF-8 text (byte {exc.start})") from None


def read_state_text(value: str) -> str:
    """``--state``: JSON text as given (it starts with ``{``), or the text of the file it names."""
    if value.lstrip().startswith("{"):
        if len(value) > MAX_INPUT_BYTES:
            raise OptionError(f"--state is larger than {bytes_said(MAX_INPUT_BYTES)}")
        return value
    return read_text_file(value, "state file")


PROGRESS_AFTER = 2.0
"""Seconds of work before a command says on stderr what it is doing (``$FOREST_PROGRESS_AFTER``
sets another delay, 0 for at once)."""
PROGRESS_EVERY = 0.5
"""Seconds between two redraws of the progress line."""


def _progress_after() -> float:
    text = os.environ.get("FOREST_PROGRESS_AFTER")
    if text is None:
        return PROGRESS_AFTER
    try:
        value = float(text)
    except ValueError:
        return PROGRESS_AFTER
    return value if math.isfinite(value) and value >= 0 else PROGRESS_AFTER


class Count(Protocol):
    """A :meth:`Progress.counter` callback: ``done`` of ``total`` (when the counter has none)."""

    def __call__(self, done: int, of: int = ..., /) -> None: ...


class Progress:
    """What a long command is doing, on one line of stderr redrawn in place.

    Shown only when stderr is a terminal and the command was not given ``--no-progress``, and
    only once the work has lasted :data:`PROGRESS_AFTER` seconds (quick answers stay clean). The
    line reads ``forest: WHAT: DETAIL (12 s)``; :meth:`update` changes the detail (``game 3/10,
    action 57``), :meth:`counter` gives a callback for a count of ``total``. A background thread
    draws it, so work that reports nothing (one long search) is still seen to be running; the
    line is cleared when the work ends, before the command prints its answer. ``since``: when the
    work began on ``clock`` (a command's start, :func:`solver.command_clock.started`, so the line
    reads the clock a ``--total-seconds`` budget runs on); ``None``: when the line opens. The
    elapsed seconds and a counter's pace count from there.

    >>> with Progress("solving", enabled=False) as progress:
    ...     progress.update("game 1/2")
    >>> progress.shown
    False
    """

    def __init__(
        self,
        what: str,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        since: float | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and _isatty(self.stream)
        self.what = what
        self.detail = ""
        self.shown = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._clock = clock
        self._since = since
        self._started = clock() if since is None else since

    def __enter__(self) -> Progress:
        if self.enabled:
            if self._since is None:
                self._started = self._clock()
            self._thread = threading.Thread(target=self._draw, name="forest-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop drawing and clear the line (idempotent)."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            if self.shown:
                self._write("\r\x1b[K")

    def update(self, detail: str) -> None:
        """The part after ``WHAT:`` from now on."""
        self.detail = detail

    def counter(
        self,
        noun: str,
        total: int = 0,
        *,
        left_after: int | None = None,
        tip: str = "",
        until: float | None = None,
    ) -> Count:
        """A callback ``(done[, total]) -> None`` showing ``NOUN done/total`` (the total given
        here, or with each call). ``left_after``: once that many are done, and until the last,
        also the time left at their pace since the work began (``position 120/744, about 40 s
        left``), then ``tip`` in brackets (how to go faster). ``until``: when a budget stops
        the work (on the same clock): the time left never goes past it."""

        def show(done: int, of: int = total) -> None:
            detail = f"{noun} {done}/{of}"
            if left_after is not None and left_after <= done < of:
                now = self._clock()
                left = (now - self._started) / done * (of - done)
                if until is not None:
                    left = max(0.0, min(left, until - now))
                detail += f", about {left:.0f} s left" + (f" ({tip})" if tip else "")
            self.detail = detail

        return show

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed terminal: the work goes on
            self.enabled = False

    def _draw(self) -> None:
        if self._stop.wait(_progress_after()):
            return
        while self.enabled:
            elapsed = self._clock() - self._started
            detail = f": {self.detail}" if self.detail else ""
            self._write(f"\r\x1b[Kforest: {self.what}{detail} ({elapsed:.0f} s)")
            self.shown = True
            if self._stop.wait(PROGRESS_EVERY):
                return


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def progress_option(p: argparse.ArgumentParser) -> None:
    """``--no-progress``: no progress line on stderr (shown only on a terminal anyway)."""
    p.add_argument(
        "--no-progress", action="store_true",
        help=f"no progress line on stderr (by default a terminal is told what the command is "
        f"doing once it has run {PROGRESS_AFTER:g} s)",
    )  # fmt: skip


def time_limit_option(p: argparse.ArgumentParser) -> None:
    """``--time-limit SECONDS``: the deterministic time limit of a command's CP-SAT model
    (default 10 s), one contract wherever a game's solver is one."""
    p.add_argument(
        "--time-limit",
        type=positive_float,
        default=10.0,
        metavar="SECONDS",
        help="CP-SAT's deterministic time limit in seconds (default 10)",
    )


def output_option(
    p: argparse.ArgumentParser, *flags: str, help: str, metavar: str | None = None
) -> None:
    """An output file option (``flags``: a path, default ``None``) with its ``--overwrite``:
    :func:`write_output` refuses an existing file unless it is given."""
    p.add_argument(*flags, default=None, type=path_arg, metavar=metavar, help=help)
    p.add_argument("--overwrite", action="store_true", help=f"replace an existing {flags[0]} file")


def progress_of(args: argparse.Namespace, what: str, since: float | None = None) -> Progress:
    """The :class:`Progress` of a command given ``--no-progress`` or not (``since``: when its
    work began, on ``time.monotonic()``'s clock; ``None``: when the line opens)."""
    return Progress(what, enabled=not getattr(args, "no_progress", False), since=since)


OTHER_FORMATS = frozenset(
    (".png", ".pdf", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".eps", ".ps")
)
"""The suffixes of image and document formats an SVG written under them would pass for."""


def check_svg_name(path: str | None, flag: str) -> None:
    """Refuse an SVG output named as another format (``-o board.pdf`` wrote SVG text into a
    ``.pdf`` that no viewer opens); any other name (``.svg``, none, a device) is written."""
    if path is None:
        return
    suffix = os.path.splitext(path)[1].lower()
    if suffix in OTHER_FORMATS:
        raise OptionError(
            f"{flag} {path_said(path)}: the drawing is SVG, not {suffix[1:].upper()}; name the "
            "file .svg"
        )


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
