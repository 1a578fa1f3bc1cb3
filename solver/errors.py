"""The exceptions the library raises.

Every error caused by bad input is a :class:`ValueError` subclass whose message names the bad
thing, so callers can catch ``ValueError`` or the precise class.

>>> from solver.errors import FormatError
>>> err = FormatError("a cell symbol", line=3, column=5, found="'x'")
>>> str(err)
"line 3, column 5: expected a cell symbol, found 'x'"
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import unicodedata
from collections.abc import Iterable, Iterator


class SolverError(Exception):
    """Base class of every error raised by forest-solver."""


class FormatError(SolverError, ValueError):
    """A forest (or other) file or JSON document could not be read.

    ``line`` and ``column`` are 1-based and count in the text as read: ``line`` is the line
    number (a line ends at ``\n``), ``column`` the character (not byte) within that line, a
    tab counting as one; a byte-order mark at the start is not counted. In a JSON document
    (a saved state) a syntax error is where the JSON decoder stopped; in a well-formed document
    whose content is wrong, ``expected`` names the field (``state field 'stamina' to be an
    integer in 0..6``) and the position is that field's (its key) where the reader locates it
    (the dog's does), else line 1, column 1. The message reads ``line L, column C: expected ...,
    found ...``, after ``PATH: `` when the document is a file (``path``; :meth:`in_file` adds
    it).

    >>> str(FormatError("a cell", line=2, column=1).in_file("my.forest"))
    'my.forest: line 2, column 1: expected a cell'
    """

    def __init__(
        self,
        expected: str,
        *,
        line: int,
        column: int,
        found: str | None = None,
        path: str | None = None,
    ):
        self.expected = expected
        self.line = line
        self.column = column
        self.found = found
        self.path = path
        message = f"line {line}, column {column}: expected {expected}"
        if found is not None:
            message += f", found {found}"
        if path is not None:
            message = f"{path_said(path)}: {message}"
        super().__init__(message)

    def in_file(self, path: object) -> FormatError:
        """The same error, naming the file ``path`` it was read from (unchanged if it does).

        An error at line 1, column 1 of a file does not quote what was found there: nothing of
        the file was recognised, so it may not be a game file at all (``/etc/passwd``, a copy of
        an environment) and its first bytes are not repeated; the path and the expectation say
        the problem. A description (``found an invalid byte``) is kept.

        >>> str(FormatError("a header", line=1, column=1, found="'SECRET=1'").in_file("x"))
        'x: line 1, column 1: expected a header (the file does not start as one)'
        """
        if self.path is not None:
            return self
        found = self.found
        if (self.line, self.column) == (1, 1) and _quotes(found):
            found = None
            expected = f"{self.expected} (the file does not start as one)"
        else:
            expected = self.expected
        return FormatError(
            expected, line=self.line, column=self.column, found=found, path=str(path)
        )

    def __reduce__(self):  # keep the keyword-only constructor picklable (worker processes)
        return (
            _rebuild_format_error,
            (self.expected, self.line, self.column, self.found, self.path),
        )


def _quotes(found: str | None) -> bool:
    """Whether ``found`` quotes the text read (``'abc'``, ``"abc"``, a JSON value), not a
    description of it (``an invalid byte``, ``Expecting value``)."""
    if not found:
        return False
    return found[0] in "'\"{[" or found[0].isdigit() or found[0] == "-"


def _rebuild_format_error(
    expected: str, line: int, column: int, found: str | None, path: str | None = None
) -> FormatError:
    return FormatError(expected, line=line, column=column, found=found, path=path)


MOST_QUOTED = 60
"""The most characters of a user's text (a key, an option's value) a message quotes."""


def shortened(text: str, most: int = MOST_QUOTED) -> str:
    """``text`` as a message quotes it: whole up to ``most`` characters, else its start, an
    ellipsis and its length (a key or value of a megabyte must not make a megabyte message).

    >>> shortened("yes"), shortened("x" * 100, 5)
    ('yes', 'xxxxx... (100 characters)')
    """
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def printable(text: str) -> str:
    r"""``text`` as a one-line message may quote it: every character ``str.isprintable`` refuses
    (a control character, a line or paragraph separator, a bidi override) written as its JSON
    escape ``\uXXXX``, every other one as typed, in any script (repr's rule); but those drawn
    as nothing (:data:`INVISIBLE`: ``1`` and a variation selector read "1", a value the
    refusal seemed to refuse) and a combining mark with no letter, number or mark before it to
    sit on (it sat on the message's quote) are escaped too.

    >>> print(printable("\u0663 a\u2028b\x85"), printable("1\ufe0f \u0301x \u00e9"))
    ٣ a\u2028b\u0085 1\ufe0f \u0301x é
    """
    out: list[str] = []
    shown = False  # whether the character before was written as itself (a base to sit on)
    for ch in text:
        code, kind = ord(ch), unicodedata.category(ch)
        hidden = any(low <= code <= high for low, high in INVISIBLE)
        stray = kind in ("Mn", "Mc", "Me") and not (
            shown and unicodedata.category(out[-1][-1])[0] in "LNM"
        )
        shown = ch.isprintable() and not hidden and not stray
        out.append(ch if shown else _escape(ch))
    return "".join(out)


INVISIBLE = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180D), (0x180F, 0x180F),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xE0100, 0xE01EF),
)  # fmt: skip
"""The characters Unicode lists as default ignorable (drawn as nothing) that ``str.isprintable``
accepts: the combining grapheme joiner, the Hangul fillers, the Mongolian and other variation
selectors (the rest of that list, zero-width spaces, joiners, bidi marks, tags, is refused by
``isprintable`` already)."""


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a UTF-16 surrogate pair, as JSON writes it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_quoted(value: object) -> str:
    r"""``value`` as JSON, as a message quotes a user's value: the Arabic-Indic 3 as typed,
    ``"٣"``, not as ``json.dumps``' ASCII escape ``"\u0663"``; controls escaped
    (:func:`printable`); a value JSON cannot write is written by ``repr``.

    >>> print(json_quoted("\u0663"), json_quoted(["a\nb", "\x7f", "\U0001d7d1"]))
    "٣" ["a\nb", "\u007f", "𝟑"]
    """
    return printable(json.dumps(value, ensure_ascii=False, default=repr))


def close_names(word: str, names: Iterable[str], most: int = 2) -> list[str]:
    """Up to ``most`` of ``names`` close to a misspelt ``word``, closest first: what a "did you
    mean" offers for an option, a puzzle or a request's field (one closeness for all of them).

    >>> close_names("--agnet", ["--agent", "--games"])
    ['--agent']
    """
    import difflib

    return difflib.get_close_matches(word, list(names), n=most, cutoff=0.75)


MOST_PATH = 200
"""The most characters of a file's path a message names (a real path is seldom longer; a
hostile one of 5,000 characters must not make a 5,000-character error line). The unknown
words of a command line are quoted up to the same length."""


def path_said(path: object) -> str:
    """A file's path as an error names it: whole up to :data:`MOST_PATH` characters, else its
    start, an ellipsis and its length (:func:`shortened`, as a usage error quotes a long word).

    >>> path_said("a.forest"), path_said("/" + "a" * 300)[-30:]
    ('a.forest', 'aaaaaaaaaa... (301 characters)')
    """
    return shortened(os.fspath(path) if isinstance(path, os.PathLike) else str(path), MOST_PATH)


class DuplicateKeyError(FormatError):
    """A JSON object names the same key twice (``{"players": 2, "players": 4}``): JSON leaves
    its meaning open and Python's parser would keep the last value silently, so every JSON
    document and request is refused instead (:func:`solver.json_objects.loads`). ``key`` is the
    key, ``field`` its path in the document (keys and list indices: ``["options", "players"]``);
    ``line`` and ``column`` are those of its second occurrence.

    >>> err = DuplicateKeyError("players", ["options", "players"], line=1, column=30)
    >>> print(err)  # doctest: +NORMALIZE_WHITESPACE
    line 1, column 30: expected each key once in an object,
    found 'players' again (at options.players)
    """

    def __init__(
        self, key: str, field: list[str | int], *, line: int, column: int, path: str | None = None
    ) -> None:
        self.key = key
        self.field = list(field)
        dotted = ".".join(shortened(str(part)) for part in self.field)
        super().__init__(
            "each key once in an object",
            line=line,
            column=column,
            found=f"{shortened(key)!r} again (at {dotted})",
            path=path,
        )

    def in_file(self, path: object) -> FormatError:
        """The same error, naming the file ``path`` (its key and position are no quote of the
        file's start: kept as they are)."""
        if self.path is not None:
            return self
        return DuplicateKeyError(self.key, self.field, line=self.line, column=self.column,
                                 path=str(path))  # fmt: skip

    def __reduce__(self):  # keep the keyword-only constructor picklable (worker processes)
        return (_rebuild_duplicate_key_error, (self.key, self.field, self.line, self.column,
                                               self.path))  # fmt: skip


def _rebuild_duplicate_key_error(
    key: str, field: list[str | int], line: int, column: int, path: str | None
) -> DuplicateKeyError:
    return DuplicateKeyError(key, field, line=line, column=column, path=path)


class ForestError(SolverError, ValueError):
    """A forest built in code breaks a rule of docs/rules/dog.md §1 (size, cells, shouters...)."""


class IllegalActionError(SolverError, ValueError):
    """An action that is not legal in the state it was applied to."""


class OptionError(SolverError, ValueError):
    """An option that the called function does not accept (unknown name, value out of range)."""


class OutputError(SolverError, OSError):
    """A command's answer could not be written to its standard output (a full disk,
    ``/dev/full``, an I/O error): the message says why. An ``OSError`` too, so code that
    handles a failed write still handles it. A reader that has gone (a closed pipe) is no such
    error: it stays a ``BrokenPipeError``, which the command line ends quietly. ``reason`` is
    the system's words for the cause (``No space left on device``).

    >>> OutputError("cannot write the output: No space left on device", reason="...").reason
    '...'
    """

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class InterruptedRun(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped a long run that keeps what it did: the message says what was
    kept and how to go on (``forest analyse``: ``interrupted: 224 of 2000 forests are journaled
    in out.csv.journal.jsonl; run again with --resume to continue``). A ``KeyboardInterrupt``,
    so code that stops on one still stops; the command line prints the message as its one line
    (and exits 130, as for any Ctrl-C).

    ``signum`` is the signal that stopped it: SIGTERM (``timeout``, a CI runner, ``kill``)
    stops such a run as Ctrl-C does, and the command line exits 128 + ``signum`` (130, 143).

    >>> isinstance(InterruptedRun("interrupted: ..."), KeyboardInterrupt)
    True
    """

    def __init__(self, message: str, signum: int = signal.SIGINT) -> None:
        super().__init__(message)
        self.signum = signum


class ExtensionMissingError(SolverError, ImportError):
    """The compiled kernels are not built; the message says how to build them."""


EXTRAS: dict[str, str] = {
    "pydantic": "serve",
    "fastapi": "serve",
    "uvicorn": "serve",
    "starlette": "serve",
    "rich": "serve",
    "pandas": "analysis",
    "pyarrow": "analysis",
    "matplotlib": "analysis",
    "joblib": "analysis",
    "tqdm": "analysis",
    "dask": "dask",
    "distributed": "dask",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
}
"""The optional dependencies, each with the extra of ``forest-solver`` that installs it."""


class MissingExtraError(SolverError, ModuleNotFoundError):
    """An optional dependency is not installed: the message names the extra of forest-solver
    that installs it (``extra``); ``name`` is the missing module, as Python's own error has it,
    so ``except ImportError`` still catches it.

    >>> err = MissingExtraError("pydantic", "serve", "the engine")
    >>> print(err)
    the engine needs the serve extra (pydantic is not installed): pip install 'forest-solver[serve]'
    >>> err.extra, err.name, isinstance(err, ImportError)
    ('serve', 'pydantic', True)
    """

    def __init__(self, module: str, extra: str, what: str) -> None:
        super().__init__(
            f"{what} needs the {extra} extra ({module} is not installed): "
            f"pip install 'forest-solver[{extra}]'",
            name=module,
        )
        self.extra = extra


def missing_extra_error(exc: ModuleNotFoundError, what: str) -> ModuleNotFoundError:
    """``exc`` (an import of ``what`` failing) as a :class:`MissingExtraError` naming the extra
    when its module belongs to one (:data:`EXTRAS`), else ``exc`` itself."""
    top = (exc.name or "").partition(".")[0]
    extra = EXTRAS.get(top)
    return exc if extra is None else MissingExtraError(top, extra, what)


@contextlib.contextmanager
def needs_extra(what: str) -> Iterator[None]:
    """Guard the imports of an optional dependency: a module of an extra missing inside the
    block raises :func:`missing_extra_error`'s :class:`MissingExtraError` (naming the extra
    that ``what``, e.g. ``"the hint service"``, needs) instead of Python's bare error; any
    other missing module is raised as it is. The one home of the guard the optional modules
    (the hint engine's schema, the HTTP service) put around their imports."""
    try:
        yield
    except ModuleNotFoundError as exc:
        raise missing_extra_error(exc, what) from None


class SearchBudgetError(SolverError):
    """A search ran out of the budget it was given (for expectimax: the table's memory cap).

    The message names the cap, how much was stored when it was hit and how to raise it; for a
    memory cap ``cap_bytes`` and ``entries`` carry the numbers (``None`` for any other budget,
    such as a game's action cap). Nothing partial is returned.

    >>> err = SearchBudgetError("the table hit its cap", cap_bytes=1024, entries=3)
    >>> err.cap_bytes, err.entries
    (1024, 3)
    """

    def __init__(self, message: str, *, cap_bytes: int | None = None, entries: int | None = None):
        self.cap_bytes = cap_bytes
        self.entries = entries
        super().__init__(message)

    @classmethod
    def table_full(
        cls, cap_bytes: int, entries: int, entry_bytes: int | None = None
    ) -> SearchBudgetError:
        """The error of an expectimax table that hit its memory cap (both engines raise it)."""
        per = f" ({entry_bytes} bytes each)" if entry_bytes else ""
        mb = 1 << 20
        return cls(
            f"expectimax table hit its memory cap of {cap_bytes / mb:.4g} MB ({cap_bytes} bytes) "
            f"after storing {entries} entries{per}; raise the cap with memory_mb= "
            f"(e.g. memory_mb={max(1.0, 4 * cap_bytes / mb):.4g}), or search less with "
            "exact=False and a depth= or min_probability=",
            cap_bytes=cap_bytes,
            entries=entries,
        )

    def __reduce__(self):  # keep the keyword-only constructor picklable (worker processes)
        return (_rebuild_search_budget_error, (str(self), self.cap_bytes, self.entries))


def _rebuild_search_budget_error(
    message: str, cap_bytes: int | None, entries: int | None
) -> SearchBudgetError:
    return SearchBudgetError(message, cap_bytes=cap_bytes, entries=entries)


class SearchTimeoutError(SearchBudgetError):
    """A search that cannot answer partially (the exact expectimax) ran out of its ``seconds``,
    or was stopped from another thread. What its table stored stays valid; nothing partial is
    returned. A :class:`SearchBudgetError`, so code that falls back on a full table falls back
    on a timeout too.

    >>> isinstance(SearchTimeoutError("past the deadline"), SearchBudgetError)
    True
    """

    def __reduce__(self):
        return (_rebuild_search_timeout_error, (str(self), self.entries))


def _rebuild_search_timeout_error(message: str, entries: int | None) -> SearchTimeoutError:
    return SearchTimeoutError(message, entries=entries)
