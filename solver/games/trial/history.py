"""What each player has seen and done, and who knows where each card lies.

Two records of the state, kept by every rule that moves something in or out of sight:

* ``st.data["history"]``, a tuple of entries ``(seen_by, text, redacted)``, one per action and one
  per automatic revelation, in order (:func:`note`, :func:`action_entry`): a player's information
  state is the history as they saw it;
* ``st.data["card_knowledge"]``, who knows which place each card lies in (:func:`know`,
  :func:`forget`, :func:`track`): what a determinisation may not move.

Both are tuples replaced, never changed in place, so copies of a state share them.
"""

from __future__ import annotations

import re
from collections.abc import Container
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.games.trial.core import State


# -- the history: what each player has seen and done ----------------------------------------------
# ``st.data["history"]`` is a tuple of entries ``(seen_by, text, redacted)``, one per action and
# one per automatic revelation, in order: ``seen_by`` is ``"*"`` (everyone) or the digits of the
# players who see ``text``; the others see ``redacted``. The tuple is never changed in place (a
# new tuple is made for each entry), so copies of a state share it.
PUBLIC = "*"
Entry = tuple[str, str, str]
NOTE_KINDS = ("fight", "look", "restore", "reveal", "tent", "top")
"""The first word of the texts :func:`note` writes (``top:AREA:CARD``, ``look:SLOT:ITEMS``...);
an action's entry begins with its actor instead (``0:move:142``, ``c:draw:268``)."""
_ACTION = re.compile(r"(c|[0-9]):([a-z_]+):([0-9]+|\??[0-9]?)")  # ?: hidden (a redeal's view)
_NOTE = re.compile(rf"({'|'.join(NOTE_KINDS)}):.*", re.S)
_HIDDEN = re.compile(r"[^:]+:[^:]+:\??[0-9]?")


def entry_expected(entry: Entry, players: int, steps: Container[str]) -> str | None:
    """What a saved history ``entry`` lacks to be one play writes, in words, or ``None``: seen by
    everyone (``*``) or by seats of the game (digits in order, maybe none), its text an action's
    (``ACTOR:STEP:ACTION``: ``c`` for chance or a seat, a step of ``steps``, the action's number
    or its hidden form, ``?``, ``?0``, as a redealt view keeps what its player did not see) or a
    note's (:data:`NOTE_KINDS`), its redacted text empty exactly when it is public and else a
    hidden form (``0:pick_tent:?``, ``c:draw:?0``, ``top:AREA:?``; format 1 wrote some without
    the ``?``)."""
    seen_by, text, redacted = entry
    seats = "0123456789"[:players]
    if seen_by != PUBLIC and seen_by != "".join(q for q in seats if q in seen_by):
        return f"seen by '*' or seats 0..{players - 1} in order, each once"
    action = _ACTION.fullmatch(text)
    if action is not None:
        if action[1] != "c" and action[1] not in seats:
            return f"an actor 'c' (chance) or a seat 0..{players - 1}"
        if action[2] not in steps:
            return "an action's step a step of the game"
    elif _NOTE.fullmatch(text) is None:
        return f"a text 'ACTOR:STEP:ACTION' or a note ({', '.join(NOTE_KINDS)})"
    if (redacted == "") != (seen_by == PUBLIC) or (redacted and not _HIDDEN.fullmatch(redacted)):
        return "a redacted text empty exactly when the entry is public ('*'), else 'X:Y:?'"
    return None


def note(st: State, seen_by: str, text: str, redacted: str = "") -> None:
    """Append one entry to the history (``seen_by``: ``"*"`` or the digits of the players who see
    ``text``; the others see ``redacted``)."""
    st.data["history"] = (*st.data["history"], (seen_by, text, redacted))


def _players(players: Any) -> str:
    return "".join(str(q) for q in sorted(set(players)))


def action_entry(st: State, frame: dict[str, Any], actor: int, action: int) -> Entry:
    """The history entry of ``action`` taken at ``frame`` by ``actor`` (-1: chance): public, or
    seen by the actor (and whoever else the rules show it to) with a redacted text for the
    others. Hidden: which card goes face down into a story, to a fight or to a Swindler, which
    card is given (the giver and the taker see it), which tent is left on a campsite; a card
    drawn (its drawer sees it; a deck top revealed: its viewers), a tent dealt (its owner) or
    taken from the box, the items laid on ruins (nobody)."""
    k = frame["step"]
    who = "c" if actor < 0 else str(actor)
    text = f"{who}:{k}:{action}"
    hidden = f"{who}:{k}:?"
    if actor < 0:
        return _chance_entry(st, frame, text, hidden)
    if k in ("fight_cards", "swindle", "facedown_optional"):
        if st.layout.family(action)[0] == "card":
            return (who, text, hidden)
    elif k == "pick_card":
        purpose = frame["purpose"]
        if purpose == "story_facedown":
            return (who, text, hidden)
        if purpose == "give":
            return (_players([actor, frame["to"]]), text, hidden)
    elif k == "pick_tent":
        return (who, text, hidden)
    return (PUBLIC, text, "")


