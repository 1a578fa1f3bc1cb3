"""Fights and dice: weapons, the bow and the shield, dice, face-down enhancement cards, ties.

A fight is an automatic ``fight`` step walking through the stages of the rulebook: the attacker
picks a weapon (a bow rolls first: the winning symbol wins at once), then the defender does (a
duel only); the defender's dice are rolled (a foe's printed dice, one fewer against a shield),
then the attacker's; the attacker plays up to 2 face-down cards from hand (any cards), then the
defender (a duel only); the cards are revealed and each gives 1 strength point per symbol in its
enhancement section, whatever the symbol; strengths are compared and the attacker needs strictly
more (a tie goes to the defender). The winner discards the cards they played, the loser takes
theirs back. Dice are ``die`` chance steps
with the exact probabilities of the pack's die faces.
"""

from __future__ import annotations

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

STAGES = ("weapon_a", "bow_a", "weapon_d", "bow_d", "roll_d", "roll_a", "cards_a", "cards_d", "end")


def die_faces(st: TrialState) -> list[tuple[int, bool, float]]:
    """The die's distinct faces ``(strength, winning symbol, probability)``, in pack order."""
    faces = [(int(f["strength"]), bool(f.get("win", False))) for f in st.g.components["die"]]
    counts = Counter(faces)
    seen: list[tuple[int, bool]] = []
    for face in faces:
        if face not in seen:
            seen.append(face)
    return [(s, w, counts[(s, w)] / len(faces)) for s, w in seen]


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
        shield = any(st.g.pack.item(k).get("shield") for k in player(st, f["p"])["pack"])
        return max(0, int(f["foe"][1]) - (1 if shield else 0))
    q = _side_player(f, side)
    weapon = f["weapon"][side]
    extra = int(st.g.pack.item(weapon).get("dice", 0)) if weapon else 0
    return story_symbols(st, q, "die") + extra


def totals(st: TrialState, f: Frame) -> tuple[int, int]:
    """Attacker's and defender's strength from everything recorded in the fight step."""
    faces = die_faces(st)
    sums = [0, 0]
    for side, purpose, j in f["rolls"]:
        if purpose == "strength":
            sums[side] += faces[j][0]
    result = []
    for side in (0, 1):
        if side == 1 and f["opp"] is None:
            result.append(int(f["foe"][0]) + sums[1])
            continue
        q = _side_player(f, side)
        weapon = f["weapon"][side]
        wstrength = int(st.g.pack.item(weapon).get("strength", 0)) if weapon else 0
        cards = sum(card_strength(st, cid) for cid in f["held"][side])
        result.append(base_strength(st, q) + wstrength + sums[side] + f["bonus"][side] + cards)
    return result[0], result[1]


def card_strength(st: TrialState, cid: str) -> int:
    """Strength of a card played face down in a fight: 1 per symbol of its enhancement section,
    whatever the symbol (movement, food, card draw, trading or strength)."""
    return sum(int(n) for n in st.g.pack.card(cid).get("enhance", {}).values())


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
        elif stage == "cards_a":
            push(st, "fight_cards", p=f["p"], side=0)
        elif stage == "cards_d" and duel:
            push(st, "fight_cards", p=f["opp"], side=1)
        elif stage == "end":
            _finish(st, f)


def _finish(st: TrialState, f: Frame) -> None:
    from solver.games.trial.effects import current_resolve, get_path, run_effects

    pop(st, f)
    if f["winner"] is None:
        attack, defend = totals(st, f)
        f["winner"] = 0 if attack > defend else 1
    winner = f["winner"]
    if f["held"][0] or f["held"][1]:
        from solver.games.trial.hidden import PUBLIC, know, note

        note(st, PUBLIC, f"reveal:fight:{','.join(f['held'][0])}:{','.join(f['held'][1])}")
        know(st, f["held"][1 - winner], PUBLIC)  # the loser takes them back in sight of all
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


@step("fight_cards")
class FightCards:
    """Decision: a card from hand played face down (up to 2; any card, it counts the symbols of
    its enhancement section when revealed), the one-time strength tent symbol, or ``done``. The
    cards' strength stays hidden from the other side until the fight is decided."""

    @staticmethod
    def legal(st: TrialState, f: Frame) -> list[int]:
        fight = find(st, "fight")
        assert fight is not None
        me = player(st, f["p"])
        acts = [st.L.DONE]
        if len(fight["held"][f["side"]]) < 2:
            acts += [st.L.card(c) for c in me["hand"]]
        if me["onetime"]["strength"] and not f.get("token"):
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
