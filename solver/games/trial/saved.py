"""Saved Trial states: the JSON document, its format, and the states saved by earlier versions.

A state is saved as ``{"game": "trial", "format": 2, "state": DATA}`` (``to_json``), ``DATA``
being the state's data with its fields' names (``docs/rules/trial-steps.md``). Reading one
(:func:`read_state`) checks everything before play (:mod:`.state_check`): a bad document is a
:class:`~solver.errors.FormatError` naming the field.

**Format 1** (no ``format`` field) is what this library wrote before the Trial's state got its
self-explaining names: the same game under shorter names (``n``, ``pos``, ``pack``, frame kind
``k``, player ``p``...). Such a state is read by renaming its fields (:func:`upgrade_v1`) and
then checked like any other. It is refused, with a message saying so, when it waits in the middle
of a fight: the fight rules changed with format 2 (the adventurer's die, the two card stages),
so an old fight cannot go on under the new rules.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from solver.errors import FormatError
from solver.fields import check_state_game, shown
from solver.files import decode_json, parse_json
from solver.games.trial.core import REQUIRED, STEPS
from solver.games.trial.history import entry_expected

if TYPE_CHECKING:
    from solver.games.trial.core import Game as TrialGame

FORMAT = 2
"""The format :meth:`TrialState.to_json` writes."""

STATE_FIELDS: dict[str, str] = {
    "player_count": "the number of adventurers (2 to 4)",
    "day": "the day (round), 1 to 4 (1 during the set-up)",
    "first_player": "who holds the first-player token",
    "turn_player": "whose turn it is (null between turns and during the set-up)",
    "game_over": "the game has ended (no step waits then)",
    "players": "each adventurer's belongings (PLAYER_FIELDS)",
    "tray": "food tokens on the tray, by food",
    "gallery_food": "food spent into the gallery (Curator), by food",
    "tiles": "per location slot: [tile id, flipped] (flipped: ruined; for ruins: restored)",
    "ruins": "per ruins slot: {items: lying there face down, seen_by: who has looked}",
    "tunnels": "per space: open (a dug token) or collapsed (a token on a printed tunnel)",
    "tunnel_tokens": "tunnel tokens left on the tray",
    "store": "the shared stock: rows x columns of stacks of items",
    "box": "out of play: tents (unseen, face down), used_tents, items, artifacts",
    "artifacts_available": "artifacts still in their slots by the expedition decks",
    "decks": "per deck (deeds, encounters, exp:AREA): layers, discard, top",
    "encounter_row": "the face-up encounter cards (null: an empty slot)",
    "camp_tents": "per campsite (and universal): the tent lying there, {tent, owner}, or null",
    "legendary": "per legendary token: its holder, or null",
    "last_fight": "the latest decided fight (fights.fight_record), or null",
    "stack": "the steps waiting, the top last (each: {step: KIND, fields...})",
}
"""The state's fields and what they hold; optionally also ``setup_pool`` (during the set-up:
the items still to deal), ``history`` and ``card_knowledge`` (:mod:`.history`)."""
STATE_KEYS = set(STATE_FIELDS)
PLAYER_FIELDS: dict[str, str] = {
    "space": "where the piece stands (null before the set-up places it)",
    "hand": "the cards in hand",
    "aside": "cards gained this turn, joining the hand at its end",
    "food": "food tokens, by food",
    "backpack": "items and artifacts carried",
    "gallery": "artifacts left in the gallery",
    "story": "[card, face_up, column] in the order tucked",
    "morality": "the morality token, -5 (good) to 5 (evil)",
    "paws": "plain paw tokens on the character board",
    "strong_paw": "the strong paw token is on the character board",
    "paws_placed": "[target, strong] of the paws on the board (loc:SLOT, enc, help, exp:AREA)",
    "tents": "tent tokens on the character board (face down)",
    "flags": "per area: the finishing space of the flag, or null",
    "tent_symbols": "one-time tent symbols kept: move, trade, strength, card_draw",
    "camped": "the adventurer has camped today",
}
"""A player's fields and what they hold."""
PLAYER_KEYS = set(PLAYER_FIELDS)


