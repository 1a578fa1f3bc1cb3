"""The schema of a Trial content pack and of the cards' effect language (checked, not guessed).

:func:`check_pack` walks every document and raises :class:`~solver.games.trial.content.PackError`
at the first problem, naming the file, the card or component id and the field (a dotted path such
as ``effect[0].fight.dice``). The vocabulary below is the effect language documented in
``docs/rules/trial.md``: card symbols, enhancement kinds, conditions, cost terms and effect verbs.

>>> from solver.games.trial.schema import VERBS, CONDITIONS
>>> "fight" in VERBS and "advance" in VERBS and "at" in CONDITIONS
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.games.trial.content import PackError

FOODS: tuple[str, ...] = ("raspberry", "acorn", "mushroom", "tea")
"""The four food tokens; a tea leaf may stand in for any of the first three when spent."""
COLUMN_OF: dict[str, str] = {
    "good": "moral",
    "evil": "moral",
    "either": "moral",
    "trade": "trading",
    "move": "pioneering",
    "strength": "fighting",
}
"""A card's story column is given by its first symbol."""
SYMBOLS: tuple[str, ...] = (*COLUMN_OF, "wild", "die")
ENHANCE_KINDS: tuple[str, ...] = ("move", "strength", "trade", "card", *FOODS)
LOCATION_TYPES: tuple[str, ...] = ("grove", "ruins", "lookout", "store")
PLACES: tuple[str, ...] = (*LOCATION_TYPES, "campsite", "tunnel", "location")
DECKS = {"deeds.json": "deed", "encounters.json": "encounter", "expeditions.json": "expedition"}
AREAS: tuple[str, ...] = ("swamps", "frosty", "caverns")
LINES: tuple[str, ...] = ("any", "dotted", "dashed", "none")
GAINS: tuple[str, ...] = (*FOODS, "food", "card")
CAMPSITE_BONUSES: tuple[str, ...] = (
    "morality",
    "story_facedown",
    "tea",
    "encounter",
    "common_item",
    "first_player",
)
TENT_BONUSES: tuple[str, ...] = (
    "cards",
    "morality",
    *FOODS,
    "none",
    "food",
    "move",
    "trade",
    "strength",
    "card_draw",
)


class _Ctx:
    """Where a check is: the file, the card id, the file's text (for the line) and known ids."""

    def __init__(self, file: str, where: str, text: str, artifacts: set[str], items: set[str]):
        self.file = file
        self.where = where
        self.text = text
        self.artifacts = artifacts
        self.items = items

    def fail(self, path: str, problem: str) -> PackError:
        needle = f'"id": "{self.where}"'
        index = self.text.find(needle)
        line = self.text.count("\n", 0, index) + 1 if index >= 0 else 1
        return PackError(self.file, self.where, path, problem, line=line)


