"""Table sessions (issue 21 §1): the server keeps a hidden-information game, samples chance and
plays the engine seats; every answer is the human seat's view only.

Every answer the page receives over HTTP is checked against the view rebuilt from the true state
(a session is reproducible: the same seed and moves replayed in-process give the same actions),
and again after everything the seat cannot see is redealt: no answer depends on a card hidden
from the seat, other seats' hands are counts. The record (every action) comes only at the end.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import solver
from solver.hint.session import advance_job, seat_view, takeback_point
from solver.labels import HIDDEN_LABEL, shown_label
from solver.registry import game_spec
from solver.rng import SplitMix64

from .conftest import Server

httpx = pytest.importorskip("httpx")

GAME = "trial"
START = {"game": GAME, "options": {"players": 2}, "humans": [0], "agent": "random", "seed": 3}


def _post(server: Server, path: str, body: dict[str, Any]) -> Any:
    return httpx.post(f"{server.url}{path}", json=body, timeout=120)


def _state(actions: list[int]) -> tuple[Any, Any]:
    game = solver.load_game(GAME, players=2)
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return game, state


def _check_hides(view: dict[str, Any], actions: list[int], redeal: SplitMix64) -> None:
    """``view`` is the seat's view of the true state after ``actions``, and stays the same when
    everything hidden from the seat is redealt."""
    spec = game_spec(GAME)
    game, state = _state(actions)
    seat = view["seat"]
    step = ("session", "enginePending", "notes", "stepSeconds", "played")  # the step, not the game
    shown = {k: v for k, v in view.items() if k not in step}
    assert view["enginePending"] is False and view["notes"] == []  # random engines: never cut
    assert shown == seat_view(spec, game, state, [0], len(actions))
    assert "actions" not in view and view["text"] is None  # the seat's picture is checked below
    for other, player in enumerate(view["observation"]["players"]):
        if other != seat:
            assert isinstance(player["hand"], int)  # a count, never the cards
    if not state.is_terminal():
        for _ in range(2):
            redealt = state.resample_hidden(seat, redeal)
            assert shown == seat_view(spec, game, redealt, [0], len(actions))


def _check_line(
    server: Server, ident: str, pv: list[int], actions: list[int], redeal: SplitMix64
) -> None:
    """The hint's line on the seat's picture is the game's drawing of the seat's move, and the
    same when what the seat cannot see is redealt."""
    spec = game_spec(GAME)
    line = _post(server, "/v1/table/line", {"session": ident, "pv": pv})
    assert line.status_code == 200, line.text
    game, state = _state(actions)
    drawn = line.json()["pvSvg"]
    assert drawn and drawn == spec.svg_line(game, state, pv[:1])
    redealt = state.resample_hidden(state.current_player(), redeal)
    assert spec.svg_line(game, redealt, pv[:1]) == drawn


def test_a_session_line_draws_only_the_seat_s_own_decisions() -> None:
    """``line_job`` keeps the seat's consecutive decisions of a longer line and stops at a
    chance node or another seat's turn; it refuses when no human seat is to move."""
    from solver.hint.lines import hinted_svg
    from solver.hint.session import line_job

    raw = {**START, "iterations": None, "actions": []}
    kept = advance_job(raw, None)["actions"]
    game, state = _state(kept)
    rng, pv = random.Random(2), []
    walker = state.clone()
    while not walker.is_terminal() and len(pv) < 40:  # a line going past the seat's turn
        action = (rng.choice(walker.chance_outcomes())[0] if walker.is_chance_node()
                  else rng.choice(walker.legal_actions()))  # fmt: skip
        pv.append(action)
        walker.apply_action(action)
    mine, probe = 0, state.clone()
    while mine < len(pv) and not probe.is_chance_node() and probe.current_player() == 0:
        probe.apply_action(pv[mine])
        mine += 1
    assert 0 < mine < len(pv)
    answer = line_job({**raw, "actions": kept}, pv)
    assert answer["pvSvg"] == hinted_svg(game_spec(GAME), game, state, pv[:mine])
    later = kept + pv[:mine]
    _, after = _state(later)
    if after.is_chance_node() or after.current_player() != 0:
        with pytest.raises(Exception, match="no human seat is to move"):
            line_job({**raw, "actions": later}, pv[mine:])


