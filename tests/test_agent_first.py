"""The hint agent leads the moves a search values alike (``GameSpec.hint_agent``,
``solver/agent_first.py``): compared with the agent asked directly, on both surfaces that rank
moves (``best-move`` and a hint request), and left out where the game declares none."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from solver.agent_first import agent_first
from solver.agents import make_agent
from solver.errors import OptionError
from solver.hint.engine import answer
from solver.registry import game_spec, load_game
from solver.rng import SplitMix64
from solver.search.result import MoveInfo, SearchResult


def _placement_state(players: int, seed: int) -> object:
    """A guardians game played (first legal move, chance by its odds) to a decision with many
    moves after the opening: tile placements no pawn stands by, all alike to the heuristic."""
    options = {"players": players} | ({"level": 1} if players == 1 else {})
    state = load_game("guardians", **options).new_initial_state()
    rng = SplitMix64(seed)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            pick, acc, draw = outcomes[-1][0], 0.0, rng.uniform()
            for action, p in outcomes:
                acc += p
                if draw < acc:
                    pick = action
                    break
            state.apply_action(pick)
            continue
        if decisions >= 8 and len(state.legal_actions()) >= 10:
            return state
        state.apply_action(state.legal_actions()[0])
        decisions += 1
    raise AssertionError("the game ended before a placement decision")


def _agent_move(state: object, seed: int) -> int:
    agent = make_agent(game_spec("guardians").hint_agent or "", state.get_game(), seed=seed)  # type: ignore[attr-defined]
    return int(agent(state.clone()))  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [1, 2])
def test_best_move_leads_the_tied_moves_with_the_agents_choice(players: int, tmp_path) -> None:
    state = _placement_state(players, seed=players)
    path = tmp_path / "state.json"
    path.write_text(state.to_json())  # type: ignore[attr-defined]
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "guardians", "best-move", "--state", str(path),
         "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    report = json.loads(out.stdout)
    moves = report["moves"] if "moves" in report else report["positions"][0]["moves"]
    wanted = state.action_to_string(_agent_move(state, seed=0))  # type: ignore[attr-defined]
    assert moves[0]["label"] == wanted
    assert moves[0]["value"] == max(m["value"] for m in moves)  # the values are the search's
    assert any("engine player would play" in note for note in report["notes"])


def test_a_hint_leads_with_the_agents_choice_and_says_so() -> None:
    state = _placement_state(2, seed=5)
    position = json.loads(state.to_json())  # type: ignore[attr-defined]
    reply = answer({"id": "t", "game": "guardians", "state": position, "seed": 3})
    first = reply["moveInfos"][0]
    assert first["action"] == _agent_move(state, seed=3)
    assert first["value"] == max(m["value"] for m in reply["moveInfos"])
    led = "the first listed is what the lookahead engine player would play"
    assert any(led in note for note in reply["notes"])


def _result(values: list[float], exact: bool = False) -> SearchResult:
    moves = tuple(MoveInfo(a, f"m{a}", 10, v) for a, v in enumerate(values))
    return SearchResult(0, "m0", moves, max(values), 40, 40, 0.0, exact)


def test_only_ties_with_the_best_are_reordered() -> None:
    state = _placement_state(2, seed=7)
    legal = state.legal_actions()  # type: ignore[attr-defined]
    chosen = _agent_move(state, seed=0)
    spec = game_spec("guardians")
    k = legal.index(chosen)
    # the agent's move tied with the best: it comes first, the others keep their order
    values = [0.5] * len(legal)
    tied = _result(values)
    pairs = zip(tied.moves, legal, strict=True)
    tied = dataclasses.replace(
        tied, moves=tuple(dataclasses.replace(m, action=a, label=str(a)) for m, a in pairs)
    )
    ordered, note = agent_first(spec, state, tied)  # type: ignore[arg-type]
    assert ordered is not None and note is not None
    assert [m.action for m in ordered.moves] == [chosen] + [a for a in legal if a != chosen]
    assert ordered.best_action == chosen
    # the agent's move valued lower than the best: the search's order stands
    values[k] = 0.4
    lower = dataclasses.replace(tied, moves=tuple(
        dataclasses.replace(m, value=v) for m, v in zip(tied.moves, values, strict=True)
    ))  # fmt: skip
    assert agent_first(spec, state, lower) == (lower, None)  # type: ignore[arg-type]
    # an exact answer is never reordered
    exact = dataclasses.replace(tied, exact=True)
    assert agent_first(spec, state, exact) == (exact, None)  # type: ignore[arg-type]


def test_a_game_without_a_hint_agent_keeps_the_search_order() -> None:
    spec = game_spec("dog")
    assert spec.hint_agent is None
    state = load_game("dog", forest="dog/another-dog").new_initial_state()
    result = _result([0.5, 0.5, 0.5])
    assert agent_first(spec, state, result) == (result, None)


def test_an_unknown_hint_agent_is_refused_by_the_declaration() -> None:
    spec = game_spec("guardians")
    with pytest.raises(OptionError, match="hint_agent 'nobody' is not one of its agents"):
        dataclasses.replace(spec, hint_agent="nobody")


def test_a_hints_agent_keeps_to_the_hints_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint of ``seconds`` 0.05 and 1 iteration answered in 0.21 s (4-player guardians): the
    search stopped at its iteration, then the lookahead agent played on its own budget past the
    request's seconds. The agent now plays under the hint's deadline, and a choice made past it
    (a look-ahead cut short) is not the agent's: the search's order stands, no note."""
    import solver.agents
    from solver.search.limit import deadline_passed, seconds_left

    state = _placement_state(2, seed=5)
    chosen = _agent_move(state, seed=3)
    seen: list[float | None] = []

    def slow_agent(name: str, game: object, seed: int = 0, iterations: object = None) -> object:
        def play(here: object) -> int:
            seen.append(seconds_left())
            while seen[-1] is not None and not deadline_passed():
                pass  # an agent whose look-ahead runs until the deadline stops it
            return chosen

        return play

    monkeypatch.setattr(solver.agents, "make_agent", slow_agent)
    position = json.loads(state.to_json())  # type: ignore[attr-defined]
    body = {"id": "t", "game": "guardians", "state": position, "seed": 3,
            "limit": {"iterations": 1, "seconds": 0.3}}  # fmt: skip
    reply = answer(body)
    assert len(seen) == 1 and seen[0] is not None and seen[0] <= 0.3  # under the hint's deadline
    assert not any("engine player would play" in note for note in reply["notes"])
    # with the agent done in time, the same hint is led by its choice
    monkeypatch.setattr(solver.agents, "make_agent", lambda *a, **k: lambda here: chosen)
    reply = answer(body)
    assert reply["moveInfos"][0]["action"] == chosen
    assert any("engine player would play" in note for note in reply["notes"])


