"""The web table at a phone's width (390 px), found by a new user's pass: the Seats choice's
long option was cut off in its select, and the Trial's board picture (a whole page: the board,
the players' table, the store, the legend) was drawn 358 px wide, its labels unreadable.

The independent measures: the option's text width in the select's own font (a canvas's
``measureText``) against the select's inner width; the picture's drawn width against its box's.
"""

from __future__ import annotations

from typing import Any

from ..conftest import Server
from .test_phone_and_keyboard import PHONE, _fits, _open

ARROW = 24
"""Pixels of a select's width taken by its drop-down arrow and padding (Chromium: about 20)."""

CUT = """() => {
    const select = document.querySelector('#mode');
    const style = getComputedStyle(select);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = `${style.fontSize} ${style.fontFamily}`;
    const widest = Math.max(...[...select.options].map((o) => pen.measureText(o.text).width));
    return {widest, inner: select.clientWidth};
}"""

PICTURE = """() => {
    const box = document.querySelector('#board');
    const svg = box.querySelector('svg');
    return {box: box.getBoundingClientRect().width, svg: svg.getBoundingClientRect().width,
            pressed: document.querySelector('#zoom').getAttribute('aria-pressed'),
            scroll: document.documentElement.scrollWidth,
            width: document.documentElement.clientWidth};
}"""


def test_the_seats_choice_is_not_cut_off_on_a_phone(browser: Any, server: Server) -> None:
    page = _open(browser, server, PHONE, "dog")
    try:
        seen = page.evaluate(CUT)
        assert seen["widest"] + ARROW <= seen["inner"], seen
    finally:
        page.close()


def test_the_trial_picture_zooms_inside_its_box_on_a_phone(browser: Any, server: Server) -> None:
    page = _open(browser, server, PHONE, "trial")
    try:
        fitted = page.evaluate(PICTURE)
        assert fitted["svg"] <= fitted["box"] + 1 and fitted["pressed"] == "false", fitted
        page.click("#zoom")
        zoomed = page.evaluate(PICTURE)
        assert zoomed["svg"] >= 2 * zoomed["box"] and zoomed["pressed"] == "true", zoomed
        assert zoomed["scroll"] <= zoomed["width"], zoomed  # the box scrolls, not the page
        page.click("#zoom")
        assert page.evaluate(PICTURE)["svg"] <= fitted["box"] + 1
        _fits(page, "trial: the picture fitted again")
    finally:
        page.close()
