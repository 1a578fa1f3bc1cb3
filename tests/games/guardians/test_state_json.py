"""Guardians' state JSON (:mod:`solver.games.guardians.state_json`) on both engines: a phase that
is not a string and a state nested too deeply are ``FormatError``, never a ``TypeError`` or a
``RecursionError``."""

from __future__ import annotations

import json

import pytest

from solver.errors import FormatError
from solver.registry import load_game


def _fresh_state_dict(players: int = 2) -> dict:
    game = load_game("guardians", engine="reference", players=players)
    return json.loads(game.new_initial_state().to_json())


@pytest.mark.parametrize("engine", ["reference", "kernel"])
@pytest.mark.parametrize("phase", [["draw"], {"a": 1}, 3, None])
def test_a_state_whose_phase_is_not_a_string_is_a_format_error(engine, phase):
    # Defect: a list or object phase was "TypeError: unhashable type" (found by mutating states).
    data = _fresh_state_dict()
    data["phase"] = phase
    game = load_game("guardians", engine=engine, players=2)
    with pytest.raises(FormatError, match="phase"):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_deeply_nested_state_is_a_format_error(engine):
    game = load_game("guardians", engine=engine, players=2)
    with pytest.raises(FormatError):
        game.state_from_json('{"players": ' + "[" * 100_000)
