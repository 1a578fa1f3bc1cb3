"""Regression tests for the Trial's defects a hostile user met on the command line and through the
hint engine: hints from a seat that is not to move, what `play --human` shows, player counts.

The hidden-information checks compare what the CLI prints for the real state with what it prints
for a state redealt from the asking player's view: the two are indistinguishable to that player,
so any difference would mean the answer read a hidden card.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys

import pytest

from solver.cli import main
from solver.registry import load_game


def cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return int(code or 0), out.getvalue(), err.getvalue()


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
    tmp_path, hidden_choice_states
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
            state.resample_hidden(viewer, random.Random(99)).to_json(), encoding="utf-8"
        )
        answers = []
        for path in (real, redealt):
            code, out, err = cli(
                ["trial", "best-move", "--state", str(path), "--player", str(viewer),
                 "--iterations", "8", "--json"]
            )  # fmt: skip
            assert code == 0, err
            answers.append(json.loads(out))
        assert answers[0] == answers[1]
        assert answers[0]["turn"] == [answers[0]["best_action"]]


def test_best_move_for_the_seat_to_move_spells_its_turn(tmp_path, hidden_choice_states):
    state = hidden_choice_states[0]
    path = tmp_path / "state.json"
    path.write_text(state.to_json(), encoding="utf-8")
    argv = ["trial", "best-move", "--state", str(path), "--iterations", "8", "--json"]
    code, out, err = cli(argv)
    assert code == 0, err
    report = json.loads(out)
    assert report["player"] == state.current_player()
    assert report["turn"][0] == report["best_action"]


def test_play_human_never_prints_what_seat_0_cannot_see():
    # Defect: `forest trial play --human` printed every chance outcome ("chance: draw: deed-18",
    # "chance: deal_tent: tent raspberry", "chance: ruin_item: bow") and every agent's move by
    # label, so the human saw the other players' cards, tents and the ruins' hidden items.
    game = load_game("trial", engine="reference", players=2)
    state = game.new_initial_state()
    rng = random.Random(3)
    while (
        state.is_chance_node() or state.current_player() != 0 or state.data["turn_player"] is None
    ):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    hidden_from_0 = set(state.data["players"][1]["hand"]) | set(state.data["players"][1]["tents"])
    assert hidden_from_0
    run = subprocess.run(
        [sys.executable, "-m", "solver.cli", "trial", "play", "--human", "--players", "2",
         "--agents", "random", "--seed", "0"],
        input="quit\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0 and "you left the game" in run.stdout
    shown = run.stdout
    assert "(you) to move" in shown
    lines = [line for line in shown.splitlines() if line.startswith("chance:")]
    assert lines, shown[:500]
    # what the human's own seat receives is shown; the other seat's deal is not
    real = load_game("trial", engine="reference", players=2).new_initial_state()
    from solver.play import sample_chance
    from solver.rng import SplitMix64

    dice = SplitMix64(0)
    while real.is_chance_node():
        real.apply_action(sample_chance(real, dice))
    for card in real.data["players"][1]["hand"]:
        assert f"draw: {card}" not in shown, card
    for card in real.data["players"][0]["hand"]:
        assert f"draw: {card}" in shown, card
    assert "hidden from you" in shown


def test_a_saved_state_for_another_player_count_is_refused(tmp_path):
    # Defect: `forest trial show STATE.json --players 2` showed a 3-player state, the option
    # silently ignored.
    state = load_game("trial", engine="reference", players=3).new_initial_state()
    path = tmp_path / "three.json"
    path.write_text(state.to_json(), encoding="utf-8")
    code, out, err = cli(["trial", "show", str(path), "--players", "2"])
    assert code == 2 and out == ""
    assert err.startswith("forest: error: ") and err.count("\n") == 1 and "3" in err, err


def test_a_hint_request_with_a_state_and_no_player_count_takes_the_states(hidden_choice_states):
    # Defect: the hint engine read a 3-player state as a 4-player game ("expected a state for 4
    # players, found 3") where `forest trial best-move --state` takes the count from the state.
    from solver.hint.engine import answer

    state = next(s for s in hidden_choice_states if s.game.num_players() == 3)
    found = answer(
        {"id": "q", "game": "trial", "state": json.loads(state.to_json()),
         "limit": {"iterations": 8}}
    )  # fmt: skip
    assert "error" not in found, found
    assert found["rootInfo"]["player"] == state.current_player()


def test_play_defaults_to_an_agent_that_does_not_read_hidden_cards():
    # Defect: `forest trial play` (and `play --human`) defaulted to the shared mcts agent, which
    # searches the real state: opponents that read every hand, the human's included.
    code, out, err = cli(["trial", "play", "--players", "2", "--games", "1", "--iterations", "2",
                          "--json"])  # fmt: skip
    assert code == 0, err
    assert [p["agent"] for p in json.loads(out)["players"]] == ["ismcts"]


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe\x00garbage", b'{"game": "trial", "state": ' + b"[" * 100_000],
    ids=["binary", "deep"],
)
def test_a_bad_saved_state_named_as_file_is_one_line(tmp_path, content):
    # Defect: `forest trial show bad.json` (a binary file, or one nested too deeply) ended in a
    # UnicodeDecodeError or RecursionError traceback (the --state option already refused them).
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for command in (["show"], ["best-move", "--iterations", "2"]):
        code, out, err = cli(["trial", *command, str(path)])
        assert code == 2 and out == "", err
        assert err.startswith("forest: error: ") and err.count("\n") == 1, err
        assert "bad.json" in err, err


def test_a_human_hint_in_a_hidden_information_game_says_it_is_an_ismcts_estimate():
    # Defect: `play --human` titled the Trial's hint "MCTS estimate" (it is ISMCTS from the
    # human's view, over redealt states).
    run = subprocess.run(
        [sys.executable, "-m", "solver.cli", "trial", "play", "--human", "--players", "2",
         "--agents", "random", "--iterations", "4"],
        input="hint\nquit\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0 and "you left the game" in run.stdout, run.stderr
    assert "ISMCTS" in run.stdout  # the table title (rich may wrap it)


def test_the_api_refuses_a_binary_or_deep_state_file_and_pack_file(tmp_path):
    # through the API (not only the CLI): solver.errors classes, never UnicodeDecodeError or
    # RecursionError, for a saved state and for a user's pack file
    import shutil
    from pathlib import Path

    from solver.errors import FormatError
    from solver.games.trial.content import PackError, load_pack
    from solver.games.trial.hooks import open_trial

    state = tmp_path / "bin.json"
    state.write_bytes(bytes(range(128, 256)))
    with pytest.raises(FormatError, match="UTF-8"):
        open_trial(str(state))
    state.write_text('{"game": "trial", "state": ' + "[" * 100_000)
    with pytest.raises(FormatError):
        open_trial(str(state))
    pack = tmp_path / "pack"
    shutil.copytree(Path(__file__).parents[3] / "puzzles" / "trial", pack)
    (pack / "deeds.json").write_bytes(bytes(range(128, 256)))
    with pytest.raises(PackError, match=r"deeds\.json.*not UTF-8"):
        load_pack(pack)
    (pack / "deeds.json").write_text("[" * 100_000)
    with pytest.raises(PackError, match=r"deeds\.json.*nested too deeply"):
        load_pack(pack)
