"""Words of the web table a new user's pass (h124) found wrong, in a real Chromium: a full
server's refusal of a session, a winner on the tie-break, and a review graph's caption joined
from its ranges' words."""

from __future__ import annotations

import json
from typing import Any

from solver.render.ascii import chance_step

from .conftest import ready

REFUSED = ("the server keeps as many table sessions as it can, all in use: retry after 885 s "
           "(a session unused for 900 s may then make room)")  # fmt: skip


def test_a_full_server_s_refusal_of_a_session_says_what_plays_now(page: Any) -> None:
    """``503 too_many_sessions`` on a session's start read "Error: the position could not be
    shown." (no position had failed: no game was started) with no word of the analysis board,
    which needs no session. The status says the server is full, the error line gives the
    server's words and the way to play now, and that way plays."""
    body = json.dumps({"id": None, "error": REFUSED, "field": None,
                       "code": "too_many_sessions", "version": 1})  # fmt: skip
    page.route(
        "**/v1/table/start",
        lambda route: route.fulfill(
            status=503, body=body, content_type="application/json", headers={"Retry-After": "885"}
        ),
    )
    page.select_option("#game", "trial")  # a hidden-card game starts as a session
    page.wait_for_function("() => document.querySelector('#status').dataset.state === 'error'")
    assert page.input_value("#mode") == "session"
    assert page.inner_text("#status") == "No new game against the engines: the server is full."
    error = page.inner_text("#error")
    assert error.startswith(REFUSED) and "Seats: every seat here (the analysis board)" in error
    page.select_option("#mode", "board")
    page.click("#new-game")
    page.wait_for_function("() => window.table.position !== null")
    ready(page)
    assert page.get_attribute("#status", "data-state") in {"chance", "decision"}
    assert page.inner_text("#error") == ""


def test_a_winner_on_the_tie_break_is_said_so(page: Any) -> None:
    """A two-player guardians game both players ended at 0 VP, player 0 winning on fewer tiles,
    read "Game over: player 0 won (scores 0, 0)."; the picture alone said the tie-break."""
    said = page.evaluate(
        "() => [overText([1, 0], [0, 0]), overText([0, 1], [3, 5]),"
        " overText([0.5, 0.5], [4, 4]), overText([1, 0, 0], [7, 7, 2])]"
    )
    assert said == ["Game over: player 0 won on the tie-break (scores 0, 0).",
                    "Game over: player 1 won (scores 3, 5).",
                    "Game over: a tie (scores 4, 4).",
                    "Game over: player 0 won on the tie-break (scores 7, 7, 2)."]  # fmt: skip


def test_a_line_s_chance_step_says_it_is_one_possible_outcome(page: Any) -> None:
    """A hint line's chance step showed "(reveal tile 46: E-G-R-P-E)", which a new user read as
    the tile's real hidden side: the table now says "(if ...)", the command line's words."""
    label = "reveal tile 46: E-G-R-P-E"
    shown = page.evaluate("(label) => chanceStep(label)", label)
    assert shown == "(if reveal tile 46: E-G-R-P-E)" == chance_step(label)


def test_the_graph_caption_names_the_end_s_value_once(page: Any) -> None:
    """The review's ranges each name their own words; a range valued by the finished game alone
    says "K at the game's end" (solver.review), which a range saying K of its own positions
    covers: an exact dog review reads "exact win probability" once, a guardians one keeps its
    estimates apart from the end's exact value."""
    end = "exact win probability at the game's end"
    cases = [["exact win probability", end],
             [f"heuristic estimate of the win probability / {end}", end],
             [end, "exact win probability"],
             ["heuristic estimate of the win probability", "exact win probability"]]  # fmt: skip
    joined = page.evaluate("(cases) => cases.map(([a, b]) => mergedLabels(a, b))", cases)
    assert joined == [
        "exact win probability",
        f"heuristic estimate of the win probability / {end}",
        "exact win probability",
        "heuristic estimate of the win probability / exact win probability",
    ]