def _check_played(
    played: list[dict[str, Any]], actions: list[int], start: int, moved: bool = True
) -> None:
    """A step's ``played`` lists every action from ``start`` on, who played it and its label as
    seat 0 may see it (``play --human``'s), and no action id (a hidden card's would name it)."""
    assert [entry["ply"] for entry in played] == list(range(start, len(actions)))
    _, state = _state(actions[:start])
    for entry, action in zip(played, actions[start:], strict=True):
        assert set(entry) == {"ply", "player", "label"}
        player = -1 if state.is_chance_node() else state.current_player()
        assert entry["player"] == player
        assert entry["label"] == shown_label(state, action, 0)
        state.apply_action(action)
    assert (played[0]["player"] == 0) == moved  # the human's move first


def _session(server: Server, moves: int, *, until_end: bool) -> None:
    """A session over HTTP next to its in-process twin: every answer checked."""
    assert game_spec(GAME).hidden_information
    answer = _post(server, "/v1/table/start", START)
    assert answer.status_code == 200, answer.text
    ident = answer.json()["session"]
    twin = {**START, "iterations": None, "actions": []}
    kept = advance_job(twin, None)
    _check_played(answer.json()["played"], kept["actions"], 0, moved=False)  # the set-up
    # the other seat's cards dealt are listed, not named (play --human's "(hidden from you)")
    assert HIDDEN_LABEL in {entry["label"] for entry in answer.json()["played"]}
    chooser, redeal = random.Random(5), SplitMix64(11)
    took_back = False
    for step in range(moves):
        view = answer.json()
        _check_hides(view, kept["actions"], redeal)
        if view["terminal"]:
            break
        if step == 3:  # a hint from the seat's own view, then a move taken back
            hint = _post(server, "/v1/table/hint", {"session": ident, "limit": {"iterations": 8}})
            assert hint.status_code == 200, hint.text
            assert hint.json()["rootInfo"]["method"] == "ismcts"
            legal = {m["action"] for m in view["moves"]}
            assert {m["action"] for m in hint.json()["moveInfos"]} <= legal
            _check_line(server, ident, hint.json()["moveInfos"][0]["pv"], kept["actions"], redeal)
            refused = _post(server, "/v1/table/record", {"session": ident})
            assert refused.status_code == 409 and refused.json()["code"] == "game_not_over"
        if step == 6 and not took_back:
            answer = _post(server, "/v1/table/takeback", {"session": ident})
            assert answer.status_code == 200, answer.text
            keep = takeback_point({**twin, "actions": kept["actions"]})
            kept = advance_job({**twin, "actions": kept["actions"][:keep]}, None)
            assert answer.json()["ply"] == keep < view["ply"]
            took_back = True
            continue
        action = chooser.choice(view["moves"])["action"]
        answer = _post(server, "/v1/table/move", {"session": ident, "action": action})
        assert answer.status_code == 200, answer.text
        before = len(kept["actions"])
        kept = advance_job({**twin, "actions": kept["actions"]}, action)
        _check_played(answer.json()["played"], kept["actions"], before)
    assert took_back
    if until_end:
        assert answer.json()["terminal"], "the game did not end within the moves allowed"
        record = _post(server, "/v1/table/record", {"session": ident})
        assert record.status_code == 200 and record.json()["actions"] == kept["actions"]


def test_a_session_shows_the_seat_only_its_own_view(server: Server) -> None:
    _session(server, 10, until_end=False)


