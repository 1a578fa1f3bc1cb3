"""The dog's panel on the web table (:attr:`solver.spec.GameSpec.table_view`): the counters a
player of the sheet tracks, the roll being walked, and the moves as clickable items."""

from __future__ import annotations

from typing import Any

__all__ = ["table_view"]


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """Turn, stamina, curiosity, the steps left of the roll, the stick, a skipped turn."""
    data = state.to_dict()
    turns = game.forest.turns
    items = [
        {"text": f"turn {min(data['turn'], turns)} of {turns}"},
        {"text": f"stamina {data['stamina']}"},
        {"text": f"curiosity {data['curiosity']}"},
    ]
    if data["budget"] > 0:
        items.append(
            {"text": f"roll: {data['budget']} step{'s' if data['budget'] != 1 else ''} left"}
        )
    if data["stick"]:
        items.append({"text": "carrying the stick"})
    if data["skip_next"]:
        items.append({"text": "skips the next turn"})
    if data["outcome"] is not None:
        outcome = {"win": "won", "loss": "lost"}.get(data["outcome"], str(data["outcome"]))
        items.append({"text": outcome})
    return {"panels": [{"title": "The dog", "items": items}]}