def _int(ctx: _Ctx, path: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ctx.fail(path, f"expected an integer >= {low}, found {value!r}")
    return value


def _one_of(ctx: _Ctx, path: str, value: Any, allowed: tuple[str, ...] | set[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ctx.fail(path, f"expected one of {', '.join(sorted(allowed))}, found {value!r}")
    return value


def _list(ctx: _Ctx, path: str, value: Any, minimum: int = 0) -> list[Any]:
    if not isinstance(value, list) or len(value) < minimum:
        raise ctx.fail(path, f"expected a list of at least {minimum}, found {value!r}")
    return value


def _dict(ctx: _Ctx, path: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ctx.fail(path, f"expected an object, found {value!r}")
    return value


# -- conditions ----------------------------------------------------------------------------------
def _cond_at(ctx: _Ctx, path: str, v: Any) -> None:
    _one_of(ctx, path, v, PLACES)


def _cond_company(ctx: _Ctx, path: str, v: Any) -> None:
    if v is not True and v != "evil":
        raise ctx.fail(path, f"expected true or 'evil', found {v!r}")


CONDITIONS: dict[str, Callable[[_Ctx, str, Any], object]] = {
    "at": _cond_at,
    "company": _cond_company,
    "morality": lambda c, p, v: _one_of(c, p, v, ("good", "evil")),
    "paws": lambda c, p, v: _one_of(c, p, v, ("corners", "diagonal", "four_types")),
    "tracker": lambda c, p, v: _int(c, p, v, 1),
    "no_tunnel": lambda c, p, v: _true(c, p, v),
    "story_evil": lambda c, p, v: _int(c, p, v, 1),
}
"""Conditions a card (or an option) requires; only checked, never paid."""


def _true(ctx: _Ctx, path: str, v: Any) -> None:
    if v is not True:
        raise ctx.fail(path, f"expected true, found {v!r}")


def check_conditions(ctx: _Ctx, path: str, value: Any) -> None:
    for i, cond in enumerate(_list(ctx, path, value)):
        here = f"{path}[{i}]"
        cond = _dict(ctx, here, cond)
        if len(cond) != 1:
            raise ctx.fail(here, f"expected exactly one condition, found keys {sorted(cond)}")
        ((key, arg),) = cond.items()
        if key not in CONDITIONS:
            raise ctx.fail(here, f"expected a condition ({', '.join(CONDITIONS)}), found {key!r}")
        CONDITIONS[key](ctx, f"{here}.{key}", arg)


# -- costs ---------------------------------------------------------------------------------------
def check_costs(ctx: _Ctx, path: str, value: Any) -> None:
    """A cost is a list of terms ``{"spend": [alternatives]}`` or ``{"have": [alternatives]}``."""
    for i, term in enumerate(_list(ctx, path, value)):
        here = f"{path}[{i}]"
        term = _dict(ctx, here, term)
        kinds = [k for k in ("spend", "have") if k in term]
        if len(kinds) != 1:
            raise ctx.fail(here, "expected exactly one of spend or have")
        kind = kinds[0]
        extra = set(term) - {kind, "per", "to"}
        if extra:
            raise ctx.fail(here, f"unknown cost field {sorted(extra)[0]!r}")
        allowed = {*FOODS, "food", "item", "amphibian", *ctx.items}
        if kind == "spend":
            allowed.add("card")
        for j, alt in enumerate(_list(ctx, f"{here}.{kind}", term[kind], 1)):
            _one_of(ctx, f"{here}.{kind}[{j}]", alt, allowed)
        if "per" in term:
            _one_of(ctx, f"{here}.per", term["per"], ("item",))
        if "to" in term:
            _one_of(ctx, f"{here}.to", term["to"], ("gallery",))


# -- effects -------------------------------------------------------------------------------------
def _gains(ctx: _Ctx, path: str, v: Any) -> None:
    for key, n in _dict(ctx, path, v).items():
        _one_of(ctx, f"{path}.{key}", key, GAINS)
        _int(ctx, f"{path}.{key}", n, 1)


def _fight(ctx: _Ctx, path: str, v: Any) -> None:
    v = _dict(ctx, path, v)
    _allowed_keys(ctx, path, v, {"strength", "dice", "win", "lose", "lose_card"})
    _int(ctx, f"{path}.strength", v.get("strength"))
    _int(ctx, f"{path}.dice", v.get("dice"))
    if v["strength"] + v["dice"] == 0:
        raise ctx.fail(f"{path}.dice", "a fight needs some strength or dice")
    _one_of(ctx, f"{path}.lose_card", v.get("lose_card"), ("story", "facedown", "discard"))
    for key in ("win", "lose"):
        if key in v:
            check_effects(ctx, f"{path}.{key}", v[key])


def _duel(ctx: _Ctx, path: str, v: Any) -> None:
    v = _dict(ctx, path, v)
    _allowed_keys(ctx, path, v, {"stake", "target"})
    if "stake" in v:
        _one_of(ctx, f"{path}.stake", v["stake"], ("food",))
    if "target" in v:
        _one_of(ctx, f"{path}.target", v["target"], ("evil",))


def _choose(ctx: _Ctx, path: str, v: Any) -> None:
    for i, option in enumerate(_list(ctx, path, v, 2)):
        here = f"{path}[{i}]"
        option = _dict(ctx, here, option)
        _allowed_keys(ctx, here, option, {"label", "morality", "requires", "cost", "effect"})
        if not isinstance(option.get("label"), str) or not option["label"]:
            raise ctx.fail(f"{here}.label", "expected a non-empty label")
        if "morality" in option:
            _one_of(ctx, f"{here}.morality", option["morality"], ("good", "evil"))
        if "requires" in option:
            check_conditions(ctx, f"{here}.requires", option["requires"])
        if "cost" in option:
            check_costs(ctx, f"{here}.cost", option["cost"])
        check_effects(ctx, f"{here}.effect", option.get("effect"))


def _roll(ctx: _Ctx, path: str, v: Any) -> None:
    v = _dict(ctx, path, v)
    _allowed_keys(ctx, path, v, {"need", "success", "fail", "reroll"})
    if v.get("need") != "win":
        _int(ctx, f"{path}.need", v.get("need"), 1)
    check_effects(ctx, f"{path}.success", v.get("success"))
    check_effects(ctx, f"{path}.fail", v.get("fail", []))
    if "reroll" in v:
        check_costs(ctx, f"{path}.reroll", v["reroll"])


def _swindle(ctx: _Ctx, path: str, v: Any) -> None:
    v = _dict(ctx, path, v)
    _allowed_keys(ctx, path, v, {"discard_up_to", "success"})
    _int(ctx, f"{path}.discard_up_to", v.get("discard_up_to"), 1)
    check_effects(ctx, f"{path}.success", v.get("success"))


def _others_may(ctx: _Ctx, path: str, v: Any) -> None:
    v = _dict(ctx, path, v)
    _allowed_keys(ctx, path, v, {"cost", "effect", "you"})
    check_costs(ctx, f"{path}.cost", v.get("cost"))
    check_effects(ctx, f"{path}.effect", v.get("effect"))
    check_effects(ctx, f"{path}.you", v.get("you"))


def _take_discard(ctx: _Ctx, path: str, v: Any) -> None:
    v = _dict(ctx, path, v)
    _allowed_keys(ctx, path, v, {"look", "take"})
    if _int(ctx, f"{path}.take", v.get("take"), 1) > _int(ctx, f"{path}.look", v.get("look"), 1):
        raise ctx.fail(f"{path}.take", "cannot take more cards than are looked at")


def _artifact(ctx: _Ctx, path: str, v: Any) -> None:
    _one_of(ctx, path, v, ctx.artifacts)


def _allowed_keys(ctx: _Ctx, path: str, v: dict[str, Any], allowed: set[str]) -> None:
    extra = set(v) - allowed
    if extra:
        raise ctx.fail(f"{path}.{sorted(extra)[0]}", "unknown field")


def _word(*words: str) -> Callable[[_Ctx, str, Any], object]:
    return lambda c, p, v: _one_of(c, p, v, words) and None


VERBS: dict[str, Callable[[_Ctx, str, Any], object]] = {
    "gain": _gains,
    "others_gain": _gains,
    "all_draw": lambda c, p, v: _int(c, p, v, 1),
    "give": _word("food", "tea", "card"),
    "morality": lambda c, p, v: None if v in (-1, 1) and not isinstance(v, bool) else _bad(c, p, v),
    "fight": _fight,
    "duel": _duel,
    "choose": _choose,
    "ruin": _word("here"),
    "restore": _word("here"),
    "flip": _word("here"),
    "dig": _word("here"),
    "collapse": _word("any"),
    "advance": _word(*LINES),
    "artifact": _artifact,
    "item": _word("common"),
    "story_from_hand": _word("faceup", "facedown"),
    "take_discard": _take_discard,
    "encounter_to_hand": lambda c, p, v: _int(c, p, v, 1),
    "first_player": _true,
    "tent_from_box": _word("campsite"),
    "move_flag": lambda c, p, v: _int(c, p, v, 1),
    "place_flag": _word("nearest"),
    "reveal_tops": _word("expeditions"),
    "peek": _word("this_deck"),
    "roll": _roll,
    "swindle": _swindle,
    "others_may": _others_may,
    "then": _word("discard", "facedown", "story"),
    "draw_to_story": lambda c, p, v: _int(c, p, v, 1),
    "swap_strong_paw": _true,
    "leave": _word("expedition"),
}
"""Every effect verb and the check of its argument (see ``docs/rules/trial.md``)."""
MODIFIERS: dict[str, set[str]] = {"advance": {"steps"}, "all_draw": {"optional"}}


def _bad(ctx: _Ctx, path: str, v: Any) -> None:
    raise ctx.fail(path, f"expected -1 (good) or 1 (evil), found {v!r}")


def check_effects(ctx: _Ctx, path: str, value: Any) -> None:
    """An effect list: each effect is an object with one verb key (and the verb's modifiers)."""
    for i, effect in enumerate(_list(ctx, path, value)):
        here = f"{path}[{i}]"
        effect = _dict(ctx, here, effect)
        verbs = [k for k in effect if k in VERBS]
        unknown = [k for k in effect if k not in VERBS]
        if len(verbs) != 1:
            bad = unknown[0] if unknown else ",".join(verbs)
            raise ctx.fail(here, f"expected exactly one effect verb, found {bad!r}")
        verb = verbs[0]
        for key in unknown:
            if key not in MODIFIERS.get(verb, set()):
                raise ctx.fail(f"{here}.{key}", f"unknown field of {verb}")
        VERBS[verb](ctx, f"{here}.{verb}", effect[verb])
        if "steps" in effect:
            _int(ctx, f"{here}.steps", effect["steps"], 1)
        if "optional" in effect:
            _true(ctx, f"{here}.optional", effect["optional"])


# -- cards ---------------------------------------------------------------------------------------
CARD_FIELDS = {
    "id",
    "name",
    "symbols",
    "fame",
    "area",
    "requires",
    "cost",
    "effect",
    "enhance",
    "bonus",
    "skill",
    "rulebook",
    "authored",
    "note",
    "unpaid",
}


def check_card(ctx: _Ctx, card: Any, deck: str) -> None:
    """One card of deck ``deck`` (``deed``, ``encounter`` or ``expedition``)."""
    if not isinstance(card, dict):
        raise ctx.fail("card", f"expected an object, found {card!r}")
    for key in card:
        if key not in CARD_FIELDS:
            raise ctx.fail(key, "unknown card field")
    if not isinstance(card.get("name"), str) or not card["name"]:
        raise ctx.fail("name", "expected a non-empty name")
    symbols = _list(ctx, "symbols", card.get("symbols"), 1)
    for i, s in enumerate(symbols):
        _one_of(ctx, f"symbols[{i}]", s, SYMBOLS)
    if symbols[0] not in COLUMN_OF:
        raise ctx.fail("symbols[0]", f"the first symbol names the column, found {symbols[0]!r}")
    _int(ctx, "fame", card.get("fame"))
    if deck == "expedition":
        _one_of(ctx, "area", card.get("area"), AREAS)
        if "enhance" in card:
            raise ctx.fail("enhance", "expedition cards have no enhancement")
        if "unpaid" in card:
            if not card.get("cost") and not card.get("requires"):
                raise ctx.fail("unpaid", "only a card with a cost or conditions can go unpaid")
            check_effects(ctx, "unpaid", card["unpaid"])
    else:
        if "unpaid" in card:
            raise ctx.fail("unpaid", f"only expedition cards can go unpaid, not a {deck} card")
        if "area" in card:
            raise ctx.fail("area", f"only expedition cards have an area, not a {deck} card")
        enhance = _dict(ctx, "enhance", card.get("enhance"))
        if len(enhance) != 1:
            raise ctx.fail("enhance", "expected exactly one enhancement kind")
        for kind, n in enhance.items():
            _one_of(ctx, f"enhance.{kind}", kind, ENHANCE_KINDS)
            _int(ctx, f"enhance.{kind}", n, 1)
    if "requires" in card:
        check_conditions(ctx, "requires", card["requires"])
    if "cost" in card:
        check_costs(ctx, "cost", card["cost"])
    if "effect" in card:
        check_effects(ctx, "effect", card["effect"])
    if "bonus" in card:
        bonus = _dict(ctx, "bonus", card["bonus"])
        if len(bonus) != 1:
            raise ctx.fail("bonus", "expected one bonus: grove or lookout")
        ((key, arg),) = bonus.items()
        if key == "grove":
            _one_of(ctx, "bonus.grove", arg, FOODS)
        elif key == "lookout":
            _int(ctx, "bonus.lookout", arg, 1)
        else:
            raise ctx.fail(f"bonus.{key}", "expected grove or lookout")
    if "skill" in card:
        _one_of(ctx, "skill", card["skill"], ("cartographer",))


# -- components ----------------------------------------------------------------------------------
def _check_board(ctx: _Ctx, board: Any) -> None:
    board = _dict(ctx, "board", board)
    spaces = _list(ctx, "spaces", board.get("spaces"), 1)
    ids: set[str] = set()
    slots: dict[str, int] = {}
    campsites: list[str] = []
    for i, space in enumerate(spaces):
        space = _dict(ctx, f"spaces[{i}]", space)
        sid = space.get("id")
        if not isinstance(sid, str) or sid in ids:
            raise ctx.fail(f"spaces[{i}].id", f"expected a new space id, found {sid!r}")
        ids.add(sid)
        kind = _one_of(
            ctx, f"{sid}.kind", space.get("kind"), ("path", "location", "start", "campsite", "exit")
        )
        if kind == "location":
            slot = _one_of(ctx, f"{sid}.slot", space.get("slot"), LOCATION_TYPES)
            slots[slot] = slots.get(slot, 0) + 1
            _one_of(ctx, f"{sid}.quarter", space.get("quarter"), ("NW", "NE", "SW", "SE"))
        if kind == "campsite":
            campsites.append(
                _one_of(ctx, f"{sid}.campsite", space.get("campsite"), CAMPSITE_BONUSES)
            )
        if kind == "exit":
            _one_of(ctx, f"{sid}.area", space.get("area"), AREAS)
    for t in LOCATION_TYPES:
        if slots.get(t, 0) != 3:
            raise ctx.fail("spaces", f"expected 3 {t} slots, found {slots.get(t, 0)}")
    if sorted(campsites) != sorted(CAMPSITE_BONUSES):
        raise ctx.fail("spaces", f"expected one campsite per bonus, found {sorted(campsites)}")
    if sum(1 for s in spaces if s["kind"] == "start") != 4:
        raise ctx.fail("spaces", "expected 4 start spaces")
    for i, edge in enumerate(_list(ctx, "edges", board.get("edges"), 1)):
        edge = _list(ctx, f"edges[{i}]", edge, 2)
        for end in edge:
            _one_of(ctx, f"edges[{i}]", end, ids)
    areas = _dict(ctx, "areas", board.get("areas"))
    if sorted(areas) != sorted(AREAS):
        raise ctx.fail("areas", f"expected the areas {', '.join(AREAS)}")
    for name, area in areas.items():
        area = _dict(ctx, f"areas.{name}", area)
        inner = {s["id"]: s for s in _list(ctx, f"areas.{name}.spaces", area.get("spaces"), 2)}
        _one_of(ctx, f"areas.{name}.exit", area.get("exit"), ids)
        _one_of(ctx, f"areas.{name}.start", area.get("start"), set(inner))
        if not any("finish" in s for s in inner.values()):
            raise ctx.fail(f"areas.{name}.spaces", "expected at least one finishing space")
        for sid, s in inner.items():
            if "finish" in s:
                _int(ctx, f"areas.{name}.{sid}.finish", s["finish"], 1)
            if "resource" in s:
                _one_of(ctx, f"areas.{name}.{sid}.resource", s["resource"], FOODS)
        for j, p in enumerate(_list(ctx, f"areas.{name}.paths", area.get("paths"), 1)):
            here = f"areas.{name}.paths[{j}]"
            p = _dict(ctx, here, p)
            _one_of(ctx, f"{here}.from", p.get("from"), set(inner))
            _one_of(ctx, f"{here}.to", p.get("to"), set(inner))
            if "line" in p:
                _one_of(ctx, f"{here}.line", p["line"], ("dotted", "dashed"))
            if "pay" in p:
                for key, n in _dict(ctx, f"{here}.pay", p["pay"]).items():
                    _one_of(ctx, f"{here}.pay", key, ("food", "tea"))
                    _int(ctx, f"{here}.pay.{key}", n, 1)
    _int(ctx, "tunnel_tokens", board.get("tunnel_tokens"))


def _check_items(ctx: _Ctx, doc: Any) -> None:
    items = _list(ctx, "items", doc.get("items"), 1)
    commons = sum(
        _int(ctx, f"{i['id']}.copies", i.get("copies"), 1)
        for i in items
        if i.get("rarity") == "common"
    )
    rares = sum(i.get("copies", 0) for i in items if i.get("rarity") == "rare")
    for item in items:
        _one_of(ctx, f"{item.get('id')}.rarity", item.get("rarity"), ("common", "rare"))
        _int(ctx, f"{item['id']}.fame", item.get("fame"))
    if commons != 18 or rares != 6:
        raise ctx.fail("items", f"expected 18 common and 6 rare items, found {commons} and {rares}")
    artifacts = _list(ctx, "artifacts", doc.get("artifacts"), 1)
    for art in artifacts:
        _one_of(ctx, f"{art.get('id')}.area", art.get("area"), AREAS)
        _one_of(ctx, f"{art['id']}.size", art.get("size"), ("small", "large"))
        _int(ctx, f"{art['id']}.fame", art.get("fame"))
    if len(artifacts) != 9:
        raise ctx.fail("artifacts", f"expected 9 artifacts, found {len(artifacts)}")


def _check_tents(ctx: _Ctx, doc: Any) -> None:
    tents = _list(ctx, "tents", doc.get("tents"), 1)
    for t in tents:
        _one_of(ctx, f"{t.get('id')}.bonus", t.get("bonus"), TENT_BONUSES)
    if len(tents) != 14:
        raise ctx.fail("tents", f"expected 14 tent tokens, found {len(tents)}")


def _check_locations(ctx: _Ctx, doc: Any) -> None:
    tiles = _list(ctx, "tiles", doc.get("tiles"), 1)
    counts: dict[str, int] = {}
    for tile in tiles:
        kind = _one_of(ctx, f"{tile.get('id')}.type", tile.get("type"), LOCATION_TYPES)
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "ruins":
            _one_of(
                ctx, f"{tile['id']}.restored", tile.get("restored"), ("store", "lookout", "grove")
            )
        elif kind == "grove":
            _one_of(ctx, f"{tile['id']}.food", tile.get("food"), FOODS[:3])
        if kind != "ruins":
            _dict(ctx, f"{tile['id']}.ruined", tile.get("ruined"))
        if kind == "store":
            _one_of(
                ctx,
                f"{tile['id']}.ruined.sell_once",
                tile["ruined"].get("sell_once"),
                ("common_item", "two_tea", "two_food_two_cards"),
            )
    if any(counts.get(t, 0) != 3 for t in LOCATION_TYPES):
        raise ctx.fail("tiles", f"expected 3 tiles of each type, found {counts}")


def check_pack(documents: dict[str, Any], texts: dict[str, str]) -> None:
    """Check every document of a pack (see the module docstring)."""
    items_doc = documents["items.json"]
    if not isinstance(items_doc, dict):
        raise PackError("items.json", "items", "items", "expected an object")
    artifacts = {a.get("id") for a in items_doc.get("artifacts", []) if isinstance(a, dict)}
    items = {i.get("id") for i in items_doc.get("items", []) if isinstance(i, dict)}
    known = {str(a) for a in artifacts}, {str(i) for i in items}

    def ctx(file: str, where: str) -> _Ctx:
        return _Ctx(file, where, texts[file], *known)

    _check_items(ctx("items.json", "items"), items_doc)
    _check_board(ctx("board.json", "board"), documents["board.json"])
    _check_locations(
        ctx("locations.json", "tiles"),
        _dict(ctx("locations.json", "tiles"), "document", documents["locations.json"]),
    )
    _check_tents(
        ctx("tents.json", "tents"),
        _dict(ctx("tents.json", "tents"), "document", documents["tents.json"]),
    )
    store = _dict(ctx("store.json", "store"), "document", documents["store.json"])
    for i, col in enumerate(_list(ctx("store.json", "store"), "columns", store.get("columns"), 1)):
        _one_of(
            ctx("store.json", "store"), f"columns[{i}].price", col.get("price"), (*FOODS, "food")
        )
    for i, row in enumerate(_list(ctx("store.json", "store"), "rows", store.get("rows"), 1)):
        _one_of(ctx("store.json", "store"), f"rows[{i}].price", row.get("price"), (*FOODS, "food"))
    _dict(ctx("components.json", "components"), "document", documents["components.json"])
    expected = {"deeds.json": 70, "encounters.json": 20, "expeditions.json": 36}
    seen: set[str] = set()
    for file, deck in DECKS.items():
        doc = _dict(ctx(file, "deck"), "document", documents[file])
        cards = _list(ctx(file, "deck"), "cards", doc.get("cards"), 1)
        if len(cards) != expected[file]:
            raise ctx(file, "deck").fail(
                "cards", f"expected {expected[file]} cards, found {len(cards)}"
            )
        for i, card in enumerate(cards):
            cid = card.get("id") if isinstance(card, dict) else None
            if not isinstance(cid, str) or not cid:
                raise ctx(file, f"card #{i + 1}").fail("id", f"expected a card id, found {cid!r}")
            if cid in seen:
                raise ctx(file, cid).fail("id", "duplicate card id")
            seen.add(cid)
            check_card(ctx(file, cid), card, deck)
        if deck == "expedition":
            for area in AREAS:
                n = sum(1 for c in cards if c.get("area") == area)
                if n != 12:
                    raise ctx(file, "deck").fail("area", f"expected 12 {area} cards, found {n}")
