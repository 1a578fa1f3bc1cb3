"""Tests of the shared SVG building blocks (solver.render.svg, pencil, grid, legend)."""

from __future__ import annotations

import doctest
import math
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solver.render
from solver.render import grid, legend, pencil, svg
from solver.render.grid import cell_centre, cell_rects, grid_labels
from solver.render.legend import LegendEntry, legend_entries
from solver.render.pencil import pencil_ring, pencil_x, round_stroke
from solver.render.svg import box, document, element, escape, fmt, group, points, text, xml_char

NS = "{http://www.w3.org/2000/svg}"


def parse(parts: list[str]) -> ET.Element:
    return ET.fromstring(document(100.0, 50.0, parts))


# -- numbers and escaping ----------------------------------------------------------------------
@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_fmt_is_the_two_decimal_rounding_without_noise(x):
    shown = fmt(x)
    expected = Decimal(f"{x:.2f}")  # Python's own correctly rounded two-decimal form
    assert Decimal(shown) == expected
    assert shown != "-0"
    if "." in shown:
        assert not shown.endswith("0") and len(shown.split(".")[1]) <= 2
    assert abs(float(shown) - x) <= 0.005 + 1e-9 * abs(x)


def test_fmt_examples():
    assert [fmt(v) for v in (0.0, -0.0, -0.004, 1.5, 2.0, 0.125, 10.999)] == [
        "0",
        "0",
        "0",
        "1.5",
        "2",
        "0.12",  # 0.125 is exact in binary: half-even rounding
        "11",
    ]


@given(st.text())
def test_escaped_text_reads_back_as_the_allowed_characters(value):
    allowed = "".join(ch for ch in value if ch in "\t\n" or xml_char(ord(ch)))
    root = ET.fromstring(f'<t a="{escape(value)}">{escape(value)}</t>')
    assert (root.text or "") == allowed
    # attribute values are normalised by XML parsers (tab/newline -> space)
    assert root.get("a") == allowed.replace("\t", " ").replace("\n", " ")


def test_xml_char_follows_the_xml_1_0_ranges():
    assert not any(xml_char(c) for c in range(0x20))
    assert xml_char(0x20) and xml_char(0xD7FF) and not xml_char(0xD800)
    assert not xml_char(0xDFFF) and xml_char(0xE000) and xml_char(0xFFFD)
    assert not xml_char(0xFFFE) and not xml_char(0xFFFF) and xml_char(0x10000)


# -- elements ----------------------------------------------------------------------------------
def test_element_attribute_names_values_and_order():
    out = element(
        "rect",
        {"class_": "a<b", "stroke_width": 0.5, "data-row": 3, "fill": None, "x": 1.239},
    )
    assert out == '<rect class="a&lt;b" stroke-width="0.5" data-row="3" x="1.24"/>'
    root = ET.fromstring(out)
    assert root.attrib == {"class": "a<b", "stroke-width": "0.5", "data-row": "3", "x": "1.24"}


def test_text_anchor_and_optional_attributes():
    plain = ET.fromstring(text(1.0, 2.0, "hi", 3.0))
    assert "text-anchor" not in plain.attrib and plain.get("fill") == svg.INK
    styled = ET.fromstring(
        text(1.0, 2.0, "<hi>", 3.0, anchor="end", weight="bold", style="italic", class_="x")
    )
    assert styled.text == "<hi>"
    assert styled.get("text-anchor") == "end" and styled.get("font-weight") == "bold"
    assert styled.get("font-style") == "italic" and styled.get("class") == "x"


def test_points_pairs_every_coordinate():
    coords = [(0.0, 1.0), (2.5, -3.25), (1 / 3, 2 / 3)]
    pairs = [tuple(map(float, p.split(","))) for p in points(coords).split()]
    assert pairs == [(0.0, 1.0), (2.5, -3.25), (0.33, 0.67)]


def test_box_and_group_nest_in_a_document():
    root = parse(group([box(1.0, 2.0, 3.0, 4.0, class_="b", stroke="#000")], class_="g"))
    (g,) = [el for el in root if el.tag == f"{NS}g"]
    (rect,) = list(g)
    assert g.get("class") == "g"
    assert (rect.get("x"), rect.get("width"), rect.get("stroke"), rect.get("rx")) == (
        "1",
        "3",
        "#000",
        "0.8",
    )


