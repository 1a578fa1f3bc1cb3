"""Discarding cards for their enhancement symbols: the decisions where an adventurer discards up
to two cards from hand whose enhancement shows a kind of symbol, or uses the one-time tent
symbol of that kind, until ``done`` (a move's movement, a fight's strength, a location's
enhancement).

The deciding step's frame counts its discarded ``cards``; a frame with a ``token`` field may use
the tent symbol once (a move may use every movement tent symbol the player has). What the
symbols add up to stays with the deciding step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solver.games.trial.core import Frame, player
from solver.games.trial.decks import discard_from_hand

if TYPE_CHECKING:
    from solver.games.trial.core import State

MAX_CARDS = 2
"""Cards one such decision may discard."""


def discard_actions(
    st: State, f: Frame, counts: Callable[[str], bool], tent_symbol: str | None
) -> list[int]:
    """``done``; the cards of the frame's player's hand that ``counts`` (while fewer than
    :data:`MAX_CARDS` are discarded); ``TOKEN`` when the player has a ``tent_symbol`` left (and
    the frame has not used it yet)."""
    me = player(st, f["player"])
    acts = [st.layout.DONE]
    if f["cards"] < MAX_CARDS:
        acts += [st.layout.card(c) for c in me["hand"] if counts(c)]
    if tent_symbol and me["tent_symbols"][tent_symbol] and not f.get("token"):
        acts.append(st.layout.TOKEN)
    return acts


def discard_for_symbols(st: State, f: Frame, a: int, tent_symbol: str | None) -> str | None:
    """Take action ``a`` (not ``done``) of such a decision: ``TOKEN`` spends one ``tent_symbol``
    (``None`` is returned: it counts one symbol); a card is discarded from hand and counted (it
    is returned: its symbols are the caller's to read)."""
    if a == st.layout.TOKEN:
        assert tent_symbol is not None, "a tent symbol used where the decision has none"
        player(st, f["player"])["tent_symbols"][tent_symbol] -= 1
        if "token" in f:
            f["token"] = True
        return None
    f["cards"] += 1
    return discard_from_hand(st, f["player"], a)
