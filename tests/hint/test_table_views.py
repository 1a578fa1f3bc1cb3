"""The games' table views (issue 21 §2, ``GameSpec.table_view``): well-formed panels whose
clickable items carry legal action ids; guardians' pool items narrow the moves to one tile's
placements (each placing that tile), the dog's panel shows the counters of its sheet."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import solver
from solver.registry import game_spec

OPTIONS: dict[str, dict[str, Any]] = {"dog": {"forest": "dog/another-dog"},
                                      "guardians": {"players": 2}}  # fmt: skip


def _states(name: str, count: int) -> list[tuple[Any, Any]]:
    game = solver.load_game(name, **OPTIONS.get(name, {}))
    state = game.new_initial_state()
    rng = random.Random(1)
    seen = []
    while len(seen) < count and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seen.append((game, state.clone()))
        state.apply_action(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize("name", [n for n in solver.registered_games()
                                  if game_spec(n).table_view is not None])  # fmt: skip
def test_a_table_view_is_well_formed_and_its_actions_are_legal(name: str) -> None:
    spec = game_spec(name)
    for game, state in _states(name, 12):
        view = spec.table_view(game, state, state.current_player())
        json.dumps(view)
        assert view["panels"]
        legal = set(state.legal_actions())
        for panel in view["panels"]:
            assert panel["title"] and panel["items"]
            for item in panel["items"]:
                assert item["text"]
                assert set(item.get("actions", [])) <= legal


def test_guardians_pool_items_narrow_the_moves_to_one_tile() -> None:
    spec = game_spec("guardians")
    placed_some = False
    for game, state in _states("guardians", 16):
        (pool, *_rest) = spec.table_view(game, state, state.current_player())["panels"]
        assert pool["title"] == "Pool"
        picked = [item for item in pool["items"] if item.get("actions")]
        groups = [set(item["actions"]) for item in picked]
        union = set().union(*groups) if groups else set()
        assert sum(len(g) for g in groups) == len(union)  # one tile's moves each
        tiles_named = ("place tile", "flip tile")
        of_a_tile = {a for a in state.legal_actions()
                     if state.action_to_string(a).startswith(tiles_named)}  # fmt: skip
        assert union == of_a_tile
        for item in picked:
            tile = int(item["text"].split()[1].rstrip(":"))
            assert tile in state.pool
            for action in item["actions"]:  # the label names the tile (its id, not its slot)
                assert f" tile {tile} " in f" {state.action_to_string(action)} "
            child = state.clone()
            child.apply_action(item["actions"][0])
            placed_some = True
    assert placed_some


def _cells_of(label: str) -> set[tuple[int, int]]:
    """The cells a guardians label names: ``(r,c)`` pairs (the start tile is (0,0))."""
    import re

    found = {(int(r), int(c)) for r, c in re.findall(r"\((-?\d+),(-?\d+)\)", label)}
    return found or {(0, 0)}


def test_guardians_picture_targets_name_the_moves_of_their_tile_or_cell() -> None:
    """A pool tile's target carries exactly the moves naming that tile; a cell's target the
    placements there, the walks from or to it and the pawn put on it, each naming the cell;
    every move of a tile or a cell is behind some target."""
    spec = game_spec("guardians")
    for players in (1, 2):
        game = solver.load_game("guardians", players=players)
        state, rng, seen = game.new_initial_state(), random.Random(players), 0
        while not state.is_terminal() and seen < 40:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            view = spec.table_view(game, state, state.current_player())
            labels = {a: state.action_to_string(a) for a in state.legal_actions()}
            covered: set[int] = set()
            for target in view["targets"]:
                assert set(target["actions"]) <= set(labels)
                covered |= set(target["actions"])
                if target["attr"] == "data-tile":
                    tile = target["value"]
                    assert all(f" tile {tile} " in f" {labels[a]} " for a in target["actions"])
                else:
                    player, where = target["value"].split(":")
                    assert int(player) == state.current_player()
                    cell = tuple(int(x) for x in where.split(","))
                    assert all(cell in _cells_of(labels[a]) for a in target["actions"])
            placing = {a for a, label in labels.items()
                       if label.startswith(("place", "walk", "put", "flip"))}  # fmt: skip
            assert placing <= covered
            state.apply_action(rng.choice(state.legal_actions()))
            seen += 1


def test_the_dog_panel_shows_the_sheet_s_counters() -> None:
    spec = game_spec("dog")
    for game, state in _states("dog", 6):
        data = state.to_dict()
        texts = [i["text"] for i in spec.table_view(game, state, 0)["panels"][0]["items"]]
        assert f"stamina {data['stamina']}" in texts and f"curiosity {data['curiosity']}" in texts
        assert texts[0] == f"turn {min(data['turn'], game.forest.turns)} of {game.forest.turns}"


def test_the_trial_panels_show_the_seat_s_hand_and_everyone_s_board() -> None:
    spec = game_spec("trial")
    clickable = 0
    for game, state in _states("trial", 30):
        seat = state.current_player()
        panels = {p["title"]: p for p in spec.table_view(game, state, seat)["panels"]}
        hand = state.observation(seat)["players"][seat]["hand"]
        names = [state.game.pack.card(c)["name"] for c in hand]
        shown = [i["text"] for i in panels["Your hand"]["items"] if i["text"] != "(empty)"]
        assert [t.split(" (")[0] for t in shown] == names
        assert len(panels["Players"]["items"]) == game.num_players()
        for item in panels["Your hand"]["items"] + panels["Encounter row"]["items"]:
            for action in item.get("actions", []):
                assert item["text"].split(" (")[0] in state.action_to_string(action)
                clickable += 1
    assert clickable  # some card was playable by a click


def test_the_trial_lists_each_decided_fight_with_both_strengths_the_dice_and_the_winner() -> None:
    """Every fight the seat's history tells is listed (the latest first, at most six) with both
    strengths, both sides' dice and who won, read again here from the history's JSON."""
    spec = game_spec("trial")
    game = solver.load_game("trial", players=2)
    state, rng = game.new_initial_state(), random.Random(7)
    while not state.is_terminal() and state.information_state_string(0).count("\nfight:{") < 3:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    history = state.information_state_string(0)
    decided = [json.loads(line[6:]) for line in history.splitlines() if line.startswith("fight:{")]
    assert len(decided) >= 3
    panels = {p["title"]: p for p in spec.table_view(game, state, 0)["panels"]}
    listed = [i["text"] for i in panels["Fight"]["items"] if not i["text"].startswith("now:")]
    assert len(listed) == min(6, len(decided)) + (len(decided) > 6)
    for text, fight in zip(listed, decided[::-1], strict=False):
        for side in (0, 1):
            dice = ", ".join(str(v) for v in fight["dice"][side]) or "none"
            assert f"(strength {fight['strength'][side]}, dice {dice})" in text
        winner = fight["attacker"] if fight["winner"] == "attacker" else fight["defender"]
        assert text.endswith((f"player {winner} won", "the foe won", "(by the bow)"))


def test_the_trial_picture_targets_name_their_space_card_or_store_slot() -> None:
    """Each target of the Trial's picture carries legal moves that name what it is: a space a
    move goes to, an encounter card (its slot or its name), a store slot (its place or the kind
    stocked there)."""
    spec = game_spec("trial")
    seen: set[str] = set()
    for game, state in _states("trial", 60):
        seat = state.current_player()
        obs = state.observation(seat)
        for target in spec.table_view(game, state, seat)["targets"]:
            labels = [state.action_to_string(a) for a in target["actions"]]
            assert target["actions"] and set(target["actions"]) <= set(state.legal_actions())
            value = target["value"]
            if target["attr"] == "data-space":
                assert all(label.split()[-1] == value for label in labels)
            elif target["attr"] == "data-encounter":
                card = obs["encounter_row"][int(value) - 1]
                names = [f"encounter {value}"] + ([game.pack.card(card)["name"]] if card else [])
                assert all(any(n in label for n in names) for label in labels)
            else:
                r, c = (int(x) for x in value.split(","))
                stack = obs["store"][r - 1][c - 1]
                names = [f"row {r}, column {c}"] + ([stack[0]] if stack else [])
                assert all(any(n in label for n in names) for label in labels)
            seen.add(target["attr"])
    assert {"data-space", "data-encounter"} <= seen


def _hidden_names(state: Any, players: int, viewer: int) -> set[str]:
    """Names of cards in the other seats' hands that nothing the viewer sees names."""
    pack = state.game.pack
    seen = json.dumps(state.observation(viewer))
    names = set()
    for other in range(players):
        if other != viewer:
            for card in state.observation(other)["players"][other]["hand"]:
                name = pack.card(card)["name"]
                if name not in seen and pack.card(card)["id"] not in seen:
                    names.add(name)
    return names