@pytest.mark.slow
def test_a_whole_session_shows_the_seat_only_its_own_view(server: Server) -> None:
    _session(server, 1000, until_end=True)


def test_a_finished_session_gives_its_record(server: Server) -> None:
    start = {"game": "dog", "options": {"forest": "dog/another-dog"}, "humans": [0], "seed": 1}
    answer = _post(server, "/v1/table/start", start).json()
    played = list(answer["played"])
    for _ in range(200):
        if answer["terminal"]:
            break
        assert answer["svg"]  # nothing hidden in the dog: its picture is shown
        answer = _post(
            server,
            "/v1/table/move",
            {"session": answer["session"], "action": answer["moves"][0]["action"]},
        ).json()
        played += answer["played"]
    assert answer["terminal"]
    record = _post(server, "/v1/table/record", {"session": answer["session"]})
    assert record.status_code == 200
    game = solver.load_game("dog", forest="dog/another-dog")
    state = game.new_initial_state()
    labels = []  # the steps' played lists, joined, are the whole game (nothing hidden)
    for action in record.json()["actions"]:
        labels.append((-1 if state.is_chance_node() else 0, state.action_to_string(action)))
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == answer["returns"]
    assert [(e["player"], e["label"]) for e in played] == labels
    assert [e["ply"] for e in played] == list(range(len(labels)))
    # the record is out (in a hidden-information game: every seat's cards), so the game stays
    # over: no take back reopens it (found by attack: it did, ply by ply)
    again = _post(server, "/v1/table/takeback", {"session": answer["session"]})
    assert again.status_code == 409 and again.json()["code"] == "game_over"
    # nor is a move played after the end: it said "it is not a human seat's turn" (400), after a
    # worker had replayed the whole game to say it (found by attack)
    after = _post(server, "/v1/table/move", {"session": answer["session"], "action": 0})
    assert after.status_code == 409 and after.json()["code"] == "game_over", after.text
    assert _post(server, "/v1/table/record", {"session": answer["session"]}).status_code == 200


def test_a_bad_session_request_gets_a_code(server: Server) -> None:
    missing = _post(server, "/v1/table/move", {"session": "nope", "action": 0})
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_session"
    seats = _post(server, "/v1/table/start", {**START, "humans": [5]})
    assert seats.status_code == 400 and seats.json()["field"] == "humans"
    agent = _post(server, "/v1/table/start", {**START, "agent": "mcts"})
    assert agent.status_code == 400 and agent.json()["field"] == "agent"
    every_seat_human = {**START, "humans": [0, 1]}
    unknown = _post(server, "/v1/table/start", {**every_seat_human, "agent": "level11"})
    assert unknown.status_code == 400 and unknown.json()["field"] == "agent"  # found by attack
    # an empty name is no agent: it is refused, not taken for the default (found by attack)
    empty = _post(server, "/v1/table/start", {**START, "agent": ""})
    assert empty.status_code == 400 and empty.json()["field"] == "agent", empty.text
    started = _post(server, "/v1/table/start", {**START})
    illegal = _post(
        server, "/v1/table/move", {"session": started.json()["session"], "action": 99_999}
    )
    assert illegal.status_code == 400 and illegal.json()["code"] == "illegal_action"


def test_a_session_line_tells_nothing_past_the_seat_s_turn() -> None:
    """``/v1/table/line`` is no oracle: an action after the seat's turn (another seat's ``play
    X``, a draw) is dropped unchecked, so the answer is the same whatever it is. Checking it
    against the true state told whether the other seat holds card X (found by attack)."""
    from solver.hint.session import line_job

    raw = {**START, "iterations": None, "actions": []}
    chooser = random.Random(4)
    kept = advance_job(raw, None)
    for _ in range(60):  # to a position where one move of the seat hands the turn on
        game, state = _state(kept["actions"])
        passing = [m for m in state.legal_actions() if _hands_on(state, m)]
        if passing:
            break
        kept = advance_job({**raw, "actions": kept["actions"]},
                           chooser.choice(kept["view"]["moves"])["action"])  # fmt: skip
    assert passing, "no move handing the turn on was found"
    session = {**raw, "actions": kept["actions"]}
    alone = line_job(session, [passing[0]])
    for later in range(game.num_distinct_actions()):  # legal or not for the next mover
        assert line_job(session, [passing[0], later]) == alone
    with pytest.raises(Exception, match=r"pv\.0"):
        line_job(session, [game.num_distinct_actions() + 5])


