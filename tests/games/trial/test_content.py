"""The content pack: the shipped pack's counts, and one test per kind of schema error."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from solver.errors import FormatError
from solver.games.trial.content import FILES, PackError, load_pack
from solver.games.trial.schema import COLUMN_OF, CONDITIONS, VERBS

SHIPPED = Path(__file__).resolve().parents[3] / "puzzles" / "trial"


def test_shipped_pack_has_every_component():
    pack = load_pack()
    assert (len(pack.deeds), len(pack.encounters), len(pack.expeditions)) == (70, 20, 36)
    assert sum(i["copies"] for i in pack.items) == 24
    assert sum(i["copies"] for i in pack.items if i["rarity"] == "rare") == 6
    assert len(pack.artifacts) == 9 and len(pack.tents) == 14 and len(pack.locations) == 12
    kinds = [s["kind"] for s in pack.board["spaces"]]
    assert kinds.count("start") == 4 and kinds.count("campsite") == 6
    assert sorted(pack.board["areas"]) == ["caverns", "frosty", "swamps"]
    paid = [p for p in pack.board["areas"]["frosty"]["paths"] if "pay" in p]
    assert [p["pay"] for p in paid] == [{"food": 2}, {"tea": 1}]
    lines = {p.get("line") for p in pack.board["areas"]["caverns"]["paths"]}
    assert lines == {"dotted", "dashed"}


def test_every_card_the_rulebook_names_is_in_the_pack():
    names = {c["name"] for c in load_pack().cards.values()}
    named = """Food Delivery, Swordmaster, Bandits, Knight, Duel, Tea Cat, Witch, Wolf, Pathfinder,
    Cartographer, Avalanche, Blaster, Border Ranger, Bridge Keeper, Campsite Gift,
    Charity Collection, Crocodile's Nest, Curator, Dangling Postman, Delver, Demolition Builder,
    Explorer, Forbidden Tomb, Frog Tribe, Gift Basket, Postman, Tea Gift, Hand of Justice,
    Kidnapper, The Longest Road, Lookout, Painter, Philanthropist, Postal Service, Pyromaniac,
    Wasteland, Scorched Earth, Ritual, Scout, Sherpa, Snow Owl, Swindler, The Sword on the Peak,
    Tracker, Trafficker, Wanderer"""
    missing = {n.strip() for n in named.split(",")} - names
    assert not missing


def test_every_card_is_flagged_authored_and_uses_known_verbs():
    def verbs(effects: list[dict[str, Any]]) -> set[str]:
        found: set[str] = set()
        for e in effects:
            found |= set(e) & set(VERBS)
            for v in e.values():
                if isinstance(v, dict):
                    for key in ("win", "lose", "success", "fail", "effect", "you"):
                        found |= verbs(v.get(key, []))
                if isinstance(v, list):
                    for option in v:
                        if isinstance(option, dict):
                            found |= verbs(option.get("effect", []))
        return found

    used: set[str] = set()
    for card in load_pack().cards.values():
        assert card["authored"] is True
        assert card["symbols"][0] in COLUMN_OF
        used |= verbs(card.get("effect", [])) | verbs(card.get("unpaid", []))
    assert used == set(VERBS)  # every verb of the language has an example card in the pack
    conditions = {
        key
        for card in load_pack().cards.values()
        for cond in card.get("requires", [])
        for key in cond
    }
    conditions |= {"story_evil"}  # required by an option (The Sword on the Peak), not a card
    assert conditions == set(CONDITIONS)


@pytest.fixture
def pack_dir(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copy(SHIPPED / name, tmp_path / name)
    return tmp_path


def _edit(folder: Path, name: str, change: Callable[[Any], None]) -> None:
    path = folder / name
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, indent=1))


def _card(doc: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in doc["cards"] if c["id"] == cid)


Case = tuple[str, str, Callable[[Any], None], str, str]
"""A broken pack: the file, where in it the error points (a card id, or the file's part), the
edit, the field named and a fragment of the message."""


def _card_case(name: str, cid: str, field: str, fragment: str, **changes: object) -> Case:
    """A :data:`CASES` row whose edit sets ``changes`` on card ``cid`` of file ``name``."""
    return name, cid, lambda doc: _card(doc, cid).update(changes), field, fragment


CASES: list[Case] = [
    _card_case("deeds.json", "deed-05", "fame", "integer", fame=-1),
    _card_case("deeds.json", "deed-05", "colour", "unknown", colour=1),
    _card_case("deeds.json", "deed-05", "symbols[0]", "expected one of", symbols=["fist"]),
    _card_case("deeds.json", "deed-05", "symbols[0]", "names the column", symbols=["die"]),
    _card_case("deeds.json", "deed-05", "effect[0]", "effect verb", effect=[{"teleport": 1}]),
    _card_case(
        "deeds.json",
        "deed-05",
        "effect[0].fight.dice",
        "integer",
        effect=[{"fight": {"strength": 2, "dice": -1, "lose_card": "discard"}}],
    ),
    _card_case("deeds.json", "deed-05", "requires[0]", "condition", requires=[{"near": "lake"}]),
    _card_case("deeds.json", "deed-05", "cost[0].spend[0]", "gold", cost=[{"spend": ["gold"]}]),
    _card_case("deeds.json", "deed-05", "cost[0].have[0]", "card", cost=[{"have": ["card"]}]),
    _card_case(
        "deeds.json",
        "deed-05",
        "effect[0].choose",
        "at least 2",
        effect=[{"choose": [{"label": "only", "effect": []}]}],
    ),
    _card_case("deeds.json", "deed-05", "effect[0].artifact", "ufo", effect=[{"artifact": "ufo"}]),
    _card_case("deeds.json", "deed-05", "enhance.luck", "expected one of", enhance={"luck": 1}),
    (
        "deeds.json",
        "deed-05",
        lambda d: _card(d, "deed-06").update(id="deed-05"),
        "id",
        "duplicate",
    ),
    ("deeds.json", "deck", lambda d: d["cards"].pop(), "cards", "expected 70 cards"),
    _card_case("expeditions.json", "exp-01", "enhance", "no enhancement", enhance={"move": 1}),
    _card_case("expeditions.json", "exp-01", "area", "moon", area="moon"),
    _card_case(
        "expeditions.json", "exp-01", "unpaid", "cost or conditions", unpaid=[{"then": "discard"}]
    ),
    _card_case(
        "expeditions.json",
        "exp-04",
        "unpaid[0].leave",
        "expected one of expedition",
        unpaid=[{"leave": "home"}],
    ),
    _card_case(
        "deeds.json", "deed-05", "unpaid", "only expedition cards", unpaid=[{"then": "discard"}]
    ),
    _card_case(
        "deeds.json",
        "deed-23",
        "effect[0].optional",
        "expected true",
        effect=[{"all_draw": 1, "optional": "yes"}],
    ),
    ("tents.json", "tents", lambda d: d["tents"].pop(), "tents", "14 tent tokens"),
    ("board.json", "board", lambda d: d["spaces"].pop(0), "spaces", "3 lookout slots"),
    (
        "board.json",
        "board",
        lambda d: d["edges"].append(["path-01", "nowhere"]),
        "edges[58]",
        "nowhere",
    ),
    ("items.json", "items", lambda d: d["artifacts"].pop(), "artifacts", "9 artifacts"),
    (
        "locations.json",
        "tiles",
        lambda d: d["tiles"][3].update(restored="castle"),
        "ruins-store.restored",
        "castle",
    ),
]


@pytest.mark.parametrize(("file", "where", "change", "field", "words"), CASES)
def test_a_bad_pack_names_file_card_and_field(pack_dir, file, where, change, field, words):
    _edit(pack_dir, file, change)
    with pytest.raises(PackError) as info:
        load_pack(pack_dir)
    err = info.value
    assert isinstance(err, FormatError) and isinstance(err, ValueError)
    assert (err.file, err.where, err.field) == (file, where, field)
    assert words in str(err) and str(err).startswith(f"{file}: {where}: field {field}: ")


def test_the_error_points_at_the_cards_line(pack_dir):
    _edit(pack_dir, "deeds.json", lambda d: _card(d, "deed-05").update(fame="lots"))
    text = (pack_dir / "deeds.json").read_text().splitlines()
    with pytest.raises(PackError) as info:
        load_pack(pack_dir)
    assert '"id": "deed-05"' in text[info.value.line - 1]


def test_missing_file_bad_json_and_not_a_folder(pack_dir, tmp_path):
    (pack_dir / "tents.json").unlink()
    with pytest.raises(PackError, match=r"tents.json: pack: field file: the file is missing"):
        load_pack(pack_dir)
    shutil.copy(SHIPPED / "tents.json", pack_dir / "tents.json")
    (pack_dir / "store.json").write_text("{\n  'columns': 1}")
    with pytest.raises(PackError, match=r"store.json: json: field line 2") as info:
        load_pack(pack_dir)
    assert info.value.line == 2
    with pytest.raises(PackError, match="expected a folder"):
        load_pack(tmp_path / "nope")


def test_a_users_own_pack_loads(pack_dir):
    _edit(pack_dir, "deeds.json", lambda d: _card(d, "deed-05").update(name="My Ranger", fame=9))
    pack = load_pack(pack_dir)
    assert pack.card("deed-05")["name"] == "My Ranger" and pack.source == str(pack_dir)