def test_the_analysis_board_shows_the_viewing_seat_never_the_mover_s_hidden_cards() -> None:
    """``POST /v1/position`` with ``seat`` (the seat the viewer holds on the analysis board): the
    panels are that seat's (its own hand, not the mover's), and where the mover is another seat
    of a hidden-information game its moves are not listed, the text is the seat's information
    state, and nothing in the panels, moves, targets, text or picture names a card hidden from
    the seat. From the mover's own seat its moves are listed as before."""
    from solver.hint.jobs import position_job

    spec = game_spec("trial")
    game = solver.load_game("trial", players=2)
    state, rng, actions = game.new_initial_state(), random.Random(3), []
    checked = 0
    while checked < 6 and not state.is_terminal():
        decision = not state.is_chance_node() and state.observation(0)["players"][0]["hand"]
        if decision and rng.random() < 0.2:  # positions spread over the game
            mover = state.current_player()
            viewer = 1 - mover
            hidden = _hidden_names(state, 2, viewer)
            raw = {"game": "trial", "options": {"players": 2}, "actions": list(actions)}
            seen = position_job({**raw, "seat": viewer})
            assert seen["seat"] == viewer and seen["seatMoves"] is False
            assert seen["moves"] == [] and seen["targets"] == []
            assert seen["panels"] == spec.table_view(game, state, viewer)["panels"]
            assert seen["text"] == state.information_state_string(viewer)
            shown = json.dumps([seen[k] for k in ("panels", "moves", "targets", "text", "svg")])
            assert hidden and not {name for name in hidden if name in shown}
            own = position_job({**raw, "seat": mover})
            assert own["seatMoves"] is True and len(own["moves"]) == len(state.legal_actions())
            assert own["panels"] == spec.table_view(game, state, mover)["panels"]
            assert position_job(raw)["panels"] == own["panels"]  # no seat: the mover's view
            checked += 1
        action = (rng.choice(state.chance_outcomes())[0] if state.is_chance_node()
                  else rng.choice(state.legal_actions()))  # fmt: skip
        state.apply_action(action)
        actions.append(action)
    assert checked == 6


