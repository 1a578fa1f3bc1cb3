"""Fights and dice: weapons, the bow and the shield, the dice, the two card stages, ties.

A fight is an automatic ``fight`` step walking through the stages of the rulebook (``STAGES``):

1. ``weapon_a`` / ``bow_a``: the attacker picks a weapon (an item or artifact with strength, dice
   or the bow); a bow rolls one die first and the winning symbol wins the fight at once;
2. ``weapon_d`` / ``bow_d``: the same for the defender in a duel (a foe has no weapon);
3. ``roll_d``: the defender's dice: a foe rolls its printed dice (one fewer against an attacker
   carrying the shield); an adventurer rolls one die, plus one per die symbol in their story,
   plus the weapon's dice (the rulebook's examples: "Mary rolls 1 die"; the die symbol "roll an
   extra die");
4. ``roll_a``: the attacker's dice, counted the same way;
5. ``discard_a`` / ``discard_d``: the attacker, then the defender in a duel, may discard up to 2
   cards whose enhancement shows strength symbols (1 strength point per symbol, in the open; the
   Knight example) and use a one-time strength tent symbol;
6. ``cards_a`` / ``cards_d``: the attacker, then the defender in a duel, may play up to 2 cards
   face down (any cards); revealed, each gives 1 strength point per symbol of its enhancement
   section, whatever the symbol (the Duel example);
   A card stage is passed over when the fighter has no card in hand (and, to discard, no tent
   symbol): what everyone can see, so passing over it tells nobody anything.
7. ``end``: the attacker needs strictly more strength (a tie goes to the defender); the winner
   discards the face-down cards they played, the loser takes theirs back. The fight's result
   (both strengths, the dice, the winner) is written to the history and kept in the state's
   ``last_fight`` for every player to see.

Strength = the character board's strength symbols + the story's + the weapon's + the dice + the
discarded cards' strength symbols (and the tent symbol) + the face-down cards' symbols. A foe's
strength is its printed value plus its dice. Dice are ``die`` chance steps with the exact
probabilities of the pack's die faces; :func:`win_chance` gives the exact odds of a fight.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar

from solver.games.trial import core
from solver.games.trial.belongings import story_symbols
from solver.games.trial.conditions import company
from solver.games.trial.core import (
    REQUIRED,
    Fields,
    Frame,
    Step,
    YesNo,
    card_text,
    card_text_fields,
    enclosing,
    find,
    player,
    pop,
    push,
    step,
)
from solver.games.trial.decks import card_name, discard_card, from_hand, hand_actions
from solver.games.trial.discards import discard_actions, discard_for_symbols
from solver.games.trial.history import PUBLIC, know, note
from solver.games.trial.payments import can_pay_cost, pay_cost

if TYPE_CHECKING:
    from solver.games.trial.core import State

STAGES = (
    "weapon_a", "bow_a", "weapon_d", "bow_d", "roll_d", "roll_a", "discard_a", "discard_d",
    "cards_a", "cards_d", "end",
)  # fmt: skip
"""The fight's stages, in order (a stage with nothing to do is passed over)."""
CARDS_PER_STAGE = 2
"""Cards a fighter may play face down (and, separately, discard for strength: the same
limit, :data:`.discards.MAX_CARDS`)."""
Faces = list[tuple[int, bool, float]]
"""The die's distinct faces: (strength, winning symbol, probability)."""


def die_faces(st: State) -> Faces:
    """The die's distinct faces ``(strength, winning symbol, probability)``, in pack order."""
    faces = [(int(f["strength"]), bool(f.get("win", False))) for f in st.game.components["die"]]
    counts = Counter(faces)
    seen: list[tuple[int, bool]] = []
    for face in faces:
        if face not in seen:
            seen.append(face)
    return [(s, w, counts[(s, w)] / len(faces)) for s, w in seen]


