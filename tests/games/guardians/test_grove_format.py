"""The ``.grove`` format (:mod:`solver.games.guardians.grove_format`): exact round trips
(hypothesis), one test per kind of bad input, files read and written safely (a device, the
size cap, no file replaced unasked), and only ``solver.errors`` for mutated positions."""

from __future__ import annotations

import contextlib
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import FormatError, OptionError, SolverError
from solver.files import MAX_FILE_BYTES
from solver.games.guardians.grove_format import (
    EXAMPLE,
    format_grove,
    grove_from_dict,
    grove_from_json,
    grove_to_dict,
    grove_to_json,
    load_grove,
    parse_grove,
)
from solver.games.guardians.grove_position import DEFAULT_TABLE, Grove, GroveCell
from solver.registry import load_game
from solver.testing import one_line_error
from solver.testing import run_forest as forest

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


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_grove_path_to_an_endless_device_is_refused_unread():
    # Defect: load_grove read the whole file, so /dev/zero hung (and ate memory) forever. Only
    # regular files are read now (solver.files.read_bytes): a device is refused by its kind.
    run = forest("guardians", "order", "/dev/zero", timeout=60)
    one_line_error(run, "/dev/zero: is a character device")


def test_a_grove_file_over_the_size_cap_is_refused_unread(tmp_path):
    from solver.games.guardians.grove_format import load_grove

    path = tmp_path / "huge.grove"
    path.write_bytes(b"grid:\n[*]\n" + b"#" * MAX_FILE_BYTES)
    with pytest.raises(OptionError, match="larger than 16 MiB,"):
        load_grove(path)


def test_deeply_nested_grove_json_is_a_format_error():
    # Defect: grove_from_json let json's RecursionError through.
    from solver.games.guardians.grove_format import grove_from_json

    with pytest.raises(FormatError):
        grove_from_json("[" * 100_000 + "]" * 100_000)


def test_a_grove_json_name_with_a_lone_surrogate_is_refused_like_the_text_form():
    # Defect: the JSON form accepted a name the text form refuses (and format_grove cannot write).
    from solver.games.guardians.grove_format import grove_from_dict

    with pytest.raises(FormatError, match="name"):
        grove_from_dict({"name": "\ud800", "grid": ["[*]"]})


def test_the_api_raises_only_solver_errors_for_a_fuzzed_grove():
    # A quick property over mutated curated positions: parse errors are FormatErrors and every
    # accepted position opens on both engines (the long run is the QA fuzz, not kept here).
    import random
    from pathlib import Path

    from solver.games.guardians.grove_format import format_grove, parse_grove

    texts = [p.read_text(encoding="utf-8") for p in Path("puzzles/guardians").glob("*.grove")]
    alphabet = list(". []*:BGREPYbgyrpx#\n\r 0123456789=namodegritsp\ufeff\x00")
    rng = random.Random(7)
    for _ in range(300):
        chars = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            chars.insert(rng.randrange(len(chars) + 1), rng.choice(alphabet))
        text = "".join(chars)
        try:
            grove = parse_grove(text)
        except FormatError:
            continue
        assert parse_grove(format_grove(grove)) == grove
        for engine in ("reference", "kernel"):
            with contextlib.suppress(SolverError):
                load_game("guardians", engine=engine, position=grove).new_initial_state()


def test_save_grove_writes_whole_and_never_replaces_without_overwrite(tmp_path):
    # Defect: save_grove opened the target for writing at once (an existing file replaced, a
    # half-written file on error, a raw OSError for a missing folder).
    from solver.games.guardians.grove_format import load_grove, parse_grove, save_grove

    grove = parse_grove("name: kept\ngrid:\n[*]b B:GR\n")
    target = tmp_path / "a.grove"
    target.write_text("keep me", encoding="utf-8")
    with pytest.raises(OptionError, match="already exists"):
        save_grove(grove, target)
    assert target.read_text(encoding="utf-8") == "keep me"
    save_grove(grove, target, overwrite=True)
    assert load_grove(target) == grove
    with pytest.raises(OptionError, match="folder"):
        save_grove(grove, tmp_path / "missing" / "b.grove")
    bad = parse_grove("grid:\n[*]\n")
    object.__setattr__(bad, "name", "two\nlines")
    with pytest.raises(OptionError):
        save_grove(bad, tmp_path / "c.grove")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.grove"]
