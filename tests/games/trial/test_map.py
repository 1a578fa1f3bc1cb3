"""Every card's effect can happen on the shipped map: each condition a card names can hold and
each map-dependent verb has somewhere to act, read from the board itself (not from the rules).

(The Cartographer could never apply on an earlier map: no finishing space was next to the
Forgotten Swamps' first space. The playing of it is ``test_rules.py``'s Cartographer test.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solver.games.trial.content import default_pack

PACK = default_pack()
BOARD = json.loads((Path(__file__).parents[3] / "puzzles" / "trial" / "board.json").read_text())
SPACES = {s["id"]: s for s in BOARD["spaces"]}
SLOTS = {s["id"]: s["slot"] for s in BOARD["spaces"] if "slot" in s}
AREAS = BOARD["areas"]


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair of a card, at any depth (conditions, verbs, options...)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _paths(area: str) -> list[dict[str, Any]]:
    return list(AREAS[area]["paths"])


def _finishes(area: str) -> dict[str, int]:
    return {s["id"]: s["finish"] for s in AREAS[area]["spaces"] if "finish" in s}


def _after(area: str, space: str) -> set[str]:
    """The spaces reachable after ``space`` along the area's directed paths."""
    seen: set[str] = set()
    todo = [p["to"] for p in _paths(area) if p["from"] == space]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo += [p["to"] for p in _paths(area) if p["from"] == s]
    return seen


def _condition_can_hold(key: str, arg: Any) -> bool:
    quarters = {SPACES[s]["quarter"] for s in SLOTS}
    if key == "at":
        return {
            "campsite": any("campsite" in s for s in BOARD["spaces"]),
            "tunnel": any(s.get("tunnel") for s in BOARD["spaces"]),
            "location": bool(SLOTS),
        }.get(arg, arg in SLOTS.values())
    if key == "paws":
        return {
            "corners": quarters >= {"NW", "NE", "SW", "SE"},
            "diagonal": {"NW", "SE"} <= quarters or {"NE", "SW"} <= quarters,
            "four_types": len(set(SLOTS.values())) >= 4,
        }[arg]
    if key == "tracker":
        return len(SLOTS) >= arg
    if key == "no_tunnel":
        return any(not s.get("tunnel") for s in BOARD["spaces"])
    return True  # company, morality, story_evil: not about the map


def _verb_can_act(card: dict[str, Any], key: str, arg: Any) -> bool:
    areas = [card["area"]] if "area" in card else list(AREAS)
    if key == "advance":
        if arg == "none":
            return True
        return any(arg == "any" or p.get("line") == arg for a in areas for p in _paths(a))
    if key == "dig":
        return BOARD["tunnel_tokens"] > 0 and any(not s.get("tunnel") for s in BOARD["spaces"])
    if key == "collapse":
        return any(s.get("tunnel") for s in BOARD["spaces"]) or BOARD["tunnel_tokens"] > 0
    if key == "move_flag":  # a flag on a finishing space with a deeper one after it
        return any(_after(a, f) & set(_finishes(a)) for a in AREAS for f in _finishes(a))
    if key == "place_flag":
        return all(_finishes(a) for a in AREAS)
    if key in ("peek", "leave"):
        return "area" in card
    if key == "artifact":
        return any(a["id"] == arg for a in PACK.artifacts)
    if key == "tent_from_box":
        return any("campsite" in s for s in BOARD["spaces"])
    return True


@pytest.mark.parametrize("card_id", sorted(PACK.cards))
def test_every_cards_conditions_and_effects_can_happen_on_the_shipped_map(card_id):
    card = PACK.card(card_id)
    for key, arg in _walk(card.get("requires", [])):
        assert _condition_can_hold(key, arg), (card["name"], key, arg)
    for part in ("effect", "unpaid"):
        for node in _walk(card.get(part, [])):
            key, arg = node
            if key == "requires":
                for cond in arg:
                    ((ck, ca),) = cond.items()
                    assert _condition_can_hold(ck, ca), (card["name"], ck, ca)
            assert _verb_can_act(card, key, arg), (card["name"], key, arg)


def test_the_cartographers_text_holds_in_every_area():
    # "each time you land on the first expedition space, you immediately move to the next space
    # ... in the Forgotten Swamps area, you may use the nearest finishing spaces immediately ...
    # in the Dark Caverns area, you can choose whether to follow the dotted path or the dashed
    # path. During an expedition to the Frosty Hill area, you can use a shorter path, but you
    # have to pay its additional cost"
    assert any(c.get("skill") == "cartographer" for c in PACK.cards.values())
    first = {a: [p for p in _paths(a) if p["from"] == AREAS[a]["start"]] for a in AREAS}
    assert all(first.values())  # a next space everywhere
    nearest = min(_finishes("swamps").values())
    assert {p["to"] for p in first["swamps"]} & {
        s for s, v in _finishes("swamps").items() if v == nearest
    }
    assert {p.get("line") for p in first["caverns"]} == {"dotted", "dashed"}
    assert any("pay" in p for p in first["frosty"])
