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
