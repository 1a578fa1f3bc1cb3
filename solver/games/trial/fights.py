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
from typing import TYPE_CHECKING, Any

from solver.games.trial.core import (
    Frame,
    discard_card,
    find,
    player,
    pop,
    push,
    step,
    story_symbols,
)

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState

STAGES = (
    "weapon_a", "bow_a", "weapon_d", "bow_d", "roll_d", "roll_a", "discard_a", "discard_d",
    "cards_a", "cards_d", "end",
)  # fmt: skip
"""The fight's stages, in order (a stage with nothing to do is passed over)."""
CARDS_PER_STAGE = 2
"""Cards a fighter may discard for strength, and (separately) play face down."""
Faces = list[tuple[int, bool, float]]
"""The die's distinct faces: (strength, winning symbol, probability)."""


def die_faces(st: TrialState) -> Faces:
    """The die's distinct faces ``(strength, winning symbol, probability)``, in pack order."""
    faces = [(int(f["strength"]), bool(f.get("win", False))) for f in st.g.components["die"]]
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


def push_die(st: TrialState, p: int, parent: str, side: int = 0, purpose: str = "strength") -> None:
    """Push one roll of the die whose result goes to the nearest ``parent`` step."""
    push(st, "die", p=p, parent=parent, side=side, purpose=purpose)


@step("die")
class Die:
    """Chance: one roll of the fight die; the result goes to the nearest ``parent`` step."""

    chance = True

    @staticmethod
    def outcomes(st: TrialState, f: Frame) -> list[tuple[int, float]]:
        return [(st.L.DIE + j, prob) for j, (_, _, prob) in enumerate(die_faces(st))]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        parent = find(st, f["parent"])
        assert parent is not None
        parent["rolls"].append([f["side"], f["purpose"], a - st.L.DIE])

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        strength, win, _ = die_faces(st)[a - st.L.DIE]
        return f"die: {'winning symbol' if win else strength}"


def base_strength(st: TrialState, p: int) -> int:
    """The strength symbols of ``p``'s character board and face-up story."""
    return int(st.g.components["character_board"]["strength"]) + story_symbols(st, p, "strength")


def weapons(st: TrialState, p: int) -> list[str]:
    """The items and artifacts ``p`` could fight with."""
    found = []
    for kind in sorted(set(player(st, p)["pack"])):
        entry = st.g.pack.item(kind)
        if entry.get("strength") or entry.get("dice") or entry.get("bow"):
            found.append(kind)
    return found


def adventurer_dice(st: TrialState, p: int, weapon: str | None) -> int:
    """Dice an adventurer rolls: one, plus one per die symbol in the story, plus the weapon's."""
    extra = int(st.g.pack.item(weapon).get("dice", 0)) if weapon else 0
    return 1 + story_symbols(st, p, "die") + extra


def foe_dice(st: TrialState, p: int, printed: int) -> int:
    """Dice a card's foe rolls against ``p``: its printed dice, one fewer if ``p`` carries the
    shield."""
    shield = any(st.g.pack.item(k).get("shield") for k in player(st, p)["pack"])
    return max(0, printed - (1 if shield else 0))


def strength_card(st: TrialState, cid: str) -> int:
    """Strength of a card discarded for its enhancement: its strength symbols (0 without)."""
    return int(st.g.pack.card(cid).get("enhance", {}).get("strength", 0))


def card_strength(st: TrialState, cid: str) -> int:
    """Strength of a card played face down in a fight: 1 per symbol of its enhancement section,
    whatever the symbol (movement, food, card draw, trading or strength)."""
    return sum(int(n) for n in st.g.pack.card(cid).get("enhance", {}).values())


def start_fight(st: TrialState, p: int, cid: str, path: list[Any]) -> None:
    """``p`` attacks the foe of card ``cid`` (the fight's argument is at ``path``)."""
    from solver.games.trial.effects import get_path

    foe = get_path(st.g.pack.card(cid), path)
    _push_fight(st, p, None, cid, path, foe["strength"], foe["dice"], stake=None)


def start_duel(st: TrialState, p: int, cid: str, arg: dict[str, Any]) -> None:
    """``p`` attacks an adventurer on the same space (a choice if there are several)."""
    from solver.games.trial.core import morality_side

    pos = player(st, p)["pos"]
    targets = [q for q in range(st.d["n"]) if q != p and player(st, q)["pos"] == pos]
    if arg.get("target") == "evil":
        targets = [q for q in targets if morality_side(st, q) == "evil"]
    if len(targets) == 1:
        _push_fight(st, p, targets[0], cid, [], 0, 0, stake=arg.get("stake"))
    elif targets:
        push(st, "duel_target", p=p, card=cid, targets=targets, stake=arg.get("stake"))


