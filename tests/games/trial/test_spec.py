"""The Trial's declaration: opening the default game, a user's pack or a saved state; pictures."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from solver.errors import OptionError
from solver.games.trial import SPEC
from solver.games.trial.content import FILES
from solver.games.trial.render_text import render_player_text, render_text

SHIPPED = Path(__file__).resolve().parents[3] / "puzzles" / "trial"


def test_the_spec_declares_the_game():
    assert SPEC.name == "trial" and SPEC.players == (2, 3, 4)
    assert SPEC.engine_names() == ["kernel", "reference"] and SPEC.default_source
    assert SPEC.default_engine == "kernel"
    assert SPEC.value_kind == "win probability"


def test_open_builds_the_default_game_a_users_pack_and_a_saved_state(tmp_path):
    opened = SPEC.open(None)
    assert opened.game.num_players() == 4 and opened.source == "default"
    assert SPEC.open(None, players=2).game.num_players() == 2
    for name in FILES:
        shutil.copy(SHIPPED / name, tmp_path / name)
    mine = SPEC.open(str(tmp_path), players=3)
    assert mine.game.pack.source == str(tmp_path) and mine.game.num_players() == 3
    state = SPEC.open(None, players=3).state
    rng = random.Random(2)
    for _ in range(150):
        state.apply_action(rng.choice(state.legal_actions()))
    saved = tmp_path / "state.json"
    saved.write_text(state.to_json())
    again = SPEC.open(str(saved))
    assert again.state.to_json() == state.to_json() and again.game.num_players() == 3
    with pytest.raises(OptionError, match="content-pack folder"):
        SPEC.open(str(tmp_path / "nothing.txt"))
    with pytest.raises(OptionError, match="2 to 4 players"):
        SPEC.open(None, players=5)


def test_a_missing_source_is_named_missing(tmp_path):
    # Defect: `forest trial best-move state.json` with no such file said "a trial source is a
    # content-pack folder or a saved state (.json), not 'state.json'", which it was
    gone = tmp_path / "state.json"
    with pytest.raises(OptionError, match=r"state\.json: no such saved Trial state"):
        SPEC.open(str(gone))
    with pytest.raises(OptionError, match=r"nope: no such file or folder; a trial source is"):
        SPEC.open(str(tmp_path / "nope"))
    (tmp_path / "here.txt").write_text("x")
    with pytest.raises(OptionError, match=r"^a trial source is a content-pack folder"):
        SPEC.open(str(tmp_path / "here.txt"))


def test_a_folder_that_is_no_pack_is_named(tmp_path, capsys):
    # Defect: `forest trial show /tmp` said "board.json: pack: field file: the file is missing",
    # naming neither the folder nor that it holds no pack at all
    from solver.cli import main
    from solver.games.trial.schema import PackError

    empty = tmp_path / "holiday photos"
    empty.mkdir()
    (empty / "beach.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(PackError, match=rf"^{empty}: .*none of the pack's files \(board\.json"):
        SPEC.open(str(empty))
    assert main(["trial", "show", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"forest: error: {empty}: ")
    partial = tmp_path / "pack"
    shutil.copytree(Path(__file__).resolve().parents[3] / "puzzles" / "trial", partial)
    (partial / FILES[-1]).unlink()
    with pytest.raises(PackError, match=rf"^{FILES[-1]}: .*the file is missing from {partial}$"):
        SPEC.open(str(partial))


def test_the_text_picture_shows_the_board_and_only_one_players_secrets():
    game = SPEC.open(None, players=2).game
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.data["turn_player"] is None:
        state.apply_action(rng.choice(state.legal_actions()))
    text = render_text(game, state)
    assert text.startswith("day 1") and "encounters:" in text and "store:" in text
    assert text.count("[st") == 4 and "frosty:" in text
    mine = [game.pack.card(c)["name"] for c in state.data["players"][0]["hand"]]
    theirs = [game.pack.card(c)["name"] for c in state.data["players"][1]["hand"]]
    view = render_player_text(state, 0)
    assert all(name in view for name in mine)
    assert f"hand: {len(theirs)};" in view
    # one's own tents by their bonuses in words, another's as a count; never a Python list
    said = {"acorn": "acorn", "food": "any food", "tea": "tea", "none": "empty"}  # by hand
    tents = state.observation(0)["players"][0]["tents"]
    assert set(tents) <= set(said), tents  # this seed's deal; the words above cover it
    own = f"{len(tents)} ({', '.join(said[t] for t in tents)})" if tents else "0"
    assert f"tents: {own};" in view and "tents: [" not in view
    assert f"tents: {len(state.data['players'][1]['tents'])};" in view
    assert render_text(game, None).startswith("day 1")
    assert "~ open, x collapsed" in SPEC.legend(game, state)