def _hands_on(state: Any, move: int) -> bool:
    child = state.clone()
    child.apply_action(move)
    return not child.is_terminal() and not child.is_chance_node() and child.current_player() != 0


def test_the_sessions_kept_are_bounded_in_bytes_too():
    """A session keeps its game's options, which may hold a file's whole text (a dog forest's
    comments, a tile set's name): past the bytes the store keeps, the least recently used
    sessions are dropped, as past its count (found by attack: 256 sessions of 1 MiB options each
    held 280 MB of the server's main process). The one just added is always kept."""
    from solver.hint.errors import HintError
    from solver.hint.session import Session, Sessions

    def session(comment_bytes: int) -> Session:
        forest = "# " + "x" * comment_bytes + "\nname: a\nturns: 3\ngrid:\nH @\n"
        return Session("dog", {"forest": forest}, [0], "random", None, 0)

    store = Sessions(capacity=256, max_bytes=10_000, idle_seconds=0)  # every one idle enough
    first, second = store.add(session(4_000)), store.add(session(4_000))
    store.get(first)  # used: the second is now the least recently used
    third = store.add(session(4_000))
    assert len(store) == 2 and store.get(first) and store.get(third)
    with pytest.raises(HintError) as dropped:
        store.get(second)
    assert dropped.value.code == "unknown_session"
    alone = store.add(session(50_000))  # larger than the whole budget: kept, every other dropped
    assert len(store) == 1 and store.get(alone)
    # the count still bounds small ones
    few = Sessions(capacity=4, max_bytes=10_000, idle_seconds=0)
    small = [few.add(session(10)) for _ in range(6)]
    assert len(few) == 4 and few.get(small[-1])


@pytest.mark.parametrize("game", ["trial", "dog"])
def test_an_unfinished_record_is_given_when_asked(server: Server, game: str) -> None:
    """``/v1/table/record`` with ``unfinished``: the record so far, ``play --record``'s shape for
    a game left (``"finished": false``, ``"returns": null``), its actions the session's own (a
    replay of the steps). Where the game hides cards (the Trial) the session is then left: no
    move, view, take back, hint or line follows (``game_over``); the dog's game goes on.
    Without the field the record is still refused before the end (``game_not_over``)."""
    options = {"players": 2} if game == "trial" else {"forest": "dog/another-dog"}
    start = {"game": game, "options": options, "humans": [0], "agent": "random", "seed": 3}
    view = _post(server, "/v1/table/start", start).json()
    ident = view["session"]
    first = {"session": ident, "action": view["moves"][0]["action"]}
    view = _post(server, "/v1/table/move", first).json()
    assert not view["terminal"]
    refused = _post(server, "/v1/table/record", {"session": ident})
    assert refused.status_code == 409 and refused.json()["code"] == "game_not_over"
    hides = game_spec(game).hidden_information
    # the refusal speaks of cards, and of leaving the game, only where the game hides cards
    assert ("cards" in refused.json()["error"]) is hides, refused.text
    assert ("leaves the game" if hides else "the game goes on") in refused.json()["error"]
    record = _post(server, "/v1/table/record", {"session": ident, "unfinished": True})
    assert record.status_code == 200, record.text
    body = record.json()
    assert (body["finished"], body["returns"], body["game"]) == (False, None, game)
    twin = {**start, "iterations": None, "seconds": None, "actions": body["actions"]}
    assert advance_job(twin, None)["view"]["ply"] == view["ply"]  # the game so far, replayed
    for path, extra in (("/v1/table/hint", {"limit": {"iterations": 10}}),
                        ("/v1/table/line", {"pv": []}), ("/v1/table/move", {"action": 0}),
                        ("/v1/table/view", {}), ("/v1/table/takeback", {})):  # fmt: skip
        answer = _post(server, path, {"session": ident, **extra})
        if hides:
            assert answer.status_code == 409 and answer.json()["code"] == "game_over", path
        else:
            assert answer.status_code != 409, (path, answer.text)


