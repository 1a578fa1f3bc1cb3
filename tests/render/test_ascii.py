"""Tests of the shared plain-text layouts (solver.render.ascii)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import OptionError
from solver.render import ascii as ascii_module
from solver.render.ascii import legend_lines, one_line, text_grid

cell = st.text(alphabet="abcXY.#", min_size=1, max_size=3)


@given(
    st.integers(1, 6).flatmap(
        lambda w: st.lists(st.lists(cell, min_size=w, max_size=w), min_size=1, max_size=12)
    )
)
def test_text_grid_aligns_every_entry_under_its_column_label(rows):
    lines = text_grid(rows)
    assert len(lines) == len(rows) + 1
    header = lines[0]
    width = len(rows[0])
    for r, row in enumerate(rows):
        line = lines[r + 1]
        assert line == line.rstrip()
        assert line.startswith(str(r).rjust(len(str(len(rows) - 1))) + "  ")
        for c, entry in enumerate(row):
            # the entry ends in the same column as its label (both right-aligned)
            end_of_label = _label_end(header, c, width)
            assert line[end_of_label - len(entry) : end_of_label] == entry


def _label_end(header: str, col: int, width: int) -> int:
    """Where column ``col``'s label ends in the header (labels are the numbers 0..width-1)."""
    tokens = header.split()
    assert tokens == [str(c) for c in range(width)]
    pos = 0
    for c in range(col + 1):
        pos = header.index(str(c), pos) + len(str(c))
    return pos


def test_text_grid_custom_labels_and_errors():
    assert text_grid([["a", "b"]], col_labels=["x", "yy"], row_labels=["r"], gap=" | ") == [
        "     x yy",
        "r |  a  b",
    ]
    with pytest.raises(OptionError, match="equal length"):
        text_grid([["a"], ["b", "c"]])
    with pytest.raises(OptionError, match="one label"):
        text_grid([["a"]], col_labels=["x", "y"])


def test_one_line_drops_control_characters():
    assert one_line("a\r\nb\x00c\td ") == "a  b c d"


def test_legend_lines_align_meanings():
    lines = legend_lines([("x", "a mark"), ("^ v", "scent\ntrail")])
    assert lines == ["legend:", "  x    a mark", "  ^ v  scent trail"]
    assert legend_lines([], title=None) == []


def test_doctests():
    failures, tried = doctest.testmod(ascii_module)
    assert tried > 0 and failures == 0
