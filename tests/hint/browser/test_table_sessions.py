"""W3: the web table in a real headless Chromium against a real ``forest serve``.

After a failed refresh the table kept the previous game's board and Roll/Hint acted on it;
``display: flex`` showed labels marked ``hidden``; choosing 2 players in guardians sent its first
(solo) puzzle and failed. Now: a failed request leaves a clean, visible error state; ``hidden``
always hides; a player count starts the game's default set-up; every game starts on the table.
"""

from __future__ import annotations

from typing import Any

import pytest

import solver
from solver.registry import game_spec


def _ready(page: Any) -> None:
    page.wait_for_function(
        "() => window.table.busy === 0 && (window.table.position !== null "
        "|| document.querySelector('#status').dataset.state === 'error')",
        timeout=60_000,
    )


@pytest.mark.parametrize("name", solver.registered_games())
def test_every_game_starts_on_the_table(page: Any, name: str) -> None:
    page.select_option("#game", name)
    page.wait_for_function(f"() => window.table.spec.name === {name!r}")
    _ready(page)
    position = page.evaluate("() => window.table.position")
    assert position is not None and position["game"] == name, page.inner_text("#error")
    assert page.inner_text("#error") == ""
    assert page.get_attribute("#status", "data-state") in ("chance", "decision")
    spec = game_spec(name)
    if spec.render_svg is not None and not spec.hidden_information:
        assert page.query_selector("#board svg") is not None
    elif spec.hidden_information:  # a session: the seat's own view (its picture, or text)
        assert page.evaluate("() => window.table.session !== null")
        assert page.query_selector("#board svg") is not None or page.inner_text("#text-board")
    # a hint on the position, labelled by its method
    page.fill("#iterations", "40")
    page.click("#hint")
    page.wait_for_function("() => window.table.lastHint !== null && window.table.busy === 0",
                           timeout=60_000)  # fmt: skip
    assert page.get_attribute("#root-value", "data-method") in ("exact", "mcts", "ismcts")


def test_a_player_count_starts_the_default_set_up(page: Any) -> None:
    spec = game_spec("guardians")
    assert spec.default_source and 2 in spec.players
    page.select_option("#game", "guardians")
    _ready(page)
    page.select_option("#players", "1")  # a solo puzzle on the table first (the game opens at 2)
    page.wait_for_function("() => window.table.options.players === 1")
    _ready(page)
    page.select_option("#puzzle", "guardians/chain")
    page.wait_for_function("() => window.table.options.position === 'guardians/chain'")
    _ready(page)
    page.select_option("#players", "2")
    page.wait_for_function("() => window.table.options.players === 2")
    _ready(page)
    options = page.evaluate("() => window.table.options")
    assert options == {"players": 2}  # no solo puzzle sent along
    assert page.evaluate("() => window.table.position") is not None
    assert page.inner_text("#error") == ""


def test_a_failed_request_leaves_a_clean_visible_error_state(page: Any) -> None:
    page.select_option("#game", "dog")
    _ready(page)
    assert page.query_selector("#board svg") is not None  # a board to lose
    failure = '{"id": null, "error": "no such position", "field": null, "code": "bad_game"}'
    page.route("**/v1/position", lambda route: route.fulfill(
        status=400, content_type="application/json", body=failure))  # fmt: skip
    page.click("#new-game")
    page.wait_for_function(
        "() => document.querySelector('#status').dataset.state === 'error'", timeout=30_000
    )
    assert page.evaluate("() => window.table.position") is None
    assert page.inner_html("#board") == "" and page.inner_html("#moves") == ""
    assert not page.is_visible("#chance") and page.is_disabled("#hint")
    assert "no such position" in page.inner_text("#error") and page.is_visible("#error")
    # Roll and Hint do nothing now (no request with the old position is sent)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    page.evaluate("() => { roll(); hint(); }")
    page.wait_for_timeout(300)
    assert not [url for url in sent if "/v1/" in url]
    page.unroute("**/v1/position")
    page.click("#new-game")
    _ready(page)
    assert page.evaluate("() => window.table.position") is not None
    assert page.get_attribute("#status", "data-state") != "error"


def test_a_late_board_answer_never_lands_on_the_session_started_after_it(page: Any) -> None:
    # Defect: choosing a game, then the session mode before its board had come, drew the late
    # board on the session's page: 'Chance: roll or draw', no move buttons, the session set.
    page.select_option("#game", "dog")
    _ready(page)
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:  # the board's answer waits until released
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/v1/position", hold_the_first)
    page.click("#new-game")
    page.wait_for_function("() => window.table.busy > 0", timeout=30_000)
    page.select_option("#mode", "session")
    page.wait_for_function("() => window.table.session !== null && window.table.busy === 1",
                           timeout=60_000)  # fmt: skip
    assert len(held) == 1
    session_view = page.evaluate("() => window.table.position")
    held[0].continue_()  # now the old game's board answers
    page.wait_for_function("() => window.table.busy === 0", timeout=30_000)
    assert page.evaluate("() => window.table.position") == session_view
    assert page.evaluate("() => window.table.session !== null")
    assert page.get_attribute("#status", "data-state") != "chance"
    assert page.query_selector_all("#moves button"), page.inner_text("#status")