def document(data: dict[str, Any]) -> str:
    """The saved form of a state's data."""
    return json.dumps({"game": "trial", "format": FORMAT, "state": data}, sort_keys=True)


def _fail(expected: str, found: Any = None) -> FormatError:
    shown = None if found is None else (found if isinstance(found, str) else repr(found)[:60])
    return FormatError(expected, line=1, column=1, found=shown)


def parse(text: Any) -> dict[str, Any]:
    """The JSON object of a saved state (a :class:`FormatError` for anything else)."""
    if isinstance(text, (bytes, bytearray)):
        data = decode_json(bytes(text), "a JSON trial state")
    else:
        data = parse_json(text, "a JSON trial state")
    expected = "a trial state object with 'game': 'trial'"
    if not isinstance(data, dict):
        raise _fail(expected, shown(data))
    check_state_game(data, "trial")  # another game's state is named as such
    if data.get("game") != "trial":
        raise _fail(expected, f"'game': {shown(data.get('game'))}")
    if "state" not in data:  # it said it expected 'game': 'trial', which the object had
        raise _fail("a trial state object with its 'state' (the state's data)", "no 'state'")
    return data


def players_of(doc: dict[str, Any]) -> Any:
    """The player count a saved document names (format 1 or 2), or ``None``."""
    state = doc.get("state")
    if not isinstance(state, dict):
        return None
    return state.get("player_count", state.get("n") if "format" not in doc else None)


def read_state(game: TrialGame, text: Any) -> dict[str, Any]:
    """The checked data of the saved state ``text`` for ``game`` (upgraded from format 1)."""
    doc = parse(text)
    version = doc.get("format", 1)
    if version not in (1, FORMAT):
        raise _fail(f"a trial state of format 1 or {FORMAT}", repr(version))
    state = doc["state"]
    if not isinstance(state, dict) or players_of(doc) != game.players:
        found = players_of(doc) if isinstance(state, dict) else type(state).__name__
        raise _fail(f"a state for {game.players} players", str(found))
    if version == 1:
        state = upgrade_v1(game, state)
    _added_fields(state)
    check_shape(game, state)
    return state


ADDED_FIELDS = {"take_item": {"other_than": None}}
"""Frame fields added to format 2 since it was first written, with the value an older state
means (``take_item.other_than``: the ruined store's "another common item", session 38)."""


def _added_fields(state: dict[str, Any]) -> None:
    """Give the frames of a state saved before a field was added that field's old meaning."""
    stack = state.get("stack")
    for frame in stack if isinstance(stack, list) else ():
        if isinstance(frame, dict) and isinstance(frame.get("step"), str):
            for name, value in ADDED_FIELDS.get(frame["step"], {}).items():
                frame.setdefault(name, value)


def check_shape(game: TrialGame, state: dict[str, Any]) -> None:
    """The keys of a saved state, its players and its steps, then every value
    (:mod:`.state_check`): a :class:`FormatError` names the first problem."""
    from solver.games.trial.state_check import check_counts, check_values

    keys = set(state) - {"setup_pool", "history", "card_knowledge"}
    if keys != STATE_KEYS:
        raise _fail("the trial state's fields", repr(sorted(keys ^ STATE_KEYS)[0]))
    players = state["players"]
    if not isinstance(players, list) or len(players) != game.players:
        raise _fail(f"{game.players} players", players)
    for me in players:
        if not isinstance(me, dict) or set(me) != PLAYER_KEYS:
            raise _fail("a player's fields", me)
    stack = state["stack"]
    if not isinstance(stack, list) or not all(
        isinstance(f, dict) and isinstance(f.get("step"), str) and f["step"] in STEPS for f in stack
    ):
        raise _fail("a list of known steps", stack)
    if not stack and not state["game_over"]:
        raise _fail("a waiting step (or a finished game)", "[]")
    digits = set("0123456789"[: game.players])
    _check_history(game, state.get("history", []), digits)
    known = state.get("card_knowledge", [])
    if not isinstance(known, (list, tuple)) or not all(
        isinstance(e, (list, tuple))
        and len(e) == 2
        and isinstance(e[0], str)
        and e[0] in game.deck_of
        and isinstance(e[1], str)
        and set(e[1]) <= digits
        for e in known
    ):
        raise _fail("a list of [card, seen_by] pairs", known)
    check_values(game, state)
    check_counts(game, state)