@pytest.mark.parametrize(("game", "options", "said"), [
    ("dog", {"forest": "dog/another-dog"}, "humans must be seat 0 (the game has one seat)"),
    ("trial", {"players": 2}, "humans must be distinct seats from 0 to 1"),
])  # fmt: skip
def test_seats_out_of_the_game_are_refused_in_words(game: str, options: dict, said: str) -> None:
    """A one-seat game's hot seat ('0,1' on the page) was refused as 'distinct seats from 0 to
    0' (found by helper 79): a one-seat game now says it has one seat."""
    from solver.hint.errors import HintError

    raw = {"game": game, "options": options, "humans": [0, 2], "agent": "random",
           "iterations": None, "seed": 1, "actions": [], "seconds": None}  # fmt: skip
    with pytest.raises(HintError) as refused:
        advance_job(raw, None)
    assert (str(refused.value), refused.value.field) == (said, "humans")


def test_a_start_names_the_fields_it_ignored(server: Server) -> None:
    """Found by attack: a start whose options were misspelt (``optons``) started a game of the
    defaults, four players where two were asked, and said nothing; a hint names such fields in
    its notes, and now a start does too (once, in the first view)."""
    misspelt = {key: value for key, value in START.items() if key != "options"}
    answer = _post(server, "/v1/table/start", {**misspelt, "optons": {"players": 2}, "seeed": 4})
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["players"] == solver.load_game(GAME).num_players() != 2  # the default, as before
    note = "unknown fields ignored: 'optons', 'seeed' (a newer client's, or misspelt?)"
    assert view["notes"] == [note]
    again = _post(server, "/v1/table/view", {"session": view["session"]}).json()
    assert note not in again["notes"]  # said once, by the start
    plain = _post(server, "/v1/table/start", START).json()
    assert not any("unknown fields" in n for n in plain["notes"])


def test_a_played_entry_s_ply_is_its_action_s_index_and_its_review_decision_the_next() -> None:
    """docs/hint-engine.md: a step's ``played`` entry names the ply its action was played at (the
    action's index in the record), a review decision the ply after it (1 or more): a client
    matching the two by ``ply`` was off by one (found by a new user's pass). Checked on a whole
    dog session against its record and the record's review, an independent replay."""
    from solver.review import review_record

    start = {"game": "dog", "options": {"forest": "dog/tiny-example"}, "humans": [0],
             "agent": "mcts", "seed": 3, "iterations": None, "seconds": None}  # fmt: skip
    first = advance_job({**start, "actions": []}, None)
    actions, view = first["actions"], first["view"]
    played: list[dict[str, Any]] = []
    while not view["terminal"]:
        move = view["moves"][-1]  # the last listed: not always the search's first choice
        step = advance_job({**start, "actions": actions}, move["action"])
        actions = step["actions"]
        view = step["view"]
        played += [entry for entry in view["played"] if entry["player"] == 0]
    record = {"game": "dog", "options": start["options"], "seed": 3, "actions": actions}
    decisions = {d["ply"]: d for d in review_record(record)["decisions"]}
    assert played
    for entry in played:
        assert actions[entry["ply"]] == decisions[entry["ply"] + 1]["action"]
        assert decisions[entry["ply"] + 1]["label"] == entry["label"]
