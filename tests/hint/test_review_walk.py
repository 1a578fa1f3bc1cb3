"""A review walks its record once (issue rev33): the same values as a hint request per position
replaying the record from its start (the old review, rebuilt here from the public hint engine),
for every game; forced positions (a single move) are not searched and carry the next searched
position's value, which is theirs (exact: equal to their own exact value)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import solver
from solver.review import _decision, review_record
from solver.review_walk import MAX_FORCED_RUN, Walk

pytest.importorskip("pydantic")

FOREST = "dog/rolled-9x9-seed7"
FORCED_KEYS = ("forced", "valueFromPly")


def _moves(state) -> list[int]:
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def _random_record(name: str, options: dict[str, Any], seed: int, plies: int | None = None):
    """A record of random moves and random chance outcomes: ``plies`` of them at least, then on
    to a position with a choice (or the end)."""
    game = solver.load_game(name, **options)
    state, actions, rng = game.new_initial_state(), [], random.Random(seed)
    while not state.is_terminal():
        moves = _moves(state)
        if plies is not None and len(actions) >= plies and len(moves) > 1:
            break
        action = rng.choice(moves)
        state.apply_action(action)
        actions.append(action)
    return {"game": name, "options": options, "seed": seed, "actions": actions}


def _forced_plies(record: dict[str, Any]) -> set[int]:
    """The plies whose position has a single move, found by replaying the record here."""
    game = solver.load_game(record["game"], **record["options"])
    state, forced = game.new_initial_state(), set()
    for ply, action in enumerate(record["actions"]):
        if len(_moves(state)) == 1:
            forced.add(ply)
        state.apply_action(action)
    return forced


def _old_answers(record: dict[str, Any], start: int, stop: int, extra: dict[str, Any]):
    """The old review's searches: one hint request per position, replaying ``actions[:ply]``
    from the game's start, for plies ``start..stop``."""
    from solver.hint.engine import answer

    base = {"game": record["game"], "options": record["options"], **extra}
    replies = {}
    for ply in range(start, stop + 1):
        reply = answer({**base, "id": f"old-{ply}", "actions": record["actions"][:ply]})
        assert "error" not in reply, reply
        replies[ply] = reply
    return replies


def _seat_value(reply: dict[str, Any], seat: int) -> float | None:
    root = reply["rootInfo"]
    if len(root["values"]) > seat:
        return root["values"][seat]
    return root["value"] if root["player"] == seat else None


def _check_point(point: dict[str, Any], old: dict[int, dict[str, Any]], forced: set[int]):
    """A curve point: a searched one is the old review's point; a forced one carries the value
    of the search it names (the old review's at that ply) for its seat."""
    ply = point["ply"]
    assert point.get("forced", False) == (ply in forced), point
    root = old[ply]["rootInfo"]
    source = point.get("valueFromPly")
    if source is None:  # searched: exactly the old review's point
        expected = {"ply": ply, "value": root["value"], "player": root["player"],
                    "method": root["method"]}  # fmt: skip
        if root["values"]:
            expected["values"] = root["values"]
        assert {k: v for k, v in point.items() if k not in FORCED_KEYS} == expected
        return
    assert ply in forced and source > ply and point["player"] == root["player"]
    assert point["value"] == _seat_value(old[source], point["player"])
    assert all(p in forced for p in range(ply, source))  # forced all the way to the search
    if root["method"] == "exact" and old[source]["rootInfo"]["method"] == "exact":
        assert point["value"] == pytest.approx(root["value"], abs=1e-12)  # its own value


NOISE_KEYS = ("forced", "searches", "lossError", "withinNoise")
"""A decision's fields the old review did not have (the second look: solver.review_noise)."""