def test_document_page_and_title():
    out = document(210.0, 297.5, ["<circle/>"], title='A & "B"', background=None)
    assert out.endswith("</svg>\n")
    root = ET.fromstring(out)
    assert root.get("width") == "210mm" and root.get("height") == "297.5mm"
    assert root.get("viewBox") == "0 0 210 297.5"
    assert root.find(f"{NS}title").text == 'A & "B"'
    assert root.find(f"{NS}rect") is None  # no background asked for
    page = ET.fromstring(document(10.0, 5.0, [], unit="px")).find(f"{NS}rect")
    assert page.get("class") == "page" and page.get("width") == "10"


# -- pencil --------------------------------------------------------------------------------------
def test_pencil_x_is_two_diagonals_centred_on_the_point():
    d = ET.fromstring(pencil_x(10.0, 20.0, 10.0, class_="mark")).get("d")
    numbers = [float(v) for v in d.replace("M", " ").replace("L", " ").split()]
    assert numbers == [7.0, 17.0, 13.0, 23.0, 13.0, 17.0, 7.0, 23.0]
    thin = ET.fromstring(pencil_x(0.0, 0.0, 1.0))
    assert thin.get("stroke-width") == "0.3" and thin.get("class") is None


def test_pencil_ring_and_round_stroke():
    ring = ET.fromstring(pencil_ring(1.0, 2.0, 3.0, 0.4, class_="tick", colour="#123456"))
    assert (ring.get("r"), ring.get("stroke"), ring.get("fill")) == ("3", "#123456", "none")
    stroke = ET.fromstring(round_stroke("M0 0L1 1", "#abcdef", 0.2, class_="s"))
    assert stroke.get("stroke-linecap") == "round" and stroke.get("class") == "s"


# -- grid ----------------------------------------------------------------------------------------
def test_cell_rects_tile_the_grid_without_gaps():
    rects = [ET.fromstring(r) for r in cell_rects(5.0, 7.0, 2.5, 3, 4, lambda r, c: f"#{r}{c}")]
    assert len(rects) == 12
    for el in rects:
        r, c = int(el.get("data-row")), int(el.get("data-col"))
        assert float(el.get("x")) == pytest.approx(5.0 + 2.5 * c)
        assert float(el.get("y")) == pytest.approx(7.0 + 2.5 * r)
        assert el.get("fill") == f"#{r}{c}"
    assert {(el.get("data-row"), el.get("data-col")) for el in rects} == {
        (str(r), str(c)) for r in range(3) for c in range(4)
    }


def test_cell_centre_is_the_middle_of_its_rect():
    x, y = cell_centre(5.0, 7.0, 2.0, 2, 3)
    assert (x, y) == (5.0 + 3 * 2.0 + 1.0, 7.0 + 2 * 2.0 + 1.0)


def test_grid_labels_number_rows_and_columns():
    labels = [ET.fromstring(t) for t in grid_labels(10.0, 10.0, 4.0, 2, 3, font_size=2.0)]
    cols = [el for el in labels if el.get("class") == "col-label"]
    rows = [el for el in labels if el.get("class") == "row-label"]
    assert [el.text for el in cols] == ["0", "1", "2"] and [el.text for el in rows] == ["0", "1"]
    assert [float(el.get("x")) for el in cols] == [12.0, 16.0, 20.0]
    assert all(float(el.get("y")) < 10.0 for el in cols)  # above the grid
    assert all(float(el.get("x")) < 10.0 for el in rows)  # left of it


# -- legend --------------------------------------------------------------------------------------
def test_legend_entries_fill_columns_top_to_bottom():
    seen: list[tuple[str, float, float]] = []

    def swatch(key: str, x: float, y: float, size: float) -> list[str]:
        seen.append((key, x, y))
        return [element("rect", {"x": x, "y": y, "width": size, "height": size})]

    entries = [LegendEntry(k, k.upper(), ("line one", "line two")) for k in "abcde"]
    out = legend_entries(
        entries, 2.0, 3.0, per_column=2, column_width=50.0, row_height=10.0, swatch=swatch
    )
    assert seen == [("a", 2, 3), ("b", 2, 13), ("c", 52, 3), ("d", 52, 13), ("e", 102, 3)]
    root = parse(out)
    labels = [el.text for el in root.iter(f"{NS}text") if el.get("font-weight") == "bold"]
    assert labels == ["A", "B", "C", "D", "E"]
    assert sum(el.text == "line two" for el in root.iter(f"{NS}text")) == 5


@pytest.mark.parametrize("module", [solver.render, svg, pencil, grid, legend])
def test_doctests(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0


def test_fmt_never_prints_scientific_notation():
    assert all("e" not in fmt(v) for v in (1e-9, 123456789.0, -math.pi * 1e5))
