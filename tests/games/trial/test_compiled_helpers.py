"""The Trial's compiled helpers (``solver._ext.trial``) against the reference functions they
replace: the state copy (``rules._copy``), the movement reach (``Board.reachable``) and the fame
totals (``scoring.fame``), on positions taken from seeded random games of 2, 3 and 4 players."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from solver.game import CHANCE
from solver.games.trial.board import Board
from solver.games.trial.rules import TrialGame, TrialState, _copy
from solver.games.trial.scoring import fame
from solver.games.trial.turns import open_tunnels

pytestmark = pytest.mark.usefixtures("require_kernels")

GAMES = {n: TrialGame(players=n) for n in (2, 3, 4)}


def _positions(seeds: range, every: int) -> list[TrialState]:
    """Every ``every``-th position of random games (uniform decisions, exact chance)."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GAMES[2 + seed % 3].new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
            if actions % every == 0:
                found.append(state.clone())
        found.append(state)
    return found


@pytest.fixture(scope="module")
def positions() -> list[TrialState]:
    return _positions(range(24), every=23)


@pytest.fixture(scope="module")
def ext() -> Any:
    from solver.games.trial.kernel import extension_module

    return extension_module()


def _containers(value: Any, into: list[Any]) -> None:
    """Every dict and list inside ``value``, one entry per place (a list reachable by two paths
    counts twice)."""
    if type(value) in (dict, list):
        into.append(value)
        for item in value.values() if type(value) is dict else value:
            _containers(item, into)


