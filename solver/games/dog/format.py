"""The ``.forest`` sheet format and its JSON form (docs/rules/dog.md §9, §10).

A sheet is plain UTF-8 text: ``#`` comment lines, optional ``key: value`` headers, a line
``grid:``, then one text row per grid row with the cell symbols separated by single spaces::

    name: tiny-example
    shouter: 1 4 W 3
    grid:
    T . . H . .
    . , ~ . Y .
    . . T S . ,
    . > . . , .
    . . @ . . T

:func:`parse_forest` is strict: every bad sheet raises :class:`~solver.errors.FormatError` with the
1-based line and column of the offending place, and nothing else is ever raised for bad text.
:func:`format_forest` writes the canonical sheet, and the two are exact inverses
(``parse_forest(format_forest(f)) == f``; ``format_forest(parse_forest(t)) == t`` for canonical
``t``). The JSON form (:func:`forest_to_dict`, :func:`forest_from_dict` and the ``*_json`` pair)
carries the same content for the API.

Choices where docs/rules/dog.md §9 is silent (the reading a player would expect):

- ``turns`` is a whole number from 1 to 255: 255 is the engine's cap, the range that
  :class:`~solver.games.dog.forest.Forest` enforces.
- A header line is ``key: value`` with exactly one space after the colon and a non-empty value;
  the line ``grid:`` stands alone (nothing after the colon). The name is kept verbatim (everything
  after ``"name: "``, spaces included). ``turns``, ``ROW``, ``COL`` and ``LEN`` are ASCII digits;
  ``DIR`` is an upper-case ``N``, ``E``, ``S`` or ``W``; the ``shouter:`` fields are separated by
  single spaces.
- Blank means empty: a line holding only spaces is not blank (it is a leading-space error).
  Comment lines may stand anywhere, between grid rows too, and do not end the grid.
- Line ends may be LF or CRLF, mixed line by line; a lone CR is an error. A BOM is accepted only
  as the first character and is not counted in columns.
- Columns count characters (code points), not bytes. The end of the file is the position just
  after its last character.
- A name holding a line break (CR or LF) or a lone surrogate cannot be written to a sheet:
  :func:`format_forest` raises :class:`~solver.errors.ForestError` for it.
- JSON: ``grid`` is required; ``name`` (default ``""``), ``turns`` (default 20) and ``shouters``
  (default none) may be left out; ``width`` and ``height`` may be left out but must match the grid
  when given; unknown keys are errors. Grid errors point at line ``row + 1`` and the character
  column inside that row's string (so they read like the sheet); other schema errors point at
  line 1, column 1 and name the field.

>>> from solver import puzzles  # the example above, shipped as a curated puzzle
>>> forest = parse_forest(puzzles.path("dog/tiny-example").read_text(encoding="utf-8"))
>>> forest.name, forest.width, forest.height, forest.start, forest.human
('tiny-example', 6, 5, (4, 2), (0, 3))
>>> forest_from_json(forest_to_json(forest)) == forest
True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.errors import ForestError, FormatError
from solver.files import parse_json
from solver.games.dog.forest import (
    DEFAULT_TURNS,
    DIRECTIONS,
    MAX_ARROW,
    MAX_SIZE,
    MIN_SIZE,
    Cell,
    Forest,
    Shouter,
    Terrain,
)

__all__ = [
    "HUMAN_SYMBOL",
    "MAX_TURNS",
    "SHOUTER_SYMBOL",
    "START_SYMBOL",
    "SYMBOLS",
    "TERRAIN_SYMBOLS",
    "forest_from_dict",
    "forest_from_json",
    "forest_to_dict",
    "forest_to_json",
    "format_forest",
    "load_forest",
    "parse_forest",
    "save_forest",
]

#: The largest ``turns`` a forest may have (the engine keeps the turn in one byte).
MAX_TURNS = 255

#: Sheet symbol -> terrain. ``@``, ``H`` and ``Y`` are open trail; their positions are kept apart.
SYMBOLS: dict[str, Terrain] = {
    ".": Terrain.OPEN,
    ",": Terrain.UNDERGROWTH,
    "~": Terrain.PUDDLE,
    "T": Terrain.TREE,
    "@": Terrain.OPEN,
    "H": Terrain.OPEN,
    "Y": Terrain.OPEN,
    "S": Terrain.SQUIRREL,
    "D": Terrain.DOG,
    "I": Terrain.STICK,
    "^": Terrain.SCENT_N,
    ">": Terrain.SCENT_E,
    "v": Terrain.SCENT_S,
    "<": Terrain.SCENT_W,
}
#: The symbols of the three open-trail cells whose positions the forest keeps apart.
START_SYMBOL, HUMAN_SYMBOL, SHOUTER_SYMBOL = "@", "H", "Y"
_SYMBOL_LIST = " ".join(SYMBOLS)
#: Terrain -> sheet symbol: the inverse of :data:`SYMBOLS` without the start, human and shouter.
TERRAIN_SYMBOLS: dict[Terrain, str] = {
    terrain: symbol
    for symbol, terrain in SYMBOLS.items()
    if symbol not in (START_SYMBOL, HUMAN_SYMBOL, SHOUTER_SYMBOL)
}

_HEADER_KEYS = ("name", "turns", "shouter")
_DIGITS = re.compile(r"[0-9]+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_KEYS = ("name", "turns", "width", "height", "grid", "shouters")
_SHOUTER_KEYS = ("row", "col", "direction", "length")
_BOM = "\ufeff"


# -- small helpers -----------------------------------------------------------------------------
def _show(text: str, limit: int = 30) -> str:
    """``text`` quoted for a message, shortened when long."""
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)


def _small_int(token: str) -> int:
    """The value of an ASCII digit string, capped so that huge numbers stay cheap."""
    digits = token.lstrip("0")
    return int(digits) if 0 < len(digits) <= 9 else (0 if not digits else 10**9)


class _RowProblem(Exception):
    """A bad grid row: ``index`` is the 0-based character index of the offending place."""

    def __init__(self, index: int, expected: str, found: str):
        super().__init__(expected)
        self.index = index
        self.expected = expected
        self.found = found


def _split_row(text: str) -> list[str]:
    """The cell symbols of one grid row; raises :class:`_RowProblem`."""
    if not text:
        raise _RowProblem(0, f"a cell symbol ({_SYMBOL_LIST})", "an empty row")
    cells: list[str] = []
    i, n = 0, len(text)
    while True:
        ch = text[i]
        if ch not in SYMBOLS:
            if ch == " " and i == 0:
                expected = "a cell symbol at the start of the row (no leading space)"
            elif ch == " ":
                expected = "a cell symbol (exactly one space between cells)"
            else:
                expected = f"a cell symbol ({_SYMBOL_LIST})"
            raise _RowProblem(i, expected, repr(ch))
        cells.append(ch)
        if i + 1 == n:
            return cells
        if text[i + 1] != " ":
            raise _RowProblem(i + 1, "a single space between cells", repr(text[i + 1]))
        if i + 2 == n:
            raise _RowProblem(i + 1, "the row to end without a trailing space", "' '")
        i += 2


@dataclass(frozen=True)
class _ShoutSpec:
    """A shouter as read from the input, before it is checked against the grid."""

    row: int
    col: int
    direction: str
    length: int


class _Places:
    """Where things are in the input: maps grid cells and shouters to (line, column)."""

    def cell(self, r: int, c: int) -> tuple[int, int]:
        raise NotImplementedError

    def cell_name(self, r: int, c: int) -> str:
        line, column = self.cell(r, c)
        return f"line {line}, column {column}"

    def grid(self) -> tuple[int, int]:
        raise NotImplementedError

    def shouter(self, i: int, part: str) -> tuple[int, int]:
        raise NotImplementedError

    def shouter_name(self, i: int) -> str:
        raise NotImplementedError

    def missing_shouter(self, r: int, c: int) -> str:
        raise NotImplementedError


def _fail(expected: str, where: tuple[int, int], found: str | None = None) -> FormatError:
    return FormatError(expected, line=where[0], column=where[1], found=found)


def _assemble(
    rows: list[list[str]],
    specs: list[_ShoutSpec],
    turns: int,
    name: str,
    places: _Places,
) -> Forest:
    """Check the cross-references (``@``, ``H``, shouters and ``Y``) and build the forest."""
    start, human = _start_and_human(rows, places)
    _check_shouters(rows, specs, places)
    try:
        return Forest(
            width=len(rows[0]),
            height=len(rows),
            cells=tuple(tuple(SYMBOLS[s] for s in row) for row in rows),
            start=start,
            human=human,
            shouters=tuple(Shouter(s.row, s.col, s.direction, s.length) for s in specs),
            turns=turns,
            name=name,
        )
    except ForestError as err:  # not reachable after the checks above; kept as a safety net
        raise _fail(f"a valid forest ({err})", places.grid()) from err


def _start_and_human(rows: list[list[str]], places: _Places) -> tuple[Cell, Cell]:
    """The cells of the one ``@`` and the one ``H`` of the grid."""
    found_at: dict[str, Cell] = {}
    for r, row in enumerate(rows):
        for c, symbol in enumerate(row):
            if symbol not in "@H":
                continue
            if symbol in found_at:
                what = "the dog's start" if symbol == "@" else "the human"
                first = places.cell_name(*found_at[symbol])
                raise _fail(
                    f"exactly one '{symbol}' ({what})",
                    places.cell(r, c),
                    f"a second '{symbol}' (the first is at {first})",
                )
            found_at[symbol] = (r, c)
    for symbol, what in (("@", "the dog's start"), ("H", "the human")):
        if symbol not in found_at:
            raise _fail(f"one '{symbol}' ({what}) in the grid", places.grid(), "none")
    return found_at["@"], found_at["H"]


def _check_shouters(rows: list[list[str]], specs: list[_ShoutSpec], places: _Places) -> None:
    """Each shouter stands on its own ``Y`` inside the grid, and each ``Y`` has a shouter."""
    owner: dict[Cell, int] = {}
    for i, spec in enumerate(specs):
        cell = _shouter_cell(i, spec, rows, places)
        if cell in owner:
            raise _fail(
                "one shouter per 'Y' cell",
                places.shouter(i, "line"),
                f"a second shouter{places.shouter_name(i)} for the 'Y' at row {spec.row}, "
                f"col {spec.col} (the first is{places.shouter_name(owner[cell])})",
            )
        owner[cell] = i
    for r, row in enumerate(rows):
        for c, symbol in enumerate(row):
            if symbol == "Y" and (r, c) not in owner:
                raise _fail(
                    f"a shouter for this 'Y' (row {r}, col {c}): {places.missing_shouter(r, c)}",
                    places.cell(r, c),
                    "none",
                )


def _shouter_cell(i: int, spec: _ShoutSpec, rows: list[list[str]], places: _Places) -> Cell:
    """The cell of shouter ``i``: inside the grid, on a ``Y``."""
    height, width = len(rows), len(rows[0])
    if spec.row >= height:
        raise _fail(
            f"a shouter row from 0 to {height - 1} (the grid has {height} rows)",
            places.shouter(i, "row"),
            str(spec.row),
        )
    if spec.col >= width:
        raise _fail(
            f"a shouter column from 0 to {width - 1} (the grid has {width} columns)",
            places.shouter(i, "col"),
            str(spec.col),
        )
    symbol = rows[spec.row][spec.col]
    if symbol != "Y":
        raise _fail(
            f"the shouter{places.shouter_name(i)} to stand on a 'Y' cell",
            places.shouter(i, "row"),
            f"'{symbol}' at row {spec.row}, col {spec.col} "
            f"({places.cell_name(spec.row, spec.col)})",
        )
    return (spec.row, spec.col)


# -- the sheet ---------------------------------------------------------------------------------
class _SheetPlaces(_Places):
    def __init__(self, grid_line: int, row_lines: list[int], shout_places: list[_ShoutPlace]):
        self.grid_line = grid_line
        self.row_lines = row_lines
        self.shout_places = shout_places

    def cell(self, r: int, c: int) -> tuple[int, int]:
        return (self.row_lines[r], 2 * c + 1)

    def grid(self) -> tuple[int, int]:
        return (self.grid_line, 1)

    def shouter(self, i: int, part: str) -> tuple[int, int]:
        place = self.shout_places[i]
        column = {"row": place.row_column, "col": place.col_column, "line": 1}[part]
        return (place.line, column)

    def shouter_name(self, i: int) -> str:
        return f" on line {self.shout_places[i].line}"

    def missing_shouter(self, r: int, c: int) -> str:
        return f"a line 'shouter: {r} {c} DIR LEN' before 'grid:'"


@dataclass(frozen=True)
class _ShoutPlace:
    line: int
    row_column: int
    col_column: int


_SHOUTER_FIELDS = (
    "the shouter's row (0 to 15)",
    "the shouter's column (0 to 15)",
    "a direction N, E, S or W",
    f"an arrow length from 1 to {MAX_ARROW}",
)


def _shouter_field_ok(k: int, token: str) -> bool:
    """Whether ``token`` reads as field ``k`` of a shouter line (:data:`_SHOUTER_FIELDS`): a
    row or column index on the largest board, a direction, an arrow length."""
    if k in (0, 1):
        return bool(_DIGITS.fullmatch(token)) and _small_int(token) <= MAX_SIZE - 1
    if k == 2:
        return token in DIRECTIONS
    return bool(_DIGITS.fullmatch(token)) and 1 <= _small_int(token) <= MAX_ARROW


def _parse_shouter(value: str, line: int, vcol: int) -> tuple[_ShoutSpec, _ShoutPlace]:
    """The four fields of ``shouter: ROW COL DIR LEN`` (``vcol``: column of the value)."""
    pos = 0
    tokens: list[tuple[str, int]] = []
    for k, what in enumerate(_SHOUTER_FIELDS):
        if k > 0:
            if pos >= len(value):
                raise FormatError(
                    f"a space and {what}", line=line, column=vcol + pos, found="end of line"
                )
            pos += 1  # the single space separating the fields
        if pos >= len(value):
            raise FormatError(what, line=line, column=vcol + pos, found="end of line")
        if value[pos] == " ":
            raise FormatError(
                f"{what} (exactly one space between fields)",
                line=line,
                column=vcol + pos,
                found="' '",
            )
        end = value.find(" ", pos)
        end = len(value) if end < 0 else end
        token = value[pos:end]
        column = vcol + pos
        if not _shouter_field_ok(k, token):
            raise FormatError(what, line=line, column=column, found=_show(token))
        tokens.append((token, column))
        pos = end
    if pos < len(value):
        raise FormatError(
            "end of line after the arrow length",
            line=line,
            column=vcol + pos,
            found=_show(value[pos:]),
        )
    (row, row_column), (col, col_column), (direction, _), (length, _) = tokens
    spec = _ShoutSpec(_small_int(row), _small_int(col), direction, _small_int(length))
    return spec, _ShoutPlace(line, row_column, col_column)


def _lines(text: str) -> list[str]:
    """The lines of ``text`` without the BOM and their LF or CRLF ends (the last may be empty)."""
    if text.startswith(_BOM):
        text = text[1:]
    lines = text.split("\n")
    for index in range(len(lines) - 1):  # the last piece has no LF, so no CRLF
        if lines[index].endswith("\r"):
            lines[index] = lines[index][:-1]
    return lines


def _sheet_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    """The tokenizer: the 1-based number and the text of each line that is not a comment.

    A lone CR is refused where it stands; the lines are read lazily by the section parsers, so
    the first problem of the sheet, top to bottom, is the one reported.
    """
    for number, line in enumerate(lines, start=1):
        cr = line.find("\r")
        if cr >= 0:
            raise FormatError(
                "a line end LF or CRLF", line=number, column=cr + 1, found="a lone CR '\\r'"
            )
        if not line.startswith("#"):
            yield number, line


@dataclass
class _Headers:
    """What the header lines say (the defaults where a header is left out)."""

    name: str = ""
    turns: int = DEFAULT_TURNS
    specs: list[_ShoutSpec] = field(default_factory=list)
    shout_places: list[_ShoutPlace] = field(default_factory=list)
    grid_line: int = 0  # the line number of 'grid:' (0: the sheet has none)


def _read_headers(lines: Iterator[tuple[int, str]]) -> _Headers:
    """The header section: ``key: value`` lines and blank lines, up to the line ``grid:``."""
    headers = _Headers()
    seen: dict[str, int] = {}  # key -> the line of its first header
    for number, line in lines:
        if not line:
            continue
        if line == "grid:":
            headers.grid_line = number
            return headers
        key, value, vcol = _split_header(line, number, seen)
        if key == "name":
            headers.name = _name_value(value, number, vcol)
        elif key == "turns":
            headers.turns = _turns_value(value, number, vcol)
        else:
            spec, place = _parse_shouter(value, number, vcol)
            headers.specs.append(spec)
            headers.shout_places.append(place)
    return headers


def _split_header(line: str, number: int, seen: dict[str, int]) -> tuple[str, str, int]:
    """A header line's key, its value and the value's column (``key: value``, a known key)."""
    colon = line.find(":")
    if colon < 0:
        raise FormatError(
            "a header 'key: value' or the line 'grid:'", line=number, column=1, found=_show(line)
        )
    key = line[:colon]
    if key == "grid":
        raise FormatError(
            "end of line after 'grid:'",
            line=number,
            column=colon + 2,
            found=_show(line[colon + 1 :]),
        )
    if key not in _HEADER_KEYS:
        if key.lower() in (*_HEADER_KEYS, "grid"):
            expected = f"the lower-case key '{key.lower()}'"
        else:
            expected = "a header key name, turns or shouter, or the line 'grid:'"
        raise FormatError(expected, line=number, column=1, found=_show(key))
    if key in seen and key != "shouter":
        raise FormatError(
            f"at most one '{key}:' line",
            line=number,
            column=1,
            found=f"a second one (the first is on line {seen[key]})",
        )
    seen.setdefault(key, number)
    if line[colon + 1 : colon + 2] != " ":
        found = _show(line[colon + 1]) if colon + 1 < len(line) else "end of line"
        raise FormatError(f"a space after '{key}:'", line=number, column=colon + 2, found=found)
    value, vcol = line[colon + 2 :], colon + 3
    if not value:
        raise FormatError(f"a value after '{key}: '", line=number, column=vcol, found="end of line")
    return key, value, vcol


def _name_value(value: str, line: int, vcol: int) -> str:
    """The ``name:`` value, kept verbatim (UTF-8 text: no lone surrogate)."""
    bad = _SURROGATE.search(value)
    if bad:
        raise FormatError(
            "UTF-8 text",
            line=line,
            column=vcol + bad.start(),
            found=f"a lone surrogate {bad.group()!r}",
        )
    return value


def _turns_value(value: str, line: int, vcol: int) -> int:
    """The ``turns:`` value: a whole number from 1 to :data:`MAX_TURNS`."""
    if not _DIGITS.fullmatch(value) or not 1 <= _small_int(value) <= MAX_TURNS:
        raise FormatError(
            f"turns to be a whole number from 1 to {MAX_TURNS} (the engine's cap)",
            line=line,
            column=vcol,
            found=_show(value),
        )
    return _small_int(value)


def _read_grid(
    lines: Iterator[tuple[int, str]],
) -> tuple[list[list[str]], list[int], tuple[int, int] | None]:
    """The grid section: its rows, their line numbers and where the blank line ending it is
    (None: the grid runs to the end of the sheet). Blank lines before the first row are skipped.
    """
    rows: list[list[str]] = []
    row_lines: list[int] = []
    for number, line in lines:
        if not line:
            if rows:
                return rows, row_lines, (number, 1)
            continue
        rows.append(_grid_row(line, number, rows))
        row_lines.append(number)
    return rows, row_lines, None


def _grid_row(line: str, number: int, rows: list[list[str]]) -> list[str]:
    """The cells of one grid row, as wide as the first row (``rows``: the rows before it)."""
    if len(rows) == MAX_SIZE:
        raise FormatError(
            f"at most {MAX_SIZE} grid rows (a blank line ends the grid)",
            line=number,
            column=1,
            found=f"row {MAX_SIZE + 1}",
        )
    try:
        cells = _split_row(line)
    except _RowProblem as problem:
        raise FormatError(
            problem.expected, line=number, column=problem.index + 1, found=problem.found
        ) from None
    if rows and len(cells) != len(rows[0]):
        width = len(rows[0])
        column = 2 * width + 1 if len(cells) > width else len(line) + 1
        raise FormatError(
            f"{width} cells, as in the first grid row",
            line=number,
            column=column,
            found=f"{len(cells)} cells",
        )
    if not rows and len(cells) > MAX_SIZE:
        raise FormatError(
            f"at most {MAX_SIZE} cells in a row",
            line=number,
            column=2 * MAX_SIZE + 1,
            found=f"{len(cells)} cells",
        )
    if not rows and len(cells) < MIN_SIZE:
        raise FormatError(
            f"at least {MIN_SIZE} cells in a row",
            line=number,
            column=len(line) + 1,
            found=f"{len(cells)} cell",
        )
    return cells


def _read_after_grid(lines: Iterator[tuple[int, str]]) -> None:
    """After the grid's blank line: only blank (or comment) lines."""
    for number, line in lines:
        if line:
            raise FormatError(
                "only blank or comment lines after the grid (a blank line ends the grid)",
                line=number,
                column=1,
                found=_show(line),
            )


