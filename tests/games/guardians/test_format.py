"""The ``.grove`` format: exact round trips (hypothesis) and one test per kind of bad input."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import FormatError
from solver.games.guardians.grove import (
    EXAMPLE,
    format_grove,
    grove_from_dict,
    grove_from_json,
    grove_to_dict,
    grove_to_json,
    load_grove,
    parse_grove,
)
from solver.games.guardians.grove_model import DEFAULT_TABLE, Grove, GroveCell

COLOURS = "BGREPY"


@st.composite
def groves(draw: st.DrawFn) -> Grove:
    height = draw(st.integers(1, 6))
    width = draw(st.integers(1, 6))
    # a connected set of cells grown from a random first cell
    first = (draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1)))
    cells = [first]
    for _ in range(draw(st.integers(0, height * width - 1))):
        r, c = draw(st.sampled_from(cells))
        dr, dc = draw(st.sampled_from([(-1, 0), (0, 1), (1, 0), (0, -1)]))
        n = (r + dr, c + dc)
        if 0 <= n[0] < height and 0 <= n[1] < width and n not in cells:
            cells.append(n)
    mode = draw(st.sampled_from(["solo", "multi"]))
    letters = list("bgyr") if mode == "solo" else ["p"] * 4
    start = draw(st.sampled_from([None, *cells]))
    sequence = st.text(alphabet=COLOURS, min_size=2, max_size=5)
    grid: list[list[GroveCell | None]] = [[None] * width for _ in range(height)]
    for cell in cells:
        kind = draw(st.sampled_from(["forest", "mission", "pawn"]))
        if cell == start:
            pawn = letters.pop(0) if kind == "pawn" and letters else None
            grid[cell[0]][cell[1]] = GroveCell(None, "", True, True, pawn)
        elif kind == "forest":
            grid[cell[0]][cell[1]] = GroveCell(draw(st.sampled_from(COLOURS)), draw(sequence))
        else:
            pawn = (
                letters.pop(draw(st.integers(0, len(letters) - 1)))
                if kind == "pawn" and letters
                else None
            )
            grid[cell[0]][cell[1]] = GroveCell(None, draw(sequence), True, False, pawn)
    name = draw(
        st.text(
            st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=12
        )
    )
    points = draw(st.one_of(st.just(DEFAULT_TABLE), st.tuples(*[st.integers(0, 1000)] * 5)))
    return Grove(name, mode, points, tuple(tuple(row) for row in grid))


@settings(max_examples=150, deadline=None)
@given(groves())
def test_round_trip_text_and_json(grove: Grove) -> None:
    text = format_grove(grove)
    assert parse_grove(text) == grove
    assert format_grove(parse_grove(text)) == text
    assert grove_from_json(grove_to_json(grove)) == grove
    assert grove_from_dict(grove_to_dict(grove)) == grove


def test_example_and_tolerated_variants():
    grove = parse_grove(EXAMPLE)
    assert format_grove(grove) == EXAMPLE
    variant = (
        "\ufeff# a comment\r\nname: two-pawns\r\n\r\nmode: solo\ngrid:\n\n"
        + "\n".join(EXAMPLE.splitlines()[2:])
        + "\n# trailing comment\n\n"
    )
    assert parse_grove(variant) == grove
    assert (
        parse_grove(EXAMPLE.replace("grid:\n", "points: 2=3 3=5 4=8 5=12 start=12\ngrid:\n"))
        == grove
    )


def error(text: str) -> FormatError:
    with pytest.raises(FormatError) as info:
        parse_grove(text)
    return info.value


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        ("name: x\n", 2, 1, "a line 'grid:'"),
        ("size: 3\ngrid:\n[*]b\n", 1, 1, "a header"),
        ("name: a\nname: b\ngrid:\n[*]\n", 2, 1, "one 'name:' header"),
        ("name:x\ngrid:\n[*]\n", 1, 5, "': ' and a value"),
        ("mode: duo\ngrid:\n[*]\n", 1, 7, "'solo' or 'multi'"),
        ("points: 2=3 3=5 4=8 5=12\ngrid:\n[*]\n", 1, 26, "'start=N'"),
        ("points: 2=3 3=5 4=8 6=12 start=12\ngrid:\n[*]\n", 1, 21, "'5=N'"),
        ("points: 2=3 3=x 4=8 5=12 start=12\ngrid:\n[*]\n", 1, 15, "a whole number"),
        ("points: 2=3 3=5000 4=8 5=12 start=12\ngrid:\n[*]\n", 1, 15, "a whole number"),
        ("points: 2=3 3=5 4=8 5=12 start=12 x=1\ngrid:\n[*]\n", 1, 34, "the end of the points"),
        ("grid:\n [*]\n", 2, 1, "a tile token"),
        ("grid:\n[*] \n", 2, 4, "the end of the line"),
        ("grid:\n[*]  G:RR\n", 2, 5, "one space between tokens"),
        ("grid:\n[*] Q\n", 2, 5, "a tile token"),
        ("grid:\n[*] X:RR\n", 2, 5, "a colour code"),
        ("grid:\n[*] G:RX\n", 2, 8, "a colour code"),
        ("grid:\n[*] G:R\n", 2, 7, "a mission of 2 to 5 colours"),
        ("grid:\n[*] G:RRRRRR\n", 2, 7, "a mission of 2 to 5 colours"),
        ("grid:\n[*] [RR\n", 2, 8, "']' closing"),
        ("grid:\n[*]p\n", 2, 4, "a pawn letter"),
        ("mode: multi\ngrid:\n[*]b\n", 3, 4, "a pawn letter"),
        ("grid:\n[*]bb\n", 2, 4, "a pawn letter"),
        ("grid:\n[*] G:RR\nG:RR\n", 3, 5, "2 tokens"),
        ("grid:\n[*] G:RR\nG:RR G:RR G:RR\n", 3, 11, "2 tokens"),
        ("grid:\n[*] G:RR\n\nG:RR G:RR\n", 4, 1, "only blank or comment lines"),
        ("grid:\n\n# nothing\n", 4, 1, "a grid row"),
        ("grid:\n. .\n", 2, 1, "at least one tile"),
        ("grid:\n[*] [*]\n", 2, 5, "one start tile"),
        ("grid:\n[*]b [RR]b\n", 2, 6, "each pawn colour once"),
        ("mode: multi\ngrid:\n[*]p [RR]p [RR]p [RR]p [RR]p\n", 3, 24, "at most 4 pawns"),
        ("grid:\n[*] . G:RR\n", 2, 7, "one piece"),
        ("grid:\n[*] G:RR\rG:RR\n", 2, 9, "a line end"),
        ("grid:\n" + " ".join(["G:RR"] * 17) + "\n", 2, 81, "at most 16 columns"),
        ("grid:\n" + "G:RR\n" * 17, 18, 1, "at most 16 rows"),
    ],
)
def test_every_bad_input_names_line_and_column(text, line, column, expected):
    err = error(text)
    assert (err.line, err.column) == (line, column), str(err)
    assert expected in err.expected, str(err)
    assert str(err).startswith(f"line {line}, column {column}: expected ")


def test_bad_bytes_and_missing_files(tmp_path):
    path = tmp_path / "bad.grove"
    path.write_bytes(b"grid:\n[*] G:\xffR\n")
    with pytest.raises(FormatError) as info:
        load_grove(path)
    assert (info.value.line, info.value.column) == (2, 7)
    with pytest.raises(ValueError, match="no such position"):
        load_grove(tmp_path / "missing.grove")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "(top level)"),
        ({"grid": ["[*]"], "size": 3}, "size"),
        ({"grid": ["[*]"], "name": 3}, "name"),
        ({"grid": ["[*]"], "mode": "duo"}, "mode"),
        ({"grid": ["[*]"], "points": {"2": 3}}, "points"),
        (
            {"grid": ["[*]"], "points": {"2": 3, "3": 5, "4": 8, "5": 12, "start": -1}},
            "points.start",
        ),
        ({"grid": []}, "grid"),
        ({"grid": [3]}, "grid"),
    ],
)
def test_json_schema_errors_name_the_field(data, field):
    with pytest.raises(FormatError, match=re.escape(f"position field {field} ")):
        grove_from_dict(data)


def test_json_grid_errors_point_into_the_row():
    with pytest.raises(FormatError) as info:
        grove_from_dict({"grid": ["[*] G:RR", "G:RQ ."]})
    assert (info.value.line, info.value.column) == (2, 4)
    with pytest.raises(FormatError) as info:
        grove_from_json("{")
    assert info.value.line == 1
