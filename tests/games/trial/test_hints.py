"""Hints from one player's view: ``forest trial best-move --player P`` and the hint engine search
with ISMCTS from P's view and show nothing of another player's hidden cards."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from solver.cli import main
from solver.game import CHANCE
from solver.games.trial.rules import TrialGame, TrialState
from solver.hint.engine import answer
from solver.registry import load_game
from solver.rng import SplitMix64


def decision(players: int, seed: int, skip: int) -> TrialState:
    """The first decision with several legal actions after ``skip`` random decisions."""
    rng = random.Random(seed)
    state = TrialGame(players=players).new_initial_state()
    decisions = 0
    while True:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions()
        if decisions >= skip and len(legal) > 2:
            return state
        state.apply_action(rng.choice(legal))
        decisions += 1


def hidden_names(state: TrialState, p: int) -> set[str]:
    """Names of the cards in other players' hands that p cannot see anywhere (no visible card
    carries the same name)."""
    pack = state.game.pack
    seen = json.dumps(state.observation(p))
    visible = {pack.card(c)["name"] for c in pack.card_ids() if f'"{c}"' in seen}
    hidden = set()
    for q, me in enumerate(state.data["players"]):
        if q != p:
            hidden |= {pack.card(c)["name"] for c in me["hand"] + me["aside"]}
    return hidden - visible


def best_move(tmp_path: Path, state: TrialState, name: str, player: int, capsys) -> dict:
    path = tmp_path / f"{name}.json"
    path.write_text(state.to_json(), encoding="utf-8")
    count = str(state.data["player_count"])
    argv = ["trial", "best-move", "--players", count, "--state", str(path),
            "--player", str(player),
            "--iterations", "60", "--seed", "4", "--json"]  # fmt: skip
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("seed", "skip"), [(1, 6), (2, 30)])
def test_best_move_searches_the_players_view_only(tmp_path, capsys, seed, skip) -> None:
    state = decision(3, seed, skip)
    p = state.current_player()
    report = best_move(tmp_path, state, "real", p, capsys)
    assert report["player"] == p and report["moves"]
    assert {m["action"] for m in report["moves"]} <= set(state.legal_actions())
    # the same answer for a state that differs only in what p cannot see
    other = state.resample_hidden(p, SplitMix64(1234))
    assert other.observation(p) == state.observation(p)
    assert other.to_json() != state.to_json()
    assert best_move(tmp_path, other, "other", p, capsys) == report
    # no label names a card hidden from p
    secret = hidden_names(state, p)
    assert secret  # the other players do hold cards p cannot see
    text = " ".join(m["label"] + " " + " ".join(m["pv"]) for m in report["moves"])
    assert not [name for name in secret if name in text]


def test_best_move_for_a_seat_not_to_move_depends_on_its_view_only(tmp_path, capsys) -> None:
    state = decision(3, 5, 10)
    watcher = (state.current_player() + 1) % 3
    report = best_move(tmp_path, state, "real", watcher, capsys)
    other = state.resample_hidden(watcher, SplitMix64(77))
    assert best_move(tmp_path, other, "other", watcher, capsys) == report
    assert report["player"] == watcher
    assert all(len(m["pv"]) == 1 for m in report["moves"])  # the mover's moves, never beyond


def test_the_root_value_of_a_seat_not_to_move_is_its_mean_over_the_movers_choices() -> None:
    """``rootInfo.value`` for a seat not to move was the most visited move's value (the mover's
    likeliest move, as if it were the watcher's own choice); it is the watcher's mean over the
    simulations, which is the moves' values weighted by their visits, as at a chance node. For
    the seat to move it stays its best move's value (MCTS's convention, the dog's and
    guardians')."""
    state = decision(3, 5, 10)
    mover = state.current_player()
    for player in (mover, (mover + 1) % 3, (mover + 2) % 3):
        reply = answer({"id": "t", "game": "trial", "options": {"players": 3},
                        "state": state.to_json(), "player": player,
                        "limit": {"iterations": 300}, "seed": 2})  # fmt: skip
        moves, root = reply["moveInfos"], reply["rootInfo"]
        assert sum(m["visits"] for m in moves) == root["visits"] == 300
        if player == mover:
            assert root["value"] == moves[0]["value"]
        else:
            weighted = sum(m["value"] * m["visits"] for m in moves) / root["visits"]
            assert math.isclose(root["value"], weighted, abs_tol=1e-12), (player, moves)
            assert root["value"] != moves[0]["value"]


