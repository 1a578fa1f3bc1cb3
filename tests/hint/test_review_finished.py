"""A record's ``"finished"`` against its replay, the same on every surface: the replay decides.

Defect: ``forest GAME review`` said "the record is unfinished (the game was left before its end)"
for a record marked ``"finished": false`` whose actions end the game, and ``/v1/review`` dropped
the flag unread. Now both review the game as the replay finds it (``finished`` in the answer)
and a note names the contradiction, on every game; the truth here is an independent replay on
the game's own rules (``is_terminal``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import solver
from solver.registry import registered_games
from solver.review import review_record
from solver.testing import run_forest as forest

from .conftest import Server

httpx = pytest.importorskip("httpx")

OPTIONS: dict[str, dict[str, Any]] = {
    "dog": {"forest": "dog/another-dog"},
    "guardians": {"players": 2},
    "trial": {"players": 2},
}
"""A set-up of every game (a new game must be added here: checked below)."""


def _ended_game(name: str, seed: int = 5) -> tuple[dict[str, Any], bool]:
    """A record of a whole random game of ``name`` marked ``"finished": false`` (the flag the
    defect trusted), and whether its last action but one left the game running (always: the
    game ended on the last)."""
    game = solver.load_game(name, **OPTIONS[name])
    state, actions, rng = game.new_initial_state(), [], random.Random(seed)
    while not state.is_terminal():
        chance = state.is_chance_node()
        moves = [o for o, _ in state.chance_outcomes()] if chance else state.legal_actions()
        action = rng.choice(moves)
        state.apply_action(action)
        actions.append(action)
    replay = game.new_initial_state()
    for action in actions[:-1]:
        replay.apply_action(action)
    record = {"game": name, "options": OPTIONS[name], "seed": seed, "actions": actions,
              "finished": False}  # fmt: skip
    return record, not replay.is_terminal()


def _short(record: dict[str, Any], finished: bool) -> dict[str, Any]:
    """The record without its last action, saying ``finished``."""
    return {**record, "actions": record["actions"][:-1], "finished": finished}


def test_every_game_is_covered() -> None:
    assert set(OPTIONS) == set(registered_games())


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_the_replay_decides_in_the_review(name: str) -> None:
    """In process (the review the CLI and the service share): an ended game said unfinished is
    reviewed as finished with a note; a cut one said finished, as far as it goes with a note;
    a flag the replay agrees with, or none, adds no note. Only the last position is valued."""
    record, cut_runs = _ended_game(name)
    assert cut_runs
    n = len(record["actions"])

    def review(rec: dict[str, Any]) -> dict[str, Any]:
        end = len(rec["actions"])
        return review_record(rec, iterations=1, start=end, stop=end)

    ended = review(record)
    assert ended["finished"] is True
    assert ended["notes"][0].startswith(f'the record says "finished": false, but its {n} actions '
                                        "reach the game's end")  # fmt: skip
    short = review(_short(record, True))
    assert short["finished"] is False
    assert short["notes"][0].startswith(f'the record says "finished": true, but its {n - 1} '
                                        "actions stop before the game's end")  # fmt: skip
    for agreeing in ({**record, "finished": True}, _short(record, False)):
        assert not any("finished" in note for note in review(agreeing)["notes"])
    del record["finished"]
    assert review(record)["finished"] is True and review(record)["notes"] == []


@pytest.mark.parametrize("flag", ["no", 1, 0, 1.0])
def test_a_finished_flag_that_is_no_boolean_is_refused_by_name(flag: object) -> None:
    """A number too (found by attack: ``1`` and ``0`` passed the check, equal to True and
    False, and 1 got the note 'the record says "finished": true', while POST /v1/review
    refuses them)."""
    record, _ = _ended_game("dog")
    with pytest.raises(solver.errors.OptionError, match='"finished" is true or false') as caught:
        review_record({**record, "finished": flag}, iterations=1)
    assert caught.value.field == "finished"  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_the_command_line_says_the_replay_s_word(name: str, tmp_path) -> None:
    """``forest GAME review``: no "the record is unfinished" for a game its actions end, the
    note instead; the same record cut short still says it is unfinished."""
    pytest.importorskip("pydantic")
    record, _ = _ended_game(name)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = forest(name, "review", str(path), "--iterations", "1", "--no-progress")
    assert run.returncode == 0, run.stderr
    assert "the record is unfinished" not in run.stdout
    assert 'note: the record says "finished": false, but its' in run.stdout
    path.write_text(json.dumps(_short(record, False)), encoding="utf-8")
    run = forest(name, "review", str(path), "--iterations", "1", "--no-progress")
    assert run.returncode == 0, run.stderr
    assert "the record is unfinished" in run.stdout and "the replay decides" not in run.stdout


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_the_service_says_the_replay_s_word(name: str, server: Server) -> None:
    """``POST /v1/review`` reads the record's ``finished`` (it dropped it) and answers as the
    review in process: ``finished`` from the replay, the same note; a flag that is no boolean is
    ``invalid_request`` on ``finished``."""
    record, _ = _ended_game(name)
    end = len(record["actions"])
    for sent in (record, _short(record, True)):
        plies = len(sent["actions"])
        body = {**sent, "limit": {"iterations": 1}, "fromPly": plies, "toPly": plies}
        reply = httpx.post(f"{server.url}/v1/review", json=body, timeout=120)
        assert reply.status_code == 200, reply.text
        mine = review_record(sent, iterations=1, start=plies, stop=plies)
        answer = reply.json()
        assert (answer["finished"], answer["notes"]) == (mine["finished"], mine["notes"])
        assert answer["finished"] is (plies == end) and answer["notes"]
    bad = {**record, "finished": "no", "fromPly": end}
    reply = httpx.post(f"{server.url}/v1/review", json=bad, timeout=120)
    assert reply.status_code == 400 and reply.json()["field"] == "finished", reply.text