def _second_look(base: dict[str, Any], actions: list[int], ply: int, first: dict[str, Any]):
    """The old review's decision at ``ply`` given a second look by hand: the position searched
    again with seeds 1 and 2 by hint requests replaying the record, the moves' values pooled
    (weighted by visits), the loss's standard error from the three searches' best-less-played
    differences, undecided where the loss is below 2 of them."""
    import statistics

    from solver.hint.engine import answer

    replies = [first]
    for seed in (1, 2):
        reply = answer({**base, "id": f"again-{ply}", "seed": seed, "actions": actions[: ply - 1]})
        replies.append(reply)
    seen: dict[int, list[tuple[float, int]]] = {}  # a search may list moves another did not
    for reply in replies:
        for m in reply["moveInfos"]:
            seen.setdefault(m["action"], []).append((m["value"], m["visits"]))
    visits = {a: sum(n for _, n in vs) for a, vs in seen.items()}
    value = {
        a: sum(v * n for v, n in vs) / visits[a] if visits[a] else statistics.mean(v for v, _ in vs)
        for a, vs in seen.items()
    }
    order = [m["action"] for m in first["moveInfos"]]
    rank = {a: order.index(a) if a in order else len(order) for a in seen}
    best = min(seen, key=lambda a: (-visits[a], rank[a]))
    played = actions[ply - 1]
    if value[played] > value[best] + 5e-5:
        best = played
    loss = max(0.0, value[best] - value[played])
    differences = []
    for r in replies:
        simulated = {m["action"]: m["value"] for m in r["moveInfos"] if m["visits"] > 0}
        if best in simulated and played in simulated:
            differences.append(simulated[best] - simulated[played])
    if len(differences) < 2:
        return loss, None, False
    error = statistics.stdev(differences) / len(differences) ** 0.5
    return loss, error, 5e-5 <= loss < 2 * error


def _check_decision(
    decision: dict[str, Any],
    old,
    points,
    forced: set[int],
    record: dict[str, Any],
    base: dict[str, Any],
):
    """A decision: the old review's, or a forced one's (loss 0, the point's carried value); one
    whose old loss is not 0 is the old review's given a second look (:func:`_second_look`)."""
    actions = record["actions"]
    ply = decision["ply"]
    assert decision["forced"] == (ply - 1 in forced)
    if decision["forced"]:
        assert (decision["loss"], decision["mark"]) == (0.0, None)
        assert decision["bestAction"] == decision["action"] == actions[ply - 1]
    before = points[ply - 1]
    if "valueFromPly" in before:  # carried: the point's value, no search
        assert decision["value"] == decision["bestValue"] == before["value"]
        assert decision["simulations"] == 0 and decision["bestBy"] == "search"
        return
    expected = _decision(old[ply - 1], actions[ply - 1], ply)
    if decision["searches"] == 1:
        assert {k: v for k, v in decision.items() if k not in NOISE_KEYS} == expected
        assert expected["loss"] is None or expected["loss"] < 5e-5 or expected["method"] == "exact"
        return
    assert decision["searches"] == 3 and expected["loss"] >= 5e-5
    loss, error, noisy = _second_look(base, actions, ply, old[ply - 1])
    assert decision["loss"] == pytest.approx(loss, abs=1e-12)
    assert decision["lossError"] == (error if error is None else pytest.approx(error, abs=1e-12))
    assert decision["withinNoise"] == noisy and decision["undecided"] >= noisy
    if noisy:
        assert decision["mark"] is None and decision["accuracy"] == 99.9999


CASES = [
    *[
        ("dog", {"forest": FOREST}, seed, None, {"limit": {"iterations": 1000}})
        for seed in (1, 2, 3)
    ],
    *[("guardians", {"players": 2}, seed, 70, {"limit": {"iterations": 40}}) for seed in (1, 2)],
    *[("trial", {"players": 2}, seed, 90, {"limit": {"iterations": 20}}) for seed in (1, 2)],
]


@pytest.mark.parametrize(("name", "options", "seed", "plies", "extra"), CASES)
def test_the_walk_gives_the_old_review_s_values(name, options, seed, plies, extra) -> None:
    """Every searched position's point and decision are the old review's, bit for bit (same
    seed and budget); every forced one carries the value of the search it names."""
    record = _random_record(name, options, seed, plies)
    total = len(record["actions"])
    forced = _forced_plies(record)
    start = 0 if name == "dog" else total // 3  # a ranged review opens at its start once
    limit = extra.get("limit", {})
    review = review_record(record, start=start, iterations=limit.get("iterations"))
    old = _old_answers(record, start, total, extra)
    assert [p["ply"] for p in review["curve"]] == list(range(start, total + 1))
    points = {p["ply"]: p for p in review["curve"]}
    for point in review["curve"]:
        _check_point(point, old, forced)
    base = {"game": record["game"], "options": record["options"], **extra}
    for decision in review["decisions"]:
        _check_decision(decision, old, points, forced, record, base)
    assert {d["ply"] for d in review["decisions"]} == {
        ply for ply in range(start + 1, total + 1) if old[ply - 1]["rootInfo"]["currentPlayer"] >= 0
    }