def test_hidden_always_hides(page: Any) -> None:
    for name in solver.registered_games():
        spec = game_spec(name)
        page.select_option("#game", name)
        _ready(page)
        assert page.is_visible("#players-label") == (len(spec.players) > 1)
        assert page.is_visible("#puzzle-label") == bool(
            spec.puzzles and solver.puzzles.names(spec.puzzles)
        )
        row = next(g for g in page.evaluate("() => window.table.games") if g["name"] == name)
        assert page.is_visible("#size-label") == row["roll"]


def test_the_opponent_plays_the_chosen_level_of_the_ladder(page: Any) -> None:
    page.select_option("#game", "guardians")
    _ready(page)
    page.select_option("#players", "2")
    _ready(page)
    assert not page.is_visible("#strength-label")  # the analysis board has no opponent
    page.select_option("#mode", "session")
    assert page.is_visible("#strength-label")
    levels = page.eval_on_selector_all("#strength option", "els => els.map(e => e.value)")
    assert levels == ["", *(str(k) for k in range(1, 11))]
    page.select_option("#strength", "3")
    with page.expect_request("**/v1/table/start") as started:
        page.click("#new-game")
    _ready(page)
    assert started.value.post_data_json["agent"] == "level3"
    assert page.evaluate("() => window.table.session !== null"), page.inner_text("#error")
    assert page.inner_text("#error") == ""


@pytest.mark.parametrize("name", [n for n in solver.registered_games()
                                  if len(game_spec(n).players) > 1])  # fmt: skip
def test_every_player_count_starts_from_the_default_set_up(page: Any, name: str) -> None:
    """Each player count of a game starts its default set-up (a session where the game hides
    cards): the picture shows every player (guardians' forests, the Trial's scoreboard rows)."""
    spec = game_spec(name)
    page.select_option("#game", name)
    _ready(page)
    for players in spec.players:
        page.select_option("#players", str(players))
        page.wait_for_function(f"() => window.table.options.players === {players} "
                               "&& window.table.busy === 0", timeout=60_000)  # fmt: skip
        _ready(page)
        assert page.inner_text("#error") == "", (players, page.inner_text("#error"))
        assert page.evaluate("() => window.table.position.players") == players
        drawn = page.locator("#board svg [data-player], #board svg .scoreboard text.fame")
        assert drawn.count() == players


def test_a_session_takes_one_step_at_a_time(page: Any) -> None:
    """While the engine seats play a step, the page says so and takes no second move (the server
    would answer 'busy' and the page showed that error over the board); a new game started
    meanwhile drops the old step's answer."""
    hidden = next(n for n in solver.registered_games() if game_spec(n).hidden_information)
    page.select_option("#game", hidden)
    page.wait_for_function("() => window.table.session !== null && window.table.busy === 0",
                           timeout=60_000)  # fmt: skip
    ply = page.evaluate("() => window.table.session.view.ply")
    states = page.evaluate("""() => {
        const moves = window.table.position.moves;
        play(moves[0].action);
        const during = document.querySelector('#status').dataset.state;
        play(moves[moves.length - 1].action);
        return [during, document.querySelector('#hint').disabled];
    }""")
    assert states == ["waiting", True]
    page.wait_for_function(f"() => window.table.busy === 0 && window.table.session "
                           f"&& window.table.session.view.ply > {ply}", timeout=60_000)  # fmt: skip
    assert page.inner_text("#error") == ""
    assert page.get_attribute("#status", "data-state") in ("decision", "over")
    # a step still running when a new game starts: its answer is dropped
    old = page.evaluate("() => window.table.session.id")
    page.evaluate("() => { play(window.table.position.moves[0].action); newGame(); }")
    page.wait_for_function("() => window.table.busy === 0 && window.table.session "
                           f"&& window.table.session.id !== {old!r}", timeout=60_000)  # fmt: skip
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.table.session.id") != old
    assert page.inner_text("#error") == ""


