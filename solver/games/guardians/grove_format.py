"""The ``.grove`` position format and its JSON form (docs/rules/guardians.md, "Positions").

A position is one player's forest as a user copies it from the table::

    name: two-pawns
    grid:
    . B:GR [GRE]b R:BY .
    G:RR E:GB Y:EP P:BB [*]
    . R:GE G:YY [RG]y .

Plain UTF-8 text: ``#`` comment lines, optional headers ``name: TEXT``, ``mode: solo|multi``
(default solo) and ``points: 2=3 3=5 4=8 5=12 start=12`` (the default table) before a line
``grid:``, then one row per grid row, tokens separated by single spaces: ``.`` no tile,
``B:GRE`` a tile forest side up (colour, then its mission on the back), ``B:?5`` one whose
back is not known (colour, then its points preview: a sequence of the length the points table
gives 5), ``[GRE]`` mission side up, ``[*]`` the start tile, either followed by a pawn letter
(``b g y r`` solo, ``p`` multi).

:func:`parse_grove` is strict: every bad text raises :class:`~solver.errors.FormatError` with the
1-based line and column of the offending place. :func:`format_grove` writes the canonical text;
``parse_grove(format_grove(g)) == g`` for every position and ``format_grove(parse_grove(t)) == t``
for canonical ``t`` (headers only where they differ from the defaults, in the order name, mode,
points; no comments; LF line ends).

>>> g = parse_grove(EXAMPLE)
>>> g.name, g.width, g.height, g.tile_count()
('two-pawns', 5, 3, 11)
>>> format_grove(g) == EXAMPLE
True
>>> parse_grove("grid:\\n[*]b B:GX\\n")
Traceback (most recent call last):
...
solver.errors.FormatError: line 2, column 9: expected a colour code (B G R E P Y), found 'X'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from solver.errors import FormatError, OptionError
from solver.files import parse_json, read_bytes, write_whole
from solver.games.guardians.connectivity import reached
from solver.games.guardians.grove_position import (
    DEFAULT_TABLE,
    MAX_GROVE_SIZE,
    Grove,
    GroveCell,
    PointsTable,
)
from solver.games.guardians.tiles import COLOURS, MAX_SEQUENCE, MIN_SEQUENCE

__all__ = [
    "EXAMPLE",
    "format_grove",
    "grove_from_dict",
    "grove_from_json",
    "grove_to_dict",
    "grove_to_json",
    "load_grove",
    "parse_grove",
]

EXAMPLE = """name: two-pawns
grid:
. B:GR [GRE]b R:BY .
G:RR E:GB Y:EP P:BB [*]
. R:GE G:YY [RG]y .
"""

_POINT_KEYS = ("2", "3", "4", "5", "start")
_MODES = ("solo", "multi")
_BOM = "\ufeff"
_SURROGATE = re.compile("[\ud800-\udfff]")


def _show(text: str) -> str:
    if not text:
        return "the end of the line"
    return repr(text if len(text) <= 30 else text[:27] + "...")


def _fail(expected: str, line: int, column: int, found: str | None = None) -> FormatError:
    return FormatError(expected, line=line, column=column, found=found)


def _parse_token(
    token: str, mode: str, line: int, column: int, points: PointsTable = DEFAULT_TABLE
) -> GroveCell | None:
    """One grid token (at ``line``/``column``) as a cell, or ``None`` for ``.``."""
    if token == ".":
        return None
    pawns = "bgyr" if mode == "solo" else "p"
    if token.startswith("["):
        close = token.find("]")
        if close < 0:
            raise _fail("']' closing the mission", line, column + len(token), _show(""))
        inner = token[1:close]
        rest = token[close + 1 :]
        if len(rest) > 1 or (rest and rest not in pawns):
            raise _fail(
                f"a pawn letter ({' '.join(pawns)} in {mode} mode) or a space",
                line,
                column + close + 1,
                _show(rest),
            )
        pawn = rest or None
        if inner == "*":
            return GroveCell(None, "", mission=True, start=True, pawn=pawn)
        _check_sequence(inner, line, column + 1)
        return GroveCell(None, inner, mission=True, pawn=pawn)
    if len(token) >= 2 and token[1] == ":":
        if token[0] not in COLOURS:
            raise _fail("a colour code (B G R E P Y)", line, column, _show(token[0]))
        if token[2:3] == "?":
            return GroveCell(token[0], "", preview=_preview(token[3:], points, line, column + 3))
        _check_sequence(token[2:], line, column + 2)
        return GroveCell(token[0], token[2:])
    raise _fail("a tile token ('.', 'B:GRE', 'B:?5', '[GRE]', '[*]')", line, column, _show(token))


def _preview(number: str, points: PointsTable, line: int, column: int) -> int:
    """The points preview of a ``B:?5`` token: a mission value of the points table."""
    if not number.isascii() or not number.isdigit() or len(number) > 4:
        raise _fail("the points preview after '?' (a whole number)", line, column, _show(number))
    value = int(number)
    if value not in points[:4]:
        worth = ", ".join(str(p) for p in sorted(set(points[:4])))
        expected = f"a points preview the points table gives a mission ({worth})"
        raise _fail(expected, line, column, number)
    return value


def _check_sequence(sequence: str, line: int, column: int) -> None:
    for i, ch in enumerate(sequence):
        if ch not in COLOURS:
            raise _fail("a colour code (B G R E P Y)", line, column + i, _show(ch))
    if not MIN_SEQUENCE <= len(sequence) <= MAX_SEQUENCE:
        raise _fail(
            f"a mission of {MIN_SEQUENCE} to {MAX_SEQUENCE} colours",
            line,
            column,
            f"{len(sequence)} colours",
        )


def _split_row(text: str, line: int) -> list[tuple[str, int]]:
    """The tokens of a grid row with their 1-based columns; exactly one space between tokens."""
    if text.startswith(" "):
        raise _fail("a tile token", line, 1, "a space")
    if text.endswith(" "):
        raise _fail("the end of the line after the last token", line, len(text), "a space")
    tokens = []
    column = 1
    for token in text.split(" "):
        if token == "":
            raise _fail("a tile token (one space between tokens)", line, column, "a space")
        tokens.append((token, column))
        column += len(token) + 1
    return tokens


def _parse_points(value: str, line: int, column: int) -> PointsTable:
    items = value.split(" ")
    values = []
    col = column
    for i, key in enumerate(_POINT_KEYS):
        if i >= len(items):
            raise _fail(f"'{key}=N' in the points table", line, col, _show(""))
        item = items[i]
        if not item.startswith(key + "="):
            raise _fail(f"'{key}=N' in the points table", line, col, _show(item))
        number = item[len(key) + 1 :]
        if not number.isascii() or not number.isdigit() or len(number) > 4:
            raise _fail("a whole number 0..1000", line, col + len(key) + 1, _show(number))
        if int(number) > 1000:
            raise _fail("a whole number 0..1000", line, col + len(key) + 1, number)
        values.append(int(number))
        col += len(item) + 1
    if len(items) > len(_POINT_KEYS):
        raise _fail("the end of the points table", line, col - 1, _show(" " + items[5]))
    return (values[0], values[1], values[2], values[3], values[4])


def _lines(text: str) -> list[str]:
    if not isinstance(text, str):
        raise _fail("text", 1, 1, type(text).__name__)
    if text.startswith(_BOM):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    for number, raw in enumerate(lines, start=1):
        if raw.endswith("\r"):
            raw = raw[:-1]
        cr = raw.find("\r")
        if cr >= 0:
            raise _fail("a line end (LF or CRLF)", number, cr + 1, "a lone CR")
        bad = _SURROGATE.search(raw)
        if bad:
            raise _fail("a character", number, bad.start() + 1, "a lone surrogate")
        out.append(raw)
    return out


def parse_grove(text: str) -> Grove:
    """Read a ``.grove`` text; :class:`FormatError` with line and column for any bad input."""
    lines = _lines(text)
    name, mode, points, index = _parse_headers(lines)
    rows, places = _parse_grid(lines, index, mode, points)
    grove = Grove(name=name, mode=mode, points=points, grid=tuple(rows))
    _check_forest(grove, lambda r, c: places[r][c])
    return grove


def _parse_headers(lines: list[str]) -> tuple[str, str, PointsTable, int]:
    """The headers up to the line ``grid:``: the name, the mode, the points table and the index
    of the line after ``grid:``."""
    name = ""
    mode = "solo"
    points = DEFAULT_TABLE
    seen: set[str] = set()
    index = 0
    while True:
        if index >= len(lines):
            raise _fail("a line 'grid:'", len(lines) + 1, 1, "the end of the file")
        raw = lines[index]
        number = index + 1
        index += 1
        if raw.startswith("#") or raw == "":
            continue
        if raw == "grid:":
            return name, mode, points, index
        key, value = _header(raw, number, seen)
        vcol = len(key) + 3
        if key == "name":
            name = value
        elif key == "mode":
            if value not in _MODES:
                raise _fail("'solo' or 'multi'", number, vcol, _show(value))
            mode = value
        else:
            points = _parse_points(value, number, vcol)


def _header(raw: str, number: int, seen: set[str]) -> tuple[str, str]:
    """Header line ``number`` (``raw``) as its key and value: a known key, not ``seen`` before
    (it is added), then ``': '`` and a value."""
    key, colon, value = raw.partition(":")
    if not colon or key not in ("name", "mode", "points"):
        raise _fail("a header (name:, mode:, points:) or 'grid:'", number, 1, _show(raw))
    if key in seen:
        raise _fail(f"one '{key}:' header at most", number, 1, f"a second '{key}:'")
    seen.add(key)
    if not value.startswith(" ") or len(value) < 2:
        raise _fail("': ' and a value", number, len(key) + 1, _show(value))
    return key, value[1:]


def _parse_grid(
    lines: list[str], index: int, mode: str, points: PointsTable
) -> tuple[list[tuple[GroveCell | None, ...]], list[list[tuple[int, int]]]]:
    """The grid's rows from ``lines[index]`` on, and where each token is (line, column)."""
    rows: list[tuple[GroveCell | None, ...]] = []
    places: list[list[tuple[int, int]]] = []
    ended = False
    for offset, raw in enumerate(lines[index:]):
        number = index + offset + 1
        if raw.startswith("#"):
            continue
        if raw == "":
            if rows:
                ended = True
            continue
        if ended:
            raise _fail("only blank or comment lines after the grid", number, 1, _show(raw))
        tokens = _split_row(raw, number)
        _check_row_size(tokens, len(rows[0]) if rows else None, len(rows), number, raw)
        rows.append(tuple(_parse_token(tok, mode, number, col, points) for tok, col in tokens))
        places.append([(number, col) for _, col in tokens])
    if not rows:
        raise _fail("a grid row", len(lines) + 1, 1, "the end of the file")
    return rows, places


