"""Tests of the curated puzzles (solver/puzzles.py and the puzzles/ data folder)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import solver
from solver import puzzle_data, puzzles
from solver.errors import OptionError
from solver.games.dog.forest import Forest
from solver.games.dog.format import format_forest
from solver.testing import one_line_error, run_forest

ALL = puzzles.names()


def test_there_are_enough_puzzles() -> None:
    assert len(ALL) >= 10
    assert sorted(ALL) == ALL
    assert all(name.startswith("dog/") for name in ALL)
    assert "dog/tiny-example" in ALL


@pytest.mark.parametrize("name", ALL)
def test_every_puzzle_loads(name: str) -> None:
    forest = puzzles.load(name)
    assert isinstance(forest, Forest)
    assert forest.name == name.split("/", 1)[1]  # the name header matches the file name
    assert puzzles.path(name).stem == forest.name


@pytest.mark.parametrize("name", ALL)
def test_every_puzzle_is_described(name: str) -> None:
    text = puzzles.describe(name)
    assert text.strip()
    assert not text.startswith("#")
    assert all(not line.startswith("#") for line in text.splitlines())


@pytest.mark.parametrize("name", ALL)
def test_every_sheet_is_canonical_after_its_comment(name: str) -> None:
    text = puzzles.path(name).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    body = "".join(line for line in lines if not line.startswith("#"))
    assert lines[0].startswith("#")
    assert body == format_forest(puzzles.load(name))


def test_sizes_range_from_tiny_to_big() -> None:
    forests = [puzzles.load(name) for name in ALL]
    tiny = [f for f in forests if f.width <= 4 and f.height <= 4 and f.turns <= 6]
    assert len(tiny) >= 4
    assert any(f.width == 2 and f.height == 2 for f in forests)
    assert any(f.width == 12 and f.height == 12 for f in forests)


def test_describe_returns_the_leading_comment() -> None:
    assert puzzles.describe("dog/tiny-example") == (
        "The example of docs/rules/dog.md §9: one shouter, a squirrel, a scent trail, a puddle."
    )
    assert puzzles.describe("dog/walled-in").splitlines()[0] == "walled-in: a dog that cannot move."


def test_path_points_at_the_file() -> None:
    path = puzzles.path("dog/corridor")
    assert isinstance(path, Path)
    assert path.is_file()
    assert path.name == "corridor.forest"


def test_the_game_loader_accepts_puzzle_names() -> None:
    game = solver.load_game("dog", forest="dog/tiny-2x2", engine="reference")
    assert game.forest == puzzles.load("dog/tiny-2x2")


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("dog/tiny-exampel", "dog/tiny-example"),
        ("dog/coridor", "dog/corridor"),
        ("tiny-example", "dog/tiny-example"),
        ("dog/tiny", "dog/tiny-2x2"),
        ("dog/Walled-In", "dog/walled-in"),
    ],
)
def test_unknown_names_suggest_close_matches(name: str, suggestion: str) -> None:
    for call in (puzzles.load, puzzles.path, puzzles.describe):
        with pytest.raises(OptionError, match="unknown puzzle") as info:
            call(name)
        assert repr(suggestion) in str(info.value)
        assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "name", ["", "dog/", "dog/../dog/corridor", "/etc/passwd", "dog/corridor.forest", "x/y/z"]
)
def test_malformed_names_are_unknown(name: str) -> None:
    with pytest.raises(OptionError, match=r"unknown puzzle|is neither a file nor a puzzle name"):
        puzzles.load(name)


def test_a_name_must_be_a_string() -> None:
    with pytest.raises(OptionError, match="string"):
        puzzles.load(3)  # type: ignore[arg-type]


def test_unknown_game() -> None:
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        puzzles.names("chess")
    with pytest.raises(OptionError, match="unknown puzzle 'chess/x'"):
        puzzles.load("chess/x")


def test_the_source_tree_is_the_fallback() -> None:
    if importlib.util.find_spec("solver._puzzles") is None:
        source = Path(solver.__file__).resolve().parent.parent / "puzzles"
        assert puzzle_data._data_root() == source
    assert {p.name for p in Path(puzzles.path("dog/tiny-example")).parent.glob("*.forest")} == {
        name.split("/")[1] + ".forest" for name in ALL
    }


def test_the_installed_package_is_used_when_importable(tmp_path: Path) -> None:
    # Make `solver._puzzles` importable from a temporary folder, as a wheel install would.
    if "solver._puzzles" in sys.modules or importlib.util.find_spec("solver._puzzles"):
        pytest.skip("solver._puzzles is installed here")
    data = tmp_path / "_puzzles" / "dog"
    data.mkdir(parents=True)
    sheet = format_forest(puzzles.load("dog/tiny-2x2").replace(name="only-one"))
    (data / "only-one.forest").write_text("# the only puzzle\n" + sheet, encoding="utf-8")
    original = list(solver.__path__)
    solver.__path__.append(str(tmp_path))
    importlib.invalidate_caches()
    try:
        assert puzzles.names() == ["dog/only-one"]
        assert puzzles.describe("dog/only-one") == "the only puzzle"
        assert puzzles.load("dog/only-one").name == "only-one"
        assert puzzles.path("dog/only-one") == data / "only-one.forest"
    finally:
        solver.__path__[:] = original
        sys.modules.pop("solver._puzzles", None)
        importlib.invalidate_caches()
    assert "dog/tiny-example" in puzzles.names()


def test_a_path_climbing_out_of_the_puzzles_is_named_for_what_it_is():
    run = run_forest("dog", "show", "dog/../../etc/passwd")
    one_line_error(run, "is neither a file nor a puzzle name")