def _check_history(game: TrialGame, log: Any, digits: set[str]) -> None:
    """A saved history: ``[seen_by, text, redacted]`` entries, each seen by everyone (``*``) or
    by seats of this game (``digits``, maybe none)."""
    if not isinstance(log, (list, tuple)) or not all(
        isinstance(e, (list, tuple)) and len(e) == 3 and all(isinstance(x, str) for x in e)
        for e in log
    ):
        raise _fail("a history of [seen_by, text, redacted] entries", log)
    steps = {*STEPS, *V1_STEP}  # format 1's older step names stay in the history it saved
    for i, entry in enumerate(log):
        if entry[0] != "*" and not set(entry[0]) <= digits:
            raise _fail(f"history entries seen by '*' or seats 0..{game.players - 1}",
                        repr(entry[0][:20]))  # fmt: skip
        expected = entry_expected(entry, game.players, steps)
        if expected is not None:  # found by attack: any three texts loaded, on both engines
            raise _fail(f"history[{i}] to be an entry play writes: {expected}", list(entry))


# -- format 1 ------------------------------------------------------------------------------------
V1_STATE = {
    "n": "player_count",
    "first": "first_player",
    "turn": "turn_player",
    "over": "game_over",
    "row": "encounter_row",
    "camps": "camp_tents",
    "artifacts": "artifacts_available",
    "pool": "setup_pool",
    "log": "history",
    "known": "card_knowledge",
}
"""Format 1's state fields renamed."""
V1_PLAYER = {
    "pos": "space",
    "pending": "aside",
    "pack": "backpack",
    "strong": "strong_paw",
    "placed": "paws_placed",
    "onetime": "tent_symbols",
}
"""Format 1's player fields renamed."""
V1_STEP = {
    "store": "store_visit",
    "sell_cell": "sale_slot",
    "trade_bonus": "trading_bonus",
    "ruined_store": "ruined_store_sale",
}
"""Format 1's step kinds renamed (the others kept their names)."""
V1_FIELDS: dict[str, dict[str, str]] = {
    "*": {"p": "player"},
    "draw_offer": {"n": "count"},
    "effects": {"i": "next"},
    "pay": {"card_units": "card_worth"},
    "store_visit": {"card_units": "card_worth"},
    "resolve": {
        "src": "source",
        "dest": "destination",
        "side": "moral_side",
        "held": "holding",
        "effect": "effects",
    },
    "ruins": {"strong": "strong_paw"},
    "sale_slot": {"reward": "paid"},
    "swindle": {"held": "face_down"},
    "turn": {"played": "deed_played", "acted": "paw_used", "fresh": "at_start", "end": "ended"},
}
"""Format 1's frame fields renamed, by (new) step kind."""
V1_DROPPED = {"roll": ("rolled",), "swindle": ("rolling",)}
"""Format 1's frame fields that meant nothing."""
V1_REFUSED = ("fight", "fight_cards", "fight_discard", "fight_weapon")
"""Steps a format-1 state cannot resume: the fight rules changed."""


