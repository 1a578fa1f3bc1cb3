"""Tests of the ``.forest`` sheet format and its JSON form (docs/rules/dog.md §9, §10)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import ForestError, FormatError
from solver.games.dog.forest import DIRECTIONS, Forest, Shouter, Terrain
from solver.games.dog.format import (
    _decode,
    forest_from_dict,
    forest_from_json,
    forest_to_dict,
    forest_to_json,
    format_forest,
    load_forest,
    parse_forest,
    save_forest,
)

PUZZLES = Path(__file__).resolve().parents[3] / "puzzles"

# the curated tiny-example (the format's example in solver/games/dog/format.py), its comment line
# aside
TINY = (PUZZLES / "dog" / "tiny-example.forest").read_text(encoding="utf-8").split("\n", 1)[1]
# Line numbers in TINY: 1 name, 2 shouter, 3 grid:, 4..8 the rows.


# -- strategies --------------------------------------------------------------------------------
NAME_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n")


@st.composite
def forests(draw: st.DrawFn) -> Forest:
    width = draw(st.integers(2, 16))
    height = draw(st.integers(2, 16))
    cells = [[draw(st.sampled_from(list(Terrain))) for _ in range(width)] for _ in range(height)]
    spots = draw(st.lists(st.integers(0, width * height - 1), min_size=2, max_size=6, unique=True))
    positions = [divmod(spot, width) for spot in spots]
    for r, c in positions:
        cells[r][c] = Terrain.OPEN
    shouters = [
        Shouter(r, c, draw(st.sampled_from(DIRECTIONS)), draw(st.integers(1, 6)))
        for r, c in positions[2:]
    ]
    return Forest(
        width=width,
        height=height,
        cells=cells,
        start=positions[0],
        human=positions[1],
        shouters=shouters,
        turns=draw(st.one_of(st.just(20), st.integers(1, 255))),
        name=draw(st.one_of(st.just(""), st.text(NAME_CHARS, max_size=20))),
    )


# -- round trips and accepted inputs -----------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(forests())
def test_sheet_round_trip(forest: Forest) -> None:
    text = format_forest(forest)
    parsed = parse_forest(text)
    assert parsed == forest
    assert parsed.shouters == forest.shouters  # header order kept
    assert format_forest(parsed) == text


@settings(max_examples=100, deadline=None)
@given(forests())
def test_json_round_trip(forest: Forest) -> None:
    assert forest_from_dict(forest_to_dict(forest)) == forest
    text = forest_to_json(forest)
    assert forest_from_json(text) == forest
    assert json.loads(text) == forest_to_dict(forest)


def test_example_file() -> None:
    forest = load_forest(PUZZLES / "dog" / "tiny-example.forest")
    assert forest == parse_forest(TINY)
    assert format_forest(forest) == TINY
    assert forest.name == "tiny-example"
    assert (forest.width, forest.height, forest.turns) == (6, 5, 20)
    assert (forest.start, forest.human) == ((4, 2), (0, 3))
    assert forest.shouters == (Shouter(1, 4, "W", 3),)
    assert forest.terrain((2, 3)) == Terrain.SQUIRREL
    assert forest.terrain((3, 1)) == Terrain.SCENT_E
    assert forest.terrain((1, 4)) == Terrain.OPEN  # the Y


def test_every_symbol() -> None:
    text = "grid:\n. , ~ T @ H Y\nS D I ^ > v <\n"
    forest = parse_forest("shouter: 0 6 S 1\n" + text)
    assert [list(row) for row in forest.cells] == [
        [0, 1, 2, 3, 0, 0, 0],
        [4, 9, 10, 5, 6, 7, 8],  # S D I ^ > v <
    ]


def test_bom_and_crlf_accepted() -> None:
    expected = parse_forest(TINY)
    assert parse_forest("\ufeff" + TINY) == expected
    assert parse_forest(TINY.replace("\n", "\r\n")) == expected
    assert parse_forest("\ufeff" + TINY.replace("\n", "\r\n")) == expected
    assert parse_forest(TINY.rstrip("\n")) == expected  # no final newline
    data = ("\ufeff" + TINY.replace("\n", "\r\n")).encode("utf-8")
    assert parse_forest(_decode(data)) == expected


def test_comments_blank_lines_and_headers() -> None:
    text = (
        "# a comment\n\nturns: 7\n# another\nshouter: 1 4 W 3\n\nname: x y  \ngrid:\n\n# c\n"
        "T . . H . .\n. , ~ . Y .\n# inside the grid\n. . T S . ,\n. > . . , .\n. . @ . . T\n"
        "\n# after\n\n"
    )
    forest = parse_forest(text)
    assert forest == parse_forest(TINY).replace(name="x y  ", turns=7)
    assert format_forest(forest).startswith("name: x y  \nturns: 7\nshouter: 1 4 W 3\ngrid:\n")


def test_shouters_keep_header_order() -> None:
    text = "shouter: 1 1 N 2\nshouter: 0 0 E 3\ngrid:\nY @ H\n. Y .\n"
    forest = parse_forest(text)
    assert forest.shouters == (Shouter(1, 1, "N", 2), Shouter(0, 0, "E", 3))
    assert format_forest(forest) == text


def test_turns_bounds_accepted() -> None:
    assert parse_forest("turns: 1\n" + TINY).turns == 1
    assert parse_forest("turns: 255\n" + TINY).turns == 255
    assert format_forest(parse_forest("turns: 20\n" + TINY)) == TINY


def test_save_and_load(tmp_path: Path) -> None:
    forest = parse_forest(TINY).replace(turns=9, name="é ü")
    path = tmp_path / "f.forest"
    save_forest(forest, path)
    assert path.read_bytes() == format_forest(forest).encode("utf-8")
    assert load_forest(path) == forest
    assert load_forest(str(path)) == forest


def test_format_rejects_unwritable_names() -> None:
    for name in ("a\nb", "a\r", "\ud800"):
        with pytest.raises(ForestError, match="cannot be written"):
            format_forest(parse_forest(TINY).replace(name=name))


def test_parse_wants_str() -> None:
    with pytest.raises(TypeError):
        parse_forest(TINY.encode())  # type: ignore[arg-type]


# -- one test per error kind -------------------------------------------------------------------
def _swap(old: str, new: str) -> str:
    assert TINY.count(old) == 1, old
    return TINY.replace(old, new)


SYMBOLS_TEXT = "a cell symbol (. , ~ T @ H Y S D I ^ > v <)"
ERRORS = {
    "unknown symbol": (_swap("T S", "T x"), 6, 7, f"expected {SYMBOLS_TEXT}, found 'x'"),
    "ragged row, long": (_swap(". . T S . ,", ". . T S . , ."), 6, 13, "expected 6 cells"),
    "ragged row, short": (_swap(". . T S . ,", ". . T S ."), 6, 10, "found 5 cells"),
    "missing @": (_swap("@", "."), 3, 1, "expected one '@'"),
    "duplicate @": (_swap(". > .", ". > @"), 8, 5, "a second '@' (the first is at line 7"),
    "missing H": (_swap("H", "."), 3, 1, "expected one 'H'"),
    "duplicate H": (_swap("T . . H", "T H . H"), 4, 7, "a second 'H' (the first is at line 4"),
    "shouter not on a Y": (_swap("1 4 W", "1 3 W"), 2, 10, "on a 'Y' cell, found '.'"),
    "Y without shouter": (_swap(". . T S", ". Y T S"), 6, 3, "a shouter for this 'Y'"),
    "two shouters on one Y": (
        _swap("shouter: 1 4 W 3\n", "shouter: 1 4 W 3\nshouter: 1 4 N 2\n"),
        3,
        1,
        "one shouter per 'Y' cell, found a second shouter on line 3",
    ),
    "too narrow": ("grid:\n@\nH\n", 2, 2, "expected at least 2 cells in a row, found 1"),
    "too wide": ("grid:\n" + " ".join("@H" + "." * 15) + "\n. .\n", 2, 33, "at most 16 cells"),
    "too short": ("grid:\n@ H\n", 3, 1, "expected at least 2 grid rows, found 1"),
    "too short, blank after": ("grid:\n@ H\n\n", 3, 1, "at least 2 grid rows"),
    "too tall": ("grid:\n@ H\n" + ". .\n" * 16, 18, 1, "expected at most 16 grid rows"),
    "turns 0": ("turns: 0\n" + TINY, 1, 8, "from 1 to 255 (the engine's cap), found '0'"),
    "turns -1": ("turns: -1\n" + TINY, 1, 8, "found '-1'"),
    "turns abc": ("turns: abc\n" + TINY, 1, 8, "found 'abc'"),
    "turns 256": ("turns: 256\n" + TINY, 1, 8, "found '256'"),
    "turns huge": ("turns: " + "9" * 5000 + "\n" + TINY, 1, 8, "whole number from 1 to 255"),
    "turns twice": ("turns: 5\nturns: 6\n" + TINY, 2, 1, "at most one 'turns:' line"),
    "name twice": ("name: a\n" + TINY, 2, 1, "a second one (the first is on line 1)"),
    "empty name": ("name: \n" + TINY, 1, 7, "a value after 'name: ', found end of line"),
    "no space after colon": ("turns:5\n" + TINY, 1, 7, "a space after 'turns:', found '5'"),
    "unknown key": ("colour: red\n" + TINY, 1, 1, "a header key name, turns or shouter"),
    "upper-case key": ("Name: red\n" + TINY, 1, 1, "the lower-case key 'name', found 'Name'"),
    "upper-case grid": (_swap("grid:", "GRID:"), 3, 1, "the lower-case key 'grid'"),
    "not a header": ("hello\n" + TINY, 1, 1, "a header 'key: value' or the line 'grid:'"),
    "text after grid:": (_swap("grid:", "grid: x"), 3, 6, "end of line after 'grid:'"),
    "double space": (_swap(". , ~", ".  , ~"), 5, 3, "exactly one space between cells"),
    "leading space": (_swap(". , ~", " . , ~"), 5, 1, "no leading space), found ' '"),
    "trailing space": (_swap(". . @ . . T", ". . @ . . T "), 8, 12, "without a trailing space"),
    "tab": (_swap(". , ~", ".\t, ~"), 5, 2, "a single space between cells, found '\\t'"),
    "missing space": (_swap(". , ~", "., ~"), 5, 2, "a single space between cells, found ','"),
    "content after the grid": (TINY + "\n. . . . . .\n", 10, 1, "only blank or comment lines"),
    "no grid: line": ("name: x\n", 2, 1, "expected a line 'grid:' after the headers"),
    "grid rows without grid:": (TINY[TINY.index("T . .") :], 1, 1, "a header 'key: value'"),
    "no rows": ("name: x\ngrid:\n\n", 4, 1, "a grid row after 'grid:', found end of file"),
    "empty file": ("", 1, 1, "a line 'grid:' after the headers, found end of file"),
    "only a BOM": ("\ufeff", 1, 1, "found end of file"),
    "bad direction": (_swap("W 3", "Q 3"), 2, 14, "a direction N, E, S or W, found 'Q'"),
    "lower-case direction": (_swap("W 3", "w 3"), 2, 14, "found 'w'"),
    "length 0": (_swap("W 3", "W 0"), 2, 16, "an arrow length from 1 to 6, found '0'"),
    "length 7": (_swap("W 3", "W 7"), 2, 16, "an arrow length from 1 to 6, found '7'"),
    "shouter column out of grid": (_swap("1 4 W", "1 6 W"), 2, 12, "from 0 to 5"),
    "shouter row out of grid": (_swap("1 4 W", "5 4 W"), 2, 10, "from 0 to 4"),
    "shouter row beyond 15": (_swap("1 4 W", "16 4 W"), 2, 10, "row (0 to 15), found '16'"),
    "shouter negative row": (_swap("1 4 W", "-1 4 W"), 2, 10, "found '-1'"),
    "shouter field missing": (_swap("W 3", "W"), 2, 15, "a space and an arrow length"),
    "shouter extra field": (_swap("W 3", "W 3 x"), 2, 17, "end of line after the arrow length"),
    "shouter double space": (_swap("1 4 W", "1  4 W"), 2, 12, "exactly one space between fields"),
    "lone CR": (_swap("grid:\n", "grid:\r"), 3, 6, "a line end LF or CRLF"),
    "BOM not at the start": (_swap("T . . H", "\ufeffT . . H"), 4, 1, "found '\\ufeff'"),
}


@pytest.mark.parametrize("text, line, column, fragment", ERRORS.values(), ids=ERRORS.keys())
def test_errors(text: str, line: int, column: int, fragment: str) -> None:
    assert isinstance(_refusal(parse_forest, text, line, column, fragment), ValueError)


def _refusal(
    parse: Callable[[str], object], text: str, line: int, column: int, fragment: str
) -> FormatError:
    """The :class:`FormatError` ``parse(text)`` raises, checked to point at ``line``, ``column``
    and to say ``fragment``."""
    with pytest.raises(FormatError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (line, column), str(err)
    assert fragment in str(err)
    assert str(err).startswith(f"line {line}, column {column}: expected ")
    return err


def test_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.forest"
    path.write_bytes(TINY.replace(". , ~", ". \xe9 ~").encode("latin-1"))
    with pytest.raises(FormatError) as info:
        load_forest(path)
    assert (info.value.line, info.value.column) == (5, 3)
    assert "expected UTF-8 text, found the byte 0xe9" in str(info.value)
    # with a BOM and a multi-byte character before the bad byte, columns count characters
    data = b"\xef\xbb\xbf# \xc3\xa9\xc3\xa9 \xff\n"
    with pytest.raises(FormatError) as info:
        _decode(data)
    assert (info.value.line, info.value.column) == (1, 6)


# -- fuzzing: only FormatError, with a sane position -------------------------------------------
def _check_only_format_error(text: str) -> None:
    try:
        forest = parse_forest(text)
    except FormatError as err:
        body = text[1:] if text.startswith("\ufeff") else text
        pieces = body.split("\n")
        assert 1 <= err.line <= len(pieces), (err, text)
        assert 1 <= err.column <= len(pieces[err.line - 1]) + 1, (err, text)
        assert str(err).startswith(f"line {err.line}, column {err.column}: expected ")
    else:
        assert isinstance(forest, Forest)
        if "\r" not in forest.name:
            assert parse_forest(format_forest(forest)) == forest


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list(".,~T@HYSDI^>v<#:\n\r\t 0123456789NESWx"))) | st.text()
)
def test_fuzz_text(text: str) -> None:
    _check_only_format_error(text)
    _check_only_format_error("grid:\n" + text)
    _check_only_format_error("shouter: 1 4 W 3\ngrid:\n" + text)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_bytes(data: bytes) -> None:
    try:
        text = _decode(data)
    except FormatError as err:
        assert err.line >= 1 and err.column >= 1
        return
    _check_only_format_error(text)


MUTATION_CHARS = list(".,~T@HYSDI^>v<#: \t\r\n0123456789NESWnameturnsshoutergrid-\ufeffé")


def _mutate(text: str, rng: random.Random) -> str:
    """One to three random edits: characters inserted, deleted, replaced; lines moved."""
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(6)
        i = rng.randrange(len(text) + 1)
        if op == 0:
            text = text[:i] + rng.choice(MUTATION_CHARS) + text[i:]
        elif op == 1 and text:
            text = text[:i] + text[i + 1 :]
        elif op == 2 and text:
            text = text[:i] + rng.choice(MUTATION_CHARS) + text[i + 1 :]
        else:
            lines = text.split("\n")
            j, k = rng.randrange(len(lines)), rng.randrange(len(lines))
            if op == 3:
                lines.insert(k, lines[j])
            elif op == 4:
                del lines[j]
            else:
                lines[j], lines[k] = lines[k], lines[j]
            text = "\n".join(lines)
    return text


def test_fuzz_mutations_seeded() -> None:
    rng = random.Random(1234)
    seeds = [TINY, "turns: 9\n" + TINY, "shouter: 1 1 N 2\nshouter: 0 0 E 3\ngrid:\nY @ H\n. Y .\n"]
    gen = random.Random(99)
    for _ in range(5):
        width, height = gen.randint(2, 16), gen.randint(2, 16)
        cells = [[Terrain(gen.randrange(11)) for _ in range(width)] for _ in range(height)]
        cells[0][0] = cells[height - 1][width - 1] = cells[0][width - 1] = Terrain.OPEN
        forest = Forest(
            width=width,
            height=height,
            cells=cells,
            start=(0, 0),
            human=(height - 1, width - 1),
            shouters=[Shouter(0, width - 1, "S", 3)],
            turns=gen.randint(1, 255),
        )
        seeds.append(format_forest(forest))
    accepted = 0
    for _ in range(4000):
        text = _mutate(rng.choice(seeds), rng)
        if rng.random() < 0.2:
            text = text.replace("\n", "\r\n")
        try:
            parse_forest(text)
            accepted += 1
        except FormatError:
            pass
        _check_only_format_error(text)
    assert 0 < accepted < 4000  # some mutations stay valid (comments, blank lines), most do not


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_fuzz_mutations_hypothesis(data: st.DataObject) -> None:
    seed = data.draw(st.integers(0, 2**32 - 1))
    text = _mutate(TINY, random.Random(seed))
    _check_only_format_error(text)
    raw = text.encode("utf-8", "surrogatepass")
    cut = data.draw(st.integers(0, len(raw)))
    byte = data.draw(st.integers(0, 255))
    mangled = raw[:cut] + bytes([byte]) + raw[cut + 1 :]
    try:
        decoded = _decode(mangled)
    except FormatError:
        return
    _check_only_format_error(decoded)


# -- JSON errors -------------------------------------------------------------------------------
GOOD = forest_to_dict(parse_forest(TINY))


def _with(**changes: object) -> dict:
    data = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


def _refused(fragment: str, **changes: object) -> tuple[str, int, int, str]:
    """A case of :data:`JSON_ERRORS`: the JSON of ``_with(**changes)``, all on line 1, refused
    at line 1, column 1 (a value's error points at the document) with ``fragment`` in the
    message."""
    return json.dumps(_with(**changes)), 1, 1, fragment


def test_json_defaults() -> None:
    minimal = {"grid": GOOD["grid"], "shouters": GOOD["shouters"]}
    assert forest_from_dict(minimal) == parse_forest(TINY).replace(name="")
    assert forest_from_dict(_with(width=None, height=None)) == parse_forest(TINY)


JSON_ERRORS = {
    "syntax": ('{"grid": [\n  "@ . H",\n  ". T ." ', 3, 11, "expected valid JSON"),
    "trailing comma": ('{"grid": ["@ . H", ". T .",]}', 1, 28, "expected valid JSON"),
    "empty": ("", 1, 1, "expected valid JSON"),
    "deep nesting": ("[" * 100_000, 1, 1, "expected valid JSON"),
    "huge number": ('{"turns": ' + "9" * 5000 + "}", 1, 1, "expected valid JSON"),
    "not an object": ("[1, 2]", 1, 1, "expected a JSON object"),
    "unknown key": _refused('found "turn"', turn=5),
    "missing grid": _refused('expected "grid"', grid=None),
    "grid not a list": _refused('expected "grid" to be an array', grid="T ."),
    "turns string": _refused('expected "turns" to be an integer', turns="x"),
    "turns 0": _refused("from 1 to 255, found 0", turns=0),
    "turns 256": _refused("from 1 to 255, found 256", turns=256),
    "turns true": _refused("found true", turns=True),
    "turns float": _refused("found 2.0", turns=2.0),
    "name not a string": _refused('"name" to be a string, found 3', name=3),
    "grid symbol": (
        json.dumps(_with(grid=[*GOOD["grid"][:2], ". . T x . ,", *GOOD["grid"][3:]])),
        3,
        7,
        "in \"grid\"[2], found 'x'",
    ),
    "grid row not a string": (json.dumps(_with(grid=[GOOD["grid"][0], 5])), 2, 1, '"grid"[1]'),
    "ragged grid": (
        json.dumps(_with(grid=[*GOOD["grid"][:4], ". . @ . ."])),
        5,
        10,
        'expected 6 cells in "grid"[4]',
    ),
    "one row": _refused("2 to 16 rows", grid=["@ H"]),
    "one column": (json.dumps(_with(grid=["@", "H"], shouters=[])), 1, 2, "2 to 16 cells"),
    "width mismatch": _refused('"width" to match the grid (6)', width=7),
    "height not int": _refused('"height" to match the grid (5)', height="5"),
    "shouters not a list": _refused('"shouters" to be an array', shouters={}),
    "shouter bad direction": _refused(
        '"shouters"[0]["direction"]', shouters=[{"row": 1, "col": 4, "direction": "Q", "length": 3}]
    ),
    "shouter length 7": _refused(
        '"shouters"[0]["length"] to be an integer from 1 to 6, found 7',
        shouters=[{"row": 1, "col": 4, "direction": "W", "length": 7}],
    ),
    "shouter missing key": _refused(
        '"shouters"[0] to have "length"', shouters=[{"row": 1, "col": 4, "direction": "W"}]
    ),
    "shouter unknown key": _refused(
        'found "x"', shouters=[{"row": 1, "col": 4, "direction": "W", "length": 3, "x": 1}]
    ),
    "shouter not on Y": _refused(
        "to stand on a 'Y' cell, found '.'",
        shouters=[{"row": 0, "col": 1, "direction": "W", "length": 3}],
    ),
    "shouter out of grid": _refused(
        "a shouter row from 0 to 4", shouters=[{"row": 9, "col": 1, "direction": "W", "length": 3}]
    ),
    "Y without shouter": (json.dumps(_with(shouters=[])), 2, 9, "a shouter for this 'Y'"),
    "missing @": _refused("one '@'", grid=[row.replace("@", ".") for row in GOOD["grid"]]),
    "duplicate H": (
        json.dumps(_with(grid=["T H . H . .", *GOOD["grid"][1:]])),
        1,
        7,
        "a second 'H'",
    ),
}


@pytest.mark.parametrize(
    "text, line, column, fragment", JSON_ERRORS.values(), ids=JSON_ERRORS.keys()
)
def test_json_errors(text: str, line: int, column: int, fragment: str) -> None:
    _refusal(forest_from_json, text, line, column, fragment)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_fuzz_json(data: st.DataObject) -> None:
    text = forest_to_json(parse_forest(TINY))
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    chars = list('{}[]",:0123456789 .@HYTNESWtruefalsenull-\\')
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(3)
        if op == 0:
            text = text[:i] + rng.choice(chars) + text[i:]
        elif op == 1:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + rng.choice(chars) + text[i + 1 :]
    try:
        forest_from_json(text)
    except FormatError as err:
        assert err.line >= 1 and err.column >= 1


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["name", "turns", "grid", "shouters", "row", "col", "x"]), inner
            )
        ),
        max_leaves=12,
    )
)
def test_fuzz_dict(data: object) -> None:
    try:
        forest = forest_from_dict(data)
    except FormatError as err:
        assert err.line >= 1 and err.column >= 1
    else:
        assert forest_from_dict(forest_to_dict(forest)) == forest
