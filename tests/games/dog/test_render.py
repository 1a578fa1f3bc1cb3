"""Tests of the dog forest pictures: the text grid and the SVG paper sheet."""

from __future__ import annotations

import doctest
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from solver.errors import OptionError
from solver.games.dog import glyphs, render, render_overlays, render_svg, render_text, sheet_legend
from solver.games.dog.forest import Terrain
from solver.games.dog.format import SYMBOLS, TERRAIN_SYMBOLS, load_forest, parse_forest
from solver.games.dog.render import render_forest_svg, render_forest_text, render_legend_text

TINY = Path(__file__).resolve().parents[3] / "puzzles" / "dog" / "tiny-example.forest"
SVG = "{http://www.w3.org/2000/svg}"

TRAIL = [(4, 2), (3, 2), (3, 3), (2, 3), (2, 4), (1, 4)]


@pytest.fixture(scope="module")
def tiny():
    return load_forest(TINY)


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("class") == name]


# -- text ------------------------------------------------------------------------------------------
def test_text_of_tiny_example(tiny):
    expected = (
        "tiny-example: 6x5, 20 turns\n"
        "   0 1 2 3 4 5\n"
        "0  T . . H . .\n"
        "1  . , ~ . Y .\n"
        "2  . . T S . ,\n"
        "3  . > . . , .\n"
        "4  . . @ . . T\n"
        "shouter (1,4) W 3: (1,4)=1 (1,3)=1 (1,2)=2 (1,1)=3"
    )
    assert render_forest_text(tiny) == expected


def test_text_trail_shows_its_marks(tiny):
    expected = (
        "tiny-example: 6x5, 20 turns\n"
        "   0 1 2 3 4 5\n"
        "0  T . . H . .\n"
        "1  . , ~ . d .\n"
        "2  . . T x x ,\n"
        "3  . > x x , .\n"
        "4  . . x . . T\n"
        "shouter (1,4) W 3: (1,4)=1 (1,3)=1 (1,2)=2 (1,1)=3\n"
        "dog at (1,4); 6 cells marked; resolved (2,3)"
    )
    assert render_forest_text(tiny, trail=TRAIL, resolved=[(2, 3)]) == expected


def test_text_overlays(tiny):
    text = render_forest_text(tiny, position=(3, 0), marked=[(4, 2), (0, 3)], resolved=[(3, 1)])
    rows = text.splitlines()[2:7]
    assert rows[3] == "3  d . . . , ."  # the dog over open trail; the resolved scent is gone
    assert rows[4] == "4  . . x . . T"  # the start is marked
    assert rows[0] == "0  T . . H . ."  # the human is never marked
    assert text.splitlines()[-1] == "dog at (3,0); 1 cell marked; resolved (3,1)"


def test_text_marked_resolved_distraction_prints_x(tiny):
    text = render_forest_text(tiny, marked=[(2, 3)], resolved=[(2, 3)])
    assert text.splitlines()[4] == "2  . . T x . ,"


def test_text_two_digit_columns_stay_aligned():
    rows = ["@ " + " ".join(["."] * 10) + " H"] + [" ".join(["."] * 12)] * 9
    rows.append(" ".join(["."] * 11) + " Y")
    forest = parse_forest("name: wide\nshouter: 10 11 N 2\ngrid:\n" + "\n".join(rows) + "\n")
    lines = render_forest_text(forest).splitlines()
    assert lines[1] == "     0  1  2  3  4  5  6  7  8  9 10 11"
    assert lines[2] == " 0   @  .  .  .  .  .  .  .  .  .  .  H"
    assert lines[12].endswith(" .  Y")
    assert lines[-1] == "shouter (10,11) N 2: (10,11)=1 (9,11)=1 (8,11)=2"
    assert all(line == line.rstrip() for line in lines)


def test_text_rejects_cells_outside_the_grid(tiny):
    with pytest.raises(OptionError, match=r"trail cell \(5, 0\) lies outside the 6x5 grid"):
        render_forest_text(tiny, trail=[(4, 2), (5, 0)])
    with pytest.raises(OptionError, match="position"):
        render_forest_text(tiny, position=(0, 6))


def test_text_is_deterministic(tiny):
    kwargs = {"trail": TRAIL, "marked": {(4, 1), (4, 0)}, "resolved": {(2, 3), (3, 1)}}
    assert render_forest_text(tiny, **kwargs) == render_forest_text(tiny, **kwargs)