def _shared_leaves(a: Any, b: Any) -> bool:
    """Whether every non-container value of ``b`` is the very object at the same place in ``a``."""
    if type(a) is dict:
        return list(a) == list(b) and all(_shared_leaves(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_shared_leaves(x, y) for x, y in zip(a, b, strict=True))
    return a is b


# -- the copy -------------------------------------------------------------------------------------
def test_copy_of_hand_built_data_matches_the_reference(ext):
    class Tagged(dict):  # a dict subclass is a leaf for both copies: shared, not rebuilt
        pass

    inner = [1, [2, {"x": (3, [4])}]]
    data = {"b": inner, "a": {"t": ("log", 1), "d": Tagged(k=[5])}, "s": "text", "n": None}
    mine, theirs = ext.copy_data(data), _copy(data)
    assert mine == theirs == data
    assert list(mine) == ["b", "a", "s", "n"]  # key order kept
    assert mine["b"] is not inner and mine["b"][1] is not inner[1]
    assert mine["a"]["t"] is data["a"]["t"] and mine["a"]["d"] is data["a"]["d"]
    assert mine["b"][1][1]["x"] is inner[1][1]["x"]  # a tuple is shared, its list inside too
    assert _shared_leaves(theirs, mine)
    assert ext.copy_data(7) == 7 and ext.copy_data([]) == [] and ext.copy_data({}) == {}


def test_copy_of_game_states_equals_the_reference_copy(ext, positions):
    for state in positions:
        mine, theirs = ext.copy_data(state.data), _copy(state.data)
        assert json.dumps(mine) == json.dumps(theirs) == json.dumps(state.data)  # order too
        assert _shared_leaves(state.data, mine)
        source: list[Any] = []
        copied: list[Any] = []
        _containers(state.data, source)
        _containers(mine, copied)
        assert len(copied) == len(source)
        assert not {id(c) for c in source} & {id(c) for c in copied}  # nothing shared
        assert len({id(c) for c in copied}) == len(copied)  # nor aliased (as the reference)


def test_a_copied_state_is_independent(ext, positions):
    state = positions[len(positions) // 2]
    before = json.dumps(state.data)
    twin = ext.copy_data(state.data)
    twin["players"][0]["hand"].append("extra")
    twin["stack"].clear()
    twin["players"][1]["food"]["acorn"] = 99
    assert json.dumps(state.data) == before


# -- movement -------------------------------------------------------------------------------------
def test_reach_on_the_shipped_board_by_hand(ext):
    graph = ext.BoardGraph(GAMES[2].board)
    assert sorted(graph.reachable("start-1", 1, set())) == [
        "grove-2",
        "path-05",
        "start-2",
        "start-3",
    ]
    assert graph.reachable("start-1", 0, set()) == {}
    assert graph.reachable("not-a-space", 3, set()) == {}
    with pytest.raises(KeyError):
        graph.reachable("start-1", 2, {"not-a-space"})
    board = GAMES[2].board
    tunnels = ["path-05", "grove-2", "path-05", "start-3"]  # any iterable, repeats harmless
    for budget in (1, 2, 4):
        mine, theirs = (
            graph.reachable("start-1", budget, tunnels),
            board.reachable("start-1", budget, tunnels),
        )
        assert list(mine.items()) == list(theirs.items())


def test_reach_equals_the_reference_from_every_space(ext, positions):
    board: Board = GAMES[4].board
    graph = ext.BoardGraph(board)
    rng = random.Random(5)
    land = [s for s in board.spaces if s not in board.area_of]
    tunnel_sets = [open_tunnels(st) for st in positions[::7]]
    tunnel_sets += [set(rng.sample(land, k)) for k in (0, 1, 2, 5, 9)]
    for tunnels in tunnel_sets:
        for origin in board.spaces:
            for budget in (0, 1, 2, 3, 5, 8):
                mine = graph.reachable(origin, budget, tunnels)
                theirs = board.reachable(origin, budget, tunnels)
                assert list(mine.items()) == list(theirs.items()), (origin, budget, tunnels)


def test_reach_from_game_positions_equals_the_reference(ext, positions):
    graph = ext.BoardGraph(GAMES[3].board)
    for state in positions:
        tunnels = open_tunnels(state)
        for me in state.data["players"]:
            for budget in (1, 3, 6):
                mine = graph.reachable(me["space"], budget, tunnels)
                assert mine == state.game.board.reachable(me["space"], budget, tunnels)


# -- scoring --------------------------------------------------------------------------------------
def test_fame_totals_equal_the_reference(positions):
    from solver.games.trial.kernel import fame_tables

    tables = {n: fame_tables(game) for n, game in GAMES.items()}
    nonzero = 0
    for state in positions:
        totals = tables[state.data["player_count"]].totals(state.data)
        assert totals == [fame(state, p)["total"] for p in range(state.data["player_count"])]
        nonzero += any(totals)
    assert nonzero > len(positions) // 2  # the positions do score


def test_fame_totals_by_hand():
    """The parts one by one on a hand-set state: a face-up and a face-down story card, an item,
    a gallery artifact, a flag, the morality track, a legendary token, the first player."""
    from solver.games.trial.kernel import fame_tables

    game = GAMES[2]
    pack, comp = game.pack, game.components
    state = game.new_initial_state()
    d = state.data
    card = next(c for c in pack.deeds if int(c["fame"]) > 0)
    item = next(i for i in pack.items if int(i.get("fame", 0)) > 0)
    artifact = next(a for a in pack.artifacts if int(a.get("fame", 0)) > 0)
    finish, value = next(iter(game.board.finish.items()))
    area = game.board.area_of[finish]
    token = comp["legendary"][0]
    track = comp["morality"]
    me = d["players"][1]
    me["story"] = [[card["id"], True, "moral"], [card["id"], False, "moral"]]
    me["backpack"] = [item["id"]]
    me["gallery"] = [artifact["id"]]
    me["flags"] = {a: (finish if a == area else None) for a in game.board.areas}
    me["morality"] = track["max"]
    d["legendary"] = {t["id"]: (1 if t is token else None) for t in comp["legendary"]}
    d["first_player"] = 1
    expected = (
        int(card["fame"])
        + int(item["fame"])
        + int(artifact["fame"])
        + value
        + int(track["fame"][-1])
        + int(token["fame"])
        + int(comp["first_player_fame"])
    )
    assert fame(state, 1)["total"] == expected
    assert fame_tables(game).totals(d)[1] == expected


# -- card playability -----------------------------------------------------------------------------
def test_playability_equals_the_reference_on_game_positions(positions):
    from solver.games.trial.conditions import playable
    from solver.games.trial.kernel import play_tables

    tables = {n: play_tables(game) for n, game in GAMES.items()}
    seen = set()
    for state in positions[::3]:
        for p in range(state.data["player_count"]):
            for cid in state.game.pack.cards:
                expected = playable(state, p, cid)
                assert (
                    tables[state.data["player_count"]].playable(state.data, p, cid) == expected
                ), (cid, p)
                seen.add(expected)
    assert seen == {True, False}


def _scrambled(state: TrialState, rng: random.Random) -> TrialState:
    """``state`` with every player's belongings and the board's tunnels and tiles redrawn at
    random (not a reachable position: a fuzz of what the conditions and costs read)."""
    twin = state.clone()
    d, game = twin.data, twin.game
    board, pack = game.board, game.pack
    land = [s for s in board.spaces if s not in board.area_of]
    slots = list(board.location_slots)
    kinds = [k["id"] for k in (*pack.items, *pack.artifacts)]
    cards = list(pack.cards)
    track = game.components["morality"]
    shared = rng.choice(land)
    for me in d["players"]:
        me["space"] = shared if rng.random() < 0.5 else rng.choice(slots + land)
        me["paws_placed"] = [[f"loc:{s}", False] for s in rng.sample(slots, rng.randrange(6))]
        me["morality"] = rng.randint(track["min"], track["max"])
        me["food"] = {f: rng.choice((0, 0, 1, 2)) for f in me["food"]}
        me["backpack"] = [rng.choice(kinds) for _ in range(rng.randrange(5))]
        me["hand"] = rng.sample(cards, rng.randrange(4))
        me["story"] = [
            [c, rng.random() < 0.7, "moral"] for c in rng.sample(cards, rng.randrange(8))
        ]
    d["tunnels"] = {s: rng.choice(("open", "collapsed", "hidden")) for s in rng.sample(land, 4)}
    tiles = [t["id"] for t in pack.locations]
    rng.shuffle(tiles)
    d["tiles"] = {s: ([tiles[i], rng.random() < 0.5] if rng.random() < 0.9 else None)
                  for i, s in enumerate(slots)}  # fmt: skip
    return twin


def test_playability_equals_the_reference_on_scrambled_states(positions):
    """Every condition of the effect language and every kind of cost, both ways."""
    from solver.games.trial.conditions import condition_ok, playable
    from solver.games.trial.kernel import play_tables

    tables = {n: play_tables(game) for n, game in GAMES.items()}
    rng = random.Random(11)
    outcomes: dict[str, set[bool]] = {}
    for i in range(150):
        state = _scrambled(positions[i % len(positions)], rng)
        for p in range(state.data["player_count"]):
            for cid, card in state.game.pack.cards.items():
                expected = playable(state, p, cid)
                assert (
                    tables[state.data["player_count"]].playable(state.data, p, cid) == expected
                ), (cid, p)
                for cond in card.get("requires", []):
                    outcomes.setdefault(json.dumps(cond), set()).add(condition_ok(state, p, cond))
                if card.get("cost"):
                    outcomes.setdefault("cost:" + cid, set()).add(expected)
    conditions = [k for k in outcomes if not k.startswith("cost:")]
    assert len(conditions) >= 14 and all(outcomes[k] == {True, False} for k in conditions)
    assert sum(outcomes[k] == {True, False} for k in outcomes if k.startswith("cost:")) >= 40