def test_the_games_have_forced_positions_to_carry() -> None:
    """The cases above meet forced positions carried, and (the Trial hides cards: a later search
    from another seat's view is not this seat's value) forced positions searched."""
    carried, searched = set(), set()
    for name, options, seed, plies, _ in CASES[3:]:
        record = _random_record(name, options, seed, plies)
        review = review_record(record, iterations=5)
        for point in review["curve"]:
            if point.get("forced"):
                (carried if "valueFromPly" in point else searched).add(name)
    assert carried == {"guardians", "trial"} and searched == {"trial"}


def test_the_replay_is_linear_and_forced_positions_are_not_searched(monkeypatch) -> None:
    """The old review replayed ``actions[:ply]`` for every ply (n²/2 actions) and searched every
    position; now the record is replayed twice at most (checked, then walked) and a forced
    position costs no search."""
    import solver.hint.engine
    import solver.hint.position

    replayed, searched = [], []
    replay, answer = solver.hint.position._replay, solver.hint.engine.answer

    def counting_replay(state, request, line, labels_from):
        replayed.append(len(request.actions))
        return replay(state, request, line, labels_from)

    def counting_answer(raw, **kw):
        searched.append(raw["id"])
        return answer(raw, **kw)

    monkeypatch.setattr(solver.hint.position, "_replay", counting_replay)
    monkeypatch.setattr(solver.hint.engine, "answer", counting_answer)
    record = _random_record("dog", {"forest": FOREST}, 2)
    total, forced = len(record["actions"]), _forced_plies(record)
    assert total >= 20 and len(forced) >= 5
    review_record(record)
    assert sum(replayed) <= 2 * total
    assert len(searched) == total + 1 - len(forced)
    assert set(searched) == {f"review-{p}" for p in range(total + 1) if p not in forced}


def test_a_record_ending_on_a_forced_move_is_valued_past_its_end() -> None:
    """A forced position's value is its only move's position's, whatever the record holds: an
    unfinished record (or a range) that stops on one is valued by a search past it, so a ranged
    review agrees with the whole one."""
    from solver.hint.engine import answer

    whole = _random_record("dog", {"forest": FOREST}, 2)
    forced = sorted(_forced_plies(whole))
    cut = forced[len(forced) // 2]
    record = {**whole, "actions": whole["actions"][:cut]}
    review = review_record(record)
    end = review["curve"][-1]
    assert end["ply"] == cut and end["forced"] and end["valueFromPly"] > cut
    own = answer({"id": "h", "game": "dog", "options": record["options"],
                  "actions": record["actions"]})  # fmt: skip
    assert end["value"] == pytest.approx(own["rootInfo"]["value"], abs=1e-12)
    ranged = review_record(whole, start=0, stop=cut)
    assert ranged["curve"] == review["curve"] and ranged["decisions"] == review["decisions"]


class _Loop:
    """A made-up game whose every position has one move, for ever."""

    def __init__(self, ply: int = 0) -> None:
        self.ply = ply

    def is_terminal(self) -> bool:
        return False

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self) -> list[int]:
        return [0]

    def current_player(self) -> int:
        return 0

    def apply_action(self, action: int) -> None:
        self.ply += 1

    def clone(self) -> _Loop:
        return _Loop(self.ply)

    def action_to_string(self, action: int) -> str:
        return "pass"


def test_a_run_of_forced_moves_is_followed_a_bounded_way() -> None:
    """A game whose forced moves never end: the walk searches the position it reached after
    MAX_FORCED_RUN of them, and carries that value."""
    asked = []

    def search(ply, state):
        asked.append((ply, state.ply))
        return {"rootInfo": {"value": 0.25, "values": [0.25], "player": 0, "currentPlayer": 0}}

    seen = Walk(_Loop(), [0, 0], 0, search).seen()
    assert asked == [(MAX_FORCED_RUN, MAX_FORCED_RUN)]
    assert seen.forced == (0, "pass") and seen.source == MAX_FORCED_RUN