# -- SVG -------------------------------------------------------------------------------------------
def test_svg_is_xml_with_one_cell_rect_per_cell(tiny):
    root = ET.fromstring(render_forest_svg(tiny))
    assert root.tag == f"{SVG}svg"
    cells = [el for el in root.iter(f"{SVG}rect") if el.get("class") == "cell"]
    assert len(cells) == tiny.width * tiny.height
    positions = {(int(el.get("data-row")), int(el.get("data-col"))) for el in cells}
    assert positions == {(r, c) for r in range(tiny.height) for c in range(tiny.width)}


def test_svg_contains_the_name(tiny):
    root = ET.fromstring(render_forest_svg(tiny))
    assert [el.text for el in by_class(root, "name")] == ["tiny-example"]


def test_svg_escapes_the_name(tiny):
    forest = tiny.replace(name='Bones <& "sticks">')
    svg = render_forest_svg(forest)
    assert "Bones &lt;&amp; &quot;sticks&quot;&gt;" in svg
    root = ET.fromstring(svg)
    assert [el.text for el in by_class(root, "name")] == ['Bones <& "sticks">']
    assert root.find(f"{SVG}title").text.startswith('Bones <& "sticks">')


def test_svg_title_replaces_the_heading(tiny):
    root = ET.fromstring(render_forest_svg(tiny, title="Sunday walk"))
    assert [el.text for el in by_class(root, "name")] == ["Sunday walk"]
    assert by_class(root, "subtitle")[0].text.startswith("tiny-example · ")


def test_svg_shows_the_shouter_numbers(tiny):
    root = ET.fromstring(render_forest_svg(tiny))
    numbers = Counter(el.text for el in by_class(root, "arrow-number"))
    assert numbers == Counter({"1": 2, "2": 1, "3": 1})  # the shouter's own cell carries 1 too


def test_svg_numbers_of_several_arrows():
    forest = parse_forest(
        "shouter: 3 0 E 6\nshouter: 4 4 N 2\ngrid:\n"
        "T . S ^ > H\n. , ~ v < D\n. I T ~ . ,\nY . . . . .\n. . @ . Y T\n"
    )
    root = ET.fromstring(render_forest_svg(forest))
    expected = Counter(
        str(number)
        for shouter in forest.shouters
        for _, number in shouter.covered(forest.width, forest.height)
    )
    assert Counter(el.text for el in by_class(root, "arrow-number")) == expected


@pytest.mark.parametrize("turns", [1, 7, 20, 41, 255])
def test_svg_has_one_box_per_turn(tiny, turns):
    root = ET.fromstring(render_forest_svg(tiny.replace(turns=turns)))
    assert len(by_class(root, "turn-box")) == turns
    assert len(by_class(root, "stamina-box")) == 7
    assert len(by_class(root, "curiosity-box")) == 10


def test_svg_trail_only_when_given(tiny):
    blank = ET.fromstring(render_forest_svg(tiny))
    assert by_class(blank, "trail") == []
    assert by_class(blank, "mark") == []
    assert by_class(blank, "dog") == []
    played = ET.fromstring(render_forest_svg(tiny, trail=TRAIL))
    (polyline,) = by_class(played, "trail")
    assert polyline.tag == f"{SVG}polyline"
    assert len(polyline.get("points").split()) == len(TRAIL)
    assert len(by_class(played, "mark")) == len(TRAIL)
    assert len(by_class(played, "dog")) == 1


def test_svg_marks_without_a_trail(tiny):
    root = ET.fromstring(render_forest_svg(tiny, marked=[(4, 2), (3, 2), (0, 3)]))
    assert by_class(root, "trail") == []
    assert len(by_class(root, "mark")) == 2  # the human's cell is never marked


def test_svg_played_state_ticks(tiny):
    root = ET.fromstring(
        render_forest_svg(tiny, trail=TRAIL, resolved=[(2, 3)], turn=4, stamina=2, curiosity=12)
    )
    ticks = by_class(root, "tick")
    assert sum(el.tag == f"{SVG}path" for el in ticks) == 3  # turns 1..3 crossed off
    assert sum(el.tag == f"{SVG}circle" for el in ticks) == 3  # turn 4, stamina 2, curiosity 9+
    assert any(el.text == "= 12" for el in ticks)
    assert len(by_class(root, "resolved")) == 1
    blank = ET.fromstring(render_forest_svg(tiny))
    assert by_class(blank, "tick") == [] and by_class(blank, "resolved") == []


