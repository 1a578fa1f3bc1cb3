"""The one JSON loader: :func:`loads`, ``json.loads`` refusing an object that names a key twice.

JSON leaves a repeated key's meaning open and Python's parser keeps the last value silently, so
``{"players": 2, "players": 4}`` in a saved state, a record, a tile set or a hint request
would be read as 4 players with nothing said. Every JSON document the library reads (through
:func:`solver.files.parse_json`) and every hint request (stdio, HTTP and the web table's
sessions, through :func:`solver.hint.ingress.parse_json`) is loaded here, so all of them
refuse it alike: a :class:`~solver.errors.DuplicateKeyError` naming the key, where it sits in
the document (``options.players``) and its line and column.

The check is one ``object_pairs_hook`` (:func:`unique_keys`): a length comparison per object
while parsing. Only when it finds a repeat is the text scanned again to locate it.

>>> try:
...     loads('{"a": {"b": 1, "b": 2}}')
... except ValueError as exc:
...     print(exc.key, exc.field, exc.line, exc.column)
b ['a', 'b'] 1 16
"""

from __future__ import annotations

import json
import re
from typing import Any

from solver.errors import DuplicateKeyError

__all__ = ["loads", "unique_keys"]


class _Repeated(Exception):
    """Raised inside the parser by :func:`unique_keys` (no ``ValueError``: a caller's handler of
    the parser's own errors must not take it for a syntax error)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The ``object_pairs_hook``: the object as a dict, unless it names a key twice."""
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Repeated(key)
            seen.add(key)
    return made


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads(text, **options)`` refusing a repeated key with a
    :class:`~solver.errors.DuplicateKeyError` (its syntax errors are ``json.loads``'s own)."""
    try:
        return json.loads(text, object_pairs_hook=unique_keys, **options)
    except _Repeated as exc:
        plain = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        raise _located(plain, exc.key) from None


def _located(text: str, key: str) -> DuplicateKeyError:
    """The error for ``key`` repeated in ``text``: the first repeat in document order (the one
    the parser met may close later), else line 1, column 1 with the key alone."""
    found = find_repeat(text)
    if found is None:
        return DuplicateKeyError(key, [key], line=1, column=1)
    offset, path = found
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return DuplicateKeyError(str(path[-1]), path, line=line, column=column)


def find_repeat(text: str) -> tuple[int, list[str | int]] | None:
    """The offset of the first key of ``text`` that repeats one of its object's keys, and its
    path (``["options", "players"]``), or ``None``. A plain scan of a text the parser read as
    JSON up to that key: strings are skipped whole, so a brace or colon inside one counts for
    nothing."""
    open_: list[_Container] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == '"':
            end = _string_end(text, at)
            inner = open_[-1] if open_ else None
            if inner is not None and inner.keys is not None and _followed_by_colon(text, end):
                key = json.loads(text[at:end])
                if key in inner.keys:
                    return at, [*inner.where, key]
                inner.keys.add(key)
                inner.child = key
            at = end
            continue
        if char in "{[":
            where = [*open_[-1].where, open_[-1].child] if open_ else []
            open_.append(_Container(where, set() if char == "{" else None))
        elif char in "}]":
            open_.pop()
        elif char == "," and open_ and open_[-1].keys is None:
            open_[-1].child = int(open_[-1].child) + 1
        at += 1
    return None


class _Container:
    """An object or array :func:`find_repeat` is inside: its path, its keys so far (``None``
    for an array) and the child being read (a key, or an array's index)."""

    def __init__(self, where: list[str | int], keys: set[str] | None) -> None:
        self.where = where
        self.keys = keys
        self.child: str | int = 0


_SPACE = re.compile(r"\s*")


def _followed_by_colon(text: str, at: int) -> bool:
    """Whether the first character of ``text`` from ``at`` on that is no white space is a
    colon (the string before ``at`` is a key). Read in place: a copy of the rest of the text
    at every string made the scan quadratic (a 1 MB request held the server for 33 s)."""
    space = _SPACE.match(text, at)
    return text.startswith(":", at if space is None else space.end())


def _string_end(text: str, start: int) -> int:
    """The offset just past the JSON string literal that opens at ``start``."""
    at = start + 1
    while at < len(text):
        if text[at] == "\\":
            at += 2
            continue
        if text[at] == '"':
            return at + 1
        at += 1
    return len(text)
