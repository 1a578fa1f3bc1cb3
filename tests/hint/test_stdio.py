"""``forest hint --stdio`` driven as a real subprocess: JSON lines in, JSON lines out."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

import pytest

import solver
from solver.game import sample_chance
from solver.rng import SplitMix64

from .conftest import TIMEOUT, UNREACHED, Engine

DOG = {"game": "dog", "options": {"forest": "dog/another-dog"}}


@pytest.fixture
def engine():
    running = Engine("--max-iterations", "50000", "--max-seconds", str(UNREACHED))
    yield running
    if running.proc.poll() is None:
        running.proc.kill()
        running.proc.wait(timeout=TIMEOUT)


def test_the_issue_example(engine: Engine) -> None:
    request = {"id": "q1", **DOG, "actions": [], "limit": {"iterations": 2000}, "exact": True,
               "top_k": 3}  # fmt: skip
    engine.send(request)
    first = engine.read()
    assert first["id"] == "q1" and round(first["rootInfo"]["value"], 6) == 0.962963
    engine.send({**request, "id": "q2", "actions": [10]})
    second = engine.read()
    rows = [(m["label"], round(m["value"], 6)) for m in second["moveInfos"]]
    assert sorted(rows[:2]) == [("N", 0.888889), ("W", 0.888889)] and rows[2] == ("E", 0.333333)
    assert engine.close() == (0, "")


def test_concurrent_requests_are_answered_out_of_order(engine: Engine) -> None:
    # slow: a time budget only (3 s, no simulation count to finish early), so the exact "fast"
    # request sent 0.2 s later is answered first on any machine
    slow = {"id": "slow", **DOG, "actions": [10], "exact": False, "limit": {"seconds": 3}}
    engine.send(slow)
    time.sleep(0.2)  # the slow search is running
    engine.send({"id": "fast", **DOG, "exact": True})
    order = [m["id"] for m in engine.read_until("slow")]
    assert order.index("fast") < order.index("slow")
    code, rest = engine.close()
    assert code == 0 and rest == ""


def _trial_decision() -> dict[str, object]:
    """A 2-player Trial position (its actions) where the player to move has four moves or more:
    ISMCTS, where the dog's is MCTS."""
    state = solver.load_game("trial", players=2).new_initial_state()
    rng, pick, actions = SplitMix64(1), random.Random(2), []
    while state.is_chance_node() or len(state.legal_actions()) < 4:
        chance = state.is_chance_node()
        actions.append(sample_chance(state, rng) if chance else pick.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return {"game": "trial", "options": {"players": 2}, "actions": actions}


POSITIONS = {"dog": lambda: {**DOG, "actions": [10]}, "trial": _trial_decision}


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_partial_reports_then_terminate(engine: Engine, position: str) -> None:
    engine.send({"id": "long", **POSITIONS[position](), "exact": False,
                 "limit": {"seconds": UNREACHED}, "reportDuringSearchEvery": 0.2})  # fmt: skip
    partials = []
    for _ in range(100):
        message = engine.read()
        assert message["id"] == "long"
        if message["isDuringSearch"]:
            partials.append(message)
        if len(partials) >= 2:
            break
    assert all(p["moveInfos"] for p in partials)
    assert partials[1]["rootInfo"]["visits"] > partials[0]["rootInfo"]["visits"]
    engine.send({"id": "t1", "action": "terminate", "terminateId": "long"})
    messages = engine.read_until("long")  # not after its hour (UNREACHED)
    final = messages[-1]
    assert final["terminated"] is True and final["isDuringSearch"] is False
    assert final["moveInfos"] and final["rootInfo"]["visits"] >= partials[1]["rootInfo"]["visits"]
    acks = [m for m in messages if m.get("action") == "terminate"]
    assert acks == [
        {"id": "t1", "action": "terminate", "terminateId": "long", "found": True, "notes": []}
    ]
    assert engine.close()[0] == 0


def test_a_terminate_names_the_fields_it_ignored(engine: Engine) -> None:
    """A terminate's unknown fields were dropped without a word; its acknowledgement names
    them in ``notes``, as a hint's answer does."""
    engine.send({"id": "t2", "action": "terminate", "terminateId": "none", "terminateAll": True})
    assert engine.read() == {
        "id": "t2", "action": "terminate", "terminateId": "none", "found": False,
        "notes": ["unknown fields ignored: 'terminateAll' (a newer client's, or misspelt?)"],
    }  # fmt: skip


def test_malformed_lines_get_errors_and_the_engine_keeps_serving(engine: Engine) -> None:
    bad = [
        "{not json",
        "[1, 2]",
        '{"game": "dog"}',
        json.dumps({"id": "u", "game": "chess"}),
        json.dumps({"id": "i", **DOG, "actions": [2]}),
        json.dumps({"id": "s", **DOG, "state": {"pos": "x"}}),
        json.dumps({"id": "x", "action": "terminate"}),
    ]
    for line in bad:
        engine.send(line)
    answers = [engine.read() for _ in bad]
    assert all("error" in a and "field" in a for a in answers)
    by_id = {a["id"]: a for a in answers}
    assert by_id["u"]["field"] == "game" and by_id["u"]["code"] == "unknown_game"
    assert by_id["i"]["field"] == "actions.0" and by_id["i"]["code"] == "illegal_action"
    assert by_id["s"]["field"] == "state" and by_id["s"]["code"] == "bad_state"
    assert by_id["x"]["field"] == "terminateId"
    assert sum(a["id"] is None for a in answers) == 3
    engine.send({"id": "ok", **DOG, "exact": True, "unknownField": {"ignored": True}})
    reply = engine.read()
    assert round(reply["rootInfo"]["value"], 6) == 0.962963
    assert any("'unknownField'" in note for note in reply["notes"])
    assert engine.close()[0] == 0


def test_an_unknown_action_is_named(engine: Engine) -> None:
    """Found by attack: ``{"id": "a", "action": "explode"}`` was read as a hint request and
    answered 'game: Field required', naming a field the client never meant to send."""
    for action in ("explode", "Terminate", None, 3):
        engine.send({"id": "a", "action": action, **DOG})
        reply = engine.read()
        assert (reply["id"], reply["field"], reply["code"]) == ("a", "action", "invalid_request")
        assert "terminate" in reply["error"], reply
    assert engine.close()[0] == 0


def test_a_byte_order_mark_is_refused_in_the_services_words(engine: Engine) -> None:
    """Found by attack: a line saved "UTF-8 with BOM" was refused in Python's words ('Unexpected
    UTF-8 BOM (decode using utf-8-sig)'), which tell a client of no such call; now the BOM is
    named, the request's id still echoed, and the engine goes on serving."""
    engine.send("\ufeff" + json.dumps({"id": "b", **DOG}))
    reply = engine.read()
    assert (reply["id"], reply["code"], reply["field"]) == ("b", "malformed", None)
    assert reply["error"].startswith("the request starts with a byte order mark (U+FEFF")
    engine.send({"id": "ok", **DOG, "limit": {"iterations": 10}})
    assert engine.read()["id"] == "ok"
    assert engine.close()[0] == 0


def test_a_huge_budget_is_capped(engine: Engine) -> None:
    engine.send(
        {"id": "big", **DOG, "actions": [10], "exact": False, "limit": {"iterations": 10**12}}
    )
    reply = engine.read()
    assert reply["limitApplied"]["iterations"] == 50_000
    assert reply["limitApplied"]["capped"] == ["iterations"]
    assert reply["rootInfo"]["visits"] == 50_000
    assert engine.close()[0] == 0


def test_eof_finishes_the_work_in_flight() -> None:
    engine = Engine()
    for n in range(3):
        engine.send({"id": f"r{n}", **DOG, "actions": [10], "limit": {"iterations": 3000}})
    code, rest = engine.close()
    ids = sorted(json.loads(line)["id"] for line in rest.splitlines())
    assert code == 0 and ids == ["r0", "r1", "r2"]


def test_sigterm_stops_the_requests_in_flight_and_queued_and_exits_0() -> None:
    engine = Engine()  # 2 workers: the third request waits in the queue
    for n in range(3):
        engine.send({"id": f"r{n}", **POSITIONS["trial"](), "limit": {"seconds": 8},
                     "reportDuringSearchEvery": 0.2})  # fmt: skip
    assert engine.read()["isDuringSearch"]  # the searches run
    engine.proc.send_signal(signal.SIGTERM)
    out, err = engine.proc.communicate(timeout=TIMEOUT)
    finals = [m for m in map(json.loads, out.splitlines()) if not m["isDuringSearch"]]
    assert engine.proc.returncode == 0 and err == ""
    assert sorted(m["id"] for m in finals) == ["r0", "r1", "r2"]
    assert all(m["terminated"] is True and m["moveInfos"] for m in finals)


def test_a_path_works_on_stdio(engine: Engine) -> None:
    path = str(solver.puzzles.path("dog/another-dog"))
    engine.send({"id": "p", "game": "dog", "options": {"forest": path}, "exact": True})
    assert round(engine.read()["rootInfo"]["value"], 6) == 0.962963
    assert engine.close()[0] == 0


@pytest.mark.parametrize("game", sorted(set(solver.registered_games()) - {"dog"}))
def test_every_other_registered_game(engine: Engine, game: str) -> None:
    """Requests for the other games (guardians once registered, the trial): an answer each."""
    spec = solver.registry.game_spec(game)
    players = spec.players[0]
    request = {"id": game, "game": game, "options": {"players": players} if len(spec.players) > 1
               else {}, "limit": {"iterations": 32, "seconds": 5}}  # fmt: skip
    if not spec.default_source:
        name = solver.puzzles.names(spec.puzzles)[0]
        request["options"] = {spec.source_option: name}
    engine.send(request)
    reply = engine.read()
    assert "error" not in reply, reply
    assert reply["rootInfo"]["valueKind"] == spec.value_kind
    assert 0.0 <= reply["rootInfo"]["value"] <= 1.0
    assert engine.close()[0] == 0


def test_schema_is_printed() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "hint", "--schema"],
        capture_output=True, text=True, timeout=TIMEOUT, check=True,
    )  # fmt: skip
    assert "HintRequest" in json.loads(out.stdout)["$defs"]