def test_a_position_for_a_seat_the_game_has_not_is_refused() -> None:
    from solver.hint.engine import HintError
    from solver.hint.jobs import position_job

    with pytest.raises(HintError, match="seat 2 is not a seat") as caught:
        position_job({"game": "trial", "options": {"players": 2}, "seat": 2})
    assert caught.value.field == "seat"


def test_the_trial_names_the_next_stage_of_a_fight_under_way_in_words() -> None:
    """A fight under way names its next stage in words (every stage of the rules has words),
    never the rules' identifier."""
    from solver.games.trial.fights import STAGES
    from solver.games.trial.table_words import STAGE_WORDS

    assert set(STAGE_WORDS) == set(STAGES)
    spec = game_spec("trial")
    seen = 0
    for game, state in _states("trial", 400):
        seat = state.current_player()
        fight = state.observation(seat).get("fight")
        if not fight:
            continue
        panels = {p["title"]: p for p in spec.table_view(game, state, seat)["panels"]}
        (now,) = [i["text"] for i in panels["Fight"]["items"] if i["text"].startswith("now:")]
        assert now.endswith(f"(next: {STAGE_WORDS[fight['stage']]})") and "_" not in now
        seen += 1
    assert seen


def test_guardians_pool_tiles_read_in_words() -> None:
    """Found by a new user's pass: the table's pool panel listed 'tile 16: G:?5', the text
    view's token, whose legend the table does not show. Each tile reads as its colour and its
    mission's points, face down ('blue, 5 VP mission face down') or, with open backs, its walk
    ('blue, mission green-red-grey (5 VP)'), against the tile itself."""
    import random

    import solver
    from solver.games.guardians.tiles import COLOUR_NAMES

    spec = game_spec("guardians")
    seen = set()
    for open_backs in (False, True):
        game = solver.load_game("guardians", players=2, open_backs=open_backs)
        state, rng = game.new_initial_state(), random.Random(4)
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        (pool, *_rest) = spec.table_view(game, state, 0)["panels"]
        assert [item["text"].split(":")[0] for item in pool["items"]] == [
            f"tile {t}" for t in state.pool
        ]
        for item, number in zip(pool["items"], state.pool, strict=True):
            tile = state.tile(number)
            said = item["text"].split(": ", 1)[1]
            assert said.startswith(f"{COLOUR_NAMES[tile.colour]}, ") and ":" not in said, said
            if open_backs:
                walk = "-".join(COLOUR_NAMES[c] for c in tile.sequence)
                assert said.endswith(f"mission {walk} ({tile.points} VP)"), said
            else:
                assert said.endswith(f"{tile.points} VP mission face down"), said
            seen.add(open_backs)
    assert seen == {False, True}