def _push_fight(
    st: TrialState,
    p: int,
    opp: int | None,
    cid: str,
    path: list[Any],
    strength: int,
    dice: int,
    stake: str | None,
) -> None:
    push(
        st,
        "fight",
        p=p,
        opp=opp,
        card=cid,
        path=path,
        foe=[strength, dice],
        stage="weapon_a",
        weapon=[None, None],
        rolls=[],
        held=[[], []],
        bonus=[0, 0],
        winner=None,
        stake=stake,
    )


@step("duel_target")
class DuelTarget:
    """Decision: which adventurer on the space to attack."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.PLAYER + q for q in f["targets"]]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        _push_fight(st, f["p"], a - st.L.PLAYER, f["card"], [], 0, 0, stake=f["stake"])


def _side_player(f: Frame, side: int) -> int:
    return int(f["p"] if side == 0 else f["opp"])


def _dice_count(st: TrialState, f: Frame, side: int) -> int:
    if side == 1 and f["opp"] is None:
        return foe_dice(st, f["p"], int(f["foe"][1]))
    return adventurer_dice(st, _side_player(f, side), f["weapon"][side])


def rolled(st: TrialState, f: Frame, side: int) -> list[int]:
    """The strength of each die ``side`` rolled for strength so far (the bow's roll aside)."""
    faces = die_faces(st)
    return [faces[j][0] for s, purpose, j in f["rolls"] if s == side and purpose == "strength"]


def totals(st: TrialState, f: Frame, face_down: bool = True) -> tuple[int, int]:
    """Attacker's and defender's strength from everything recorded in the fight step (without
    the face-down cards when ``face_down`` is false: what everyone sees before they are
    revealed)."""
    result = []
    for side in (0, 1):
        dice = sum(rolled(st, f, side))
        if side == 1 and f["opp"] is None:
            result.append(int(f["foe"][0]) + dice)
            continue
        q = _side_player(f, side)
        weapon = f["weapon"][side]
        wstrength = int(st.g.pack.item(weapon).get("strength", 0)) if weapon else 0
        cards = sum(card_strength(st, cid) for cid in f["held"][side]) if face_down else 0
        result.append(base_strength(st, q) + wstrength + dice + f["bonus"][side] + cards)
    return result[0], result[1]


@step("fight")
class Fight:
    """Automatic: the fight's stages in order (see the module docstring)."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        stage = f["stage"]
        duel = f["opp"] is not None
        faces = die_faces(st)
        for side, purpose, j in f["rolls"]:
            if purpose == "bow" and faces[j][1] and f["winner"] is None:
                f["winner"] = side
                f["stage"] = stage = "end"
        if stage != "end":
            f["stage"] = STAGES[STAGES.index(stage) + 1]
        if stage == "weapon_a" and weapons(st, f["p"]):
            push(st, "fight_weapon", p=f["p"], side=0)
        elif stage == "bow_a" and f["weapon"][0] == "bow":
            push_die(st, f["p"], "fight", 0, "bow")
        elif stage == "weapon_d" and duel and weapons(st, f["opp"]):
            push(st, "fight_weapon", p=f["opp"], side=1)
        elif stage == "bow_d" and duel and f["weapon"][1] == "bow":
            push_die(st, f["opp"], "fight", 1, "bow")
        elif stage in ("roll_d", "roll_a"):
            side = 1 if stage == "roll_d" else 0
            for _ in range(_dice_count(st, f, side)):
                push_die(st, f["p"], "fight", side)
        elif stage in ("discard_a", "discard_d") and (stage == "discard_a" or duel):
            q = f["p"] if stage == "discard_a" else f["opp"]
            me = player(st, q)
            if me["hand"] or me["onetime"]["strength"]:  # (what everyone sees: no leak)
                push(st, "fight_discard", p=q, side=int(q != f["p"]), cards=0, token=False)
        elif stage in ("cards_a", "cards_d") and (stage == "cards_a" or duel):
            q = f["p"] if stage == "cards_a" else f["opp"]
            if player(st, q)["hand"]:
                push(st, "fight_cards", p=q, side=int(q != f["p"]))
        elif stage == "end":
            _finish(st, f)


def fight_record(st: TrialState, f: Frame) -> dict[str, Any]:
    """The public account of a decided fight: who fought, both strengths, the dice each side
    rolled (their strength; a bow's roll apart), how it was decided and the winner."""
    attack, defend = totals(st, f)
    faces = die_faces(st)
    bow = [[side, "win" if faces[j][1] else faces[j][0]]
           for side, purpose, j in f["rolls"] if purpose == "bow"]  # fmt: skip
    bow_win = f["winner"] is not None and any(r == "win" for _, r in bow)
    return {
        "card": f["card"],
        "attacker": f["p"],
        "defender": f["opp"],
        "strength": [attack, defend],
        "dice": [rolled(st, f, 0), rolled(st, f, 1)],
        "bow": bow,
        "by": "bow" if bow_win else "strength",
        "winner": "attacker" if f["winner"] == 0 else "defender",
    }


def _finish(st: TrialState, f: Frame) -> None:
    from solver.games.trial.effects import current_resolve, get_path, run_effects
    from solver.games.trial.hidden import PUBLIC, know, note

    pop(st, f)
    if f["winner"] is None:
        attack, defend = totals(st, f)
        f["winner"] = 0 if attack > defend else 1
    winner = f["winner"]
    if f["held"][0] or f["held"][1]:
        note(st, PUBLIC, f"reveal:fight:{','.join(f['held'][0])}:{','.join(f['held'][1])}")
        know(st, f["held"][1 - winner], PUBLIC)  # the loser takes them back in sight of all
    record = fight_record(st, f)
    st.d["last_fight"] = record
    note(st, PUBLIC, "fight:" + json.dumps(record, sort_keys=True, separators=(",", ":")))
    for side in (0, 1):
        if side == 1 and f["opp"] is None:
            continue
        q = _side_player(f, side)
        for cid in f["held"][side]:
            if side == winner:
                discard_card(st, cid)
            else:
                player(st, q)["hand"].append(cid)
    f["held"] = [[], []]
    resolving = current_resolve(st, f["card"])
    if f["opp"] is not None:
        winner_p = _side_player(f, winner)
        loser_p = _side_player(f, 1 - winner)
        if resolving is not None:
            resolving["owner"] = winner_p
        if f["stake"] == "food" and any(player(st, loser_p)["food"].values()):
            push(st, "pick_food", p=loser_p, purpose="give", to=winner_p)
        return
    foe = get_path(st.g.pack.card(f["card"]), f["path"])
    if winner == 0:
        if foe.get("win"):
            run_effects(st, f["p"], f["card"], [*f["path"], "win"])
    else:
        if resolving is not None:
            resolving["dest"] = foe["lose_card"]
        if foe.get("lose"):
            run_effects(st, f["p"], f["card"], [*f["path"], "lose"])


def live_fight(st: TrialState) -> dict[str, Any] | None:
    """The fight being fought, as everyone sees it (the face-down cards counted, not shown), or
    ``None``."""
    f = find(st, "fight")
    if f is None:
        return None
    shown = totals(st, f, face_down=False)
    return {
        "card": f["card"],
        "attacker": f["p"],
        "defender": f["opp"],
        "stage": f["stage"],
        "weapon": list(f["weapon"]),
        "dice": [rolled(st, f, 0), rolled(st, f, 1)],
        "strength_shown": list(shown),
        "face_down": [len(f["held"][0]), len(f["held"][1])],
    }


@step("fight_weapon")
class FightWeapon:
    """Decision: the item or artifact used as a weapon (``done``: none)."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE] + [st.L.item(k) for k in weapons(st, f["p"])]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        pop(st, f)
        fight = find(st, "fight")
        assert fight is not None
        if a != st.L.DONE:
            fight["weapon"][f["side"]] = st.L.item_kinds[a - st.L.ITEM]

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str:
        return "fight without a weapon" if a == st.L.DONE else f"fight with {st.L.label(a)}"


@step("fight_discard")
class FightDiscard:
    """Decision: discard a card whose enhancement shows strength symbols (up to 2, in the open:
    1 strength point per symbol), use the one-time strength tent symbol, or ``done``."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        me = player(st, f["p"])
        acts = [st.L.DONE]
        if f["cards"] < CARDS_PER_STAGE:
            acts += [st.L.card(c) for c in me["hand"] if strength_card(st, c)]
        if me["onetime"]["strength"] and not f["token"]:
            acts.append(st.L.TOKEN)
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        fight = find(st, "fight")
        assert fight is not None
        me = player(st, f["p"])
        if a == st.L.DONE:
            pop(st, f)
        elif a == st.L.TOKEN:
            me["onetime"]["strength"] -= 1
            fight["bonus"][f["side"]] += 1
            f["token"] = True
        else:
            cid = st.L.cards[a - st.L.CARD]
            me["hand"].remove(cid)
            discard_card(st, cid)
            fight["bonus"][f["side"]] += strength_card(st, cid)
            f["cards"] += 1

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str | None:
        if a >= st.L.CARD:
            cid = st.L.cards[a - st.L.CARD]
            name = st.g.pack.card(cid)["name"]
            return f"discard {name} for {strength_card(st, cid)} strength"
        if a == st.L.TOKEN:
            return "use the one-time strength tent symbol"
        return None


@step("fight_cards")
class FightCards:
    """Decision: a card from hand played face down (up to 2; any card, it counts the symbols of
    its enhancement section when revealed), or ``done``. The cards' strength stays hidden from
    the other side until the fight is decided."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        fight = find(st, "fight")
        assert fight is not None
        acts = [st.L.DONE]
        if len(fight["held"][f["side"]]) < CARDS_PER_STAGE:
            acts += [st.L.card(c) for c in player(st, f["p"])["hand"]]
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        fight = find(st, "fight")
        assert fight is not None
        if a == st.L.DONE:
            pop(st, f)
            return
        cid = st.L.cards[a - st.L.CARD]
        player(st, f["p"])["hand"].remove(cid)
        fight["held"][f["side"]].append(cid)

    @staticmethod
    def describe(st: TrialState, f: Frame, a: int) -> str | None:
        if a >= st.L.CARD:
            return f"play {st.g.pack.card(st.L.cards[a - st.L.CARD])['name']} face down"
        return None


# -- the roll and swindle verbs ------------------------------------------------------------------
@step("roll")
class Roll:
    """Automatic: roll the die for a card's ``roll``; one paid re-roll may be asked for."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        from solver.games.trial.effects import can_pay, get_path, run_effects, units_of

        arg = get_path(st.g.pack.card(f["card"]), f["path"])
        if not f.get("rolls"):
            f["rolls"] = []
            push_die(st, f["p"], "roll")
            return
        if (
            not f["rerolled"]
            and "reroll" in arg
            and not f.get("asked")
            and can_pay(st, f["p"], units_of(st, f["p"], arg["reroll"]))
        ):
            f["asked"] = True
            push(st, "reroll", p=f["p"])
            return
        pop(st, f)
        strength, win, _ = die_faces(st)[f["rolls"][-1][2]]
        ok = win if arg["need"] == "win" else strength >= arg["need"]
        key = "success" if ok else "fail"
        if arg.get(key):
            run_effects(st, f["p"], f["card"], [*f["path"], key])


@step("reroll")
class Reroll:
    """Decision: pay for a re-roll (``yes``; the new roll must be kept) or keep the roll."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        return [st.L.DONE, st.L.YES]

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        from solver.games.trial.effects import get_path, pay, units_of

        pop(st, f)
        if a == st.L.YES:
            roll = find(st, "roll")
            assert roll is not None
            roll["rerolled"] = True
            roll["rolls"] = []
            arg = get_path(st.g.pack.card(roll["card"]), roll["path"])
            pay(st, f["p"], units_of(st, f["p"], arg["reroll"]))


@step("swindle")
class Swindle:
    """Decision: a card from hand to discard for the Swindler (up to its limit), or roll."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        from solver.games.trial.effects import get_path

        arg = get_path(st.g.pack.card(f["card"]), f["path"])
        acts = [st.L.DONE]
        if len(f["held"]) < arg["discard_up_to"]:
            acts += [st.L.card(c) for c in player(st, f["p"])["hand"]]
        return acts

    @staticmethod
    def apply(st: TrialState, f: Frame, a: int) -> None:
        if a == st.L.DONE:
            from solver.games.trial.hidden import PUBLIC, note

            pop(st, f)
            note(st, PUBLIC, f"reveal:swindle:{','.join(f['held'])}")
            for cid in f["held"]:
                discard_card(st, cid)
            push(
                st,
                "swindle_roll",
                p=f["p"],
                card=f["card"],
                path=f["path"],
                fame=f["fame"],
                rolls=[],
            )
            push_die(st, f["p"], "swindle_roll")
            return
        cid = st.L.cards[a - st.L.CARD]
        player(st, f["p"])["hand"].remove(cid)
        f["held"].append(cid)
        f["fame"] += int(st.g.pack.card(cid)["fame"])


@step("swindle_roll")
class SwindleRoll:
    """Automatic: a roll under the discarded cards' total fame succeeds."""

    auto = True

    @staticmethod
    def run(st: TrialState, f: Frame) -> None:
        from solver.games.trial.effects import run_effects

        pop(st, f)
        strength = die_faces(st)[f["rolls"][-1][2]][0]
        if strength < f["fame"]:
            run_effects(st, f["p"], f["card"], [*f["path"], "success"])