def _check_row_size(
    tokens: list[tuple[str, int]], width: int | None, above: int, number: int, raw: str
) -> None:
    """A grid row as wide as the first (``width``; ``None``: this is the first), within
    :data:`MAX_GROVE_SIZE` columns, and ``above`` rows before it fewer than that."""
    if width is not None and len(tokens) != width:
        column = tokens[width][1] if len(tokens) > width else len(raw) + 1
        raise _fail(f"{width} tokens as in the first row", number, column, f"{len(tokens)} tokens")
    if len(tokens) > MAX_GROVE_SIZE:
        raise _fail(f"at most {MAX_GROVE_SIZE} columns", number, tokens[-1][1], str(len(tokens)))
    if above >= MAX_GROVE_SIZE:
        raise _fail(f"at most {MAX_GROVE_SIZE} rows", number, 1, "another row")


def _check_forest(grove: Grove, where: Callable[[int, int], tuple[int, int]]) -> None:
    """The tiles must form one forest with at most one start tile and valid pawns."""
    tiles = grove.tiles()
    if not tiles:
        raise _fail("at least one tile in the grid", *where(0, 0), "no tile")
    starts = 0
    pawns: list[str] = []
    for (r, c), cell in tiles:
        if cell.start:
            starts += 1
            if starts > 1:
                raise _fail("one start tile [*] at most", *where(r, c), "a second [*]")
        if cell.pawn is not None:
            if cell.pawn != "p" and cell.pawn in pawns:
                raise _fail("each pawn colour once", *where(r, c), f"a second pawn {cell.pawn!r}")
            pawns.append(cell.pawn)
            if len(pawns) > 4:
                raise _fail("at most 4 pawns", *where(r, c), "a fifth pawn")
    seen = reached(tiles[0][0], {cell for cell, _ in tiles})
    for place, _ in tiles:
        if place not in seen:
            raise _fail(
                "a tile sharing a side with the rest of the forest (one piece)",
                *where(*place),
                "a separate piece",
            )


