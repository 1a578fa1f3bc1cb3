"""The shipped data: the tile set is what its seeded script makes; bad data gives clear errors."""

from __future__ import annotations

import copy
import json
import re

import pytest

from solver.errors import FormatError, OptionError
from solver.files import MAX_FILE_BYTES
from solver.games.guardians.data import data_file
from solver.games.guardians.make_tiles import make_tiles, render
from solver.games.guardians.solo import (
    default_levels,
    level_by_number,
    levels_from_dict,
    load_levels,
)
from solver.games.guardians.tiles import (
    COLOURS,
    default_tile_set,
    load_tile_set,
    tile_set_from_dict,
    tile_set_to_dict,
)


def test_tiles_json_is_what_the_script_makes():
    assert data_file("tiles.json").read_text(encoding="utf-8") == render(make_tiles())


def test_default_tile_set_shape():
    tiles = default_tile_set()
    assert len(tiles) == 72 and tiles.start_points == 12
    for colour in COLOURS:  # 12 of each colour, 3 of each length per colour
        of_colour = [t for t in tiles.tiles if t.colour == colour]
        assert len(of_colour) == 12
        assert sorted(len(t.sequence) for t in of_colour) == [2] * 3 + [3] * 3 + [4] * 3 + [5] * 3
    points = {2: 3, 3: 5, 4: 8, 5: 12}
    assert all(t.points == points[len(t.sequence)] for t in tiles.tiles)
    assert tile_set_from_dict(tile_set_to_dict(tiles)) == tiles


def test_default_levels():
    levels = default_levels()
    assert [lv.threshold for lv in levels] == [60, 67, 74, 81, 88, 95]
    assert all(len(lv.tasks) == 2 for lv in levels)
    assert level_by_number(4) is levels[3]
    with pytest.raises(OptionError, match=r"1\.\.6"):
        level_by_number(7)


GOOD_TILES = {"name": "t", "tiles": [{"id": 1, "colour": "B", "sequence": "GR", "points": 3}]}


def broken(path: str, value: object) -> dict:
    data = copy.deepcopy(GOOD_TILES)
    target = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    if value is KeyError:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "(top level)"),
        ({**GOOD_TILES, "extra": 1}, "extra"),
        ({**GOOD_TILES, "name": 5}, "name"),
        ({**GOOD_TILES, "start_points": -2}, "start_points"),
        ({**GOOD_TILES, "tiles": []}, "tiles"),
        (broken("tiles.0.id", 2), "tiles[0].id"),
        (broken("tiles.0.colour", "b"), "tiles[0].colour"),
        (broken("tiles.0.sequence", "G"), "tiles[0].sequence"),
        (broken("tiles.0.sequence", "GRQ"), "tiles[0].sequence"),
        (broken("tiles.0.points", 2.5), "tiles[0].points"),
        (broken("tiles.0.points", KeyError), "tiles[0].points"),
        (broken("tiles.0.shape", "round"), "tiles[0].shape"),
    ],
)
def test_bad_tile_sets_name_the_field(data, field):
    with pytest.raises(FormatError, match=re.escape(f"tile set field {field} ")):
        tile_set_from_dict(data)


@pytest.mark.parametrize(
    ("data", "found"),
    [({**GOOD_TILES, "extra": 1}, '"extra"'), (broken("tiles.0.shape", "round"), '"shape"')],
)
def test_an_unknown_field_is_found_by_its_name(data, found):
    """A tile's unknown field said 'found 0' whatever it was (the top level's names it)."""
    with pytest.raises(FormatError) as info:
        tile_set_from_dict(data)
    assert info.value.found == found


def test_bad_json_files_point_at_line_and_column(tmp_path):
    path = tmp_path / "tiles.json"
    path.write_text('{"name": "t",\n  "tiles": [}\n', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_tile_set(path)
    assert (info.value.line, info.value.column) == (2, 13)
    with pytest.raises(OptionError, match="no such tile set"):
        load_tile_set(tmp_path / "missing.json")
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(FormatError):
        load_levels(path)


def levels_with(change) -> dict:
    data = json.loads(data_file("levels.json").read_text(encoding="utf-8"))
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["levels"].pop(), "levels"),
        (lambda d: d["levels"][2].update(threshold=70), "levels[2].threshold"),
        (lambda d: d["levels"][0].update(level=2), "levels[0].level"),
        (lambda d: d["levels"][1]["tasks"].pop(), "levels[1].tasks"),
        (lambda d: d["levels"][0]["tasks"][0].update(kind="fly"), "levels[0].tasks[0].kind"),
        (lambda d: d["levels"][0]["tasks"][0].update(length=9), "levels[0].tasks[0].length"),
        (lambda d: d["levels"][0]["tasks"][0].update(colour="red"), "levels[0].tasks[0].colour"),
        (lambda d: d["levels"][2]["tasks"][1].update(colour="grey"), "levels[2].tasks[1].colour"),
        (lambda d: d.update(extra=1), "(top level)"),
    ],
)
def test_bad_levels_name_the_field(change, field):
    with pytest.raises(FormatError, match=re.escape(f"levels field {field} ")):
        levels_from_dict(levels_with(change))


@pytest.mark.parametrize(
    ("content", "what"),
    [(b"\xff\xfe garbage", "UTF-8"), (b"[" * 100_000, "nested")],
    ids=["binary", "deep"],
)
def test_a_bad_tile_set_file_is_a_format_error(tmp_path, content, what):
    # Defect: a binary file was a UnicodeDecodeError, a deeply nested one a RecursionError.
    from solver.games.guardians.tiles import load_tile_set

    path = tmp_path / "tiles.json"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=what):
        load_tile_set(path)


def test_a_tile_set_file_over_the_size_cap_is_refused(tmp_path):
    from solver.games.guardians.tiles import load_tile_set

    path = tmp_path / "tiles.json"
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(OptionError, match="larger than 16 MiB,"):
        load_tile_set(path)