def parse_forest(text: str) -> Forest:
    """Read a ``.forest`` sheet (docs/rules/dog.md §9) into a validated :class:`Forest`.

    Raises :class:`~solver.errors.FormatError` (with the 1-based line and column of the problem)
    for every bad sheet, and :class:`TypeError` if ``text`` is not a ``str``. The sheet's lines
    (:func:`_sheet_lines`) go through three section parsers in turn: the headers, the grid and
    what follows it; then the cross-references are checked (:func:`_assemble`).

    >>> forest = parse_forest("name: two rows\\nshouter: 1 0 E 2\\ngrid:\\n@ . H\\nY T .\\n")
    >>> forest.name, forest.width, forest.height, forest.start, forest.human
    ('two rows', 3, 2, (0, 0), (0, 2))
    >>> forest.shouters
    (Shouter(row=1, col=0, direction='E', length=2),)
    >>> parse_forest("grid:\\n@ x H\\n. T .\\n")
    Traceback (most recent call last):
    ...
    solver.errors.FormatError: line 2, column 3: expected a cell symbol (. , ~ T @ H Y S D I ^ > v <), found 'x'
    """  # noqa: E501
    if not isinstance(text, str):
        raise TypeError(f"parse_forest() takes the sheet as str, not {type(text).__name__}")
    lines = _lines(text)
    end_of_file = (len(lines), len(lines[-1]) + 1)
    sheet = _sheet_lines(lines)
    headers = _read_headers(sheet)
    if not headers.grid_line:
        raise _fail("a line 'grid:' after the headers", end_of_file, "end of file")
    rows, row_lines, grid_end = _read_grid(sheet)
    _read_after_grid(sheet)
    if not rows:
        raise _fail("a grid row after 'grid:'", end_of_file, "end of file")
    if len(rows) < MIN_SIZE:
        raise _fail(f"at least {MIN_SIZE} grid rows", grid_end or end_of_file, f"{len(rows)} row")
    places = _SheetPlaces(headers.grid_line, row_lines, headers.shout_places)
    return _assemble(rows, headers.specs, headers.turns, headers.name, places)


