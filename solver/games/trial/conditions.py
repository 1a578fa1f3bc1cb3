"""Conditions: when a card (or one of its options) may be resolved.

A card's ``requires`` list holds conditions, checked and never paid (``docs/rules/trial.md``
§1.1): where the player stands (``at``), who shares the space (``company``), morality, paw
patterns, Tracker's shared locations, no tunnel here, evil cards in the story. A card is
*playable* when every condition holds and its whole cost can be paid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.games.trial.belongings import location_type, morality_side, open_tunnels, paw_locations
from solver.games.trial.core import player
from solver.games.trial.payments import can_pay_cost, haves_ok

if TYPE_CHECKING:
    from solver.games.trial.core import State

QUARTERS = {"NW", "NE", "SW", "SE"}
DIAGONALS = ({"NW", "SE"}, {"NE", "SW"})


def company(st: State, p: int, evil_only: bool = False) -> list[int]:
    """The other adventurers on ``p``'s space (only evil ones with ``evil_only``)."""
    here = player(st, p)["space"]
    return [
        q
        for q in range(st.data["player_count"])
        if q != p
        and player(st, q)["space"] == here
        and (not evil_only or morality_side(st, q) == "evil")
    ]


def condition_ok(st: State, p: int, cond: dict[str, Any]) -> bool:
    """Whether ``p`` meets one condition of the effect language."""
    ((key, arg),) = cond.items()
    me = player(st, p)
    pos = me["space"]
    board = st.game.board
    if key == "at":
        return _at(st, pos, arg)
    if key == "company":
        return bool(company(st, p, evil_only=arg == "evil"))
    if key == "morality":
        return morality_side(st, p) == arg
    if key == "paws":
        return _paws_spread(st, p, arg)
    if key == "tracker":
        mine = set(paw_locations(st, p))
        others = (q for q in range(st.data["player_count"]) if q != p)
        return any(len(mine & set(paw_locations(st, q))) >= arg for q in others)
    if key == "no_tunnel":
        return pos not in board.printed_tunnels and pos not in st.data["tunnels"]
    if key == "story_evil":
        evil = [c for c, up, _ in me["story"] if up and "evil" in st.game.pack.card(c)["symbols"]]
        return len(evil) >= arg
    return False


def _at(st: State, pos: str, arg: str) -> bool:
    """The condition ``at``: the space ``pos`` is a campsite, an open tunnel, a location, or a
    location of type ``arg``."""
    board = st.game.board
    if arg == "campsite":
        return pos in board.campsite
    if arg == "tunnel":
        return pos in open_tunnels(st)
    if arg == "location":
        return pos in board.slot
    return location_type(st, pos) == arg


def _paws_spread(st: State, p: int, arg: str) -> bool:
    """The condition ``paws``: ``p``'s paws stand in the four corners (quarters), on a diagonal,
    or (``four_types``) on four types of location."""
    locs = paw_locations(st, p)
    quarters = {st.game.board.quarter[s] for s in locs}
    if arg == "corners":
        return quarters >= QUARTERS
    if arg == "diagonal":
        return any(pair <= quarters for pair in DIAGONALS)
    return len({location_type(st, s) for s in locs}) >= 4  # four_types


def open_to(st: State, p: int, part: dict[str, Any]) -> bool:
    """Whether ``p`` meets the conditions of ``part`` (a card or an option of its ``choose``)
    and can pay its whole cost."""
    if not all(condition_ok(st, p, c) for c in part.get("requires", [])):
        return False
    cost = part.get("cost", [])
    return haves_ok(st, p, cost) and can_pay_cost(st, p, cost)


def playable(st: State, p: int, cid: str) -> bool:
    """Whether ``p`` may resolve ``cid`` now: its conditions hold and its cost can be paid."""
    return open_to(st, p, st.game.pack.card(cid))