def _token(cell: GroveCell | None) -> str:
    if cell is None:
        return "."
    if cell.start:
        return "[*]" + (cell.pawn or "")
    if cell.mission:
        return f"[{cell.sequence}]" + (cell.pawn or "")
    if cell.preview is not None:
        return f"{cell.colour}:?{cell.preview}"
    return f"{cell.colour}:{cell.sequence}"


def format_grove(grove: Grove) -> str:
    """The canonical ``.grove`` text of a position."""
    if "\n" in grove.name or "\r" in grove.name or _SURROGATE.search(grove.name):
        raise OptionError(f"a position name cannot hold a line break: {grove.name!r}")
    lines = []
    if grove.name:
        lines.append(f"name: {grove.name}")
    if grove.mode != "solo":
        lines.append(f"mode: {grove.mode}")
    if grove.points != DEFAULT_TABLE:
        table = " ".join(f"{k}={v}" for k, v in zip(_POINT_KEYS, grove.points, strict=True))
        lines.append(f"points: {table}")
    lines.append("grid:")
    lines.extend(" ".join(_token(cell) for cell in row) for row in grove.grid)
    return "\n".join(lines) + "\n"


def load_grove(path: str | os.PathLike[str]) -> Grove:
    """Read a ``.grove`` file (UTF-8), refused unread past :data:`solver.files.MAX_FILE_BYTES`
    (a real position is a few hundred bytes; a device such as ``/dev/zero`` never ends)."""
    data = read_bytes(path, "position")
    try:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = data[: exc.start].decode("utf-8", errors="replace").split("\n")
            raise _fail("UTF-8 text", len(before), len(before[-1]) + 1, "an invalid byte") from None
        return parse_grove(text)
    except FormatError as exc:  # the error names the file
        raise exc.in_file(os.fspath(path)) from None


