"""``forest dog route --seconds N`` keeps to its budget (helper 99): it ran up to 1 s past it.

Three overruns: the brute force and the graph looked at the clock once per 4,096 nodes stored
(0.3-0.5 s of a 16x16 forest's nodes, and never in a stretch storing none), the rules model
built a horizon's model whole once begun (up to 1.3 s a horizon), and the command's budget
started after its imports (CP-SAT's, some 0.5 s). Checked structurally, on a clock the search
itself advances (one tick a node expanded, or a turn's rules built), never on the wall clock.
"""

from __future__ import annotations

import time

import pytest

import solver.games.dog.routes.graph as dog_graph
from solver.errors import OptionError
from solver.games.dog import resolve_forest
from solver.games.dog.routes.query import RouteQuery, solve_route
from solver.games.dog.routes.rules_model import RulesModel

FAR = RouteQuery.parse("visit 11,11")
"""A query big-12x12 needs thousands of nodes and several horizons to answer."""


class _Ticks:
    """A clock that moves only when the search does: ``tick()`` one step (a node expanded, a
    turn's rules built)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.steps = 0

    def tick(self) -> None:
        self.now += 1.0
        self.steps += 1


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch) -> _Ticks:
    clock = _Ticks()
    monkeypatch.setattr(time, "monotonic", lambda: clock.now)
    return clock


@pytest.mark.parametrize("method", ["graph", "brute-force"])
def test_a_node_search_stops_at_the_first_node_past_its_deadline(method, ticks, monkeypatch):
    real = dog_graph._par_successors

    def expanding(node):  # type: ignore[no-untyped-def]
        ticks.tick()
        return real(node)

    monkeypatch.setattr(dog_graph, "_par_successors", expanding)
    answer = solve_route(resolve_forest("dog/big-12x12"), FAR, method=method, deadline=20.0)
    assert answer.status in ("unknown", "budget") and answer.route is None
    assert ticks.steps == 20  # 4,096 nodes stored between two looks before


def test_the_rules_model_stops_building_at_its_deadline(ticks, monkeypatch):
    real = RulesModel.turn

    def building(self, t):  # type: ignore[no-untyped-def]
        ticks.tick()
        return real(self, t)

    monkeypatch.setattr(RulesModel, "turn", building)
    answer = solve_route(resolve_forest("dog/big-12x12"), FAR, method="cp-sat", deadline=2.0)
    assert answer.status == "unknown" and answer.route is None
    assert ticks.steps == 2  # the first horizon (5 turns at least) was built whole before


def test_the_command_s_seconds_count_from_its_start(monkeypatch, capsys):
    """The budget is the command's, start-up included (as ``guardians order --seconds``'s):
    a command whose start is a minute gone has none left, and builds no model."""
    from solver import command_clock
    from solver.cli import main

    built: list[int] = []
    real = RulesModel.turn
    monkeypatch.setattr(RulesModel, "turn", lambda self, t: built.append(t) or real(self, t))
    monkeypatch.setattr(command_clock, "started", lambda: time.monotonic() - 60.0)
    assert main(["dog", "route", "dog/tiny-example", "--seconds", "30"]) == 0
    assert "not proven" in capsys.readouterr().out and built == []


def test_a_deadline_is_a_moment():
    with pytest.raises(OptionError, match=r"deadline must be a time\.monotonic"):
        solve_route(resolve_forest("dog/tiny-example"), RouteQuery(), deadline=float("nan"))
