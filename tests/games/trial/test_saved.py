"""Saved states: format 2 round-trips; format 1 (written by an earlier version) loads as the same
position, or is refused with a clear message in the middle of a fight; a binary or deeply nested
state or pack file is a ``solver.errors`` class, never a ``UnicodeDecodeError`` or a
``RecursionError``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from solver.errors import FormatError
from solver.games.trial.invariants import Checker
from solver.games.trial.kernel import KernelTrialGame
from solver.games.trial.rules import TrialGame
from solver.games.trial.saved import FORMAT
from solver.testing import random_action

DATA = Path(__file__).with_name("data")
EXPECTED = json.loads((DATA / "format1-expected.json").read_text(encoding="utf-8"))
RESUMABLE = sorted(name for name in EXPECTED if name != "fight_cards")
GAMES = {"reference": TrialGame(players=3), "kernel": KernelTrialGame(players=3)}


def _text(name: str) -> str:
    return (DATA / f"format1-{name}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("engine", sorted(GAMES))
@pytest.mark.parametrize("name", RESUMABLE)
def test_a_format_1_state_loads_as_the_same_position(name, engine):
    assert "format" not in json.loads(_text(name))
    st = GAMES[engine].state_from_json(_text(name))
    want = EXPECTED[name]
    assert st.current_player() == want["player"] and st.scores() == want["scores"]
    assert [st.action_to_string(a) for a in st.legal_actions()] == want["labels"]
    st.apply_action(st.legal_actions()[0])
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    assert [st.action_to_string(a) for a in st.legal_actions()] == want["then"]
    # saved again, it is format 2 and reads back as the same state
    again = json.loads(st.to_json())
    assert again["format"] == FORMAT and "player_count" in again["state"]
    assert GAMES[engine].state_from_json(st.to_json()).to_json() == st.to_json()


def _plays_to_the_end(st, rng: random.Random) -> None:
    """Play ``st`` on at random to its end, every invariant checked after every action."""
    check = Checker(observations=False)
    while not st.is_terminal():
        st.apply_action(random_action(st, rng))
        check(st)
    assert abs(sum(st.returns()) - 1.0) < 1e-9


@pytest.mark.parametrize("name", RESUMABLE)
def test_a_format_1_state_plays_on_to_the_end_keeping_every_invariant(name):
    st = GAMES["reference"].state_from_json(_text(name))
    _plays_to_the_end(st, random.Random(name))


@pytest.mark.parametrize(
    ("name", "player", "scores"), [("setup", -1, [1, 0, 0]), ("take_item", 1, [8, 9, 16])]
)
def test_a_state_saved_under_the_earlier_fight_and_set_up_rules_loads_and_plays_on(
    name, player, scores
):
    """Written by commit e3a8ca9 (before the rulebook's fight die, card stages and set-up order):
    the player to move and the scores are what that code said, and the game goes on to its end
    keeping every invariant under today's rules."""
    text = (DATA / f"format1-e3a8ca9-{name}.json").read_text(encoding="utf-8")
    st = GAMES["reference"].state_from_json(text)
    assert (st.current_player(), st.scores()) == (player, scores)
    _plays_to_the_end(st, random.Random(name))


def test_a_format_1_state_in_the_middle_of_a_fight_is_refused_saying_why():
    for game in GAMES.values():
        with pytest.raises(FormatError, match="in the middle of a fight, whose rules have changed"):
            game.state_from_json(_text("fight_cards"))


def test_a_document_of_an_unknown_format_is_refused():
    doc = json.loads(GAMES["reference"].new_initial_state().to_json())
    doc["format"] = 3
    with pytest.raises(FormatError, match="format 1 or 2"):
        GAMES["reference"].state_from_json(json.dumps(doc))


@pytest.mark.parametrize("engine", sorted(GAMES))
@pytest.mark.parametrize(
    ("document", "found"),
    [
        ({"game": "trial"}, "no 'state'"),  # it said it expected 'game': 'trial', given it
        ({"game": "trial", "format": 2}, "no 'state'"),
        ({"game": "dog", "state": {}}, 'a state of "dog"'),  # named, as the dog's reader does
        ({"state": {}}, "'game': null"),
        ([1, 2], "[1, 2]"),
    ],
)
def test_a_document_that_is_no_saved_trial_state_is_refused_saying_what_it_lacks(
    engine, document, found
):
    with pytest.raises(FormatError) as refused:
        GAMES[engine].state_from_json(json.dumps(document))
    assert refused.value.found == found


def test_the_api_refuses_a_binary_or_deep_state_file_and_pack_file(tmp_path):
    # through the API (not only the CLI): solver.errors classes, never UnicodeDecodeError or
    # RecursionError, for a saved state and for a user's pack file
    import shutil

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