def test_the_hint_engine_answers_from_the_requests_player(tmp_path) -> None:
    state = decision(2, 3, 8)
    p = state.current_player()
    request = {"id": "t", "game": "trial", "options": {"players": 2}, "state": state.to_json(),
               "player": p, "limit": {"iterations": 60}, "seed": 2}  # fmt: skip
    reply = answer(request)
    assert reply["rootInfo"]["player"] == p and reply["rootInfo"]["determinizations"] == 60
    other = state.resample_hidden(p, SplitMix64(8))
    twin = answer({**request, "state": other.to_json()})
    strip = ("elapsed",)
    assert {k: v for k, v in twin.items() if k not in strip} == {
        k: v for k, v in reply.items() if k not in strip
    }
    secret = hidden_names(state, p)
    assert secret
    text = json.dumps(reply["moveInfos"])
    assert not [name for name in secret if name in text]


def _positions(players: int, seed: int, count: int) -> list:
    """Decision states of a random game where the mover chooses among several actions."""
    game = load_game("trial", engine="reference", players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    found = []
    for _ in range(3000):
        if state.is_terminal() or len(found) >= count:
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice([a for a, _ in outcomes]))
            continue
        legal = state.legal_actions()
        step = state.data["stack"][-1]["step"] if state.data["stack"] else None
        if len(legal) > 1 and step in ("pick_card", "hand_limit", "pick_tent", "universal"):
            found.append(state.clone())
        state.apply_action(rng.choice(legal))
    return found


@pytest.fixture(scope="module")
def hidden_choice_states():
    states = _positions(3, 1, 3) + _positions(2, 5, 2)
    assert len(states) >= 3
    return states


def test_best_move_for_a_seat_not_to_move_answers_and_reads_no_hidden_card(
    tmp_path, capsys, hidden_choice_states
):
    # Defect: `forest trial best-move --state S --player P` with another seat to move failed with
    # "action 194 (deed-06) is not legal here (step pick_card, legal: deed-09, deed-43)": the best
    # move of a redeal was applied to another redeal, and the error listed the mover's real cards.
    for state in hidden_choice_states:
        mover = state.current_player()
        viewer = (mover + 1) % state.game.num_players()
        real = tmp_path / "real.json"
        real.write_text(state.to_json(), encoding="utf-8")
        redealt = tmp_path / "redealt.json"
        redealt.write_text(
            state.resample_hidden(viewer, SplitMix64(99)).to_json(), encoding="utf-8"
        )
        answers = []
        for path in (real, redealt):
            code = main(
                ["trial", "best-move", "--state", str(path), "--player", str(viewer),
                 "--iterations", "8", "--json"]
            )  # fmt: skip
            out, err = capsys.readouterr()
            assert code == 0, err
            answers.append(json.loads(out))
        assert answers[0] == answers[1]
        assert answers[0]["turn"] == [answers[0]["best_action"]]


def test_best_move_for_the_seat_to_move_spells_its_turn(tmp_path, capsys, hidden_choice_states):
    state = hidden_choice_states[0]
    path = tmp_path / "state.json"
    path.write_text(state.to_json(), encoding="utf-8")
    argv = ["trial", "best-move", "--state", str(path), "--iterations", "8", "--json"]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["player"] == state.current_player()
    assert report["turn"][0] == report["best_action"]


def test_a_hint_request_with_a_state_and_no_player_count_takes_the_states(hidden_choice_states):
    # Defect: the hint engine read a 3-player state as a 4-player game ("expected a state for 4
    # players, found 3") where `forest trial best-move --state` takes the count from the state.
    state = next(s for s in hidden_choice_states if s.game.num_players() == 3)
    found = answer(
        {"id": "q", "game": "trial", "state": json.loads(state.to_json()),
         "limit": {"iterations": 8}}
    )  # fmt: skip
    assert "error" not in found, found
    assert found["rootInfo"]["player"] == state.current_player()


def test_best_move_on_a_new_game_says_why_it_names_no_move(capsys):
    # Defect: `forest trial best-move` on a new game (chance deals the set-up first) printed one
    # win-probability line and no move, with no word of why or where the moves are.
    assert load_game("trial", players=4).new_initial_state().is_chance_node()
    assert main(["trial", "best-move", "--iterations", "8"]) == 0
    text = capsys.readouterr().out
    assert main(["trial", "best-move", "--iterations", "8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["best_action"], report["moves"]) == (None, [])  # the pinned fields as before
    (note,) = report["notes"]
    assert "chance dealing the set-up" in note and "nobody has a move to choose" in note
    assert "--state" in note and "play --human" in note and "play --record" in note
    assert text.splitlines()[1] == f"note: {note}"
