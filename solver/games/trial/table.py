"""The Trial's panels on the web table (:attr:`solver.spec.GameSpec.table_view`), built from what
one seat sees (:meth:`TrialState.observation`, never the whole state, so a session may show them):
the seat's hand with each card's symbols, fame, cost and effect, every player's public board
(place, food, morality, paws, tents, backpack, story, flags), the encounter row, the store, the
last fight. A card, row card or store item whose name appears in legal moves is clickable: it
narrows the move buttons to those moves."""

from __future__ import annotations

import json
from typing import Any

from solver.games.trial.svg import render_svg

__all__ = ["table_view"]


def _terms(parts: Any) -> str:
    """A card's cost or effect list in a few words (its rule terms, compact)."""
    if not parts:
        return ""
    return json.dumps(parts, separators=(", ", ": ")).replace('"', "")[1:-1]


def _card(pack: Any, ident: str, moves: list[tuple[int, str]]) -> dict[str, Any]:
    card = pack.card(ident)
    name = card["name"]
    symbols = " ".join(card.get("symbols", [])) or "no symbol"
    item: dict[str, Any] = {"text": f"{name} ({symbols}; fame {card.get('fame', 0)})"}
    detail = card.get("note") or "; ".join(
        f"{key}: {_terms(card[key])}" for key in ("requires", "cost", "effect") if card.get(key)
    )
    if detail:
        item["detail"] = detail
    actions = [a for a, label in moves if f" {name}" in f" {label}"]
    if actions:
        item["actions"] = actions
    return item


def _player(pack: Any, q: int, view: dict[str, Any], seat: int) -> dict[str, Any]:
    who = "you, " if q == seat else ""
    where = view["space"] or "not on the board yet"
    food = ", ".join(f"{k} {v}" for k, v in view["food"].items())
    tents = view["tents"] if isinstance(view["tents"], int) else len(view["tents"])
    story = [
        pack.card(c)["name"] if c else f"face down ({column})" for c, _, column in view["story"]
    ]
    flags = ", ".join(f"{k}: {v}" for k, v in view["flags"].items() if v is not None)
    detail = (f"food {food}; paws {view['paws']}{' + strong' if view['strong_paw'] else ''}; "
              f"tents {tents}; backpack {', '.join(view['backpack']) or '-'}; "
              f"story {'; '.join(story) or '-'}"
              + (f"; flags {flags}" if flags else ""))  # fmt: skip
    return {"text": f"{who}player {q} at {where}, morality {view['morality']:+d}",
            "detail": detail}  # fmt: skip


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """The panels of seat ``seat`` (player 0 when the seat is not a player: a chance node)."""
    seat = seat if 0 <= seat < game.num_players() else 0
    obs = state.observation(seat)
    pack = state.game.pack
    mine = not state.is_terminal() and state.current_player() == seat
    moves = [(a, state.action_to_string(a)) for a in state.legal_actions()] if mine else []
    me = obs["players"][seat]
    hand = [_card(pack, c, moves) for c in me["hand"]] if isinstance(me["hand"], list) else []
    row = [
        _card(pack, c, moves) if c else {"text": "(an empty slot)"} for c in obs["encounter_row"]
    ]
    store = []
    for r, line in enumerate(obs["store"]):
        for c, stack in enumerate(line):
            if stack:
                item: dict[str, Any] = {
                    "text": f"row {r + 1}, slot {c + 1}: {stack[0]} x{len(stack)}"
                }
                actions = [a for a, label in moves if stack[0] in label]
                if actions:
                    item["actions"] = actions
                store.append(item)
    players = [_player(pack, q, view, seat) for q, view in enumerate(obs["players"])]
    panels = [
        {"title": "Your hand", "items": hand or [{"text": "(empty)"}]},
        {"title": "Players", "items": players},
        {"title": "Encounter row", "items": row or [{"text": "(empty)"}]},
        {"title": "Store", "items": store or [{"text": "(empty)"}]},
        {"title": "Day", "items": [{"text": f"day {obs['day']}, turn {obs['turn_player']}"}]},
    ]
    fight = obs.get("last_fight")
    if fight:
        panels.append({"title": "Last fight", "items": [{"text": _terms([fight])}]})
    return {"panels": panels, "svg": render_svg(game, state), "targets": _space_targets(moves)}


def _space_targets(moves: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The board's spaces a move goes to (``move to X``, ``start on X``), clickable."""
    found: dict[str, list[int]] = {}
    for action, label in moves:
        for prefix in ("move to ", "start on "):
            if label.startswith(prefix):
                found.setdefault(label[len(prefix) :].split()[0], []).append(action)
    return [{"attr": "data-space", "value": space, "actions": actions}
            for space, actions in found.items()]  # fmt: skip