def test_hint_without_a_transport_is_a_usage_error() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "hint"], capture_output=True, text=True,
        timeout=TIMEOUT,
    )  # fmt: skip
    assert out.returncode == 2 and "--stdio" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_after_the_end_of_the_input_stops_the_work_in_flight(stop: signal.Signals) -> None:
    """The input closed, the engine finishes the work in flight; a stop signal then still stops
    it, answered and exit 0 (SIGTERM killed it unanswered, -15; Ctrl-C waited out the budgets)."""
    engine = Engine("--max-seconds", str(UNREACHED))
    for n in range(2):
        engine.send({"id": f"r{n}", **POSITIONS["trial"](), "limit": {"seconds": UNREACHED},
                     "reportDuringSearchEvery": 0.2})  # fmt: skip
    assert engine.read()["isDuringSearch"]  # the searches run
    assert engine.proc.stdin is not None
    engine.proc.stdin.close()
    time.sleep(0.3)
    engine.proc.send_signal(stop)
    assert engine.proc.stdout is not None and engine.proc.stderr is not None
    out, err = engine.proc.stdout.read(), engine.proc.stderr.read()  # not after the budgets' hour
    assert engine.proc.wait(timeout=TIMEOUT) == 0 and err == ""
    finals = [m for m in map(json.loads, out.splitlines()) if not m["isDuringSearch"]]
    assert sorted(m["id"] for m in finals) == ["r0", "r1"]
    assert all(m["terminated"] is True for m in finals)