def save_grove(grove: Grove, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
    """Write the canonical text of ``grove`` to ``path``, whole or not at all
    (:func:`solver.files.write_whole`: an existing file is replaced only with ``overwrite``;
    problems such as a missing folder or a full disk are :class:`~solver.errors.OptionError`)."""
    text = format_grove(grove)  # a position that cannot be written fails before any file
    write_whole(path, text, overwrite=overwrite)


# -- the JSON form -------------------------------------------------------------------------------
def grove_to_dict(grove: Grove) -> dict[str, Any]:
    """``{"name", "mode", "points": {"2": 3, ...}, "grid": ["row tokens", ...]}``."""
    return {
        "name": grove.name,
        "mode": grove.mode,
        "points": dict(zip(_POINT_KEYS, grove.points, strict=True)),
        "grid": [" ".join(_token(cell) for cell in row) for row in grove.grid],
    }


def _schema(field: str, expected: str, found: Any) -> FormatError:
    try:
        shown = json.dumps(found)
    except (TypeError, ValueError):
        shown = type(found).__name__
    return FormatError(f"position field {field} to be {expected}", line=1, column=1, found=shown)


def _points_from_dict(raw_points: Any) -> PointsTable:
    """A position's JSON ``points``: an object of the five keys, each a whole number 0..1000."""
    if not isinstance(raw_points, Mapping) or set(raw_points) != set(_POINT_KEYS):
        raise _schema("points", 'an object with keys "2" "3" "4" "5" "start"', raw_points)
    values = []
    for key in _POINT_KEYS:
        v = raw_points[key]
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1000:
            raise _schema(f"points.{key}", "a whole number 0..1000", v)
        values.append(v)
    return (values[0], values[1], values[2], values[3], values[4])


def grove_from_dict(data: Any) -> Grove:
    """A position from its JSON form. Grid errors point at line ``row + 1`` and the column in
    that row's string; other errors at line 1, column 1, naming the field."""
    if not isinstance(data, Mapping):
        raise _schema("(top level)", "a JSON object", data)
    extra = sorted(set(data) - {"name", "mode", "points", "grid"})
    if extra:
        raise _schema(extra[0], "absent (known: name, mode, points, grid)", extra[0])
    name = data.get("name", "")
    if not isinstance(name, str) or "\n" in name or "\r" in name or _SURROGATE.search(name):
        raise _schema("name", "a one-line string", name)
    mode = data.get("mode", "solo")
    if mode not in _MODES:
        raise _schema("mode", '"solo" or "multi"', mode)
    points_table = _points_from_dict(
        data.get("points", dict(zip(_POINT_KEYS, DEFAULT_TABLE, strict=True)))
    )
    grid = data.get("grid")
    if not isinstance(grid, list) or not grid or not all(isinstance(r, str) for r in grid):
        raise _schema("grid", "a non-empty list of row strings", grid)
    if len(grid) > MAX_GROVE_SIZE:
        raise _schema("grid", f"at most {MAX_GROVE_SIZE} rows", len(grid))
    rows: list[tuple[GroveCell | None, ...]] = []
    places: list[list[tuple[int, int]]] = []
    for r, text in enumerate(grid):
        tokens = _split_row(text, r + 1)
        if rows and len(tokens) != len(rows[0]):
            raise _fail(f"{len(rows[0])} tokens as in the first row", r + 1, 1, str(len(tokens)))
        if len(tokens) > MAX_GROVE_SIZE:
            raise _fail(f"at most {MAX_GROVE_SIZE} columns", r + 1, 1, str(len(tokens)))
        rows.append(tuple(_parse_token(tok, mode, r + 1, col, points_table) for tok, col in tokens))
        places.append([(r + 1, col) for _, col in tokens])
    grove = Grove(name=name, mode=mode, points=points_table, grid=tuple(rows))
    _check_forest(grove, lambda r, c: places[r][c])
    return grove


def grove_to_json(grove: Grove) -> str:
    return json.dumps(grove_to_dict(grove), sort_keys=True)


def grove_from_json(text: str) -> Grove:
    return grove_from_dict(parse_json(text, "a JSON object (a position)"))
