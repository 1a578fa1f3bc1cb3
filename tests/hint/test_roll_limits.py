"""``POST /v1/roll`` refuses a size or turn count by the game's own limits (its analysis
hooks' ``size_range`` and ``turns_range``), in the service's error shape: a width of 99 was
refused by the schema's bound, in pydantic's words ("Input should be less than or equal to
64"), which is no limit of any game."""

from __future__ import annotations

import pytest

from solver.hint.jobs import guarded, roll_job
from solver.registry import game_spec


@pytest.mark.parametrize(("field", "value"), [("width", 99), ("height", 0), ("width", 10**30),
                                              ("turns", 5000), ("turns", 0)])  # fmt: skip
def test_a_roll_out_of_the_game_s_range_names_that_range(field: str, value: int) -> None:
    hooks = game_spec("dog").analysis
    assert hooks is not None and hooks.turns_range is not None
    low, high = hooks.turns_range if field == "turns" else hooks.size_range
    reply = guarded(roll_job, {"game": "dog", "width": 6, "height": 6, field: value})
    assert (reply.get("code"), reply.get("field")) == ("invalid_request", field), reply
    assert f"{low}..{high}" in reply["error"] and "dog" in reply["error"], reply
    assert "Input should" not in reply["error"]
