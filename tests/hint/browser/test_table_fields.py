"""The table's fields and files, as a new user met them (helper 92's defects): the Dice seed
took -1 and an empty or unreadable field ("abc") as 0, starting or rolling with a seed the page
made up; a record over the server's body limit said "the body is larger than 65536 bytes";
in a hot-seat session "View from" stayed on player 0 while seat 1 played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import ready


def _play_first_move(page: Any) -> None:
    page.evaluate("() => play(window.table.position.moves[0].action)")
    page.wait_for_function("() => window.table.actions.length === 1")
    ready(page)


@pytest.mark.parametrize("typed", ["-1", "1.5", "9007199254740993", "", "1e"])
def test_the_dice_seed_refuses_what_is_no_whole_number_in_range(page: Any, typed: str) -> None:
    page.select_option("#game", "dog")
    ready(page)
    _play_first_move(page)
    forest = page.evaluate("() => window.table.options.forest")
    page.fill("#seed", "")
    page.locator("#seed").press_sequentially(typed)  # "1e": what Chromium lets letters leave
    for button in ("#new-game", "#roll-new"):
        page.click(button)
        error = page.inner_text("#error")
        assert error.startswith("Dice seed: a whole number from 0 to "), error
        shown = f'not "{typed}"' if typed != "1e" else "not what was typed"
        assert (shown if typed else "the field is empty") in error, error
        ready(page)  # nothing started: the game in play stays, its move too
        assert page.evaluate("() => window.table.actions.length") == 1
        assert page.evaluate("() => window.table.options.forest") == forest
    page.fill("#seed", "7")
    page.click("#new-game")
    page.wait_for_function("() => window.table.actions.length === 0")
    assert page.inner_text("#error") == "" and page.evaluate("() => window.table.seed") == 7


def _load_big(page: Any, folder: Path, size: int) -> str:
    """The error the table shows for a dog record of about ``size`` bytes loaded as big.json."""
    big = folder / "big.json"
    big.write_text(json.dumps({"game": "dog", "options": {"forest": "x" * size},
                               "actions": []}))  # fmt: skip
    page.set_input_files("#load", str(big))
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    return str(page.inner_text("#error"))


def test_a_record_over_the_body_limit_names_the_file_and_the_limit(
    page: Any, tmp_path: Path
) -> None:
    # over the test server's 65536 bytes (SERVE_OPTIONS)
    assert _load_big(page, tmp_path, 1_300_000) == (
        "big.json is 1.3 MB; the table loads records up to 64 KiB "
        "(use forest dog review for bigger ones)"
    )


def test_the_limit_is_said_in_the_server_s_words(page: Any, tmp_path: Path) -> None:
    """The table worded the limit itself from X-Max-Body-Bytes (a copy of the server's
    solver.files.bytes_said); it now shows the server's X-Max-Body-Said as sent, here rewritten
    on its way so that only those words can give it."""

    def reworded(route: Any) -> None:
        response = route.fetch()
        headers = dict(response.headers)
        if response.status == 413:
            headers["x-max-body-said"] = "the server's sixty-four kibibytes"
        route.fulfill(response=response, headers=headers)

    page.route("**/v1/**", reworded)
    assert _load_big(page, tmp_path, 70_000) == (
        "big.json is 70 kB; the table loads records up to the server's sixty-four kibibytes "
        "(use forest dog review for bigger ones)"
    )


def test_view_from_follows_the_seat_to_move_in_a_hot_seat_session(page: Any) -> None:
    for field, value in (("#game", "guardians"), ("#mode", "session"), ("#players", "2")):
        page.select_option(field, value)
        ready(page)
    page.fill("#humans", "0,1")
    page.click("#new-game")
    page.wait_for_function("() => window.table.session !== null && !window.table.sessionBusy "
                           "&& window.table.session.view.humans.length === 2")  # fmt: skip
    seats = set()
    for _ in range(40):
        view = page.evaluate("() => window.table.session.view")
        if view["terminal"] or seats == {0, 1}:
            break
        assert page.input_value("#seat") == str(view["seat"]), view["seat"]
        assert page.is_disabled("#seat")  # the server's view is the mover's: no other to pick
        seats.add(view["seat"])
        page.evaluate("() => play(window.table.session.view.moves[0].action)")
        page.wait_for_function(f"() => !window.table.sessionBusy && window.table.busy === 0 && "
                               f"window.table.session.view.ply > {view['ply']}")  # fmt: skip
        if page.is_visible("#hand-over"):
            page.click("#hand-over-show")
    assert seats == {0, 1}
    page.select_option("#mode", "board")  # the analysis board: any seat may be chosen again
    ready(page)
    assert page.is_enabled("#seat") and page.input_value("#seat") == "0"
