"""A game option given a value of the wrong JSON type is refused naming the option and what it
takes, on every surface: ``load_game`` (a :mod:`solver.errors` class), ``--option`` (one line,
exit 2) and a hint request (a 400 with a code, on the option's field).

Found: guardians' ``level=[3]`` (a list where a solo level is taken) was told "levels are solo
only: it does not apply to a game of 2 players", not that a level is a whole number 1 to 6. The
expected words below are written by hand from the games' declarations (docs/rules/*.md).
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

import solver
from solver.cli import main
from solver.errors import SolverError
from solver.hint.errors import HintError
from solver.hint.position import open_position

from .conftest import Server

LIST, OBJECT, TEXT, FLOAT, BOOL = [3], {"a": 1}, "x", 2.5, True
EVERY = (LIST, OBJECT, TEXT, FLOAT, BOOL)

# (game, option, the other options a game needs, wrong values, words its refusal holds)
DECLARED = [
    ("guardians", "level", {}, EVERY, "one of 1, 2, 3, 4, 5, 6"),
    ("guardians", "level", {"players": 2}, EVERY, "one of 1, 2, 3, 4, 5, 6"),
    ("guardians", "open_backs", {}, (LIST, OBJECT, TEXT, FLOAT, 1), "true or false"),
    ("guardians", "tiles", {}, (LIST, FLOAT, BOOL), "or its JSON form"),
]
"""The games' declared options (``GameSpec.options``: ``--option NAME=VALUE``)."""
OTHERS = [
    ("guardians", "players", {}, EVERY, "1 to 4 players"),
    ("trial", "players", {}, EVERY, "2 to 4 players"),
    ("guardians", "position", {}, (LIST, OBJECT, FLOAT, BOOL), "a Grove, a .grove path"),
    ("dog", "forest", {}, (LIST, OBJECT, FLOAT, BOOL), "a Forest, a path or a puzzle name"),
    ("trial", "pack", {}, (LIST, OBJECT, FLOAT, BOOL), "a Pack or a pack folder's path"),
]
"""``load_game``'s other keywords: the player count and the file a game opens."""


def _cases(table: list) -> list[tuple[str, str, dict, Any, str]]:
    return [(game, name, base, value, words) for game, name, base, values, words in table
            for value in values]  # fmt: skip


@pytest.mark.parametrize(("game", "name", "base", "value", "words"), _cases(DECLARED + OTHERS))
def test_load_game_names_the_option_and_what_it_takes(game, name, base, value, words):
    with pytest.raises(SolverError) as caught:
        solver.load_game(game, **base, **{name: value})
    message = str(caught.value)
    assert name in message and words in message, message


def test_a_solo_level_of_the_wrong_type_is_no_solo_level_question():
    """The issue's case: the type is named whatever the player count."""
    for players in ({}, {"players": 1}, {"players": 2}):
        with pytest.raises(SolverError) as caught:
            solver.load_game("guardians", level=[3], **players)
        assert str(caught.value) == "level takes one of 1, 2, 3, 4, 5, 6, not the list [3]"


def _json(value: Any) -> str:
    import json

    return value if value is TEXT else json.dumps(value)