def upgrade_v1(game: TrialGame, state: dict[str, Any]) -> dict[str, Any]:
    """A format-1 state's data under format 2's names (see the module docstring); a
    :class:`FormatError` when it is in the middle of a fight."""
    stack = state.get("stack")
    if isinstance(stack, list):
        for frame in stack:
            if isinstance(frame, dict) and frame.get("k") in V1_REFUSED:
                raise _fail(
                    "a state saved between fights (this state was saved by an earlier version, "
                    "format 1, in the middle of a fight, whose rules have changed since: the "
                    "adventurer's die and the two card stages; it cannot be resumed)",
                    f"a {frame['k']} step",
                )
    new = {V1_STATE.get(k, k): v for k, v in state.items()}
    new.setdefault("last_fight", None)
    if isinstance(new.get("players"), list):
        new["players"] = [
            {V1_PLAYER.get(k, k): v for k, v in me.items()} if isinstance(me, dict) else me
            for me in new["players"]
        ]
    if isinstance(new.get("ruins"), dict):
        for ruin in new["ruins"].values():
            if isinstance(ruin, dict) and "known" in ruin:
                ruin["seen_by"] = ruin.pop("known")
    if isinstance(stack, list):
        frames: list[Any] = []
        for frame in stack:
            frames += _upgrade_frame(game, new, frame) if isinstance(frame, dict) else [frame]
        new["stack"] = frames
    return new


def _upgrade_frame(game: TrialGame, state: dict[str, Any], old: dict[str, Any]) -> list[Any]:
    """A format-1 frame as format-2 frames (an ``enhance`` gets the step it feeds below it)."""
    kind = str(old.get("k"))
    kind = V1_STEP.get(kind, kind)
    renames = {**V1_FIELDS["*"], **V1_FIELDS.get(kind, {})}
    frame: dict[str, Any] = {"step": kind}
    for key, value in old.items():
        if key != "k" and key not in V1_DROPPED.get(kind, ()):
            frame[renames.get(key, key)] = value
    if kind == "draw" and frame.get("to") == "pending":
        frame["to"] = "aside"
    if kind == "camp" and isinstance(frame.get("stage"), int):
        frame["stage"] = ("campsite", "tent", "own_tent", "paws")[min(frame["stage"], 3)]
    if kind == "resolve" and isinstance(frame.get("stage"), int):
        frame["stage"] = ("pay", "effects", "place")[min(max(frame["stage"], 0), 2)]
    if kind == "enhance":
        return _upgrade_enhance(game, state, frame)
    spec = STEPS.get(kind)
    if spec is not None:  # fields format 1 left out when they were empty
        for name, (default, _) in spec.fields.items():
            if name not in frame and default is not REQUIRED:
                frame[name] = json.loads(json.dumps(default))
    return [frame]


def _upgrade_enhance(game: TrialGame, state: dict[str, Any], f: dict[str, Any]) -> list[Any]:
    """Format 1's ``enhance`` ran a callback at the end (``after``, ``args``); format 2's feeds
    the step waiting below it (``into``)."""
    from solver.games.trial.belongings import trade_symbols

    p, args = f.get("player"), f.get("args") or {}
    after = f.get("after")
    into = {"grove": "harvest", "lookout": "lookout_draw", "store": "trading_bonus"}.get(str(after))
    if into is None or not isinstance(args, dict):
        raise _fail("an enhance step of format 1 with after: grove, lookout or store", f)
    if into == "harvest":
        below = {
            "step": into,
            "player": p,
            "food": args.get("food"),
            "tea": args.get("tea", 0),
            "boost": 0,
            "foods": {k: 0 for k in (f.get("foods") or {})},
        }
    elif into == "lookout_draw":
        below = {"step": into, "player": p, "base": args.get("base"), "boost": 0}
    else:
        view: Any = SimpleNamespace(data=state, game=game)
        below = {"step": into, "player": p, "points": trade_symbols(view, int(p or 0)), "boost": 0}
    above = {
        "step": "enhance",
        "player": p,
        "kind": f.get("kind"),
        "into": into,
        "cards": f.get("cards", 0),
        "token": f.get("token", False),
        "boost": f.get("extra", 0),
        "foods": f.get("foods"),
    }
    return [below, above]