def _chance_entry(st: State, frame: dict[str, Any], text: str, hidden: str) -> Entry:
    """:func:`action_entry` for a chance outcome: a card drawn to a hand or aside (its drawer
    sees it) or a deck top revealed to some (its viewers), a tent dealt (its owner), the items
    laid on ruins and the tents taken from the box (nobody); else public."""
    k = frame["step"]
    if k == "draw":
        to = frame["to"]
        if to in ("aside", "hand"):
            return (str(frame["player"]), text, f"{hidden}{frame['player']}")
        if to == "top":
            viewers = frame["viewers"]
            if len(viewers) < st.data["player_count"]:
                return (_players(viewers), text, hidden)
    elif k == "deal_tent":
        return (str(frame["player"]), text, f"{hidden}{frame['player']}")
    elif k in ("ruin_item", "box_tent"):
        return ("", hidden, hidden)
    return (PUBLIC, text, "")


# -- who knows where a card is --------------------------------------------------------------------
# ``st.data["card_knowledge"]`` is a tuple of pairs ``(card, seen_by)``: the digits of the players
# who know which container the card lies in (a player's hand, cards aside, face-down story, a
# fight's or a Swindler's face-down cards, a card waiting for its column, the deed deck). Without
# a pair a deed card is known to nobody (beyond what its own container shows), any other card to
# everyone (encounter and expedition cards only ever move in sight of all, until one of them
# leaves a hand unseen).
# The tuple is replaced, never changed in place, so copies of a state share it.
def _everyone(st: State) -> str:
    return "0123456789"[: st.data["player_count"]]


def known_to(st: State, cid: str, known: dict[str, str] | None = None) -> str:
    """The digits of the players who know where ``cid`` lies (see the comment above)."""
    if known is None:
        known = dict(st.data["card_knowledge"])
    if cid in known:
        return known[cid]
    return "" if st.game.deck_of[cid] == "deeds" else _everyone(st)


def _default(st: State, cid: str) -> str:
    return "" if st.game.deck_of[cid] == "deeds" else _everyone(st)


def know(st: State, cards: list[str], seen_by: str) -> None:
    """The players ``seen_by`` (digits, or ``"*"``: everyone) see ``cards`` arrive where they lie
    now: they, and nobody else, know where these cards are."""
    if seen_by == PUBLIC:
        seen_by = _everyone(st)
    known = dict(st.data["card_knowledge"])
    changed = False
    for cid in cards:
        if seen_by == _default(st, cid):  # the default needs no record (the record stays short)
            changed = known.pop(cid, None) is not None or changed
        elif known.get(cid) != seen_by:
            known[cid] = seen_by
            changed = True
    if changed:
        st.data["card_knowledge"] = tuple(known.items())


def forget(st: State, cards: list[str], seen_by: str) -> None:
    """A card left the container holding ``cards`` and only the players ``seen_by`` saw which:
    the others no longer know that any of ``cards`` is still there (it may be the one that
    left), so they forget where these cards are."""
    if seen_by == PUBLIC:
        return
    known = dict(st.data["card_knowledge"])
    changed = False
    for cid in cards:
        old = known.get(cid)
        if old is None:
            if st.game.deck_of[cid] == "deeds":
                continue  # known to nobody already
            old = _everyone(st)
        new = "".join(q for q in old if q in seen_by)
        if new != old:
            known[cid] = new
            changed = True
    if changed:
        st.data["card_knowledge"] = tuple(known.items())


_CARD_OPTION = ("help", "universal")
"""Steps whose first card action is the option "a deed card" (a draw follows), not a card."""


def track(
    st: State,
    frame: dict[str, Any],
    actor: int,
    action: int,
    entry: Entry,
    top_viewers: list[int] | None = None,
) -> None:
    """Update who knows where cards are after ``action`` (its history ``entry``) at ``frame``:
    the card the action names is known to those who see the entry (and, for a draw of a deck
    top revealed before, to its viewers); a card drawn or played out of a hand unseen makes the
    others forget where the rest of that deck or hand is."""
    L = st.layout
    index = action - L.CARD
    if not 0 <= index < len(L.cards) or frame["step"] in _CARD_OPTION:
        return
    cid = L.cards[index]
    seen_by = entry[0]
    if top_viewers and seen_by != PUBLIC:
        seen_by = _players([*(int(q) for q in seen_by), *top_viewers])
    know(st, [cid], seen_by)
    if seen_by == PUBLIC:
        return
    if frame["step"] == "draw":
        deck = st.data["decks"][frame["deck"]]
        rest = [c for layer in deck["layers"] for c in layer]
        if deck["top"] is not None:
            rest.append(deck["top"]["card"])
        forget(st, rest, seen_by)
    elif actor >= 0:
        forget(st, list(st.data["players"][actor]["hand"]), seen_by)


def history(st: State, p: int) -> list[str]:
    """Player ``p``'s view of the history, one line per entry."""
    mine = str(p)
    return [
        text if seen == PUBLIC or mine in seen else redacted
        for seen, text, redacted in st.data["history"]
    ]
