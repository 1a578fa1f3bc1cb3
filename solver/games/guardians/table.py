"""Forest guardians' panels on the web table (:attr:`solver.spec.GameSpec.table_view`): the pool
(each tile clickable: it narrows the moves to that tile's cells), every player's score, missions
and pawns, the bag, the round and the phase."""

from __future__ import annotations

from typing import Any

__all__ = ["table_view"]


def _tile_actions(state: Any) -> dict[int, list[int]]:
    """The legal placements of each tile of the pool, by tile id (from the actions' labels:
    ``place tile N at (x,y)``)."""
    found: dict[int, list[int]] = {}
    if state.is_terminal() or state.is_chance_node():
        return found
    for action in state.legal_actions():
        words = state.action_to_string(action).split()
        if len(words) >= 3 and words[:2] == ["place", "tile"] and words[2].isdigit():
            found.setdefault(int(words[2]), []).append(action)
    return found


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """The pool, the players and the bag (nothing in guardians is hidden from one seat only)."""
    from solver.games.guardians.render_text import tile_token
    from solver.games.guardians.rules import PHASE_NAMES
    from solver.render.ascii import count

    placements = _tile_actions(state)
    pool = []
    for tile in state.pool:
        item: dict[str, Any] = {"text": f"tile {tile}: {tile_token(state.tile(tile), False)}"}
        if placements.get(tile):
            item["actions"] = placements[tile]
            item["detail"] = f"pick it, then a cell ({count(len(placements[tile]), 'cell')})"
        pool.append(item)
    players = []
    for index, who in enumerate(state.people):
        players.append({"text": f"player {index}: score {state.score(index)}",
                        "detail": f"{count(len(who.pile), 'mission')}, "
                                  f"{count(len(who.forest), 'tile')}, "
                                  f"{count(len(who.reserve()), 'pawn')} in reserve"})  # fmt: skip
    rounds = f"/{state.rounds()}" if game.solo else ""
    status = [{"text": f"bag: {count(len(state.bag), 'tile')}"},
              {"text": f"round {state.round}{rounds}"},
              {"text": f"phase: {PHASE_NAMES[state.phase]}"}]  # fmt: skip
    if not game.solo and not state.is_terminal():
        status.append({"text": f"player {state.current} to play"})
    return {"panels": [
        {"title": "Pool", "items": pool or [{"text": "(empty)"}]},
        {"title": "Players" if not game.solo else "Forest", "items": players},
        {"title": "Bag and round", "items": status},
    ]}  # fmt: skip