def _row_symbols(forest: Forest) -> list[str]:
    """The grid rows of ``forest`` as sheet text (single spaces between symbols)."""
    symbols = [[TERRAIN_SYMBOLS[Terrain(v)] for v in row] for row in forest.cells]
    for shouter in forest.shouters:
        symbols[shouter.row][shouter.col] = SHOUTER_SYMBOL
    symbols[forest.start[0]][forest.start[1]] = START_SYMBOL
    symbols[forest.human[0]][forest.human[1]] = HUMAN_SYMBOL
    return [" ".join(row) for row in symbols]


def format_forest(forest: Forest) -> str:
    """The canonical ``.forest`` sheet of ``forest`` (LF line ends, a final newline).

    The ``name:`` line appears only for a non-empty name, ``turns:`` only when it is not 20, then
    one ``shouter:`` line per shouter in order, ``grid:`` and the rows. Raises
    :class:`~solver.errors.ForestError` for a name that a sheet cannot hold (a line break or a
    lone surrogate).

    >>> from solver.games.dog.forest import Forest, Terrain
    >>> grid = [[Terrain.OPEN, Terrain.TREE, Terrain.OPEN], [Terrain.OPEN] * 3]
    >>> print(format_forest(Forest(3, 2, grid, start=(1, 0), human=(0, 2), turns=9)), end="")
    turns: 9
    grid:
    . T H
    @ . .
    """
    name = forest.name or ""
    if "\n" in name or "\r" in name or _SURROGATE.search(name):
        raise ForestError(
            f"the name {name!r} cannot be written to a .forest sheet "
            "(it holds a line break or a lone surrogate)"
        )
    lines: list[str] = []
    if name:
        lines.append(f"name: {name}")
    if forest.turns != DEFAULT_TURNS:
        lines.append(f"turns: {int(forest.turns)}")
    for s in forest.shouters:
        lines.append(f"shouter: {int(s.row)} {int(s.col)} {s.direction} {int(s.length)}")
    lines.append("grid:")
    lines.extend(_row_symbols(forest))
    return "\n".join(lines) + "\n"


