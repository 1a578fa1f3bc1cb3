"""One MCTS hint request, three ways: a real ``forest hint --stdio`` (which can be terminated, so
its estimate runs in slices; also asked for partial answers), a real ``forest serve`` over HTTP
(one search) and :func:`solver.hint.engine.answer` in this process (what a pool worker runs).
With a seed and an iteration budget they give the same moves, visits, values and lines: the
slices of a stdio search go on from one another's random stream. The dog and guardians (MCTS;
the Trial's ISMCTS is held alike in ``tests/search/test_ismcts_watch.py``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import solver
from solver.game import sample_chance
from solver.rng import SplitMix64

from .conftest import Engine, Server


def _guardians_actions() -> list[int]:
    """A two-player guardians decision a few turns in (its actions), with at least four moves."""
    state = solver.load_game("guardians", players=2).new_initial_state()
    rng, pick, actions, turns = SplitMix64(5), random.Random(5), [], 0
    while state.is_chance_node() or turns < 6 or len(state.legal_actions()) < 4:
        chance = state.is_chance_node()
        actions.append(sample_chance(state, rng) if chance else pick.choice(state.legal_actions()))
        turns += not chance
        state.apply_action(actions[-1])
    return actions


def _request(case: str) -> dict[str, Any]:
    """The request of ``case``: a decision (its moves shown) or a chance root (values only)."""
    dog = {"game": "dog", "options": {"forest": "dog/rolled-9x9-seed7"}}
    if case == "guardians":
        body = {"game": "guardians", "options": {"players": 2}, "actions": _guardians_actions()}
    else:
        body = {**dog, "actions": [] if case == "dog-roll" else [10]}
    engine = "reference" if case == "dog-reference" else "kernel"
    iterations = 400 if engine == "reference" else 3000
    return {**body, "id": case, "engine": engine, "exact": False, "seed": 9,
            "limit": {"iterations": iterations}}  # fmt: skip


CASES = ["dog", "dog-roll", "dog-reference", "guardians"]
SAME = ("moveInfos", "rootInfo", "terminated", "notes", "strengthMove")
"""What must agree (not ``elapsed``, nor ``limitApplied``: each transport caps its own seconds)."""


def _same(reply: dict[str, Any]) -> dict[str, Any]:
    assert "error" not in reply, reply
    return {key: reply[key] for key in SAME}


@pytest.fixture(scope="module")
def stdio() -> Any:
    running = Engine()
    yield running
    if running.proc.poll() is None:
        running.proc.kill()
        running.proc.wait(timeout=60)


@pytest.mark.parametrize("case", CASES)
def test_stdio_and_http_and_in_process_give_the_same_answer(
    server: Server, stdio: Engine, case: str
) -> None:
    import httpx

    from solver.hint.engine import answer

    body = _request(case)
    here = _same(answer(body))
    assert here["rootInfo"]["method"] == "mcts" and here["rootInfo"]["visits"] > 256 + 2
    assert bool(here["moveInfos"]) is (case != "dog-roll")
    response = httpx.post(f"{server.url}/v1/hint", json=body, timeout=120)
    assert response.status_code == 200, response.text
    assert _same(response.json()) == here
    stdio.send(body)
    assert _same(stdio.read_until(case)[-1]) == here
    stdio.send({**body, "reportDuringSearchEvery": 1e-6})
    seen = stdio.read_until(case)
    assert _same(seen[-1]) == here and len(seen) > 1  # partial answers went out first
