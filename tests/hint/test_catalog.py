"""JSON the same way everywhere: ``forest games --json`` and ``GET /v1/games`` are the same rows
(one describer, solver/catalog.py), and each capability a row advertises is accepted by the
endpoint that uses it, and refused where it is not advertised."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

import solver
from solver.registry import game_spec

from .conftest import TIMEOUT, Server


@pytest.fixture(scope="module")
def rows(server: Server) -> list[dict]:
    return httpx.get(f"{server.url}/v1/games", timeout=30).json()


def test_forest_games_json_carries_every_field_of_v1_games(rows: list[dict]) -> None:
    out = subprocess.run([sys.executable, "-m", "solver.cli", "games", "--json"],
                         capture_output=True, text=True, timeout=TIMEOUT, check=True)  # fmt: skip
    assert json.loads(out.stdout) == rows
    assert {row["name"] for row in rows} == set(solver.registered_games())
    for row in rows:  # the fields the command printed before stay
        assert {"name", "engines", "players", "title", "summary"} <= set(row)


def _position_options(name: str) -> dict:
    spec = game_spec(name)
    options: dict = {"players": spec.players[0]} if len(spec.players) > 1 else {}
    if not spec.default_source:
        options[spec.source_option] = solver.puzzles.names(spec.puzzles)[0]
    return options


def _post(server: Server, path: str, body: dict) -> httpx.Response:
    return httpx.post(f"{server.url}{path}", json=body, timeout=120)


@pytest.mark.parametrize("name", solver.registered_games())
def test_each_advertised_capability_is_accepted_and_no_other(
    server: Server, rows: list[dict], name: str
) -> None:
    row = next(r for r in rows if r["name"] == name)
    options = _position_options(name)
    hint = _post(server, "/v1/hint", {"id": "c", "game": name, "options": options,
                                      "exact": True, "limit": {"iterations": 20}})  # fmt: skip
    if row["exact"]:
        assert hint.status_code == 200, hint.text
    else:
        assert hint.status_code == 400 and hint.json()["code"] == "unsupported"
    source = row["sourceOption"]
    analyse = _post(server, "/v1/analyse", {"game": name, "options": options})
    if row["analysis"]:
        assert analyse.json().get("code") != "unsupported", analyse.text
    else:
        assert analyse.status_code == 400 and analyse.json()["code"] == "unsupported"
    roll = _post(server, "/v1/roll", {"game": name, "seed": 1})
    if row["roll"]:
        assert roll.status_code in (200, 400) and roll.json().get("code") != "unsupported"
    else:
        assert roll.status_code == 400 and roll.json()["code"] == "unsupported"
    review = _post(server, "/v1/review", {"game": name, "options": options, "actions": [],
                                          "limit": {"iterations": 20}})  # fmt: skip
    assert row["review"] is True and review.status_code == 200, review.text
    position = _post(server, "/v1/position", {"game": name, "options": options})
    assert position.status_code == 200 and (position.json()["svg"] is not None) == row["svg"]
    assert source == game_spec(name).source_option


@pytest.mark.parametrize("name", solver.registered_games())
def test_default_players_is_the_count_every_surface_starts_with(
    server: Server, rows: list[dict], name: str
) -> None:
    """Found by a new user: the web table started guardians solo and the Trial with 2 players
    (the smallest counts) where the command line, ``load_game(NAME)``, a hint request without
    ``options.players`` and the OpenSpiel bridge start 2 and 4. ``defaultPlayers`` says the
    game's own count, checked against ``load_game`` and the service's position answer."""
    row = next(r for r in rows if r["name"] == name)
    spec = game_spec(name)
    options = {} if spec.default_source else {spec.source_option: spec.example}
    own = solver.load_game(name, **options).num_players()
    position = _post(server, "/v1/position", {"game": name, "options": options})
    assert position.status_code == 200, position.text
    assert row["defaultPlayers"] == own == position.json()["players"]
    assert own in row["players"]


def test_default_players_is_not_merely_the_smallest_count(rows: list[dict]) -> None:
    """So the test above tells the game's own count from the smallest (what the table used)."""
    assert any(row["defaultPlayers"] > min(row["players"]) for row in rows)


@pytest.mark.parametrize("name", solver.registered_games())
def test_size_ranges_are_the_sizes_v1_roll_accepts(
    server: Server, rows: list[dict], name: str
) -> None:
    """``sizeRanges`` (what the table checks its Size field against) is what the roll endpoint
    accepts: each bound rolls, one past it is refused on that number; ``null`` without ``roll``."""
    row = next(r for r in rows if r["name"] == name)
    if not row["roll"]:
        assert row["sizeRanges"] is None
        return
    ranges = row["sizeRanges"]
    assert set(ranges) == {"width", "height"}
    low = {field: bounds[0] for field, bounds in ranges.items()}
    for field, (first, last) in ranges.items():
        for value, accepted in ((first, True), (last, True), (first - 1, False), (last + 1, False)):
            answer = _post(server, "/v1/roll", {"game": name, "seed": 1, **low, field: value})
            if accepted:
                assert answer.status_code == 200, answer.text
            else:
                assert answer.status_code == 400 and answer.json()["field"] == field, answer.text
