"""The hot-seat cover and the move list, in a real headless Chromium against ``forest serve``,
at a phone's width (390 px) and a desktop's (found by helper 79):

- the cover hiding the table between two human seats could be tabbed behind: the focus left
  its button for the set-up form, the moves and the hint under it. The rest of the page is now
  inert while it shows;
- a move-list entry that wraps showed its number beside its last line (the entry's button is
  an inline block, which sits on its last line's baseline): the number is read off the
  screenshot's pixels, beside the first line.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

import solver
from solver.registry import game_spec

from ..conftest import Server
from .conftest import ready as _ready

WIDTHS = [390, 1280]

OUTSIDE_THE_COVER = """() => {
    const node = document.activeElement;
    return node !== null && node !== document.body && !node.closest('#hand-over')
        ? `${node.tagName}#${node.id}` : null;
}"""

DARK_ROWS = """async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const rows = [];
    for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < image.width; x++) {
            const i = 4 * (y * image.width + x);
            if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 3 * 120) { rows.push(y); break; }
        }
    }
    return rows;
}"""
"""The rows of a PNG (base64) holding a dark pixel (text), decoded by the browser itself."""


def _open(browser: Any, server: Server, width: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{server.url}/")
    page.wait_for_function("() => window.table.games.length > 0", timeout=30_000)
    _ready(page)
    return page


def _to_the_cover(page: Any) -> None:
    """A hot-seat session (seats 0 and 1) played on until the cover shows."""
    hidden = next(n for n in solver.registered_games() if game_spec(n).hidden_information)
    page.select_option("#game", hidden)
    page.wait_for_function("() => window.table.session !== null", timeout=60_000)
    _ready(page)
    page.fill("#humans", "0,1")
    page.click("#new-game")
    page.wait_for_function("() => window.table.session !== null "
                           "&& window.table.session.view.humans.length === 2",
                           timeout=60_000)  # fmt: skip
    _ready(page)
    for _ in range(60):
        if page.is_visible("#hand-over"):
            return
        ply = page.evaluate("() => window.table.session.view.ply")
        page.evaluate("() => play(window.table.session.view.moves[0].action)")
        page.wait_for_function(f"() => window.table.session.view.ply > {ply}", timeout=60_000)
        _ready(page)
    raise AssertionError("the view never passed to the other human seat")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_hot_seat_cover_keeps_the_focus(browser: Any, server: Server, width: int) -> None:
    page = _open(browser, server, width)
    try:
        _to_the_cover(page)
        assert page.evaluate("() => document.activeElement.id") == "hand-over-show"
        for key in ["Tab"] * 12 + ["Shift+Tab"] * 12:
            page.keyboard.press(key)
            assert page.evaluate(OUTSIDE_THE_COVER) is None, (key, width)
        ply = page.evaluate("() => window.table.session.view.ply")
        page.keyboard.press("ArrowLeft")  # no stepping behind the cover either
        assert page.evaluate("() => window.table.session.view.ply") == ply
        page.focus("#hand-over-show")
        page.keyboard.press("Enter")
        assert page.is_hidden("#hand-over")
        for _ in range(80):  # uncovered, the moves are reached again
            page.keyboard.press("Tab")
            if page.evaluate("() => !!document.activeElement.closest('#moves')"):
                break
        else:
            raise AssertionError("Tab never reached a move once the cover was taken away")
        assert page.inner_text("#error") == ""
    finally:
        page.close()


LONG = ("a long entry that wraps over several lines of the move list at any width the page "
        "takes, so that its number's place can be seen")  # fmt: skip


@pytest.mark.parametrize("width", WIDTHS)
def test_a_wrapped_move_keeps_its_number_beside_its_first_line(
    browser: Any, server: Server, width: int
) -> None:
    page = _open(browser, server, width)
    try:
        page.evaluate(f"""() => {{
            table.line.push({{action: null, player: 0, label: 'short'}},
                            {{action: null, player: 0, label: {LONG!r}}});
            drawHistory();
            document.querySelector('#history li:last-child').scrollIntoView({{block: 'center'}});
        }}""")
        boxes = page.evaluate("""() => [...document.querySelectorAll('#history li')].slice(-2)
            .map((li) => { const b = li.querySelector('button').getBoundingClientRect();
                           return {left: li.getBoundingClientRect().left, top: b.top,
                                   height: b.height}; })""")  # fmt: skip
        one, long = boxes
        assert long["height"] > 2 * one["height"], boxes  # it wraps
        clip = {"x": long["left"] - 30, "y": long["top"], "width": 28, "height": long["height"]}
        data = base64.b64encode(page.screenshot(clip=clip)).decode("ascii")
        rows = page.evaluate(DARK_ROWS, data)
        assert rows, "no number beside the entry"
        assert max(rows) < one["height"], (rows, boxes, width)  # beside its first line
    finally:
        page.close()