def dice_sum(faces: Faces, k: int) -> dict[int, float]:
    """The exact distribution of the strength of ``k`` dice with these ``faces`` (from
    :func:`die_faces`): the sum of independent rolls."""
    total = {0: 1.0}
    for _ in range(k):
        nxt: dict[int, float] = {}
        for a, pa in total.items():
            for s, _, pf in faces:
                nxt[a + s] = nxt.get(a + s, 0.0) + pa * pf
        total = nxt
    return total


def win_chance(faces: Faces, margin: int, mine: int, theirs: int) -> float:
    """The attacker's chance to win when their strength before dice exceeds the defender's by
    ``margin`` and they roll ``mine`` dice against ``theirs`` (a tie goes to the defender)."""
    a, d = dice_sum(faces, mine), dice_sum(faces, theirs)
    return sum(pa * pd for x, pa in a.items() for y, pd in d.items() if margin + x > y)


def push_die(st: State, p: int, parent: str, side: int = 0, purpose: str = "strength") -> None:
    """Push one roll of the die whose result goes to the nearest ``parent`` step."""
    push(st, "die", player=p, parent=parent, side=side, purpose=purpose)


@step("die")
class Die(Step):
    """Chance: one roll of the fight die; the face goes to the ``rolls`` of the nearest
    ``parent`` step (``[side, purpose, face]``)."""

    chance = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who rolls (for a foe: the attacker)"),
        "parent": (REQUIRED, "the step the roll is for: fight, roll or swindle_roll"),
        "side": (0, "in a fight: 0 the attacker, 1 the defender"),
        "purpose": ("strength", "strength, bow (the bow's instant-win roll), roll or swindle"),
    }

    @staticmethod
    def outcomes(st: State, f: Frame) -> list[tuple[int, float]]:
        return [(st.layout.DIE + j, prob) for j, (_, _, prob) in enumerate(die_faces(st))]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        parent = find(st, f["parent"])
        assert parent is not None
        parent["rolls"].append([f["side"], f["purpose"], a - st.layout.DIE])

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        strength, win, _ = die_faces(st)[a - st.layout.DIE]
        return f"the die shows {'the winning symbol' if win else strength}"

    @staticmethod
    def legacy(st: State, f: Frame, a: int) -> str:
        """The label before read ``die: 2``, ``die: winning symbol`` (still accepted)."""
        strength, win, _ = die_faces(st)[a - st.layout.DIE]
        return f"die: {'winning symbol' if win else strength}"


def base_strength(st: State, p: int) -> int:
    """The strength symbols of ``p``'s character board and face-up story."""
    board = int(st.game.components["character_board"]["strength"])
    return board + story_symbols(st, p, "strength")


def weapons(st: State, p: int) -> list[str]:
    """The items and artifacts ``p`` could fight with."""
    found = []
    for kind in sorted(set(player(st, p)["backpack"])):
        entry = st.game.pack.item(kind)
        if entry.get("strength") or entry.get("dice") or entry.get("bow"):
            found.append(kind)
    return found


def adventurer_dice(st: State, p: int, weapon: str | None) -> int:
    """Dice an adventurer rolls: one, plus one per die symbol in the story, plus the weapon's."""
    extra = int(st.game.pack.item(weapon).get("dice", 0)) if weapon else 0
    return 1 + story_symbols(st, p, "die") + extra


def foe_dice(st: State, p: int, printed: int) -> int:
    """Dice a card's foe rolls against ``p``: its printed dice, one fewer if ``p`` carries the
    shield."""
    shield = any(st.game.pack.item(k).get("shield") for k in player(st, p)["backpack"])
    return max(0, printed - (1 if shield else 0))


def strength_card(st: State, cid: str) -> int:
    """Strength of a card discarded for its enhancement: its strength symbols (0 without)."""
    return int(st.game.pack.card(cid).get("enhance", {}).get("strength", 0))


def card_strength(st: State, cid: str) -> int:
    """Strength of a card played face down in a fight: 1 per symbol of its enhancement section,
    whatever the symbol (movement, food, card draw, trading or strength)."""
    return sum(int(n) for n in st.game.pack.card(cid).get("enhance", {}).values())


