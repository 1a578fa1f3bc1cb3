"""``resample_hidden(p, rng)`` keeps every card whose place player ``p`` knows and redeals the rest.

Hand-built situations, one per way a card's place becomes known (a fight's revealed cards taken
back, a gift, a deck top shown to a player, a refilled deed deck, the items of a ruins looked at),
with the expected places read off the situation; then seeded random self-play against an
independent twin of the knowledge bookkeeping: the twin diffs every card's place before and after
each action and reads the history to decide who saw which card move, where the rules record
knowledge at the few places cards move. Over many states and every player: the observer's view
and information state survive the redeal, the cards the twin says the observer knows stay put,
components are conserved, and the redeal does move what the observer cannot know.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from solver.games.trial.core import push
from solver.games.trial.decks import draw
from solver.games.trial.history import known_to
from solver.games.trial.invariants import card_places
from solver.games.trial.rules import TrialState
from solver.rng import SplitMix64

from .positions import GAME, PACK, TWO, WIN, act, cid, ready, take

RNGS = 12


def deal(st: TrialState, hands: dict[int, list[str]]) -> None:
    """Give players these hands (cards named; old hands back into the deed deck) and forget who
    knew what: the arranged cards are known to their holders only."""
    deck = st.data["decks"]["deeds"]
    for me in st.data["players"]:
        deck["layers"][0] += me["hand"]
        me["hand"] = []
    for p, names in hands.items():
        for name in names:
            card = cid(name)
            for layer in deck["layers"]:
                if card in layer:
                    layer.remove(card)
            st.data["players"][p]["hand"].append(card)
    st.data["card_knowledge"] = ()


def chance(st: TrialState, outcome: int = 0) -> None:
    st.apply_action(st.chance_outcomes()[outcome][0])


def worlds(st: TrialState, p: int) -> list[TrialState]:
    twins = [st.resample_hidden(p, SplitMix64(seed)) for seed in range(RNGS)]
    for twin in twins:  # the observer's view and history never change
        assert twin.information_state_string(p) == st.information_state_string(p)
        assert card_places(twin) == card_places(st)
    return twins


def hand(st: TrialState, q: int) -> list[str]:
    me = st.data["players"][q]
    return sorted(me["hand"] + me["aside"])


# -- hand-built situations ------------------------------------------------------------------------


def test_a_fight_card_taken_back_stays_in_the_losers_hand_for_everyone():
    st = ready(3)
    deal(st, {0: ["Delver", "Tool Swap"]})
    knight = take(st, cid("Knight"))
    st.data["decks"]["encounters"]["layers"][0].append(st.data["encounter_row"][0])
    st.data["encounter_row"][0] = knight
    cell = next(stack for row in st.data["store"] for stack in row if stack and stack[0] == "axe")
    st.data["players"][0]["backpack"].append(cell.pop())
    act(st, "turn: paw: encounter 1")
    act(st, "fight with axe")
    st.apply_action(st.layout.DIE + TWO)  # the Knight: 3 + 2 = 5
    st.apply_action(st.layout.DIE + WIN)  # the adventurer's die: the winning symbol, 0 strength
    act(st, "fight_discard: done")
    act(st, "play Delver face down")
    # face down in the fight: the others do not know it, the redeal swaps it
    held = [w.data["stack"] for w in worlds(st, 1)]
    assert any(cid("Delver") not in str(s) for s in held)
    act(st, "fight_cards: done")  # 1 + 2 (axe) + 0 + 2 (Delver) = 5: a tie, the defender wins
    assert hand(st, 0) == sorted([cid("Delver"), cid("Tool Swap")])
    for p in (1, 2):
        twins = worlds(st, p)
        assert all(cid("Delver") in hand(w, 0) for w in twins)  # revealed and taken back
        assert any(cid("Tool Swap") not in hand(w, 0) for w in twins)  # never shown
    # a card of that hand goes face down unseen: it may have been Delver, the others forget
    push(st, "pick_card", player=0, purpose="story_facedown")
    st.apply_action(st.layout.card(cid("Tool Swap")))
    st.apply_action(st.legal_actions()[0])  # its column
    assert known_to(st, cid("Delver")) == "0"
    assert any(cid("Delver") not in hand(w, 0) for w in worlds(st, 1))


def test_a_given_card_stays_with_its_taker_for_the_giver_only():
    st = ready(3)
    deal(st, {0: ["Delver", "Tool Swap"], 1: ["Postal Service"], 2: ["Cave-in"]})
    push(st, "pick_card", player=0, purpose="give", to=1)
    st.apply_action(st.layout.card(cid("Delver")))
    assert hand(st, 1) == sorted([cid("Delver"), cid("Postal Service")])
    twins = worlds(st, 0)
    assert all(cid("Delver") in hand(w, 1) for w in twins)  # the giver knows where it went
    assert any(cid("Postal Service") not in hand(w, 1) for w in twins)  # not what was there
    twins = worlds(st, 2)  # a bystander saw a card change hands, not which
    assert any(cid("Delver") not in hand(w, 1) for w in twins)
    assert any(cid("Tool Swap") not in hand(w, 0) for w in twins)


@pytest.mark.parametrize("deck", ["exp", "deeds"])
def test_a_deck_top_shown_to_a_player_stays_on_top_for_them(deck: str):
    st = ready(3)
    name = f"exp:{st.game.board.areas[0]}" if deck == "exp" else "deeds"
    draw(st, 0, name, "top", viewers=[0])
    chance(st, 3)
    top = st.data["decks"][name]["top"]["card"]
    assert all(w.data["decks"][name]["top"]["card"] == top for w in worlds(st, 0))
    assert any(w.data["decks"][name]["top"]["card"] != top for w in worlds(st, 1))
    if deck == "deeds":  # player 1 draws that top card: its viewer knows where it went
        draw(st, 1, name, "hand")
        chance(st)
        assert top in hand(st, 1)
        assert all(top in hand(w, 1) for w in worlds(st, 0))
        assert any(top not in hand(w, 1) for w in worlds(st, 2))


def test_a_refilled_deed_deck_is_known_until_a_card_leaves_it_unseen():
    st = ready(2)
    deal(st, {0: ["Delver"], 1: ["Postal Service"]})
    deck = st.data["decks"]["deeds"]
    deck["discard"] = sorted(c for layer in deck["layers"] for c in layer)[:6]
    rest = sorted(c for layer in deck["layers"] for c in layer)[6:]
    st.data["players"][0]["story"] += [[c, False, "moral"] for c in rest]  # out of the way, hidden
    deck["layers"] = []
    draw(st, 1, "deeds", "hand")
    st.chance_outcomes()  # the discard pile becomes the deck, in sight of everyone
    pile = sorted(deck["layers"][0])
    assert len(pile) == 6
    for p in (0, 1):
        assert all(sorted(w.data["decks"]["deeds"]["layers"][0]) == pile for w in worlds(st, p))
    chance(st, 2)
    drawn = sorted(set(pile) - set(deck["layers"][0]))
    assert drawn and drawn[0] in hand(st, 1)
    # the drawer knows the rest is still there; the other player no longer knows which left
    assert all(sorted(w.data["decks"]["deeds"]["layers"][0]) == sorted(set(pile) - set(drawn))
               for w in worlds(st, 1))  # fmt: skip
    assert any(drawn[0] in w.data["decks"]["deeds"]["layers"][0] for w in worlds(st, 0))


def test_the_items_of_a_ruins_looked_at_stay_for_the_player_who_looked():
    st = ready(2)
    slots = sorted(st.data["ruins"])
    mine = slots[0]
    push(st, "use_location", player=0, slot=mine)
    st._settle()
    items = sorted(st.data["ruins"][mine]["items"])
    assert all(sorted(w.data["ruins"][mine]["items"]) == items for w in worlds(st, 0))
    assert any(sorted(w.data["ruins"][mine]["items"]) != items for w in worlds(st, 1))
    others = {s: sorted(st.data["ruins"][s]["items"]) for s in slots[1:]}
    assert any(
        any(sorted(w.data["ruins"][s]["items"]) != v for s, v in others.items())
        for w in worlds(st, 0)
    )


# -- an independent twin of the bookkeeping, over random self-play ---------------------------------
def places(st: TrialState) -> dict[str, str]:
    """Every card's place: ``h``/``a``/``s``/``f``/``w``/``c`` + the holder (hand, aside, a
    face-down story card with its position, fight, Swindler, waiting for its column), ``deck``
    (the deed deck; its top ``top``), or ``public`` (anywhere everyone sees, and the other decks,
    which are never redealt but for their top)."""
    where: dict[str, str] = {}
    d = st.data
    for q, me in enumerate(d["players"]):
        for c in me["hand"]:
            where[c] = f"h{q}"
        for c in me["aside"]:
            where[c] = f"a{q}"
        for i, (c, up, _) in enumerate(me["story"]):
            where[c] = "public" if up else f"s{q}.{i}"
    for name, deck in d["decks"].items():
        for layer in deck["layers"]:
            for c in layer:
                where[c] = "deck" if name == "deeds" else "public"
        for c in deck["discard"]:
            where[c] = "public"
        if deck["top"] is not None:
            where[deck["top"]["card"]] = "top" if name == "deeds" else "public"
    for frame in d["stack"]:
        if frame["step"] == "fight":
            for side, who in enumerate((frame["player"], frame["defender"])):
                for c in frame["face_down"][side]:
                    where[c] = f"f{who}"
        elif frame["step"] == "swindle":
            for c in frame["face_down"]:
                where[c] = f"w{frame['player']}"
        elif frame["step"] == "pick_column":
            where[frame["card"]] = f"c{frame['player']}"
    for c in card_places(st):
        where.setdefault(c, "public")
    return where


def owner(place: str) -> int | None:
    """The player who sees what lies at ``place`` (None: nobody, or everyone for public)."""
    return int(place[1]) if place[0] in "hasfwc" else None


class Twin:
    """Who knows where each card is, from place diffs and the history only."""

    def __init__(self, st: TrialState):
        self.n = st.data["player_count"]
        self.where = places(st)
        self.top_viewers: set[int] = set()
        # the deed deck is unknown to all; every other card starts in sight of everyone
        self.knows = {c: set() if st.game.deck_of[c] == "deeds" else set(range(self.n))
                      for c in self.where}  # fmt: skip

    def step(self, st: TrialState, before_log: int) -> None:
        after = places(st)
        seen_lines = [[] for _ in range(self.n)]
        for seen, text, redacted in st.data["history"][before_log:]:
            for q in range(self.n):
                seen_lines[q].append(text if seen == "*" or str(q) in seen else redacted)
        moved = [c for c in after if after[c] != self.where[c]]
        unseen: list[tuple[int, str]] = []
        for c in moved:
            old, new = self.where[c], after[c]
            if old[0] == "a" and new[0] == "h" and old[1] == new[1]:
                continue  # cards aside join the hand at the end of the turn, in sight of all
            number = str(st.layout.card(c))
            saw = set(self.top_viewers) if old == "top" else set()
            for q in range(self.n):
                if (
                    old == "public"
                    or owner(old) == q
                    or owner(new) == q
                    or any(
                        line.split(":")[-1] == number or c in line.replace(",", ":").split(":")
                        for line in seen_lines[q]
                    )
                ):
                    saw.add(q)
            self.knows[c] = saw
            unseen += [(q, old) for q in range(self.n) if q not in saw and old != "public"]
        # then (a refill of the deed deck comes before the draw of the same action): a card left
        # a place and q cannot tell which, so q no longer knows where the cards still there are
        for q, old in unseen:
            for x, place in after.items():
                if place == old or (old in ("deck", "top") and place in ("deck", "top")):
                    self.knows[x].discard(q)
        self.where = after
        top = st.data["decks"]["deeds"]["top"]
        self.top_viewers = set(top["viewers"]) if top else set()

    def known(self, p: int) -> dict[str, str]:
        """The cards in places hidden from ``p`` whose place ``p`` knows."""
        return {
            c: place
            for c, place in self.where.items()
            if place != "public" and owner(place) != p and p in self.knows[c]
        }

    def unknown(self, p: int) -> set[str]:
        return {
            c
            for c, place in self.where.items()
            if place != "public" and owner(place) != p and p not in self.knows[c]
        }


def _play(players: int, seed: int, every: int) -> Counter[str]:
    """A seeded random game; every ``every`` actions each player's redeals are checked. Counts
    the (state, player) pairs checked, those with a card pinned by knowledge, those where the
    redeal had room to move a card and those where one of four redeals did."""
    game = GAME[players]
    rng = random.Random(seed)
    st = game.new_initial_state()
    twin = Twin(st)
    tally: Counter[str] = Counter()
    count = 0
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            a = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            a = rng.choice(st.legal_actions())
        mark = len(st.data["history"])
        st.apply_action(a)
        twin.step(st, mark)
        count += 1
        if count % every:
            continue
        for p in range(players):
            known, unknown = twin.known(p), twin.unknown(p)
            # the rules' bookkeeping agrees with the twin on every card hidden from p
            for c in known:
                assert p in map(int, known_to(st, c)), (c, known[c], p)
            for c in unknown:
                assert str(p) not in known_to(st, c), (c, twin.where[c], p)
            moved = False
            for r in range(4):
                w = st.resample_hidden(p, SplitMix64(seed * 1000 + count * 10 + r))
                assert w.observation(p) == st.observation(p)
                assert w.information_state_string(p) == st.information_state_string(p)
                assert card_places(w) == card_places(st)
                got = places(w)
                assert all(got[c] == place for c, place in known.items())
                moved = moved or any(got[c] != twin.where[c] for c in unknown)
                tents = Counter(t for me in w.data["players"] for t in me["tents"])
                tents += Counter(w.data["box"]["tents"])
                tents += Counter(c["tent"] for c in w.data["camp_tents"].values() if c is not None)
                truth = Counter(t for me in st.data["players"] for t in me["tents"])
                truth += Counter(st.data["box"]["tents"])
                truth += Counter(c["tent"] for c in st.data["camp_tents"].values() if c is not None)
                assert tents == truth
            places_of_unknown = {twin.where[c] for c in unknown}
            if len(unknown) >= 4 and len(places_of_unknown) >= 2:
                tally["room"] += 1
                tally["moved"] += moved
            tally["checked"] += 1
            tally["pinned"] += bool(known)
    return tally


@pytest.mark.parametrize("players", [2, 3, 4])
def test_redeals_keep_what_each_player_knows_over_random_games(players: int):
    tally: Counter[str] = Counter()
    for seed in range(2):
        tally += _play(players, seed, every=12)
    assert tally["checked"] > 60 and tally["pinned"] > tally["checked"] // 10  # common knowledge
    assert tally["moved"] >= 0.95 * tally["room"] > 0  # the redeal does move hidden cards


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_redeals_keep_what_each_player_knows_over_many_random_games(players: int):
    tally: Counter[str] = Counter()
    for seed in range(2, 20):
        tally += _play(players, seed, every=3)
    assert tally["moved"] >= 0.95 * tally["room"] > 0


# -- the set-up pools: what is still to be dealt is redealt with the ruins it feeds ---------------
def dealt_ruin_items(players: int, commons: int) -> TrialState:
    """The set-up up to the moment ``commons`` of the ``one_each`` ruin items lie face down."""
    st = GAME[players].new_initial_state()
    while True:
        frame = st.data["stack"][-1]
        laid = sum(
            1
            for r in st.data["ruins"].values()
            for k in r["items"]
            if PACK.item(k)["rarity"] == "common"
        )
        if frame["step"] == "ruin_item" and frame["pool"] == "one_each" and laid == commons:
            return st
        st.apply_action(st.chance_outcomes()[0][0])


def item_totals(st: TrialState) -> Counter[str]:
    """Every item copy still in the set-up: on ruins, in the store and in the pools."""
    total: Counter[str] = Counter()
    for r in st.data["ruins"].values():
        total.update(r["items"])
    for row in st.data["store"]:
        for cell in row:
            total.update(cell)
    total.update(st.data["setup_pool"]["common"])
    total.update(st.data["setup_pool"]["rare"])
    return total


def test_the_undealt_one_each_kind_is_redealt_with_the_hidden_ruin_items():
    st = dealt_ruin_items(2, 5)
    kinds = sorted({i["id"] for i in PACK.items if i["rarity"] == "common"})
    (truth,) = st.data["setup_pool"]["one_each"]  # the 6th kind, still to be dealt
    left = Counter()
    for seed in range(60):
        w = st.resample_hidden(0, SplitMix64(seed))
        (sixth,) = w.data["setup_pool"]["one_each"]
        left[sixth] += 1
        on_ruins = sorted(k for r in w.data["ruins"].values() for k in r["items"] if k in kinds)
        assert sorted([*on_ruins, sixth]) == kinds  # one copy of each kind, one still to deal
        assert item_totals(w) == item_totals(st)  # the copy moves between ruins and pool
        for k in kinds:  # a kind on a ruins has one copy fewer left in the common pool
            assert w.data["setup_pool"]["common"].count(k) == 3 - (k in on_ruins)
        assert w.observation(0) == st.observation(0)
        assert w.chance_outcomes() == [(st.layout.item(sixth), 1.0)]
    assert len(left) >= 4 and left[truth] < 30  # the 6th kind varies, the truth is not favoured


def test_the_undealt_rares_are_redealt_with_the_rares_on_ruins():
    st = dealt_ruin_items(3, 4)  # two ruins have their items, the third is being dealt
    while st.data["stack"][-1]["step"] == "ruin_item":  # every ruin item dealt, the store not yet
        st.apply_action(st.chance_outcomes()[0][0])
    assert st.data["stack"][-1]["step"] == "stock" and len(st.data["setup_pool"]["rare"]) == 3
    rares = sorted(i["id"] for i in PACK.items if i["rarity"] == "rare")
    on_ruins = {k for r in st.data["ruins"].values() for k in r["items"] if k in rares}
    seen: set[frozenset[str]] = set()
    for seed in range(30):
        w = st.resample_hidden(1, SplitMix64(seed))
        on_ruins = [k for r in w.data["ruins"].values() for k in r["items"] if k in rares]
        assert sorted(w.data["setup_pool"]["rare"] + on_ruins) == rares
        seen.add(frozenset(k for r in w.data["ruins"].values() for k in r["items"] if k in rares))
        assert item_totals(w) == item_totals(st)
    assert frozenset(on_ruins) in seen and len(seen) >= 5


def test_a_kind_in_the_store_is_not_swapped_with_the_ruins():
    st = dealt_ruin_items(2, 5)
    (sixth,) = st.data["setup_pool"]["one_each"]
    copies = [k for k in st.data["setup_pool"]["common"] if k == sixth]
    st.data["setup_pool"]["common"] = [k for k in st.data["setup_pool"]["common"] if k != sixth]
    st.data["store"][0][0] = copies  # as if the 6th kind were stocked already: it shows 3 copies
    for seed in range(20):
        w = st.resample_hidden(0, SplitMix64(seed))
        assert w.data["setup_pool"]["one_each"] == [sixth]
        assert sixth not in {k for r in w.data["ruins"].values() for k in r["items"]}