def test_hot_seat_covers_the_table_while_the_device_passes(page: Any) -> None:
    """Several human seats in a session (hot seat): when the view passes to another human seat
    the table is covered ('pass the device to player N') until that player asks for it, so the
    one who just moved does not see the next one's hand; the same seat moving again is not
    covered."""
    hidden = next(n for n in solver.registered_games() if game_spec(n).hidden_information)
    page.select_option("#game", hidden)
    page.wait_for_function("() => window.table.session !== null && window.table.busy === 0",
                           timeout=60_000)  # fmt: skip
    page.fill("#humans", "0,1")
    page.click("#new-game")
    page.wait_for_function("() => window.table.session !== null && window.table.busy === 0 "
                           "&& window.table.session.view.humans.length === 2",
                           timeout=60_000)  # fmt: skip
    assert page.is_hidden("#hand-over")
    passed = 0
    for _ in range(40):
        view = page.evaluate("() => window.table.session.view")
        if view["terminal"] or passed >= 2:
            break
        page.evaluate("() => play(window.table.session.view.moves[0].action)")
        page.wait_for_function(f"() => window.table.busy === 0 && "
                               f"window.table.session.view.ply > {view['ply']}")  # fmt: skip
        after = page.evaluate("() => window.table.session.view")
        if after["seat"] == view["seat"]:
            assert page.is_hidden("#hand-over")
            continue
        assert page.is_visible("#hand-over")
        assert f"player {after['seat']}" in page.inner_text("#hand-over")
        page.click("#hand-over-show")
        assert page.is_hidden("#hand-over")
        mine = page.evaluate("() => window.table.position.panels")
        assert any(f"you, player {after['seat']}" in item["text"]
                   for panel in mine for item in panel["items"])  # fmt: skip
        passed += 1
    assert passed >= 2
    assert page.inner_text("#error") == ""


def test_the_page_goes_on_while_the_engines_are_still_to_move(page: Any) -> None:
    """A step whose seconds run out answers ``enginePending`` with an engine seat to move; the
    page asks for the next view until a human seat is (every start here is sent with a budget
    so small that each step makes one engine decision)."""
    import json

    def tiny_budget(route: Any) -> None:
        body = {**route.request.post_data_json, "seconds": 1e-3}
        route.continue_(post_data=json.dumps(body))

    page.select_option("#game", "trial")
    _ready(page)
    page.select_option("#players", "4")
    _ready(page)
    page.fill("#humans", "3")  # three engine seats move first
    page.route("**/v1/table/start", tiny_budget)
    views: list[str] = []
    page.on("request", lambda request: views.append(request.url) if "/table/view" in
            request.url else None)  # fmt: skip
    page.click("#new-game")
    page.wait_for_function(
        "() => window.table.session !== null && window.table.session.view.seat === 3 "
        "&& window.table.position.moves.length > 0 && !window.table.sessionBusy",
        timeout=60_000,
    )
    assert page.evaluate("() => window.table.session.view.enginePending") is False
    assert views, "no step ran out of time: the budget did not cut"
    assert "ran out" in page.inner_text("#status")  # the cut move, labelled on the page too
    assert page.inner_text("#error") == ""


def test_a_solo_level_is_chosen_on_the_table_and_kept(page: Any) -> None:
    # the table had no way to play guardians solo above level 1 (found by the new-user pass):
    # the game's declared choices (option_choices: the level, for one player) are a list
    choice = game_spec("guardians").option_choices["level"]
    page.select_option("#game", "guardians")
    _ready(page)
    page.select_option("#players", "1")  # the game opens at its own 2 players: solo is chosen
    page.wait_for_function("() => window.table.options.players === 1")
    _ready(page)
    assert page.is_visible("#choice-level-label")  # one player: the level applies
    values = page.eval_on_selector_all("#choice-level option", "els => els.map(e => e.value)")
    assert values == [str(v) for v in choice.values]
    page.select_option("#choice-level", "3")
    page.wait_for_function("() => window.table.options.level === 3")
    _ready(page)
    assert page.inner_text("#error") == ""
    assert "level 3 (74 VP to win)" in page.inner_html("#board")  # the picture says it
    # in a session too: the server keeps the level
    page.select_option("#mode", "session")
    with page.expect_request("**/v1/table/start") as started:
        page.click("#new-game")
    _ready(page)
    assert started.value.post_data_json["options"]["level"] == 3, page.inner_text("#error")
    # two players: no level (it is refused there), none sent
    page.select_option("#mode", "board")
    page.select_option("#players", "2")
    page.wait_for_function("() => window.table.options.players === 2")
    _ready(page)
    assert not page.is_visible("#choice-level-label")
    assert page.evaluate("() => window.table.options") == {"players": 2}
    for name in solver.registered_games():  # games without choices show none
        if not game_spec(name).option_choices:
            page.select_option("#game", name)
            _ready(page)
            assert page.inner_html("#choices") == ""
