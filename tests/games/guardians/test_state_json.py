"""Guardians' state JSON (:mod:`solver.games.guardians.state_json`) on both engines: a phase that
is not a string and a state nested too deeply are ``FormatError``, never a ``TypeError`` or a
``RecursionError``."""

from __future__ import annotations

import argparse
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


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_player_with_two_start_tiles_is_a_format_error(engine):
    # the start tile in the forest and again on the points pile: one start tile at most
    from solver.games.guardians.grove_format import parse_grove
    from solver.games.guardians.tiles import START_ID

    game = load_game("guardians", engine=engine, position=parse_grove("grid:\n[GR]b G:BB\n"))
    data = json.loads(game.new_initial_state().to_json())
    me = data["players"][0]
    me["forest"].append([1, 0, START_ID, "mission"])
    me["pile"].append([START_ID, 0, 1])
    with pytest.raises(FormatError, match="one start tile at most"):
        game.state_from_json(json.dumps(data))
    me["pile"].clear()  # one start tile (in the forest) is a state
    assert game.state_from_json(json.dumps(data)).to_json()


@pytest.mark.parametrize("engine", ["reference", "kernel"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_more_draws_left_than_the_pool_has_room_for_is_a_format_error(engine, players):
    # Defect (found by attack): a drawing state with draws_left one above the pool's room
    # loaded, and the search then met a node with no legal action: a RuntimeError from the
    # kernel, a 500 'internal' over HTTP. The rules keep pool + draws_left == min(6, pool + bag).
    game = load_game("guardians", engine=engine, players=players)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # one tile drawn: 5 to go, pool of 1
    data = json.loads(state.to_json())
    assert data["phase"] == "draw" and len(data["pool"]) + data["draws_left"] == 6
    assert game.state_from_json(json.dumps(data)).to_json() == state.to_json()
    for wrong in (data["draws_left"] + 1, data["draws_left"] - 1):
        data["draws_left"] = wrong
        with pytest.raises(FormatError, match="draws_left"):
            game.state_from_json(json.dumps(data))


def test_the_hint_engine_answers_bad_state_for_too_many_draws_left():
    from solver.hint.engine import answer

    game = load_game("guardians", players=2)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    data = json.loads(state.to_json())
    data["draws_left"] += 1  # pool 5: room for one tile only
    reply = answer({"id": "s", "game": "guardians", "state": data, "limit": {"seconds": 0.02}})
    assert reply["code"] == "bad_state" and reply["field"] == "state"
    assert "draws_left" in reply["error"]


@pytest.mark.parametrize("engine", ["reference", "kernel"])
@pytest.mark.parametrize("players", [1, 2])
def test_a_start_tile_away_from_the_origin_is_a_format_error(engine, players):
    # Defect (found by attack): a solo state with its start tile at (0,-1) loaded; the first pawn
    # then entered at (0,0), an empty cell, and the reference's heuristic raised KeyError (0, 0):
    # a 500 'internal' over HTTP (the kernel answered for a forest the rules never make).
    game = load_game("guardians", engine=engine, players=players)
    data = json.loads(game.new_initial_state().to_json())
    assert data["players"][0]["forest"] == [[0, 0, 0, "mission"]]
    data["players"][0]["forest"] = [[0, -1, 0, "mission"]]
    if players > 1:  # a pawn stands on the start tile: it moves with it
        data["players"][0]["pawns"][0] = [0, -1]
    with pytest.raises(FormatError, match=r"start tile at \[0, 0\]"):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_fresh_solo_game_without_its_start_tile_is_a_format_error(engine):
    # the start tile gone from a solo forest before any pawn entered: the pawn enters at (0,0)
    game = load_game("guardians", engine=engine, players=1)
    state = game.new_initial_state()
    data = json.loads(state.to_json())
    tile = data["bag"][0]  # a forest tile in its place, taken from the bag
    data["players"][0]["forest"] = [[0, 0, tile, "forest"]]
    data["bag"].remove(tile)
    with pytest.raises(FormatError, match="start tile"):
        game.state_from_json(json.dumps(data))


def test_the_hint_engine_answers_bad_state_for_a_moved_start_tile():
    from solver.hint.engine import answer

    game = load_game("guardians", players=1)
    data = json.loads(game.new_initial_state().to_json())
    data["players"][0]["forest"] = [[0, -1, 0, "mission"]]
    for engine in ("reference", "kernel"):
        reply = answer({"id": "s", "game": "guardians", "engine": engine, "state": data,
                        "limit": {"iterations": 30}})  # fmt: skip
        assert (reply.get("code"), reply.get("field")) == ("bad_state", "state"), reply
        assert "start tile" in reply["error"]


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_another_games_state_is_refused_by_its_name(engine):
    # a Trial state (it names its game) read as a guardians one said only 'expected state field
    # backs to be present, found null'
    trial = load_game("trial", engine="reference").new_initial_state().to_json()
    game = load_game("guardians", engine=engine, players=2)
    with pytest.raises(FormatError, match='expected a guardians state, found a state of "trial"'):
        game.state_from_json(trial)


def _played_solo(engine: str, level: int, moves: int = 6):
    """A solo game at ``level`` and its state a few actions in (chance and choices alike)."""
    game = load_game("guardians", engine=engine, players=1, level=level)
    state = game.new_initial_state()
    for _ in range(moves):
        state.apply_action(state.legal_actions()[0])
    return game, state


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_solo_state_records_its_level_and_another_level_refuses_it(engine):
    # Defect (found by attack): a solo state's JSON did not say its level, so a state saved at
    # level 1 loaded silently in a level-5 game (another threshold and other tasks: who won).
    _, state = _played_solo(engine, 1)
    text = state.to_json()
    assert json.loads(text)["level"] == 1
    assert load_game("guardians", engine=engine, players=1, level=1).state_from_json(text) == state
    five = load_game("guardians", engine=engine, players=1, level=5)
    with pytest.raises(FormatError, match=r"solo level 5.*saved at solo level 1"):
        five.state_from_json(text)


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_solo_state_saved_without_its_level_is_read_at_the_games_level(engine):
    # states saved before the field: read at the level asked for, as before
    _, state = _played_solo(engine, 3)
    data = json.loads(state.to_json())
    del data["level"]
    again = load_game("guardians", engine=engine, players=1, level=3).state_from_json(
        json.dumps(data)
    )
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_multiplayer_state_has_no_level_and_refuses_one(engine):
    game = load_game("guardians", engine=engine, players=2)
    data = json.loads(game.new_initial_state().to_json())
    assert "level" not in data
    data["level"] = 1
    with pytest.raises(FormatError, match="level"):
        game.state_from_json(json.dumps(data))


def test_both_engines_write_a_solo_states_level_byte_for_byte():
    for level in (1, 4):
        ref = _played_solo("reference", level, moves=10)[1].to_json()
        assert _played_solo("kernel", level, moves=10)[1].to_json() == ref


def test_the_cli_and_the_hint_engine_refuse_a_state_of_another_level(tmp_path, capsys):
    from solver.cli import main
    from solver.hint.engine import answer

    _, state = _played_solo("reference", 1)
    path = tmp_path / "g1.json"
    path.write_text(state.to_json())
    code = main(["guardians", "show", "--state", str(path), "--option", "level=5"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "level 5" in err and "level 1" in err
    request = {"id": "s", "game": "guardians", "state": json.loads(state.to_json()),
               "options": {"players": 1, "level": 5}, "limit": {"seconds": 0.02}}  # fmt: skip
    reply = answer(request)
    assert reply["code"] == "bad_state" and "level 1" in reply["error"]


def test_a_solo_state_opens_at_its_own_level_where_none_is_asked(tmp_path, capsys):
    # the level a state records is taken when --option level (a request's options.level) is not
    # given: a level-3 state is shown and hinted at level 3, not refused by the default level 1
    from solver.cli import main
    from solver.cli_position import open_position as cli_open
    from solver.games.guardians import SPEC
    from solver.hint.engine import answer

    _, state = _played_solo("reference", 3)
    path = tmp_path / "g3.json"
    path.write_text(state.to_json())
    assert main(["guardians", "show", "--state", str(path)]) == 0
    assert "level 3" in capsys.readouterr().out
    args = argparse.Namespace(file=None, state=str(path), engine="reference", option=[])
    opened = cli_open(SPEC, args)
    assert opened.game.level.number == 3 and opened.state.to_json() == state.to_json()
    request = {"id": "s", "game": "guardians", "state": json.loads(state.to_json()),
               "limit": {"seconds": 0.02}}  # fmt: skip
    reply = answer(request)
    assert "error" not in reply, reply


def _played(engine: str, open_backs: bool, moves: int = 8):
    """A 2-player game under the backs rule ``open_backs``, a few actions in."""
    game = load_game("guardians", engine=engine, players=2, open_backs=open_backs)
    state = game.new_initial_state()
    for _ in range(moves):
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("engine", ["reference", "kernel"])
@pytest.mark.parametrize("saved", [True, False])
def test_a_state_of_the_other_backs_rule_is_refused_naming_the_option(engine, saved):
    # Defect (found by attack): a whole hidden-backs state read by an open_backs game was
    # refused 'expected state field backs to be absent (not a state field)', and an open-backs
    # state by the default game 'backs to be present, found null': neither named the option.
    text = _played(engine, saved).to_json()
    other = load_game("guardians", engine=engine, players=2, open_backs=not saved)
    rule = "open" if saved else "hidden"
    with pytest.raises(FormatError, match=rf"saved with {rule} backs: ask for open_backs="
                       f"{str(saved).lower()}"):  # fmt: skip
        other.state_from_json(text)


@pytest.mark.parametrize("saved", [True, False])
def test_a_state_opens_under_its_own_backs_rule_where_none_is_asked(tmp_path, capsys, saved):
    # the rule a state's shape records is taken where --option open_backs (a request's
    # options.open_backs) is not given; one given that differs is refused naming the option
    from solver.cli import main
    from solver.hint.engine import answer

    state = _played("reference", saved)
    path = tmp_path / "g.json"
    path.write_text(state.to_json())
    assert main(["guardians", "show", "--state", str(path)]) == 0
    capsys.readouterr()
    request = {"id": "s", "game": "guardians", "state": json.loads(state.to_json()),
               "limit": {"iterations": 4}}  # fmt: skip
    assert "error" not in answer(request)
    other = f"open_backs={str(not saved).lower()}"
    assert main(["guardians", "show", "--state", str(path), "--option", other]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"open_backs={str(saved).lower()}" in err
    reply = answer({**request, "options": {"open_backs": not saved}})
    assert reply["code"] == "bad_state" and "open_backs" in reply["error"]


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_state_of_another_tile_set_is_refused_naming_the_tiles_option(engine, tmp_path):
    # Found by attack: a state saved with a 40-tile set, read by the standard game, said
    # 'state field bag to be every tile of the set somewhere (tile 41 is nowhere)'; the standard
    # game's state read with the 40 tiles, 'bag[34] to be a whole number 1..40, found 41'.
    # Neither said that the state does not repeat its tile set, which the tiles option names.
    from solver.games.guardians.data import data_file

    standard = json.loads(data_file("tiles.json").read_text())
    small = {**standard, "name": "small", "tiles": [t for t in standard["tiles"] if t["id"] <= 40]}
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small))
    games = {"small": load_game("guardians", engine=engine, players=2, tiles=str(path)),
             "standard": load_game("guardians", engine=engine, players=2)}  # fmt: skip
    for saved, read, count in (("small", "standard", 72), ("standard", "small", 40)):
        state = games[saved].new_initial_state()
        for _ in range(6):
            state.apply_action(state.legal_actions()[0])
        with pytest.raises(FormatError, match=rf"this game's {count} tiles .*another tile set"):
            games[read].state_from_json(state.to_json())
        assert games[saved].state_from_json(state.to_json()) == state  # its own set reads it


def _random_play(engine: str, seed: int, **options):
    """Every state's JSON of a game played at random on ``engine`` (walks preferred to ending the
    turn, so missions and level tasks are met), each read back by the same game."""
    from solver.rng import SplitMix64

    rng = SplitMix64(seed)
    game = load_game("guardians", engine=engine, **options)
    state = game.new_initial_state()
    while True:
        text = state.to_json()
        back = game.state_from_json(text)
        assert back.to_json() == text
        yield json.loads(text)
        if state.is_terminal():
            return
        legal = state.legal_actions()
        walks = legal[1:] if json.loads(text)["phase"] == "missions" else []
        state.apply_action(rng.pick(walks) if walks and rng.roll(10) > 1 else rng.pick(legal))


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_every_state_of_random_games_reads_back_within_the_round_bounds(engine):
    # the bounds on round, the piles' rounds and turn_missions (state_json._check_rounds) refuse
    # no state the game makes: solo games at every level (tasks met add rounds), 2-4 players
    last_rounds, most_missions = [], 0
    for seed in range(10):
        options = {"players": 1, "level": 1 + seed % 6} if seed < 6 else {"players": seed - 5}
        states = list(_random_play(engine, seed, **options))
        last_rounds.append(states[-1]["round"])
        most_missions = max(most_missions, *(s["turn_missions"] for s in states))
    assert max(last_rounds[:6]) > 12 and most_missions >= 1  # the bounds were reached


def _playing_solo(level: int) -> dict:
    """A solo state at ``level`` with a mission in its pile, at the mission step (reference)."""
    for seed in range(40):  # random solo play seldom completes a mission: a few games
        for data in _random_play("reference", seed, players=1, level=level):
            if data["players"][0]["pile"] and data["phase"] == "missions":
                return data
    raise AssertionError("no mission completed")


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_round_past_the_games_last_is_refused(engine):
    # Defect (found by attack): a solo state at round 40 (the game ends after 12 rounds plus one
    # per level task met) loaded without a word, on both engines
    data = _playing_solo(2)
    game = load_game("guardians", engine=engine, players=1, level=2)
    data["round"] = 40
    data["players"][0]["pile"] = [[t, p, 40] for t, p, _ in data["players"][0]["pile"]]
    with pytest.raises(FormatError, match=r"round to be at most the game's last round \(12: 12 \+ "
                       r"0 level tasks met\), found 40"):  # fmt: skip
        game.state_from_json(json.dumps(data))
    data["round"], data["tasks_done"] = 13, [True, False]  # a task met: round 13 is the last
    data["players"][0]["pile"] = [[t, p, 13] for t, p, _ in data["players"][0]["pile"]]
    game.state_from_json(json.dumps(data))  # reads
    data["round"] = 14
    with pytest.raises(FormatError, match=r"last round \(13: 12 \+ 1 level tasks met\), found 14"):
        game.state_from_json(json.dumps(data))
    multi = _fresh_state_dict(2)
    multi["round"] = 10_000
    with pytest.raises(FormatError, match=r"last round \(73: each round before it places one"):
        load_game("guardians", engine=engine, players=2).state_from_json(json.dumps(multi))


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_mission_of_a_later_round_or_more_turn_missions_than_done_is_refused(engine):
    # Defect (found by attack): turn_missions up to 10000 loaded (the turn's missions are in the
    # pile, at this round), and a pile entry may not be of a round still to come
    data = _playing_solo(1)
    game = load_game("guardians", engine=engine, players=1, level=1)
    game.state_from_json(json.dumps(data))  # as played, it reads
    done = sum(1 for *_, r in data["players"][0]["pile"] if r == data["round"])
    bad = dict(data, turn_missions=10_000)
    with pytest.raises(FormatError, match=rf"turn_missions to be at most the missions players\[0\] "
                       rf"completed this round \({done}: .*found 10000"):  # fmt: skip
        game.state_from_json(json.dumps(bad))
    later = json.loads(json.dumps(data))
    later["players"][0]["pile"][0][2] = data["round"] + 1
    with pytest.raises(FormatError, match=r"pile\[0\]\.round to be at most the state's round"):
        game.state_from_json(json.dumps(later))
