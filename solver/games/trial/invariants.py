"""Invariants of every Trial state, for tests and self-play checks.

:class:`Checker` is called after every action of a game; it raises ``AssertionError`` naming the
broken invariant: components conserved (cards, food, items, artifacts, tents, paws), backpacks
within their slots, hands cut to the limit at the end of each turn, morality on its track, and no
card hidden from a player appearing in that player's observation (unless the player saw it go
where it lies: a card played in the open and then put face down).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from solver.games.trial.belongings import slots_used

if TYPE_CHECKING:
    from solver.games.trial.core import State


def card_places(st: State) -> Counter[str]:
    """How many times each card id lies somewhere (every card must lie exactly once)."""
    d = st.data
    seen: Counter[str] = Counter()
    for me in d["players"]:
        seen.update(me["hand"])
        seen.update(me["aside"])
        seen.update(s[0] for s in me["story"])
    for deck in d["decks"].values():
        for layer in deck["layers"]:
            seen.update(layer)
        seen.update(deck["discard"])
        if deck["top"] is not None:
            seen[deck["top"]["card"]] += 1
    seen.update(c for c in d["encounter_row"] if c is not None)
    for frame in d["stack"]:
        _count_held(frame, seen)
    return seen


def _count_held(frame: dict[str, Any], seen: Counter[str]) -> None:
    """Add to ``seen`` the cards a step on the stack holds (a card being resolved, a fight's or
    a swindle's face-down cards, a card waiting for its story column, an expedition's draw)."""
    if frame["step"] == "resolve":
        seen.update(frame["holding"])
    elif frame["step"] == "fight":
        for held in frame["face_down"]:
            seen.update(held)
    elif frame["step"] == "swindle":
        seen.update(frame["face_down"])
    elif frame["step"] == "pick_column":
        seen[frame["card"]] += 1
    elif frame["step"] == "expedition" and frame["drawn"] is not None:
        seen[frame["drawn"]] += 1


class Checker:
    """Checks a game's states one after another (it remembers whose turn ended)."""

    def __init__(self, observations: bool = True):
        self.last_turn: int | None = None
        self.observations = observations

    def __call__(self, st: Any) -> None:
        _cards_lie_once(st)
        _food_conserved(st)
        _items_conserved(st)
        _artifacts_conserved(st)
        _tents_conserved(st)
        _players_within_bounds(st)
        self._hand_cut_after_the_turn(st)
        if self.observations:
            _hidden_cards_unseen(st)

    def _hand_cut_after_the_turn(self, st: Any) -> None:
        """The player whose turn just ended holds at most the hand limit, nothing aside."""
        d = st.data
        if d["turn_player"] != self.last_turn:
            if self.last_turn is not None:
                me = d["players"][self.last_turn]
                limit = st.game.components["hand_limit"]
                assert len(me["hand"]) <= limit, f"player {self.last_turn} ended over the limit"
                assert not me["aside"], "cards left aside after the turn"
            self.last_turn = d["turn_player"]


def _cards_lie_once(st: Any) -> None:
    """Every card of the pack lies somewhere, once."""
    places = card_places(st)
    assert set(places) == set(st.game.pack.cards), "cards lost or invented"
    assert max(places.values()) == 1, f"a card lies twice: {places.most_common(1)}"


def _food_conserved(st: Any) -> None:
    """Each kind of food: the tray, the gallery and the players' hold the whole supply."""
    d, g = st.data, st.game
    for food, n in d["tray"].items():
        total = n + d["gallery_food"][food] + sum(me["food"][food] for me in d["players"])
        assert total == g.components["food_per_kind"], f"{food} not conserved: {total}"
        assert n >= 0 and all(me["food"][food] >= 0 for me in d["players"]), "negative food"


def _items_conserved(st: Any) -> None:
    """Every copy of every item lies somewhere (box, store, ruins, backpacks, a sale or return
    in progress, the set-up pools), one kind a store slot."""
    d, g = st.data, st.game
    items: Counter[str] = Counter(d["box"]["items"])
    for row in d["store"]:
        for stack in row:
            assert len(set(stack)) <= 1, f"a store slot mixes kinds: {stack}"
            items.update(stack)
    for ruin in d["ruins"].values():
        items.update(ruin["items"])
    for me in d["players"]:
        items.update(k for k in me["backpack"] if k not in g.artifact_ids)
    items.update(f["kind"] for f in d["stack"] if f["step"] in ("sale_slot", "return_slot"))
    for pool in ("common", "rare"):
        items.update(d.get("setup_pool", {}).get(pool, []))
    expected = Counter({i["id"]: i["copies"] for i in g.pack.items})
    assert items == expected, f"items not conserved: {items - expected} / {expected - items}"


def _artifacts_conserved(st: Any) -> None:
    """Every artifact lies once: available, in the box, in a backpack or a gallery."""
    d, g = st.data, st.game
    arts: Counter[str] = Counter(d["artifacts_available"]) + Counter(d["box"]["artifacts"])
    for me in d["players"]:
        arts.update(k for k in me["backpack"] if k in g.artifact_ids)
        arts.update(me["gallery"])
    assert arts == Counter(g.artifact_ids), "artifacts not conserved"


def _tents_conserved(st: Any) -> None:
    """Every tent lies once: in the box (used or not), with a player, in a camp."""
    d, g = st.data, st.game
    tents: Counter[str] = Counter(d["box"]["tents"]) + Counter(d["box"]["used_tents"])
    for me in d["players"]:
        tents.update(me["tents"])
    tents.update(c["tent"] for c in d["camp_tents"].values() if c is not None)
    assert tents == Counter(t["bonus"] for t in g.pack.tents), "tents not conserved"


def _players_within_bounds(st: Any) -> None:
    """Each player: every paw somewhere (one strong), the backpack within its slots, morality
    on its track."""
    d, g = st.data, st.game
    slots = g.components["character_board"]["backpack_slots"]
    track = g.components["morality"]
    for q, me in enumerate(d["players"]):
        paws = me["paws"] + int(me["strong_paw"]) + len(me["paws_placed"])
        assert paws == g.components["paws"], f"player {q} has {paws} paws"
        assert sum(1 for _, strong in me["paws_placed"] if strong) + me["strong_paw"] == 1
        assert slots_used(st, q) <= slots, f"player {q}'s backpack overflows"
        assert track["min"] <= me["morality"] <= track["max"], "morality off the track"


def _hidden_cards_unseen(st: Any) -> None:
    """No player's observation shows a card hidden from them (another's hand, cards aside,
    face-down deeds in a story), unless they saw it go there."""
    from solver.games.trial.history import known_to

    d, g = st.data, st.game
    deeds = {c["id"] for c in g.pack.deeds}
    known = dict(d.get("card_knowledge", ()))
    for p in range(d["player_count"]):
        seen = json.dumps(st.observation(p))
        for q, me in enumerate(d["players"]):
            if q == p:
                continue
            hidden = list(me["hand"]) + list(me["aside"])
            hidden += [s[0] for s in me["story"] if not s[1] and s[0] in deeds]
            for cid in hidden:
                if str(p) in known_to(st, cid, known):
                    continue  # p saw it go there (a card played in the open)
                assert f'"{cid}"' not in seen, f"player {p} sees {cid} held by {q}"
