"""The ruined store whose sale trades a common item for *another* one (``store-swap``, ruined):
"Place a common item from your backpack into the store and gain another common item from the
store" offers every common kind of the store but the one just placed, and the sale is offered
only while another common kind lies in the store, on the reference and the compiled engine alike
(docs/rules/trial.md, §3). Before, the step offered the placed kind back: a trade that did
nothing.
"""

from __future__ import annotations

import json

import pytest

from solver.games.trial.rules import TrialState

from .positions import give_item, labels, ready, set_food
from .test_kernel_engine import _agree

pytestmark = pytest.mark.usefixtures("require_kernels")

SALE = "sell rope for a common item (ruined store)"


def _at_ruined_swap(ker, *only: str) -> tuple[TrialState, object]:
    """Player 0 with a rope and no food at the ruined ``store-swap``, the paw placed, and its
    compiled twin; with ``only``, the store's other common stacks but those moved to the box."""
    st = ready()
    st.data["players"][0]["space"] = "store-1"
    st.data["tiles"]["store-1"] = ["store-swap", True]
    give_item(st, 0, "rope")
    set_food(st, 0)
    if only:
        for row in st.data["store"]:
            for stack in row:
                kind = stack[0] if stack else "rope"
                if kind != "rope" and kind not in only and _common(st, kind):
                    st.data["box"]["items"] += stack
                    stack.clear()
    mine = ker.adopt(st)
    _play(st, mine, "turn: paw: location")
    return st, mine


def _common(st: TrialState, kind: str) -> bool:
    return bool(st.game.pack.item(kind)["rarity"] == "common")


def _play(st: TrialState, mine, label: str) -> None:
    action = st.string_to_action(label)
    st.apply_action(action)
    mine.apply_action(action)
    _agree(label, mine, st)
    assert [mine.action_to_string(a) for a in mine.legal_actions()] == labels(st), label


def _in_store(st: TrialState) -> list[str]:
    return sorted(s[0] for row in st.data["store"] for s in row if s and _common(st, s[0]))


def test_the_sale_offers_every_common_kind_of_the_store_but_the_one_placed(games):
    st, mine = _at_ruined_swap(games[2][1])
    _play(st, mine, SALE)
    assert st._top() == {"step": "take_item", "player": 0, "rarity": "common", "other_than": "rope"}
    assert "rope" in _in_store(st)  # ropes lie in the store, and are not offered back
    offered = [x.removeprefix("take ").removesuffix(" from the store") for x in labels(st)[1:]]
    assert sorted(offered) == [k for k in _in_store(st) if k != "rope"] and len(offered) >= 3
    _play(st, mine, "take axe from the store")
    assert sorted(st.data["players"][0]["backpack"]) == ["axe"]


def test_with_one_other_common_kind_left_it_alone_is_offered(games):
    st, mine = _at_ruined_swap(games[2][1], "kettle")
    _play(st, mine, SALE)
    assert labels(st) == ["take no item", "take kettle from the store"]
    _play(st, mine, "take kettle from the store")
    assert st.data["players"][0]["backpack"] == ["kettle"]


def test_with_no_other_common_kind_in_the_store_the_sale_is_not_offered(games):
    """Nothing to gain: the trade cannot be made (the rope stays; the two other ruined stores,
    whose rewards come from the tray, sell it as before)."""
    st, mine = _at_ruined_swap(games[2][1], "none-left")
    assert _in_store(st) == ["rope"]  # a rope is left; no other common kind
    assert labels(st) == ["sell nothing (ruined store)"]
    _play(st, mine, "sell nothing (ruined store)")
    assert st.data["players"][0]["backpack"] == ["rope"]


def test_a_state_saved_before_other_than_reads_as_offering_every_kind(games):
    """A ``take_item`` saved without ``other_than`` (before it existed) means none excluded."""
    ref, ker = games[2]
    st, _ = _at_ruined_swap(ker)
    st.apply_action(st.string_to_action(SALE))
    saved = json.loads(st.to_json())
    del saved["state"]["stack"][-1]["other_than"]
    for game in (ref, ker):
        old = game.state_from_json(json.dumps(saved))
        assert "take rope from the store" in [old.action_to_string(a) for a in old.legal_actions()]
