"""A table step's seconds cover all of its work, from its admission (found measuring the
Trial's 4-player table: a step overran its seconds by 0.2-0.5 s of CPU outside the engines'
searches, and by seconds at the end of a day of draws).

The step's clock starts at the service's admission (the wait for a worker is spent from it); the
engines' searches stop :func:`~solver.hint.session.view_reserve` before the deadline, leaving the
labels and the view their time; the labels of what the engines played compare information by
the compiled key (:func:`solver.labels.shown_label`: 36 labels took 9.6 s, decoding the compiled
Trial twice for each outcome it compared) and read on the label twin; the Trial's default game
is opened once per process, not compiled again every step. No assertion reads the wall clock:
an admission long past stands for the queue, and labels are compared with the reference's.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

import solver
from solver.hint.position import open_position
from solver.hint.schema import PositionRequest
from solver.hint.session import Session, _search_deadline, advance_job, view_reserve
from solver.labels import HIDDEN_LABEL, shown_label

LONG_AGO = 1000.0

STEP = {"game": "trial", "options": {"players": 4}, "humans": [3], "agent": "ismcts",
        "iterations": 300, "seed": 3, "actions": []}  # fmt: skip
"""Three engine seats before the human's first turn (seat 3)."""


def _decisions(raw: dict[str, Any], actions: list[int]) -> int:
    game = solver.load_game(raw["game"], **raw["options"])
    state, count = game.new_initial_state(), 0
    for action in actions:
        if not state.is_chance_node():
            count += state.current_player() not in raw["humans"]
        state.apply_action(action)
    return count


def test_a_step_whose_wait_took_its_seconds_makes_one_decision() -> None:
    raw = {**STEP, "seconds": 60.0}
    whole = advance_job(raw, None)  # admitted now: 60 s is the whole turn's worth
    assert not whole["view"]["enginePending"] and _decisions(raw, whole["actions"]) == 3
    late = advance_job(raw, None, time.monotonic() - LONG_AGO)  # the queue took it all
    view = late["view"]
    assert view["enginePending"] and _decisions(raw, late["actions"]) == 1
    assert any("ran out" in note for note in view["notes"])
    assert view["played"][-1]["player"] not in (-1, 3)  # the one engine decision it made


def test_an_admission_later_than_now_is_read_as_now() -> None:
    now = time.monotonic()
    deadline = _search_deadline(2.0, now + LONG_AGO)
    assert deadline is not None and now + 2.0 - view_reserve(2.0) <= deadline < now + LONG_AGO


def test_the_searches_leave_the_view_its_reserve() -> None:
    assert _search_deadline(None, 5.0) is None
    assert _search_deadline(2.0, 100.0) == 100.0 + 2.0 - 0.25
    assert view_reserve(10.0) == 0.25 and view_reserve(0.4) == pytest.approx(0.1)
    assert all(0 < view_reserve(s) < s for s in (1e-6, 0.01, 1.0, 1e4))


@pytest.mark.parametrize("seed", [1, 2])
def test_labels_read_by_the_compiled_key_are_the_reference_s(seed: int) -> None:
    """Every action of a random 4-player game, shown to every seat: the label read on the
    compiled state (its information compared by key, its label on a twin) is the one the
    reference's own state gives (information compared as strings)."""
    game = solver.load_game("trial", players=4)
    state, rng, hidden = game.new_initial_state(), random.Random(seed), 0
    for _ in range(40):
        if state.is_terminal():
            break
        choices = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())  # fmt: skip
        action = rng.choice(choices)
        twin = state.label_twin()
        for viewer in range(4):
            shown = shown_label(state, action, viewer, "trial", state.label_twin())
            assert shown == shown_label(state, action, viewer, "trial")
            assert shown == shown_label(twin, action, viewer, "trial")  # strings, reference
            hidden += shown == HIDDEN_LABEL
        state.apply_action(action)
    assert hidden > 0  # the comparison did meet hidden draws


def test_the_default_game_is_opened_once() -> None:
    request = PositionRequest.model_validate({"game": "trial", "options": {"players": 4}})
    first = open_position(request, allow_paths=False)
    second = open_position(request, allow_paths=False)
    assert first.game is second.game and first.state is not second.state


def test_the_service_hands_a_table_step_its_admission() -> None:
    from solver.hint.engine import Caps
    from solver.hint.routes import Service, TableRoutes

    given: list[tuple[Any, ...]] = []

    class Pool:
        busy, alive = 0, 1

        async def run(self, job: Any, *args: Any, timeout: float, **_: Any) -> Any:
            given.append(args)
            *rest, admitted = args
            return job(*rest, admitted - LONG_AGO)  # the queue took LONG_AGO

    service = Service(Caps(), workers=1, queue=0)
    service.pool = Pool()  # type: ignore[assignment]
    session = Session("trial", {"players": 4}, [3], "ismcts", 300, 3, seconds=60.0)
    before = time.monotonic()
    response = asyncio.run(TableRoutes(service).step("s", session, starting=True))
    assert before <= given[0][-1] <= time.monotonic()
    assert response.status_code == 200 and session.engines_pending
    assert _decisions(STEP, session.actions) == 1
