"""The hint engine serves guardians positions by puzzle name and by inline ``.grove`` text."""

from __future__ import annotations

import solver
from solver.games.guardians.mission_order_search import best_order
from solver.hint.engine import answer

TEXT = "grid:\n[GR]b G:BB R:BB Y:BB\n. . [YR]g .\n"


def _request(position: str, **extra):
    return {"id": "g", "game": "guardians", "options": {"position": position},
            "actions": [], "limit": {"iterations": 60}, "exact": False, "top_k": None,
            **extra}  # fmt: skip


def test_inline_text_opens_the_position():
    reply = answer(_request(TEXT))
    assert "error" not in reply, reply
    game = solver.load_game(
        "guardians", position=solver.games.guardians.grove_format.parse_grove(TEXT)
    )
    legal = game.new_initial_state().legal_actions()
    assert sorted(m["action"] for m in reply["moveInfos"]) == sorted(legal)
    labels = {m["label"] for m in reply["moveInfos"]}
    assert "walk green pawn: (1,2) -> (0,2) (0,3)" in labels and "end turn" in labels


def test_puzzle_name_equals_its_text():
    name = "guardians/order-trap"
    by_name = answer(_request(name))
    by_text = answer(_request(solver.puzzles.path(name).read_text()))
    assert "error" not in by_name and "error" not in by_text
    assert sorted(m["action"] for m in by_name["moveInfos"]) == sorted(
        m["action"] for m in by_text["moveInfos"]
    )
    state = solver.load_game("guardians", position=name).new_initial_state()
    # every first step of the best plan is among the moves offered
    assert best_order(state).steps[0].action in {m["action"] for m in by_name["moveInfos"]}


def test_bad_text_is_a_clear_error():
    reply = answer(_request("grid:\n[GR]b Q:BB\n"))
    assert reply.get("error"), reply
    assert "options.position" in str(reply) and "line 2" in str(reply)
