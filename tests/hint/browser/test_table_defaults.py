"""The web table starts a game as every other surface does, and checks its Size field itself.

Found by a new user: the Players select started at the smallest count a game allows (guardians
as a solo level-1 game, the Trial with 2 players) where ``forest NAME play``, ``load_game(NAME)``,
a hint request without ``options.players`` and the OpenSpiel bridge start the game's own count
(guardians 2, the Trial 4). ``GET /v1/games`` says it (``defaultPlayers``) and the select starts
there; solo guardians stays one choice away (Players 1, which shows the Level select). A Size the
game's generator does not roll (99x2) was sent, and its 400 logged on the console; it is now said
in the form's words before anything is asked, from the game's limits (``sizeRanges``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import solver
from solver.registry import game_spec

from .conftest import ready


def _own_count(name: str) -> int:
    """The count ``load_game`` starts the game with (its first puzzle where it has no default
    set-up): the twin the page is checked against, read without the catalog."""
    spec = game_spec(name)
    options = {} if spec.default_source else {spec.source_option: spec.example}
    return solver.load_game(name, **options).num_players()


def _problems(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


@pytest.mark.parametrize("name", solver.registered_games())
def test_the_table_opens_each_game_at_its_own_player_count(page: Any, name: str) -> None:
    problems = _problems(page)
    own = _own_count(name)
    page.select_option("#game", "dog" if name != "dog" else "trial")  # from another game
    ready(page)
    page.select_option("#game", name)
    page.wait_for_function(f"() => window.table.spec.name === {name!r}")
    ready(page)
    assert page.inner_text("#error") == ""
    assert page.evaluate("() => window.table.position.players") == own
    if len(game_spec(name).players) > 1:
        assert page.input_value("#players") == str(own)
        assert page.evaluate("() => window.table.options.players") == own
    assert not problems, problems


def test_solo_guardians_is_one_choice_away(page: Any) -> None:
    """Players 1 plays guardians solo and shows its Level select, which the default 2 hides."""
    assert _own_count("guardians") == 2 and 1 in game_spec("guardians").players
    page.select_option("#game", "guardians")
    ready(page)
    assert not page.is_visible("#choice-level-label")
    page.select_option("#players", "1")
    page.wait_for_function("() => window.table.options.players === 1")
    ready(page)
    assert page.evaluate("() => window.table.position.players") == 1
    assert page.is_visible("#choice-level-label")
    page.select_option("#choice-level", "2")
    page.wait_for_function("() => window.table.options.level === 2")
    ready(page)
    assert page.inner_text("#error") == ""


@pytest.mark.parametrize("name", [n for n in solver.registered_games()
                                  if (h := game_spec(n).analysis) is not None and h.roll
                                  and game_spec(n).source_option])  # fmt: skip
def test_a_size_out_of_the_games_range_is_said_before_any_request(page: Any, name: str) -> None:
    """Each number just outside the generator's range is refused in the page, naming the range
    (the game's own, ``size_range``), both sides where both are out (``0x0`` named the width
    alone); the first size inside it is rolled."""
    problems = _problems(page)
    (w_low, w_high), (h_low, h_high) = game_spec(name).analysis.sizes()
    page.select_option("#game", name)
    ready(page)
    rolls: list[str] = []
    page.on("request", lambda r: rolls.append(r.url) if r.url.endswith("/v1/roll") else None)
    board = page.inner_html("#board")
    width_said = f"width must be from {w_low} to {w_high}"
    height_said = f"height must be from {h_low} to {h_high}"
    for size, said in ((f"{w_high + 1}x{h_low}", width_said), (f"{w_low - 1}x{h_low}", width_said),
                       (f"{w_low}x{h_high + 1}", height_said),
                       (f"{w_low}x{h_low - 1}", height_said),
                       (f"{w_low - 1}x{h_low - 1}", f"{width_said} and the {height_said}"),
                       (f"{w_high + 1}x{h_high + 1}", f"{width_said} and the {height_said}"),
                       ):  # fmt: skip
        page.fill("#size", size)
        page.click("#roll-new")
        page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
        assert page.inner_text("#error") == f'Size: the {said} for this game (not "{size}")'
        assert page.inner_html("#board") == board  # the game in play stays
        page.evaluate("() => { document.querySelector('#error').textContent = ''; }")
    assert rolls == []
    page.fill("#size", f"{w_low}x{h_low}")
    page.click("#roll-new")
    page.wait_for_function("() => window.table.current !== null")
    ready(page)
    assert page.inner_text("#error") == ""
    assert len(rolls) == 1
    assert not problems, problems  # no 400 logged


def test_a_loaded_record_without_a_count_shows_the_count_it_is_played_by(
    page: Any, tmp_path: Any
) -> None:
    """A record of a solo puzzle that names no count is played solo (the file's own count, as
    ``load_game`` opens it); Players said the game's own 2 beside it, with the Level hidden."""
    puzzle = "guardians/chain"
    assert solver.load_game("guardians", position=puzzle).num_players() == 1
    saved = tmp_path / "solo.json"
    saved.write_text(json.dumps({"game": "guardians", "options": {"position": puzzle},
                                 "seed": 0, "actions": []}))  # fmt: skip
    page.set_input_files("#load", str(saved))
    page.wait_for_function("() => window.table.position?.game === 'guardians'")
    ready(page)
    assert page.inner_text("#error") == ""
    assert page.evaluate("() => window.table.position.players") == 1
    assert page.input_value("#players") == "1"
    assert page.is_visible("#choice-level-label")