def test_svg_is_deterministic(tiny):
    kwargs = {"trail": TRAIL, "marked": {(4, 1), (4, 0)}, "resolved": {(2, 3)}, "turn": 3}
    assert render_forest_svg(tiny, **kwargs) == render_forest_svg(tiny, **kwargs)
    assert render_forest_svg(tiny) == render_forest_svg(load_forest(TINY))


def test_svg_rejects_cells_outside_the_grid(tiny):
    with pytest.raises(OptionError, match="marked"):
        render_forest_svg(tiny, marked=[(-1, 0)])


# -- the text legend -------------------------------------------------------------------------------
def legend_symbols(text: str) -> list[str]:
    """The symbols the legend lists, in order (an entry may list several: ``^ >``)."""
    lines = text.splitlines()
    start = lines.index("legend:")
    out = []
    for line in lines[start + 1 :]:
        assert line.startswith("  ")
        symbols, _, meaning = line[2:].partition("  ")
        assert meaning.strip() and meaning.isascii()
        out += symbols.split()
    return out


def grid_symbols(text: str, height: int) -> set[str]:
    """The symbols printed in the grid rows (after the two-space gap behind the row number)."""
    rows = text.splitlines()[2 : 2 + height]
    return {symbol for row in rows for symbol in row.split("  ", 1)[1].split()}


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"trail": TRAIL, "resolved": [(2, 3)]}, {"position": (3, 0), "resolved": [(3, 1)]}],
)
def test_legend_lists_exactly_the_printed_symbols(tiny, kwargs):
    text = render_forest_text(tiny, legend=True, **kwargs)
    assert text.startswith(render_forest_text(tiny, **kwargs) + "\nlegend:\n")
    listed = legend_symbols(text)
    assert len(listed) == len(set(listed))
    assert set(listed) == grid_symbols(text, tiny.height)
    assert text.endswith(render_legend_text(tiny, **kwargs))


def test_legend_covers_every_sheet_symbol_with_its_terrain_name():
    # A forest holding every symbol of the sheet format.
    forest = parse_forest(
        "shouter: 3 0 E 2\ngrid:\nT . S ^ > H\n. , ~ v < D\n. I T ~ . ,\nY . . . . .\n. . @ . . T\n"
    )
    text = render_legend_text(forest, position=(4, 0), marked=[(4, 1)])
    assert set(legend_symbols(text)) == set(SYMBOLS) | {"d", "x"}
    lines = {line[2:].split("  ", 1)[0]: line for line in text.splitlines()[1:]}
    for terrain, symbol in TERRAIN_SYMBOLS.items():
        if terrain.scent_direction is None:
            assert terrain.label in lines[symbol], symbol
    assert "scent trail" in lines["^ > v <"]


def test_legend_says_when_open_trail_hides_a_resolved_distraction(tiny):
    plain = render_legend_text(tiny).splitlines()[1]
    resolved = render_legend_text(tiny, resolved=[(2, 3)]).splitlines()[1]
    assert plain == "  .  open trail: 1 step"
    assert resolved == plain + " (also a crossed-off distraction)"
    # resolved under a mark prints x: the open-trail line need not explain anything
    assert render_legend_text(tiny, marked=[(2, 3)], resolved=[(2, 3)]).splitlines()[1] == plain


def test_text_symbols_are_the_sheet_format_symbols():
    # One table: the text picture prints what the .forest format reads.
    assert {SYMBOLS[symbol] for symbol in TERRAIN_SYMBOLS.values()} == set(Terrain)
    assert all(SYMBOLS[symbol] == terrain for terrain, symbol in TERRAIN_SYMBOLS.items())


@pytest.mark.parametrize(
    "module", [render, render_text, render_svg, render_overlays, glyphs, sheet_legend]
)
def test_doctests(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0


def test_the_earlier_names_draw_the_same():
    # render_ascii and render_legend were public (the changelog names them): they still answer,
    # the same text as the new names, and warn.
    tiny = load_forest(TINY)
    with pytest.warns(DeprecationWarning, match="use render_forest_text"):
        old_text = render.render_ascii(tiny, trail=TRAIL, legend=True)
    assert old_text == render_forest_text(tiny, trail=TRAIL, legend=True)
    with pytest.warns(DeprecationWarning, match="use render_legend_text"):
        old_legend = render.render_legend(tiny, marked=[(2, 3)])
    assert old_legend == render_legend_text(tiny, marked=[(2, 3)])
