"""The Trial's cards, fights and store slots in words for the web table's panels.

A card's rule terms (its pack JSON: ``requires``, ``cost``, ``effect``, ``enhance``) read as
short phrases: ``{"spend": ["acorn"]}`` is "spend acorn", ``{"spend": ["torch", "shovel"]}``
"spend torch or shovel", ``{"fight": {"strength": 5, "dice": 2}}`` "fight (strength 5, dice 2)".

>>> phrase([{"spend": ["acorn"]}, {"spend": ["acorn"]}])
'spend acorn, spend acorn'
>>> phrase([{"fight": {"strength": 5, "dice": 2, "win": [{"advance": "any"}]}}])
'fight (strength 5, dice 2, win: advance any)'
>>> phrase([{"choose": [{"label": "feed it", "morality": "good", "cost": [{"spend": ["acorn"]}]},
...                     {"label": "leave it", "effect": [{"gain": {"tea": 1}}]}]}])
'choose one of: feed it (costs spend acorn, good) | leave it (does gain tea 1)'
>>> phrase([{"fight": {"strength": 3, "dice": 1, "lose_card": "facedown"}},
...         {"swindle": {"discard_up_to": 2}}])
'fight (strength 3, dice 1, lost: the card face down), swindle discard up to 2'
>>> fight_words({"attacker": 1, "defender": None, "strength": [4, 2], "dice": [[2], [0]],
...              "bow": [], "by": "strength", "winner": "attacker", "card": "exp-06"}, "Leech Pool")
'Leech Pool: player 1 (strength 4, dice 2) against the foe (strength 2, dice 0): player 1 won'
"""

from __future__ import annotations

from typing import Any

__all__ = ["STAGE_WORDS", "card_words", "fight_words", "phrase", "store_price"]


LOSE_CARD = {"story": "lost: the card to the story", "facedown": "lost: the card face down",
             "discard": "lost: the card discarded"}  # fmt: skip
"""A fight's ``lose_card`` (where the card goes on a loss) in words (was ``lose_card
facedown``)."""


def _value(value: Any) -> str:
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return phrase(value)
        return " or ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(
            LOSE_CARD[v] if k == "lose_card" and v in LOSE_CARD
            else f"{k.replace('_', ' ')}: {_value(v)}" if isinstance(v, list | dict)
            else f"{k.replace('_', ' ')} {v}"
            for k, v in value.items()
        )  # fmt: skip
    if value is True:
        return ""
    return str(value)


def phrase(terms: Any) -> str:
    """A list of rule terms (or one) as a short phrase."""
    if isinstance(terms, dict):
        terms = [terms]
    out = []
    for term in terms or []:
        if not isinstance(term, dict):
            out.append(str(term))
            continue
        for key, value in term.items():
            if key == "choose" and isinstance(value, list):
                out.append("choose one of: " + " | ".join(_option(o) for o in value))
                continue
            shown = _value(value)
            if isinstance(value, dict) and len(value) > 1:
                out.append(f"{key.replace('_', ' ')} ({shown})")
            else:
                out.append(f"{key.replace('_', ' ')} {shown}".strip())
    return ", ".join(out)


def _option(option: Any) -> str:
    """One option of a card's choice: its label, then what it needs, costs and does."""
    if not isinstance(option, dict):
        return str(option)
    named = (("requires", "needs"), ("cost", "costs"), ("effect", "does"))
    parts = [f"{word} {phrase(option[key])}" for key, word in named if option.get(key)]
    if option.get("morality"):
        parts.append(str(option["morality"]))
    return f"{option.get('label', '?')} ({', '.join(parts)})" if parts else str(option.get("label"))


def card_words(card: dict[str, Any]) -> tuple[str, str]:
    """A card's line (name, symbols, fame) and its detail (requires, cost, effect, the
    enhancement)."""
    symbols = " ".join(card.get("symbols", [])) or "no symbol"
    head = f"{card['name']} ({symbols}; fame {card.get('fame', 0)})"
    parts = []
    for key, word in (("requires", "needs"), ("cost", "costs"), ("effect", "does")):
        if card.get(key):
            parts.append(f"{word}: {phrase(card[key])}")
    if card.get("enhance"):
        parts.append(f"discard for: {_value(card['enhance'])}")
    return head, "; ".join(parts)


def _side(fight: dict[str, Any], k: int) -> str:
    who = fight["attacker"] if k == 0 else fight["defender"]
    name = f"player {who}" if who is not None else "the foe"
    dice = ", ".join(str(v) for v in fight["dice"][k]) or "none"
    return f"{name} (strength {fight['strength'][k]}, dice {dice})"


def fight_words(fight: dict[str, Any], card_name: str) -> str:
    """A decided fight: both sides' strengths and dice, and who won."""
    winner = fight["attacker"] if fight["winner"] == "attacker" else fight["defender"]
    won = f"player {winner} won" if winner is not None else "the foe won"
    how = " (by the bow)" if fight.get("by") == "bow" else ""
    return f"{card_name}: {_side(fight, 0)} against {_side(fight, 1)}: {won}{how}"


STAGE_WORDS = {
    "weapon_a": "the attacker picks a weapon",
    "bow_a": "the attacker's bow",
    "weapon_d": "the defender picks a weapon",
    "bow_d": "the defender's bow",
    "roll_d": "the defender's dice",
    "roll_a": "the attacker's dice",
    "discard_a": "the attacker may discard cards for strength",
    "discard_d": "the defender may discard cards for strength",
    "cards_a": "the attacker may play cards face down",
    "cards_d": "the defender may play cards face down",
    "end": "the strengths compared",
}
"""The fight's stages (:data:`solver.games.trial.fights.STAGES`) in words, for the table."""


def store_price(pack: Any, row: int, column: int) -> str:
    """The price of the store slot (row, column): its column's symbol plus its row's."""
    store = pack.store
    return f"{store['columns'][column]['price']} + {store['rows'][row]['price']}"
