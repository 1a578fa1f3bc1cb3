"""What both transports accept as a request: JSON that every later step can handle.

``forest hint --stdio`` (a line) and ``forest serve`` (a body) parse requests through
:func:`parse_request`, so the same bytes meet the same checks on both:

- UTF-8 text holding one JSON value; an object for a request;
- no ``NaN``, ``Infinity`` or number too large for a float (``1e999``): JSON has none, Python's
  parser would accept them;
- no string (key or value) holding a lone surrogate (``"\\ud800"``): it is not Unicode text, and
  no answer, log line or state hash could encode it;
- nested at most :data:`MAX_DEPTH` deep (a state's JSON is nested six levels deep at most);
- no object naming a key twice (``{"players": 2, "players": 4}``): Python's parser would keep
  the last silently; the one loader :func:`solver.json_objects.loads` refuses it, and the HTTP
  service checks every body here before FastAPI parses it again, so no route, the web table's
  sessions included, ever sees a repeated key.

A failure is a :class:`~solver.hint.errors.HintError` naming the field (dotted, with any unsafe
character of a key escaped) and a code: ``malformed`` for what is not JSON, ``bad_state`` for a
fault inside ``state``, else ``invalid_request``.

>>> parse_request(b'{"id": "a", "limit": {"seconds": NaN}}')
Traceback (most recent call last):
...
solver.hint.errors.HintError: limit.seconds: NaN is not a JSON number
>>> parse_request('{"id": "\\\\ud800"}'.encode())
Traceback (most recent call last):
...
solver.hint.errors.HintError: id: a lone surrogate (\\ud800) is not Unicode text
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from solver.errors import DuplicateKeyError, shortened
from solver.hint.errors import HintError
from solver.json_objects import loads

__all__ = ["MAX_DEPTH", "check_clean", "ident_of", "parse_json", "parse_request", "safe_text"]

MAX_DEPTH = 64
"""The deepest nesting of objects and lists a request may have."""


def safe_text(text: str) -> str:
    """``text`` with every lone surrogate written as its escape (``\\ud800``): printable and
    encodable, for messages and field names."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _lone_surrogate(text: str) -> str | None:
    """The first lone surrogate of ``text`` as an escape, or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"\\u{ord(text[exc.start]):04x}"
    return None


def _field(path: list[Any]) -> str | None:
    parts = [shortened(safe_text(str(part))) for part in path]
    if len(parts) > 8:  # a path 60 levels deep says nothing more than its start
        parts = [*parts[:6], "...", parts[-1]]
    return ".".join(parts) or None


def _code(path: list[Any]) -> str:
    return "bad_state" if path and path[0] == "state" else "invalid_request"


MAX_DIGITS = 4300
"""The longest integer a request may spell: Python's default limit for converting text to int
(a number this long is already no action, seed or budget), lowered where the interpreter's own
limit is (``PYTHONINTMAXSTRDIGITS``): see :func:`_max_digits`."""


def _max_digits() -> int:
    """:data:`MAX_DIGITS`, or the interpreter's limit where it is lower (0: no limit)."""
    return min(MAX_DIGITS, sys.get_int_max_str_digits() or MAX_DIGITS)


class _TooLarge:
    """An integer of more than :func:`_max_digits` digits, kept as its size only: refused by
    :func:`check_clean` naming its field, never converted nor echoed."""

    def __init__(self, digits: int):
        self.digits = digits


def _parse_int(text: str) -> Any:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= _max_digits() else _TooLarge(digits)


class _OutOfRange:
    """A number beyond a float's range (``1e400``, which Python reads as infinity), kept as the
    client wrote it: refused by :func:`check_clean` quoting it (it said ``inf``)."""

    def __init__(self, text: str):
        self.text = text