def test_the_agent_s_budget_never_exceeds_the_search_s(monkeypatch) -> None:
    """``best-move --iterations 1`` paid the hint agent its own play budget (guardians'
    lookahead: 4 continuations a decision, 20-150 ms of CPU) after a search of under 1 ms: the
    agent is now built with the search's budget where that is smaller, on both surfaces, and the
    note names the budget its move is the choice of. Structural: the budget the agent is built
    with, compared with the search's and the agent's declared default."""
    import argparse

    import solver.agents
    from solver.cli_search import search

    state = _placement_state(2, seed=5)
    default = game_spec("guardians").agent("lookahead").iterations
    assert default == 4
    asked: list[int | None] = []
    real = solver.agents.make_agent

    def recording(name, game, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(kwargs.get("iterations"))
        return real(name, game, **kwargs)

    monkeypatch.setattr(solver.agents, "make_agent", recording)
    args = argparse.Namespace(spec=game_spec("guardians"), mode=False, iterations=1, seed=0,
                              memory_mb=None, observer=state.current_player())  # type: ignore[attr-defined]  # fmt: skip
    searched = search(state, args)
    assert asked == [1]
    assert any(n.endswith("would play given 1 continuation a decision, the search's budget")
               for n in searched.notes), searched.notes  # fmt: skip
    position = json.loads(state.to_json())  # type: ignore[attr-defined]
    answer({"id": "t", "game": "guardians", "state": position, "limit": {"iterations": 2}})
    assert asked[1:] == [2]
    answer({"id": "t", "game": "guardians", "state": position, "limit": {"iterations": 50}})
    assert asked[2:] == [default]  # a larger search: the agent's own budget, no more
