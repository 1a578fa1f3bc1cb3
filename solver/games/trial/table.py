"""The Trial on the web table (:attr:`solver.spec.GameSpec.table_view`), built from what one seat
sees (:meth:`TrialState.observation`, never the whole state, so a session may show it).

Panels: the seat's hand (each card's symbols and fame, what it needs, costs and does, what it
gives discarded), every player's public board (place, fame, morality, food, paws, tents,
backpack, the story by column with its symbols, flags), the encounter row, the store's grid
with each slot's price, the expeditions (who is on each, the flags placed, the cards left),
the day, and the fight under way or the last one (both strengths, the dice, who won). A card,
row card or store slot whose name a legal move carries is clickable: it narrows the move
buttons to those moves. The picture (the public table, :mod:`.svg`) has targets too: a space a
move goes to (``move to``, ``start on``, ``advance to``), an encounter card (the moves naming
its slot or the card) and a store slot (the moves naming the slot or the kind stocked there).
"""

from __future__ import annotations

import json
from typing import Any

from solver.games.trial.core import turn_words
from solver.games.trial.render_svg import render_svg
from solver.games.trial.table_words import STAGE_WORDS, card_words, fight_words, store_price

__all__ = ["table_view"]

_AREAS = ("swamps", "frosty", "caverns")


def _card(pack: Any, ident: str, moves: list[tuple[int, str]]) -> dict[str, Any]:
    card = pack.card(ident)
    head, detail = card_words(card)
    item: dict[str, Any] = {"text": head}
    if detail:
        item["detail"] = detail
    actions = [a for a, label in moves if f" {card['name']}" in f" {label}"]
    if actions:
        item["actions"] = actions
    return item


def _card_in_story(pack: Any, card: str | None, up: bool) -> str:
    """A story card as the seat sees it: face up by name; face down by name marked ``(face
    down)`` where the seat knows it (its own: it read ``?`` too, as another's does), else
    ``?``."""
    if card is None:
        return "?"
    name = pack.card(card)["name"]
    return name if up else f"{name} (face down)"


def _story(pack: Any, story: list[Any]) -> str:
    """The story by column: the symbols its face-up cards show, then the cards
    (:func:`_card_in_story`)."""
    columns: dict[str, list[str]] = {}
    symbols: dict[str, list[str]] = {}
    for card, up, column in story:
        columns.setdefault(column, []).append(_card_in_story(pack, card, up))
        if up and card:
            symbols.setdefault(column, []).extend(pack.card(card).get("symbols", []))
    out = []
    for column, names in columns.items():
        tally = {
            s: symbols.get(column, []).count(s) for s in dict.fromkeys(symbols.get(column, []))
        }
        shown = " ".join(f"{s}×{n}" if n > 1 else s for s, n in tally.items())
        out.append(f"{column} {len(names)} [{shown or 'no symbol'}]: {', '.join(names)}")
    return "; ".join(out) or "-"


def _player(state: Any, pack: Any, q: int, view: dict[str, Any], seat: int) -> dict[str, Any]:
    from solver.games.trial.scoring import fame

    who = "you, " if q == seat else ""
    where = f"at {view['space']}" if view["space"] else "not on the board yet"
    food = ", ".join(f"{k} {v}" for k, v in view["food"].items())
    tents = view["tents"] if isinstance(view["tents"], int) else len(view["tents"])
    hand = view["hand"] if isinstance(view["hand"], int) else len(view["hand"])
    flags = ", ".join(
        f"{area} ({state.game.board.finish.get(s, 0)} fame)"
        for area, s in view["flags"].items()
        if s is not None
    )
    slots = state.game.components["character_board"]["backpack_slots"]
    backpack = ", ".join(view["backpack"]) or "empty"
    detail = (
        f"food {food}; paws {view['paws']}{' + strong' if view['strong_paw'] else ''}; "
        f"tents {tents}; hand {hand}; backpack ({len(view['backpack'])}/{slots}) "
        f"{backpack}; story {_story(pack, view['story'])}" + (f"; flags {flags}" if flags else "")
    )
    total = fame(state, q)["total"]
    return {
        "text": f"{who}player {q}: {total} fame, {where}, morality {view['morality']:+d}",
        "detail": detail,
    }