def _parse_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else _OutOfRange(text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


Parsed: TypeAlias = (
    "bool | int | float | str | _TooLarge | _OutOfRange | Sequence[Parsed] | Mapping[str, Parsed]"
    " | None"
)
"""JSON as :func:`parse_json` reads it before it is checked: a number too long to convert is kept
as a :class:`_TooLarge`, and floats may be infinite."""


def check_clean(value: Parsed, path: list[str | int] | None = None) -> None:
    """Raise :class:`HintError` unless ``value`` (parsed JSON) is clean: see the module doc."""
    stack: list[tuple[Parsed, list[str | int]]] = [(value, list(path or []))]
    base = len(path or [])
    while stack:
        item, where = stack.pop()
        if len(where) - base > MAX_DEPTH:
            raise _unclean(where[: base + 3], f"nested more than {MAX_DEPTH} deep", where)
        problem = _problem(item)
        if problem is not None:
            raise _unclean(where, problem, where)
        if isinstance(item, dict):
            for key, child in item.items():
                bad = _lone_surrogate(key)
                if bad is not None:
                    why = f"a key holding a lone surrogate ({bad}) is not Unicode text"
                    raise _unclean([*where, key], why, where or [key])
                stack.append((child, [*where, key]))
        elif isinstance(item, list):
            for index, child in enumerate(item):
                stack.append((child, [*where, index]))


def _problem(item: Parsed) -> str | None:
    """What makes a single value unclean (a lone surrogate, a number too large to convert, an
    infinite float), or None."""
    if isinstance(item, str):
        bad = _lone_surrogate(item)
        return None if bad is None else f"a lone surrogate ({bad}) is not Unicode text"
    if isinstance(item, _TooLarge):
        return f"a number too large ({item.digits} digits)"
    if isinstance(item, _OutOfRange):
        return f"the number {shortened(item.text)} is beyond a float's range (no finite number)"
    if isinstance(item, float) and not math.isfinite(item):
        return f"{item!r} is not a finite JSON number"
    return None


def _unclean(at: list[str | int], problem: str, code_at: list[str | int]) -> HintError:
    """The error naming the field at ``at`` and the problem (its code by ``code_at``)."""
    field = _field(at)
    return HintError(f"{field + ': ' if field else ''}{problem}", field, _code(code_at))


BOM_REFUSED = "starts with a byte order mark (U+FEFF, a UTF-8 BOM): send the JSON without it"
"""A text that starts with a BOM (an editor's, saving a request as "UTF-8 with BOM"): refused in
the project's words, on the stdio line, the HTTP body and a ``state`` text alike."""


def parse_json(text: str, path: list[Any] | None = None, code: str = "malformed") -> Any:
    """``text`` parsed as JSON and checked clean (:func:`check_clean`); ``path`` names where the
    text sits in the request (a ``state`` given as text), ``code`` the error code when it is not
    JSON at all."""
    where = _field(list(path or []))
    prefix = f"{where}: " if where else ""
    if text.startswith("\ufeff"):  # json's own words were "decode using utf-8-sig"
        raise HintError(f"{prefix or 'the request '}{BOM_REFUSED}", where, code)
    try:
        value = loads(
            text, parse_constant=_refuse_constant, parse_int=_parse_int, parse_float=_parse_float
        )
    except DuplicateKeyError as exc:
        located = [*list(path or []), *exc.field]
        field = _field(located)
        key = shortened(safe_text(exc.key))
        why = f"the key {key!r} is given twice in one object (line {exc.line}, "
        raise HintError(f"{_prefix(field)}{why}column {exc.column})", field,
                        _code(located)) from None  # fmt: skip
    except RecursionError:
        raise HintError(f"{prefix}nested more than {MAX_DEPTH} deep", where, code) from None
    except ValueError as exc:
        if "is not a JSON number" in str(exc):  # named inside the request (``state.budget``)
            located = [*list(path or []), *_split(_locate_constant(text))]
            field = _field(located)
            raise HintError(f"{_prefix(field)}{exc}", field, _code(located)) from None
        raise HintError(f"{prefix}not JSON: {safe_text(str(exc))}", where, code) from None
    check_clean(value, list(path or []))
    return value


def _locate_constant(text: str) -> str | None:
    """The field holding the first NaN or Infinity of ``text`` (parsed with them as strings)."""
    marker = "\x00constant\x00"
    try:
        value = json.loads(text, parse_constant=lambda _name: marker)
    except (ValueError, RecursionError):
        return None
    stack: list[tuple[Any, list[Any]]] = [(value, [])]
    while stack:
        item, where = stack.pop(0)
        if item == marker:
            return _field(where)
        if isinstance(item, dict):
            stack.extend((child, [*where, key]) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, [*where, index]) for index, child in enumerate(item))
    return None


def _prefix(field: str | None) -> str:
    return f"{field}: " if field else ""


def _split(field: str | None) -> list[str]:
    return field.split(".") if field else []


def parse_request(data: bytes | str, charset: str | None = None) -> dict[str, Any]:
    """A request line or body: UTF-8 JSON, clean, an object (else :class:`HintError`).
    ``charset``: the one the body is declared in (HTTP's ``Content-Type: ...; charset=``),
    named when the bytes are not UTF-8 and it is another, so the sender learns why."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            said = f"the request is not UTF-8 text (byte {exc.start})"
            if charset and charset.lower().replace("-", "") != "utf8":
                said += (f": the body is declared {safe_text(charset)[:40]}; this service reads "
                         "JSON as UTF-8 only")  # fmt: skip
            raise HintError(said, None, "malformed") from None
    else:
        text = data
    value = parse_json(text)
    if not isinstance(value, dict):
        raise HintError("a request is a JSON object", None, "malformed")
    return value


def ident_of(data: bytes | str) -> str | None:
    """The ``id`` of a request that failed the checks, when it is a clean string (so the error
    answer still carries it), else None."""
    try:  # a number too long to convert elsewhere in the request must not hide its id
        value = loads(data, parse_int=_parse_int)
    except DuplicateKeyError as exc:  # a repeated "id" has no one id to echo
        value = None if exc.field == ["id"] else json.loads(data, parse_int=_parse_int)
    except (ValueError, RecursionError):
        return None
    ident = value.get("id") if isinstance(value, dict) else None
    return ident if isinstance(ident, str) and safe_text(ident) == ident else None