def load_forest(path: str | os.PathLike[str]) -> Forest:
    """Read a ``.forest`` file (UTF-8, an optional byte-order mark).

    Bad UTF-8 raises :class:`~solver.errors.FormatError` at the line and column of the bad byte;
    a missing, unreadable or oversized file raises :class:`~solver.errors.OptionError` naming it.

    >>> import tempfile
    >>> from solver import puzzles
    >>> load_forest(puzzles.path("dog/tiny-example")).shouters
    (Shouter(row=1, col=4, direction='W', length=3),)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "bad.forest").write_bytes(b"grid:\\n@ \\xff H\\n")
    ...     load_forest(Path(tmp) / "bad.forest")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.FormatError: ...bad.forest: line 2, column 3: expected UTF-8 text, found the ...
    """
    from solver.files import read_bytes

    data = read_bytes(path, "forest file")
    try:
        return parse_forest(_decode(data))
    except FormatError as exc:  # the error names the file
        raise exc.in_file(os.fspath(path)) from None


def _decode(data: bytes) -> str:
    """``data`` decoded as UTF-8; a bad byte raises :class:`FormatError` at its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        prefix = data[: err.start]
        line = prefix.count(b"\n") + 1
        head = prefix[prefix.rfind(b"\n") + 1 :].decode("utf-8")
        if line == 1 and head.startswith(_BOM):
            head = head[1:]
        raise FormatError(
            "UTF-8 text",
            line=line,
            column=len(head) + 1,
            found=f"the byte 0x{data[err.start]:02x}",
        ) from None


def save_forest(forest: Forest, path: str | os.PathLike[str]) -> None:
    """Write ``forest`` to ``path`` as its canonical sheet (UTF-8, LF line ends).

    >>> import tempfile
    >>> from solver import puzzles
    >>> forest = puzzles.load("dog/tiny-example")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     save_forest(forest, Path(tmp) / "copy.forest")
    ...     load_forest(Path(tmp) / "copy.forest") == forest
    True
    """
    Path(path).write_bytes(format_forest(forest).encode("utf-8"))


# -- the JSON form -----------------------------------------------------------------------------
class _JsonPlaces(_Places):
    def cell(self, r: int, c: int) -> tuple[int, int]:
        return (r + 1, 2 * c + 1)

    def cell_name(self, r: int, c: int) -> str:
        return f'"grid"[{r}] column {2 * c + 1}'

    def grid(self) -> tuple[int, int]:
        return (1, 1)

    def shouter(self, i: int, part: str) -> tuple[int, int]:
        return (1, 1)

    def shouter_name(self, i: int) -> str:
        return f' "shouters"[{i}]'

    def missing_shouter(self, r: int, c: int) -> str:
        return f'an entry of "shouters" with "row": {r}, "col": {c}'


def _describe(value: Any) -> str:
    """A short JSON-like picture of ``value`` for a message."""
    if isinstance(value, str):
        return json.dumps(value[:30]) + ("..." if len(value) > 30 else "")
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**30 else "a huge integer"
        return text
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return f"a {type(value).__name__}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _schema(expected: str, value: Any) -> FormatError:
    return FormatError(expected, line=1, column=1, found=_describe(value))


def _check_keys(data: Mapping[Any, Any], allowed: Sequence[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            names = ", ".join(f'"{k}"' for k in allowed)
            raise FormatError(
                f"only the keys {names} in {where}",
                line=1,
                column=1,
                found=_describe(key) if isinstance(key, str) else repr(key),
            )


def forest_to_dict(forest: Forest) -> dict[str, Any]:
    """The JSON form of ``forest`` as plain Python data.

    >>> from solver import puzzles
    >>> forest = puzzles.load("dog/tiny-example")
    >>> data = forest_to_dict(forest)
    >>> data["grid"][1], data["shouters"]
    ('. , ~ . Y .', [{'row': 1, 'col': 4, 'direction': 'W', 'length': 3}])
    >>> data["name"], data["turns"], data["width"], data["height"]
    ('tiny-example', 20, 6, 5)
    """
    return {
        "name": forest.name or "",
        "turns": int(forest.turns),
        "width": forest.width,
        "height": forest.height,
        "grid": _row_symbols(forest),
        "shouters": [
            {
                "row": int(s.row),
                "col": int(s.col),
                "direction": s.direction,
                "length": int(s.length),
            }
            for s in forest.shouters
        ],
    }


def _json_shouters(data: Any) -> list[_ShoutSpec]:
    if not isinstance(data, list):
        raise _schema('"shouters" to be an array of shouter objects', data)
    specs: list[_ShoutSpec] = []
    for i, item in enumerate(data):
        where = f'"shouters"[{i}]'
        if not isinstance(item, Mapping):
            raise _schema(f"{where} to be an object", item)
        _check_keys(item, _SHOUTER_KEYS, where)
        for key in _SHOUTER_KEYS:
            if key not in item:
                raise FormatError(f'{where} to have "{key}"', line=1, column=1, found="none")
        row, col, direction, length = (item[k] for k in _SHOUTER_KEYS)
        for key, value in (("row", row), ("col", col)):
            if not _is_int(value) or value < 0:
                raise _schema(f'{where}["{key}"] to be an integer ≥ 0', value)
        if not isinstance(direction, str) or direction not in DIRECTIONS:
            raise _schema(f'{where}["direction"] to be "N", "E", "S" or "W"', direction)
        if not _is_int(length) or not 1 <= length <= MAX_ARROW:
            raise _schema(f'{where}["length"] to be an integer from 1 to {MAX_ARROW}', length)
        specs.append(_ShoutSpec(row, col, direction, length))
    return specs


def _json_row(r: int, text: Any, rows: list[list[str]]) -> list[str]:
    """``"grid"[r]`` as its cell symbols: a string of cells, as many as the rows before it
    (``rows``) have (the first: a size the format allows)."""
    if not isinstance(text, str):
        raise FormatError(
            f'"grid"[{r}] to be a string of cell symbols',
            line=r + 1,
            column=1,
            found=_describe(text),
        )
    try:
        cells = _split_row(text)
    except _RowProblem as problem:
        raise FormatError(
            f'{problem.expected} in "grid"[{r}]',
            line=r + 1,
            column=problem.index + 1,
            found=problem.found,
        ) from None
    if r == 0 and not MIN_SIZE <= len(cells) <= MAX_SIZE:
        raise FormatError(
            f'{MIN_SIZE} to {MAX_SIZE} cells in "grid"[0]',
            line=1,
            column=min(len(text), 2 * MAX_SIZE) + 1,
            found=f"{len(cells)} cells",
        )
    if r > 0 and len(cells) != len(rows[0]):
        width = len(rows[0])
        column = 2 * width + 1 if len(cells) > width else len(text) + 1
        raise FormatError(
            f'{width} cells in "grid"[{r}], as in "grid"[0]',
            line=r + 1,
            column=column,
            found=f"{len(cells)} cells",
        )
    return cells


def forest_from_dict(data: Any) -> Forest:
    """Build a forest from its JSON form (see :func:`forest_to_dict`).

    ``grid`` is required; ``name``, ``turns`` and ``shouters`` default to ``""``, 20 and none;
    ``width`` and ``height``, when given, must match the grid. Every problem raises
    :class:`~solver.errors.FormatError`.

    >>> forest_from_dict({"grid": ["@ . H", ". T ."], "turns": 5}).turns
    5
    >>> forest_from_dict({"grid": ["@ . H", ". T ."], "turns": "x"})
    Traceback (most recent call last):
    ...
    solver.errors.FormatError: line 1, column 1: expected "turns" to be an integer from 1 to 255, found "x"
    """  # noqa: E501
    if not isinstance(data, Mapping):
        raise _schema('a JSON object with "grid" (and "name", "turns", "shouters")', data)
    _check_keys(data, _JSON_KEYS, "a forest")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise _schema('"name" to be a string', name)
    turns = data.get("turns", DEFAULT_TURNS)
    if not _is_int(turns) or not 1 <= turns <= MAX_TURNS:
        raise _schema(f'"turns" to be an integer from 1 to {MAX_TURNS}', turns)
    if "grid" not in data:
        raise FormatError('"grid" (an array of row strings)', line=1, column=1, found="none")
    grid = data["grid"]
    if not isinstance(grid, list):
        raise _schema('"grid" to be an array of row strings', grid)
    if not MIN_SIZE <= len(grid) <= MAX_SIZE:
        raise FormatError(
            f'"grid" to have {MIN_SIZE} to {MAX_SIZE} rows',
            line=1,
            column=1,
            found=f"{len(grid)} rows",
        )
    rows: list[list[str]] = []
    for r, text in enumerate(grid):
        rows.append(_json_row(r, text, rows))
    for key, size in (("width", len(rows[0])), ("height", len(rows))):
        if key in data and (not _is_int(data[key]) or data[key] != size):
            raise _schema(f'"{key}" to match the grid ({size})', data[key])
    specs = _json_shouters(data.get("shouters", []))
    return _assemble(rows, specs, turns, name, _JsonPlaces())


def forest_to_json(forest: Forest) -> str:
    """The JSON form of ``forest`` as text (ASCII, one line).

    >>> from solver import puzzles
    >>> forest = puzzles.load("dog/tiny-example")
    >>> forest_to_json(forest)[:45]
    '{"name": "tiny-example", "turns": 20, "width"'
    """
    return json.dumps(forest_to_dict(forest))


def forest_from_json(text: str) -> Forest:
    """Read a forest from its JSON text (see :func:`forest_from_dict`).

    JSON syntax errors raise :class:`~solver.errors.FormatError` at the decoder's line and column.

    >>> forest_from_json('{"grid": ["@ . H", ". T ."]}').human
    (0, 2)
    >>> forest_from_json('{"grid": ["@ . H",\\n ". T ."')
    Traceback (most recent call last):
    ...
    solver.errors.FormatError: line 2, column 9: expected valid JSON (Expecting ',' delimiter), found end of input
    """  # noqa: E501
    if not isinstance(text, str):
        raise TypeError(f"forest_from_json() takes the JSON as str, not {type(text).__name__}")
    if text.startswith(_BOM):
        text = text[1:]
    data = parse_json(text, "valid JSON")
    return forest_from_dict(data)