DUEL_FIELDS: Fields = {
    "player": (REQUIRED, "the attacker"),
    "card": (REQUIRED, "the card whose duel this is"),
    "stake": (None, "food: the loser hands the winner a food"),
}
"""The fields a duel carries from its card to the choice of whom to attack."""


@step("duel")
class Duel(Step):
    """Automatic: a card's ``duel``: attack the adventurer on the attacker's space (evil ones
    only for ``target: evil``); a choice when there are several, nothing when there is none."""

    auto = True
    fields: ClassVar[Fields] = {
        **DUEL_FIELDS,
        "target": (None, "evil: only an evil adventurer may be attacked"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        targets = company(st, f["player"], evil_only=f["target"] == "evil")
        if len(targets) == 1:
            push(st, "fight", player=f["player"], defender=targets[0], card=f["card"],
                 stake=f["stake"])  # fmt: skip
        elif targets:
            push(st, "duel_target", player=f["player"], card=f["card"], stake=f["stake"],
                 targets=targets)  # fmt: skip


@step("duel_target")
class DuelTarget(Step):
    """Decision: which adventurer on the space to attack."""

    fields: ClassVar[Fields] = {
        **DUEL_FIELDS,
        "targets": (REQUIRED, "the adventurers who may be attacked"),
    }

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return f"attack player {a - st.layout.PLAYER}"

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return [st.layout.PLAYER + q for q in f["targets"]]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        push(st, "fight", player=f["player"], defender=a - st.layout.PLAYER, card=f["card"],
             stake=f["stake"])  # fmt: skip


def _side_player(f: Frame, side: int) -> int:
    return int(f["player"] if side == 0 else f["defender"])


def _dice_count(st: State, f: Frame, side: int) -> int:
    if side == 1 and f["defender"] is None:
        return foe_dice(st, f["player"], int(f["foe"][1]))
    return adventurer_dice(st, _side_player(f, side), f["weapons"][side])


def rolled(st: State, f: Frame, side: int) -> list[int]:
    """The strength of each die ``side`` rolled for strength so far (the bow's roll aside)."""
    faces = die_faces(st)
    return [faces[j][0] for s, purpose, j in f["rolls"] if s == side and purpose == "strength"]


def totals(st: State, f: Frame, face_down: bool = True) -> tuple[int, int]:
    """Attacker's and defender's strength from everything recorded in the fight step (without
    the face-down cards when ``face_down`` is false: what everyone sees before they are
    revealed)."""
    result = []
    for side in (0, 1):
        dice = sum(rolled(st, f, side))
        if side == 1 and f["defender"] is None:
            result.append(int(f["foe"][0]) + dice)
            continue
        q = _side_player(f, side)
        weapon = f["weapons"][side]
        wstrength = int(st.game.pack.item(weapon).get("strength", 0)) if weapon else 0
        cards = sum(card_strength(st, c) for c in f["face_down"][side]) if face_down else 0
        result.append(base_strength(st, q) + wstrength + dice + f["discard_strength"][side] + cards)
    return result[0], result[1]


@step("fight")
class Fight(Step):
    """Automatic: the fight's stages in order (see the module docstring)."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "the attacker"),
        "defender": (None, "the adventurer attacked (a duel); None: the card's foe"),
        "card": (REQUIRED, "the card that started the fight"),
        "path": ([], "where the fight argument is in the card (a foe's: strength, dice, win...)"),
        "foe": ([0, 0], "the foe's printed strength and dice"),
        "stage": ("weapon_a", "the next stage (STAGES)"),
        "weapons": ([None, None], "the attacker's and defender's weapons"),
        "rolls": ([], "the dice rolled: [side, purpose, face index]"),
        "discard_strength": ([0, 0], "each side's strength from discarded cards and the tent"),
        "face_down": ([[], []], "each side's cards played face down (hidden until revealed)"),
        "winner": (None, "0 attacker, 1 defender, once decided"),
        "stake": (None, "a duel's stake: food (the loser hands the winner a food)"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        stage = _next_stage(st, f)
        if stage == "end":
            _finish(st, f)
            return
        kind, side = stage[:-2], 0 if stage.endswith("_a") else 1
        if kind == "roll":  # without a duel the attacker rolls the foe's dice (side 1)
            for _ in range(_dice_count(st, f, side)):
                push_die(st, f["player"], "fight", side)
        elif side == 0 or f["defender"] is not None:
            _fighter_stage(st, f, kind, side)


def _next_stage(st: State, f: Frame) -> str:
    """The stage to run now (``end`` once a bow's roll has won the fight), the frame's stage
    moved on to the one after it."""
    stage = f["stage"]
    faces = die_faces(st)
    for side, purpose, j in f["rolls"]:
        if purpose == "bow" and faces[j][1] and f["winner"] is None:
            f["winner"] = side
            f["stage"] = stage = "end"
    if stage != "end":
        f["stage"] = STAGES[STAGES.index(stage) + 1]
    return stage


def _fighter_stage(st: State, f: Frame, kind: str, side: int) -> None:
    """A fighter's own stage (``weapon``, ``bow``, ``discard`` or ``cards``): the decision or
    the bow's roll it pushes, when the fighter has something to do there."""
    who = _side_player(f, side)
    me = player(st, who)
    if kind == "weapon" and weapons(st, who):
        push(st, "fight_weapon", player=who, side=side)
    elif kind == "bow" and f["weapons"][side] == "bow":
        push_die(st, who, "fight", side, "bow")
    elif kind == "discard" and (me["hand"] or me["tent_symbols"]["strength"]):
        push(st, "fight_discard", player=who, side=side)  # (what everyone sees: no leak)
    elif kind == "cards" and me["hand"]:
        push(st, "fight_cards", player=who, side=side)


def fight_record(st: State, f: Frame) -> dict[str, Any]:
    """The public account of a decided fight: who fought, both strengths, the dice each side
    rolled (their strength; a bow's roll apart), how it was decided and the winner."""
    attack, defend = totals(st, f)
    faces = die_faces(st)
    bow = [[side, "win" if faces[j][1] else faces[j][0]]
           for side, purpose, j in f["rolls"] if purpose == "bow"]  # fmt: skip
    bow_win = f["winner"] is not None and any(r == "win" for _, r in bow)
    return {
        "card": f["card"],
        "attacker": f["player"],
        "defender": f["defender"],
        "strength": [attack, defend],
        "dice": [rolled(st, f, 0), rolled(st, f, 1)],
        "bow": bow,
        "by": "bow" if bow_win else "strength",
        "winner": "attacker" if f["winner"] == 0 else "defender",
    }


def _finish(st: State, f: Frame) -> None:
    """Decide the fight, tell everyone, hand the face-down cards back or discard them, and run
    the card's consequences (a foe's ``win``/``lose``, a duel's owner and stake)."""
    pop(st, f)
    if f["winner"] is None:
        attack, defend = totals(st, f)
        f["winner"] = 0 if attack > defend else 1
    winner = f["winner"]
    held = f["face_down"]
    if held[0] or held[1]:
        note(st, PUBLIC, f"reveal:fight:{','.join(held[0])}:{','.join(held[1])}")
        know(st, held[1 - winner], PUBLIC)  # the loser takes them back in sight of all
    record = fight_record(st, f)
    st.data["last_fight"] = record
    note(st, PUBLIC, "fight:" + json.dumps(record, sort_keys=True, separators=(",", ":")))
    _settle_face_down(st, f, held, winner)
    resolving = find(st, "resolve", card=f["card"])
    if f["defender"] is not None:
        winner_p, loser_p = _side_player(f, winner), _side_player(f, 1 - winner)
        if resolving is not None:
            resolving["owner"] = winner_p
        if f["stake"] == "food" and any(player(st, loser_p)["food"].values()):
            push(st, "pick_food", player=loser_p, purpose="give", to=winner_p)
        return
    foe = card_text(st, f)
    if winner == 1 and resolving is not None:
        resolving["destination"] = foe["lose_card"]
    consequence = "win" if winner == 0 else "lose"
    if foe.get(consequence):
        push(st, "effects", player=f["player"], card=f["card"], path=[*f["path"], consequence])


def _settle_face_down(st: State, f: Frame, held: list[list[str]], winner: int) -> None:
    """The cards each side played face down: the winner's discarded, the loser's back to its
    hand; the fight then holds none."""
    for side in (0, 1) if f["defender"] is not None else (0,):
        for cid in held[side]:
            if side == winner:
                discard_card(st, cid)
            else:
                player(st, _side_player(f, side))["hand"].append(cid)
    f["face_down"] = [[], []]


def live_fight(st: State) -> dict[str, Any] | None:
    """The fight being fought, as everyone sees it (the face-down cards counted, not shown), or
    ``None``."""
    f = find(st, "fight")
    if f is None:
        return None
    return {
        "card": f["card"],
        "attacker": f["player"],
        "defender": f["defender"],
        "stage": f["stage"],
        "weapons": list(f["weapons"]),
        "dice": [rolled(st, f, 0), rolled(st, f, 1)],
        "strength_shown": list(totals(st, f, face_down=False)),
        "face_down": [len(f["face_down"][0]), len(f["face_down"][1])],
    }


FIGHTER_FIELDS: Fields = {
    "player": (REQUIRED, "the fighter deciding"),
    "side": (REQUIRED, "0 the attacker, 1 the defender"),
}
"""The fields of a fighter's decision for the fight under it (its weapon, its cards)."""


@step("fight_weapon")
class FightWeapon(Step):
    """Decision: the item or artifact used as a weapon (``done``: none)."""

    fields: ClassVar[Fields] = FIGHTER_FIELDS

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return [st.layout.DONE] + [st.layout.item(k) for k in weapons(st, f["player"])]

    @staticmethod
    def apply(st: State, f: Frame, a: int) -> None:
        pop(st, f)
        fight = enclosing(st, "fight")
        if a != st.layout.DONE:
            fight["weapons"][f["side"]] = st.layout.item_kinds[a - st.layout.ITEM]

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return (
            "fight without a weapon" if a == st.layout.DONE else f"fight with {st.layout.label(a)}"
        )


@step("fight_discard")
class FightDiscard(core.UntilDone):
    """Decision: discard a card whose enhancement shows strength symbols (up to 2, in the open:
    1 strength point per symbol), use the one-time strength tent symbol, or ``done``."""

    fields: ClassVar[Fields] = {
        **FIGHTER_FIELDS,
        "cards": (0, "cards discarded so far"),
        "token": (False, "the tent symbol is used"),
    }

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        return discard_actions(st, f, lambda c: bool(strength_card(st, c)), "strength")

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        cid = discard_for_symbols(st, f, a, "strength")
        strength = 1 if cid is None else strength_card(st, cid)
        enclosing(st, "fight")["discard_strength"][f["side"]] += strength

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str | None:
        if a >= st.layout.CARD:
            cid = st.layout.cards[a - st.layout.CARD]
            return f"discard {card_name(st, a)} for {strength_card(st, cid)} strength"
        if a == st.layout.TOKEN:
            return "use the one-time strength tent symbol"
        return "stop discarding for strength" if a == st.layout.DONE else None


@step("fight_cards")
class FightCards(core.UntilDone):
    """Decision: a card from hand played face down (up to 2; any card, it counts the symbols of
    its enhancement section when revealed), or ``done``. The cards' strength stays hidden from
    the other side until the fight is decided."""

    fields: ClassVar[Fields] = FIGHTER_FIELDS

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        fight = enclosing(st, "fight")
        acts = [st.layout.DONE]
        if len(fight["face_down"][f["side"]]) < CARDS_PER_STAGE:
            acts += hand_actions(st, f["player"])
        return acts

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        enclosing(st, "fight")["face_down"][f["side"]].append(from_hand(st, f["player"], a))

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str | None:
        if a == st.layout.DONE:
            return "stop playing cards face down"
        return f"play {card_name(st, a)} face down" if a >= st.layout.CARD else None


# -- the roll and swindle verbs ------------------------------------------------------------------
@step("roll")
class Roll(Step):
    """Automatic: a card's ``roll``: roll the die; strength at least ``need`` (or the winning
    face for ``need: win``) runs ``success``, else ``fail``; one paid re-roll may be asked for
    (the new roll must be kept)."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who rolls"),
        **card_text_fields("the roll argument"),
        "rolls": ([], "the rolls so far: [side, purpose, face index]"),
        "rerolled": (False, "the re-roll was bought"),
        "asked": (False, "the re-roll was offered"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        arg = card_text(st, f)
        p = f["player"]
        if not f["rolls"]:
            push_die(st, p, "roll", purpose="roll")
            return
        if (
            not f["rerolled"]
            and "reroll" in arg
            and not f["asked"]
            and can_pay_cost(st, p, arg["reroll"])
        ):
            f["asked"] = True
            push(st, "reroll", player=p)
            return
        pop(st, f)
        strength, win, _ = die_faces(st)[f["rolls"][-1][2]]
        ok = win if arg["need"] == "win" else strength >= arg["need"]
        key = "success" if ok else "fail"
        if arg.get(key):
            push(st, "effects", player=p, card=f["card"], path=[*f["path"], key])


@step("reroll")
class Reroll(YesNo):
    """Decision: pay for a re-roll (``yes``; the new roll must be kept) or keep the roll."""

    fields: ClassVar[Fields] = {"player": (REQUIRED, "who rolled")}

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        return "pay for a re-roll" if a == st.layout.YES else "keep the roll"

    @staticmethod
    def answer(st: State, f: Frame, yes: bool) -> None:
        if yes:
            roll = enclosing(st, "roll")
            roll["rerolled"] = True
            roll["rolls"] = []
            arg = card_text(st, roll)
            pay_cost(st, f["player"], arg["reroll"])


@step("swindle")
class Swindle(core.UntilDone):
    """Decision: a card from hand to discard for the Swindler (face down, up to its limit), or
    roll (``done``): a roll under the discarded cards' total fame succeeds."""

    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who swindles"),
        **card_text_fields("the swindle argument"),
        "face_down": ([], "the cards put aside (hidden until the roll)"),
        "fame": (0, "their total fame"),
    }

    @staticmethod
    def describe(st: State, f: Frame, a: int) -> str:
        if a == st.layout.DONE:
            return "roll for the swindle"
        return f"put {card_name(st, a)} face down for the swindle"

    @staticmethod
    def legal(st: State, f: Frame) -> list[int]:
        arg = card_text(st, f)
        acts = [st.layout.DONE]
        if len(f["face_down"]) < arg["discard_up_to"]:
            acts += hand_actions(st, f["player"])
        return acts

    @staticmethod
    def take(st: State, f: Frame, a: int) -> None:
        cid = from_hand(st, f["player"], a)
        f["face_down"].append(cid)
        f["fame"] += int(st.game.pack.card(cid)["fame"])

    @staticmethod
    def finish(st: State, f: Frame) -> None:
        note(st, PUBLIC, f"reveal:swindle:{','.join(f['face_down'])}")
        for cid in f["face_down"]:
            discard_card(st, cid)
        push(st, "swindle_roll", player=f["player"], card=f["card"], path=f["path"],
             fame=f["fame"])  # fmt: skip
        push_die(st, f["player"], "swindle_roll", purpose="swindle")


@step("swindle_roll")
class SwindleRoll(Step):
    """Automatic: a roll under the discarded cards' total fame succeeds (runs ``success``)."""

    auto = True
    fields: ClassVar[Fields] = {
        "player": (REQUIRED, "who swindles"),
        **card_text_fields("the swindle argument"),
        "fame": (REQUIRED, "the discarded cards' total fame"),
        "rolls": ([], "the roll: [side, purpose, face index]"),
    }

    @staticmethod
    def run(st: State, f: Frame) -> None:
        pop(st, f)
        strength = die_faces(st)[f["rolls"][-1][2]][0]
        if strength < f["fame"]:
            push(st, "effects", player=f["player"], card=f["card"], path=[*f["path"], "success"])
