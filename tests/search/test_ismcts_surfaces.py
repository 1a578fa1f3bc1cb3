"""Every surface reaches the compiled ISMCTS for a game whose kernel fills the hidden-information
slots, and says which searcher ran; the reference engine keeps the Python ISMCTS.

The kernel game is the hidden-information test kernel (``tests/ext/cards_kernel.pyx``) declared
as a plug-in (``tests/ext/cards_twin.py``'s ``cards_spec``) and registered for the test: the
surfaces know it only by its declaration, as they would know the Trial's compiled engine. A spy
on the two tree builders of :mod:`solver.search.ismcts` records which one each search used.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest

import solver.search.ismcts as ismcts_module
from solver import registry
from solver.cli import main

pytestmark = pytest.mark.usefixtures("require_kernels")


@pytest.fixture
def used(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The trees built, in order: ``"compiled"`` or ``"python"``."""
    trees: list[str] = []
    kernel, python = ismcts_module._kernel_tree, ismcts_module._python_tree

    def spy_kernel(*args: Any) -> Any:
        trees.append("compiled")
        return kernel(*args)

    def spy_python(*args: Any) -> Any:
        trees.append("python")
        return python(*args)

    monkeypatch.setattr(ismcts_module, "_kernel_tree", spy_kernel)
    monkeypatch.setattr(ismcts_module, "_python_tree", spy_python)
    return trees


@pytest.fixture
def game_name(cards: Any, cards_twin: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    spec = cards_twin.cards_spec(cards, 10, 3)
    registry.registered_games()  # the built-in games first, so the test's game is only added
    monkeypatch.setitem(registry._SPECS, spec.name, spec)
    return spec.name


def _forest(*argv: str) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return dict(json.loads(out.getvalue()))


def _decision(name: str) -> Any:
    """The game after its deals: the first player to choose."""
    state = registry.load_game(name).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_best_move_play_and_solve_search_compiled(game_name: str, used: list[str]) -> None:
    report = _forest(game_name, "best-move", "--json", "--iterations", "200")
    assert report["method"] == "ismcts" and report["searcher"] == "compiled"
    assert used and set(used) == {"compiled"}
    used.clear()
    _forest(game_name, "play", "--agents", "ismcts,random", "--games", "2", "--iterations", "50",
            "--json")  # fmt: skip
    _forest(game_name, "solve", "--games", "1", "--iterations", "50", "--json")
    assert used and set(used) == {"compiled"}


def test_hints_say_the_compiled_searcher_answered(game_name: str, used: list[str]) -> None:
    from solver.hint.engine import answer

    reply = answer({"id": "q", "game": game_name, "limit": {"iterations": 300}})
    assert reply["rootInfo"]["method"] == "ismcts" and reply["rootInfo"]["searcher"] == "compiled"
    assert set(used) == {"compiled"}


def test_the_table_engine_seats_search_compiled(game_name: str, used: list[str]) -> None:
    from solver.hint.session import advance_job

    raw = {"game": game_name, "options": {}, "actions": [], "humans": [0], "agent": "ismcts",
           "iterations": 40, "seed": 1}  # fmt: skip
    advanced = advance_job(raw, None)
    move = advanced["view"]["moves"][0]["action"]
    advance_job(raw | {"actions": advanced["actions"]}, move)
    assert used and set(used) == {"compiled"}


def test_the_openspiel_bot_searches_compiled(cards: Any, cards_twin: Any, used: list[str]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from solver.interop.openspiel import ismcts_bot, register_spec

    game = pyspiel.load_game(register_spec(cards_twin.cards_spec(cards, 10, 3)))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = ismcts_bot(state.current_player(), iterations=100)
    assert bot.step(state) in state.legal_actions()
    assert bot.last_result.searcher == "compiled" and used == ["compiled"]


def test_the_reference_engine_keeps_the_python_ismcts(used: list[str]) -> None:
    """A Python state (the Trial's reference engine) is searched by the Python tree, and every
    surface says so."""
    from solver.hint.engine import answer

    report = _forest("trial", "best-move", "--players", "2", "--engine", "reference",
                     "--iterations", "20", "--json")  # fmt: skip
    assert report["searcher"] == "python" and set(used) == {"python"}
    reply = answer({"id": "q", "game": "trial", "options": {"players": 2}, "engine": "reference",
                    "limit": {"iterations": 20}})  # fmt: skip
    assert reply["rootInfo"]["searcher"] == "python"


def test_the_agent_searches_compiled(game_name: str, used: list[str]) -> None:
    from solver.agents import make_agent

    state = _decision(game_name)
    agent = make_agent("ismcts", registry.load_game(game_name), seed=3, iterations=100)
    assert agent(state) in state.legal_actions()
    assert used == ["compiled"]


def test_a_hint_is_the_same_for_states_the_player_cannot_tell_apart(game_name: str) -> None:
    """Player 0 holds 0, 9 and 3 after both deals; player 1's cards differ (5, 2, 7 or 4, 1,
    8): player 0's hint, compiled, is the same answer for both, and it reads player 1's view
    differently."""
    from solver.hint.engine import answer

    def hint(actions: list[int], player: int) -> dict[str, Any]:
        reply = answer({"id": "q", "game": game_name, "actions": actions, "player": player,
                        "limit": {"iterations": 2000}, "seed": 4})  # fmt: skip
        assert reply["rootInfo"]["searcher"] == "compiled"
        return {key: reply[key] for key in ("moveInfos", "rootInfo")}

    one, other = [0, 5, 9, 2, 3, 7], [0, 4, 9, 1, 3, 8]
    assert hint(one, 0) == hint(other, 0)
    assert hint(one, 1) != hint(other, 1)