def _session(page: Any, name: str, select: str, value: str) -> None:
    """Game ``name`` with ``select`` set to ``value``, started as a session."""
    page.select_option("#game", name)
    page.wait_for_function(f"() => window.table.spec.name === {name!r}")
    ready(page)
    page.select_option(select, value)
    page.click("#new-game")
    page.wait_for_function("() => window.table.session !== null")
    ready(page)


def test_take_back_in_a_session_waits_for_a_move_of_the_seat(page: Any) -> None:
    """In a session, *Take back* was enabled before the human seat had moved: the server refused
    it ("no move of a human seat to take back") and the page cleared the board to "Error: the
    position could not be shown." while the session went on. It is enabled once the seat has
    a move to take back, and disabled again when that move is taken back."""
    _session(page, "dog", "#mode", "session")
    assert page.get_attribute("#status", "data-state") == "decision"
    assert page.is_disabled("#take-back")
    ply = page.evaluate("() => window.table.session.view.ply")
    page.click("#moves > button[data-action] >> nth=0")
    page.wait_for_function(f"() => window.table.session.view.ply > {ply}")
    ready(page)
    assert page.is_enabled("#take-back")
    page.click("#take-back")
    page.wait_for_function(f"() => window.table.session.view.ply === {ply}")
    ready(page)
    assert page.is_disabled("#take-back") and page.inner_text("#error") == ""
    assert page.get_attribute("#status", "data-state") == "decision"


def test_a_loss_within_the_noise_is_shown_in_the_move_list(page: Any, tmp_path: Any) -> None:
    """`forest trial review` marks a decision whose loss was within the search's noise `noise`
    in its mark column; the web table's move list showed nothing there, so the two reviews of
    one record looked different (a new user's pass). The entry carries a ``≈`` whose tooltip
    says it, at the plies the command line's review (solver.review, the same searches) finds."""
    from pathlib import Path

    from solver.review import review_record

    data = Path(__file__).resolve().parents[2] / "games" / "trial" / "data"
    whole = json.loads((data / "first-option-game.json").read_text())
    record = {key: whole[key] for key in ("game", "options", "seed")}
    record["actions"] = whole["actions"][:40]  # the option-1 player's first decisions
    noisy = {d["ply"] for d in review_record(record)["decisions"] if d["withinNoise"]}
    assert noisy  # ply 34: the start space, searched three times
    path = tmp_path / "first-option-40.json"
    path.write_text(json.dumps(record))
    page.set_input_files("#load", str(path))
    page.wait_for_function("() => window.table.actions.length === 40")
    ready(page)
    page.click("#review")
    page.wait_for_function(
        "() => window.table.review && !window.table.review.running", timeout=120_000
    )
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#history button[data-noise]')]"
        ".map((b) => Number(b.dataset.ply))"
    )
    assert set(shown) == noisy
    title = page.get_attribute(f"#history button[data-ply='{min(noisy)}'] .noise", "title")
    assert title is not None and title.startswith("noise: ") and "counted accurate" in title


def test_a_session_left_by_its_save_says_so_on_the_board(page: Any, tmp_path: Any) -> None:
    """Saving a Trial session before its end leaves it (its record holds every seat's cards)
    and shows the game so far on the analysis board: the status read "Player 0 to move." alone,
    the engines no longer playing the other seats. It says the game against the engines was
    left; a new game or a loaded file no longer says it."""
    _session(page, "trial", "#players", "2")  # a session: the Trial's own default
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_download() as waiting:
        page.click("#save-record")
    saved = tmp_path / "left.json"
    waiting.value.save_as(str(saved))
    page.wait_for_function("() => window.table.session === null")
    ready(page)
    left = "The game against the engines was left here when it was saved"
    assert page.inner_text("#status").startswith("Player 0 to move. " + left)
    page.set_input_files("#load", str(saved))
    page.wait_for_function("() => window.table.session === null && window.table.busy === 0")
    ready(page)
    assert left not in page.inner_text("#status")