def _store(pack: Any, obs: dict[str, Any], moves: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The store's grid, row by row: each slot's stack and price (clickable by its kind)."""
    store = []
    for r, line in enumerate(obs["store"]):
        for c, stack in enumerate(line):
            item: dict[str, Any] = {
                "text": f"{stack[0]} ×{len(stack)}" if stack else "(empty)",
                "detail": store_price(pack, r, c),
            }
            actions = [a for a, label in moves if stack and f" {stack[0]}" in f" {label}"]
            if actions:
                item["actions"] = actions
            store.append(item)
    return store


def _expeditions(state: Any, obs: dict[str, Any]) -> list[dict[str, Any]]:
    board = state.game.board
    out = []
    for area in _AREAS:
        on = [
            f"player {q} at {v['space']}"
            for q, v in enumerate(obs["players"])
            if v["space"] is not None and board.area_of.get(v["space"]) == area
        ]
        flags = [
            f"player {q} ({board.finish.get(v['flags'][area], 0)} fame)"
            for q, v in enumerate(obs["players"])
            if v["flags"].get(area)
        ]
        left = obs["decks"].get(f"exp:{area}", {}).get("size", 0)
        detail = f"flags: {', '.join(flags) or 'none'}; {left} cards left"
        out.append({"text": f"{area}: {', '.join(on) or 'nobody'}", "detail": detail})
    return out


FIGHTS_SHOWN = 6
"""The decided fights listed, the latest first (the rest are counted)."""


def _decided(history: str) -> list[dict[str, Any]]:
    """Every decided fight the seat's information state tells (``fight:{...}`` lines, public)."""
    fights = []
    for line in history.splitlines():
        if line.startswith("fight:{"):
            try:
                fights.append(json.loads(line[len("fight:") :]))
            except ValueError:
                continue
    return fights


def _fights(pack: Any, obs: dict[str, Any], history: str) -> list[dict[str, Any]]:
    """The fight under way (each side's strength shown, dice, cards face down), then every
    decided fight, the latest first: both strengths, the dice, who won."""
    out = []
    fight = obs.get("fight")
    if fight:
        name = pack.card(fight["card"])["name"] if fight.get("card") else "a duel"
        foe = "the foe" if fight["defender"] is None else f"player {fight['defender']}"
        sides = [f"player {fight['attacker']}", foe]
        shown = [
            f"{sides[k]} shows {fight['strength_shown'][k]} (dice "
            f"{', '.join(str(v) for v in fight['dice'][k]) or 'none'}) + "
            f"{fight['face_down'][k]} card(s) face down"
            for k in (0, 1)
        ]
        after = STAGE_WORDS.get(fight["stage"], str(fight["stage"]))
        out.append({"text": f"now: {name} (next: {after})", "detail": "; ".join(shown)})
    decided = _decided(history)[::-1]
    for done in decided[:FIGHTS_SHOWN]:
        name = pack.card(done["card"])["name"] if done.get("card") else "a duel"
        out.append({"text": fight_words(done, name)})
    if len(decided) > FIGHTS_SHOWN:
        out.append({"text": f"and {len(decided) - FIGHTS_SHOWN} earlier fight(s)"})
    return out


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
    days = state.game.components["days"]
    turn = turn_words(obs)
    players = [_player(state, pack, q, v, seat) for q, v in enumerate(obs["players"])]
    store = _store(pack, obs, moves)
    panels = [
        {"title": "Your hand", "items": hand or [{"text": "(empty)"}]},
        {"title": "Players", "items": players},
        {"title": "Encounter row", "items": row or [{"text": "(empty)"}]},
        {"title": "Store (price: column + row)", "columns": len(obs["store"][0]), "items": store},
        {"title": "Expeditions", "items": _expeditions(state, obs)},
        {"title": "Day", "items": [{"text": f"day {obs['day']} of {days}, {turn}"}]},
    ]
    fights = _fights(pack, obs, state.information_state_string(seat))
    if fights:
        panels.append({"title": "Fight", "items": fights})
    targets = _space_targets(moves) + _market_targets(pack, obs, moves)
    return {"panels": panels, "svg": render_svg(game, state), "targets": targets}


def _market_targets(pack: Any, obs: dict[str, Any], moves: list[tuple[int, str]]) -> list[Any]:
    """The picture's encounter cards (the moves naming their slot or their card) and store
    slots (the moves naming their slot or the kind stocked there)."""
    targets = []
    for k, card in enumerate(obs["encounter_row"], start=1):
        named = [f"encounter {k}"] + ([f" {pack.card(card)['name']}"] if card else [])
        actions = [a for a, label in moves if any(n in f" {label}" for n in named)]
        if actions:
            targets.append({"attr": "data-encounter", "value": str(k), "actions": actions})
    for r, line in enumerate(obs["store"], start=1):
        for c, stack in enumerate(line, start=1):
            named = [f"row {r}, column {c}"] + ([f" {stack[0]}"] if stack else [])
            actions = [a for a, label in moves if any(n in f" {label}" for n in named)]
            if actions:
                targets.append({"attr": "data-store", "value": f"{r},{c}", "actions": actions})
    return targets


def _space_targets(moves: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The board's spaces a move goes to (``move to X``, ``start on X``, ``advance to X``)."""
    found: dict[str, list[int]] = {}
    for action, label in moves:
        for prefix in ("move to ", "start on ", "advance to "):
            if label.startswith(prefix):
                found.setdefault(label[len(prefix) :].split()[0], []).append(action)
    return [
        {"attr": "data-space", "value": space, "actions": actions}
        for space, actions in found.items()
    ]