@pytest.mark.parametrize(("game", "name", "base", "value", "words"), _cases(DECLARED))
def test_option_on_the_command_line_is_one_line(capsys, game, name, base, value, words):
    players = ["--players", str(base["players"])] if "players" in base else []
    code = main([game, "show", *players, "--option", f"{name}={_json(value)}"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"forest: error: --option {name} ") and words in err, err


def _request(game: str, options: dict) -> SimpleNamespace:
    return SimpleNamespace(game=game, engine=None, options=options, state=None, actions=[])


@pytest.mark.parametrize(("game", "name", "base", "value", "words"), _cases(DECLARED))
def test_a_hint_request_names_the_option_field(game, name, base, value, words):
    if name == "tiles" and value is TEXT:
        pytest.skip("a text tiles names a file")
    with pytest.raises(HintError) as caught:
        open_position(_request(game, {**base, name: value}))
    assert caught.value.code == "invalid_request" and caught.value.field == f"options.{name}"
    assert str(caught.value).startswith(f"options.{name} ") and words in str(caught.value)


def test_the_service_answers_400_naming_the_option(server: Server):
    body = {"id": "q1", "game": "guardians", "options": {"players": 2, "level": [3]},
            "actions": [], "limit": {"iterations": 10}}  # fmt: skip
    response = httpx.post(f"{server.url}/v1/hint", json=body, timeout=60)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["code"] == "invalid_request" and error["field"] == "options.level"
    assert error["error"] == "options.level takes one of 1, 2, 3, 4, 5, 6, not the list [3]"


@pytest.mark.parametrize(
    ("game", "options", "field", "said"),
    [
        # a text that reads as a number is no number tiles takes (it was "expected a number")
        (
            "guardians",
            {"tiles": "3"},
            "options.tiles",
            'options.tiles takes the file\'s JSON form (an object) here, not the text "3": this '
            "transport never reads a path",
        ),
        (
            "guardians",
            {"tiles": 3},
            "options.tiles",
            "options.tiles takes a file's path (a text) or its JSON form (an object), not the "
            "number 3",
        ),
        # the file a game opens: what was given is named
        (
            "dog",
            {"forest": 3},
            "options.forest",
            "options.forest must be a puzzle name or a file's text, not the number 3",
        ),
        (
            "guardians",
            {"position": [1]},
            "options.position",
            "options.position must be a puzzle name or a file's text, not the list [1]",
        ),
        # an option of another game: said to be none of this one's
        (
            "dog",
            {"tiles": 3},
            "options.tiles",
            "dog has no option 'tiles'; expected one of forest, players",
        ),
        (
            "trial",
            {"tiles": "x"},
            "options.tiles",
            "trial has no option 'tiles'; expected one of players",
        ),
    ],
)
def test_the_service_names_what_an_option_was_given_and_what_it_takes(
    server: Server, game, options, field, said
):
    """Over HTTP, where no path is read: the refusal names the value given and what the option
    takes there, as ``--option`` does (``--option tiles=3``: ``... not the number 3``)."""
    body = {"id": "q1", "game": game, "options": options, "actions": [],
            "limit": {"iterations": 10}}  # fmt: skip
    response = httpx.post(f"{server.url}/v1/hint", json=body, timeout=60)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["code"] == "invalid_request" and error["field"] == field, error
    assert error["error"] == said


@pytest.mark.parametrize(
    ("options", "limit", "field", "said"),
    [
        ({"level": 1e400}, {}, "options.level", "the number 1e400 is beyond a float's range"),
        (
            {},
            {"iterations": -1e999},
            "limit.iterations",
            "the number -1e999 is beyond a float's range",
        ),
    ],
)
def test_a_number_beyond_a_float_is_quoted_as_the_client_wrote_it(
    server: Server, options, limit, field, said
):
    """It said ``inf is not a finite JSON number``: Python's reading, not the client's text."""
    body = json.dumps({"id": "q", "game": "guardians", "options": options, "limit": limit})
    body = body.replace("-Infinity", "-1e999").replace("Infinity", "1e400")  # as a client wrote
    response = httpx.post(f"{server.url}/v1/hint", content=body, timeout=60,
                          headers={"Content-Type": "application/json"})  # fmt: skip
    assert response.status_code == 400, response.text
    reply = response.json()
    assert (reply["code"], reply["field"]) == ("invalid_request", field), reply
    assert reply["error"].startswith(f"{field}: {said}") and "inf " not in reply["error"]


def test_a_tiles_file_the_engine_cannot_read_is_refused_on_its_field(tmp_path):
    """On stdio, where paths are read: a folder or a device given as ``tiles`` is refused on
    ``options.tiles`` (it was ``options``, the field of the options as a whole)."""
    for path in (str(tmp_path), "/dev/null"):
        with pytest.raises(HintError) as caught:
            open_position(_request("guardians", {"tiles": path}), allow_paths=True)
        assert caught.value.field == "options.tiles", caught.value
        assert str(caught.value).startswith(f"options.tiles: {path}: is a "), caught.value


@pytest.mark.parametrize(
    ("players", "said"),
    [
        (True, "not the boolean true"),
        ("2", 'not the text "2"'),
        ([2], "not the list [2]"),
        (None, None),
        (9, "not 9"),  # a whole number as the command line says it (--players 9)
    ],
)
def test_a_refused_player_count_is_quoted_as_json(players: Any, said: str | None) -> None:
    """Found by attack: a JSON client's ``"players": true`` was refused ``not True`` and ``"2"``
    ``not '2'``, Python's forms of what it never sent; now as the option refusals say a value."""
    request = SimpleNamespace(game="trial", engine=None, options={"players": players},
                              state=None, actions=[])  # fmt: skip
    if said is None:  # null: the default count, no refusal
        open_position(request, allow_paths=False)
        return
    with pytest.raises(HintError) as refused:
        open_position(request, allow_paths=False)
    assert str(refused.value) == f"trial is played by 2, 3, 4 player(s), {said}"
    assert refused.value.field == "options.players"
