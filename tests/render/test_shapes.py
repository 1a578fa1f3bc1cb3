"""Tests of the shared SVG shapes (solver.render.shapes): geometry and paint land where asked."""

from __future__ import annotations

import doctest
import xml.etree.ElementTree as ET

import pytest

from solver.render import shapes
from solver.render.shapes import circle, line, polygon, polyline, token
from solver.render.svg import document

NS = "{http://www.w3.org/2000/svg}"


def test_circle_with_and_without_a_stroke():
    plain = ET.fromstring(circle(1.0, 2.0, 3.0, fill="#abc"))
    assert plain.attrib == {"cx": "1", "cy": "2", "r": "3", "fill": "#abc"}
    framed = ET.fromstring(
        circle(1.0, 2.0, 3.0, fill="none", stroke="#000", stroke_width=0.25, class_="pawn")
    )
    assert framed.get("stroke-width") == "0.25" and framed.get("class") == "pawn"


def test_line_extra_attributes_follow_the_main_ones():
    out = line(0.0, 1.0, 2.0, 3.0, stroke="red", stroke_width=0.5, stroke_dasharray="1 1")
    assert out == (
        '<line x1="0" y1="1" x2="2" y2="3" stroke="red" stroke-width="0.5" stroke-dasharray="1 1"/>'
    )


def test_polygon_and_polyline_pass_every_point():
    coords = [(0.0, 0.0), (4.0, 0.0), (2.0, 3.5)]
    shape = ET.fromstring(polygon(coords, fill="#0f0", class_="hex"))
    assert shape.get("points") == "0,0 4,0 2,3.5" and shape.get("fill") == "#0f0"
    path = ET.fromstring(polyline(iter(coords), stroke="#00f", opacity="0.5"))
    assert path.get("points") == "0,0 4,0 2,3.5"
    assert (path.get("fill"), path.get("stroke"), path.get("opacity")) == ("none", "#00f", "0.5")


@pytest.mark.parametrize("label", ["7", "12", "A"])
def test_token_label_sits_inside_its_disc(label):
    root = ET.fromstring(
        document(50.0, 50.0, token(20.0, 30.0, 4.0, label, fill="#fff", label_class="n"))
    )
    disc = root.find(f"{NS}circle")
    (mark,) = [el for el in root.iter(f"{NS}text")]
    assert mark.text == label and mark.get("class") == "n"
    assert mark.get("text-anchor") == "middle" and mark.get("x") == disc.get("cx")
    size, baseline = float(mark.get("font-size")), float(mark.get("y"))
    top = baseline - 0.7 * size  # cap height of the font, about 0.7 em
    assert 30.0 - 4.0 < top < 30.0 < baseline < 30.0 + 4.0


def test_token_without_label_is_a_disc():
    assert len(token(0.0, 0.0, 1.0, fill="#000")) == 1


def test_doctests():
    failures, tried = doctest.testmod(shapes)
    assert tried > 0 and failures == 0
