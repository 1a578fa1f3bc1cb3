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

from solver.errors import FormatError, path_said


class PackError(FormatError):
    """A content pack that breaks the schema: names the file, the id and the field.

    ``line`` is the line of the offending card's ``"id"`` in the file (1 when unknown).

    >>> err = PackError("deeds.json", "deed-07", "fame", "expected an integer >= 0, found -1")
    >>> str(err)
    'deeds.json: deed-07: field fame: expected an integer >= 0, found -1'
    """

    def __init__(self, file: str, where: str, field_name: str, problem: str, *, line: int = 1):
        super().__init__(problem, line=line, column=1)
        self.file = file
        self.where = where
        self.field = field_name
        self.problem = problem
        self.args = (f"{path_said(file)}: {where}: field {field_name}: {problem}",)

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self):  # picklable across worker processes
        return (_rebuild, (self.file, self.where, self.field, self.problem, self.line))


def _rebuild(file: str, where: str, field_name: str, problem: str, line: int) -> PackError:
    return PackError(file, where, field_name, problem, line=line)


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
        _check_expedition_card(ctx, card)
    else:
        _check_hand_card(ctx, card, deck)
    for key, check in CARD_PARTS:
        if key in card:
            check(ctx, key, card[key])


def _check_expedition_card(ctx: _Ctx, card: dict[str, Any]) -> None:
    """An expedition card's own fields: an area, no enhancement, maybe an unpaid effect."""
    _one_of(ctx, "area", card.get("area"), AREAS)
    if "enhance" in card:
        raise ctx.fail("enhance", "expedition cards have no enhancement")
    if "unpaid" in card:
        if not card.get("cost") and not card.get("requires"):
            raise ctx.fail("unpaid", "only a card with a cost or conditions can go unpaid")
        check_effects(ctx, "unpaid", card["unpaid"])


def _check_hand_card(ctx: _Ctx, card: dict[str, Any], deck: str) -> None:
    """A deed or encounter card's own fields: one enhancement, no area, never unpaid."""
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


def _check_bonus(ctx: _Ctx, path: str, value: Any) -> None:
    """A card's bonus: one of grove (a food) or lookout (a count)."""
    bonus = _dict(ctx, path, value)
    if len(bonus) != 1:
        raise ctx.fail(path, "expected one bonus: grove or lookout")
    ((key, arg),) = bonus.items()
    if key == "grove":
        _one_of(ctx, f"{path}.grove", arg, FOODS)
    elif key == "lookout":
        _int(ctx, f"{path}.lookout", arg, 1)
    else:
        raise ctx.fail(f"{path}.{key}", "expected grove or lookout")


CARD_PARTS: tuple[tuple[str, Callable[[_Ctx, str, Any], object]], ...] = (
    ("requires", check_conditions),
    ("cost", check_costs),
    ("effect", check_effects),
    ("bonus", _check_bonus),
    ("skill", lambda c, p, v: _one_of(c, p, v, ("cartographer",))),
)
"""A card's optional parts, in the order they are checked, and the check of each."""


# -- components ----------------------------------------------------------------------------------
NOTE_KEYS = {"note", "authored"}
"""Fields any document or component may carry for people (checked for their type only)."""


def _keys(
    ctx: _Ctx,
    path: str,
    v: Any,
    required: set[str],
    optional: set[str] | frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """``v`` is an object with every ``required`` field and no field but those and ``optional``
    (and a ``note`` or ``authored`` for people)."""
    v = _dict(ctx, path, v)
    for key in sorted(required):
        if key not in v:
            raise ctx.fail(f"{path}.{key}", "the field is missing")
    _allowed_keys(ctx, path, v, required | set(optional) | NOTE_KEYS)
    if "note" in v and not isinstance(v["note"], str):
        raise ctx.fail(f"{path}.note", f"expected a text, found {v['note']!r}")
    if "authored" in v and not isinstance(v["authored"], bool):
        raise ctx.fail(f"{path}.authored", f"expected true or false, found {v['authored']!r}")
    return v


def _id(ctx: _Ctx, path: str, v: Any, seen: set[str]) -> str:
    """A new non-empty text id (not in ``seen``; added to it)."""
    if not isinstance(v, str) or not v or v in seen:
        raise ctx.fail(path, f"expected a new id (a non-empty text), found {v!r}")
    seen.add(v)
    return v


def _range(ctx: _Ctx, path: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ctx.fail(path, f"expected an integer from {low} to {high}, found {value!r}")
    return value


def _number(ctx: _Ctx, path: str, value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not abs(value) < 1e6  # also refuses nan
    ):
        raise ctx.fail(path, f"expected a coordinate (a number), found {value!r}")
    return float(value)


def _check_board(ctx: _Ctx, board: Any) -> None:
    board = _keys(
        ctx, "board", board, {"spaces", "edges", "areas", "tunnel_tokens"}, {"universal_campsite"}
    )
    ids: set[str] = set()
    kinds = _check_spaces(ctx, board.get("spaces"), ids)
    for i, edge in enumerate(_list(ctx, "edges", board.get("edges"), 1)):
        edge = _list(ctx, f"edges[{i}]", edge, 2)
        if len(edge) != 2:
            raise ctx.fail(f"edges[{i}]", f"expected two spaces, found {edge!r}")
        for end in edge:
            _one_of(ctx, f"edges[{i}]", end, ids)
        if edge[0] == edge[1]:
            raise ctx.fail(f"edges[{i}]", f"expected two different spaces, found {edge!r}")
    areas = _dict(ctx, "areas", board.get("areas"))
    if sorted(areas) != sorted(AREAS):
        raise ctx.fail("areas", f"expected the areas {', '.join(AREAS)}")
    exits = {s for s, k in kinds.items() if k == "exit"}
    for name, area in areas.items():
        _check_area(ctx, name, area, ids, exits)
    if "universal_campsite" in board:
        _dict(ctx, "universal_campsite", board["universal_campsite"])
    _range(ctx, "tunnel_tokens", board.get("tunnel_tokens"), 0, 20)


def _check_spaces(ctx: _Ctx, value: Any, ids: set[str]) -> dict[str, str]:
    """The board's spaces (their ids added to ``ids``): 3 location slots of each type, one
    campsite per bonus, 4 starts; the kind of each space."""
    slots: dict[str, int] = {}
    campsites: list[str] = []
    kinds: dict[str, str] = {}
    for i, space in enumerate(_list(ctx, "spaces", value, 1)):
        space = _dict(ctx, f"spaces[{i}]", space)
        sid = _id(ctx, f"spaces[{i}].id", space.get("id"), ids)
        kind = _one_of(
            ctx, f"{sid}.kind", space.get("kind"), ("path", "location", "start", "campsite", "exit")
        )
        kinds[sid] = kind
        extra = {"location": {"slot", "quarter"}, "campsite": {"campsite"}, "exit": {"area"}}
        _keys(ctx, sid, space, {"id", "kind", "x", "y"}, {"tunnel", *extra.get(kind, ())})
        _number(ctx, f"{sid}.x", space["x"])
        _number(ctx, f"{sid}.y", space["y"])
        if "tunnel" in space and not isinstance(space["tunnel"], bool):
            raise ctx.fail(f"{sid}.tunnel", f"expected true or false, found {space['tunnel']!r}")
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
    if sum(1 for k in kinds.values() if k == "start") != 4:
        raise ctx.fail("spaces", "expected 4 start spaces")
    return kinds


def _check_area_path(ctx: _Ctx, here: str, p: Any, spaces: set[str]) -> None:
    """One path of an expedition area (``here``: where it is), between two of its ``spaces``,
    with its line and what it costs."""
    p = _keys(ctx, here, p, {"from", "to"}, {"line", "pay"})
    _one_of(ctx, f"{here}.from", p.get("from"), spaces)
    _one_of(ctx, f"{here}.to", p.get("to"), spaces)
    if "line" in p:
        _one_of(ctx, f"{here}.line", p["line"], ("dotted", "dashed"))
    if "pay" in p:
        for key, n in _dict(ctx, f"{here}.pay", p["pay"]).items():
            _one_of(ctx, f"{here}.pay", key, ("food", "tea"))
            _int(ctx, f"{here}.pay.{key}", n, 1)


def _check_area(ctx: _Ctx, name: str, area: Any, ids: set[str], exits: set[str]) -> None:
    """One expedition area: its spaces (ids added to ``ids``), its exit among ``exits``, its
    start, a finishing space at least, its paths."""
    area = _keys(ctx, f"areas.{name}", area, {"exit", "start", "spaces", "paths"}, {"name"})
    if "name" in area and not isinstance(area["name"], str):
        raise ctx.fail(f"areas.{name}.name", f"expected a text, found {area['name']!r}")
    inner: dict[str, dict[str, Any]] = {}
    for i, s in enumerate(_list(ctx, f"areas.{name}.spaces", area.get("spaces"), 2)):
        here = f"areas.{name}.spaces[{i}]"
        s = _dict(ctx, here, s)
        sid = _id(ctx, f"{here}.id", s.get("id"), ids)
        _keys(ctx, here, s, {"id", "x", "y"}, {"finish", "resource"})
        _number(ctx, f"{here}.x", s["x"])
        _number(ctx, f"{here}.y", s["y"])
        inner[sid] = s
    _one_of(ctx, f"areas.{name}.exit", area.get("exit"), exits)
    _one_of(ctx, f"areas.{name}.start", area.get("start"), set(inner))
    if not any("finish" in s for s in inner.values()):
        raise ctx.fail(f"areas.{name}.spaces", "expected at least one finishing space")
    for sid, s in inner.items():
        if "finish" in s:
            _int(ctx, f"areas.{name}.{sid}.finish", s["finish"], 1)
        if "resource" in s:
            _one_of(ctx, f"areas.{name}.{sid}.resource", s["resource"], FOODS)
    for j, p in enumerate(_list(ctx, f"areas.{name}.paths", area.get("paths"), 1)):
        _check_area_path(ctx, f"areas.{name}.paths[{j}]", p, set(inner))


ITEM_NUMBERS = ("strength", "trade", "move", "redraw", "shield", "dice")
"""The numeric abilities of an item or artifact (each a positive integer when present)."""


def _check_kind(ctx: _Ctx, path: str, entry: dict[str, Any]) -> None:
    """The abilities an item or an artifact may carry."""
    _int(ctx, f"{path}.fame", entry.get("fame"))
    for key in ITEM_NUMBERS:
        if key in entry:
            _range(ctx, f"{path}.{key}", entry[key], 1, 20)
    for key in ("bow", "amphibian"):
        if key in entry:
            _true(ctx, f"{path}.{key}", entry[key])
    if "ability" in entry:
        _one_of(ctx, f"{path}.ability", entry["ability"], ("elixir",))


def _check_items(ctx: _Ctx, doc: Any) -> None:
    doc = _keys(ctx, "document", doc, {"items", "artifacts"})
    items = _list(ctx, "items", doc.get("items"), 1)
    abilities = {*ITEM_NUMBERS, "bow", "amphibian", "ability"}
    seen: set[str] = set()
    counts = {"common": 0, "rare": 0}
    common_kinds = 0
    for i, item in enumerate(items):
        item = _dict(ctx, f"items[{i}]", item)
        iid = _id(ctx, f"items[{i}].id", item.get("id"), seen)
        _keys(ctx, iid, item, {"id", "rarity", "copies", "fame"}, abilities)
        rarity = _one_of(ctx, f"{iid}.rarity", item.get("rarity"), ("common", "rare"))
        counts[rarity] += _range(ctx, f"{iid}.copies", item.get("copies"), 1, 18)
        common_kinds += rarity == "common"
        _check_kind(ctx, iid, item)
    if counts["common"] != 18 or counts["rare"] != 6:
        raise ctx.fail(
            "items",
            f"expected 18 common and 6 rare items, found {counts['common']} and {counts['rare']}",
        )
    if common_kinds < 6:
        raise ctx.fail(
            "items", f"expected at least 6 common kinds (2 per ruins), found {common_kinds}"
        )
    artifacts = _list(ctx, "artifacts", doc.get("artifacts"), 1)
    per_area = {a: 0 for a in AREAS}
    for i, art in enumerate(artifacts):
        art = _dict(ctx, f"artifacts[{i}]", art)
        aid = _id(ctx, f"artifacts[{i}].id", art.get("id"), seen)
        _keys(ctx, aid, art, {"id", "area", "size", "fame"}, abilities)
        per_area[_one_of(ctx, f"{aid}.area", art.get("area"), AREAS)] += 1
        _one_of(ctx, f"{aid}.size", art.get("size"), ("small", "large"))
        _check_kind(ctx, aid, art)
    if len(artifacts) != 9 or set(per_area.values()) != {3}:
        raise ctx.fail("artifacts", f"expected 9 artifacts, 3 per area, found {per_area}")


def _check_tents(ctx: _Ctx, doc: Any) -> None:
    doc = _keys(ctx, "document", doc, {"tents"})
    tents = _list(ctx, "tents", doc.get("tents"), 1)
    seen: set[str] = set()
    for i, t in enumerate(tents):
        t = _dict(ctx, f"tents[{i}]", t)
        tid = _id(ctx, f"tents[{i}].id", t.get("id"), seen)
        _keys(ctx, tid, t, {"id", "bonus"})
        _one_of(ctx, f"{tid}.bonus", t.get("bonus"), TENT_BONUSES)
    if len(tents) != 14:
        raise ctx.fail("tents", f"expected 14 tent tokens, found {len(tents)}")


RUINED_SIDES = {
    "grove": ("exchange", FOODS[:3]),
    "lookout": ("discard_pick", None),
    "store": ("sell_once", ("common_item", "two_tea", "two_food_two_cards")),
}
"""What the reverse (ruined) side of each type of tile does, and its allowed values."""


def _check_locations(ctx: _Ctx, doc: Any) -> None:
    doc = _keys(ctx, "document", doc, {"tiles"})
    tiles = _list(ctx, "tiles", doc.get("tiles"), 1)
    counts: dict[str, int] = {}
    seen: set[str] = set()
    for i, tile in enumerate(tiles):
        tile = _dict(ctx, f"tiles[{i}]", tile)
        tid = _id(ctx, f"tiles[{i}].id", tile.get("id"), seen)
        kind = _one_of(ctx, f"{tid}.type", tile.get("type"), LOCATION_TYPES)
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "ruins":
            _keys(ctx, tid, tile, {"id", "type", "restored"})
            _one_of(ctx, f"{tid}.restored", tile.get("restored"), ("store", "lookout", "grove"))
            continue
        _keys(ctx, tid, tile, {"id", "type", "ruined", *(["food"] if kind == "grove" else [])})
        if kind == "grove":
            _one_of(ctx, f"{tid}.food", tile.get("food"), FOODS[:3])
        field_name, allowed = RUINED_SIDES[kind]
        ruined = _keys(ctx, f"{tid}.ruined", tile["ruined"], {field_name})
        if allowed is None:
            _range(ctx, f"{tid}.ruined.{field_name}", ruined[field_name], 1, 20)
        else:
            _one_of(ctx, f"{tid}.ruined.{field_name}", ruined[field_name], allowed)
    if any(counts.get(t, 0) != 3 for t in LOCATION_TYPES):
        raise ctx.fail("tiles", f"expected 3 tiles of each type, found {counts}")


PRICES: tuple[str, ...] = (*FOODS, "food")
STORE_SIZES = ("small", "small", "large", "large")
"""The store's four columns: two of small items (stocked with commons at set-up), two of large
ones (the first stocked with rares); the rules deal the columns by position."""


def _check_store(ctx: _Ctx, doc: Any) -> None:
    doc = _keys(ctx, "document", doc, {"columns", "rows"}, {"trading_bonuses", "gallery"})
    columns = _list(ctx, "columns", doc["columns"])
    if len(columns) != len(STORE_SIZES):
        raise ctx.fail("columns", f"expected {len(STORE_SIZES)} columns, found {len(columns)}")
    for i, col in enumerate(columns):
        col = _keys(ctx, f"columns[{i}]", col, {"size", "price"})
        _one_of(ctx, f"columns[{i}].size", col["size"], (STORE_SIZES[i],))
        _one_of(ctx, f"columns[{i}].price", col["price"], PRICES)
    rows = _list(ctx, "rows", doc["rows"])
    if len(rows) != 3:
        raise ctx.fail("rows", f"expected 3 rows, found {len(rows)}")
    for i, row in enumerate(rows):
        row = _keys(ctx, f"rows[{i}]", row, {"price"})
        _one_of(ctx, f"rows[{i}].price", row["price"], PRICES)
    for i, bonus in enumerate(_list(ctx, "trading_bonuses", doc.get("trading_bonuses", []))):
        bonus = _keys(ctx, f"trading_bonuses[{i}]", bonus, {"symbols", "gain"})
        _int(ctx, f"trading_bonuses[{i}].symbols", bonus["symbols"], 1)
        _one_of(ctx, f"trading_bonuses[{i}].gain", bonus["gain"], ("card", "food", "tea"))
    if "gallery" in doc:
        gallery = _keys(ctx, "gallery", doc["gallery"], {"small", "large"})
        for size in ("small", "large"):
            _one_of(ctx, f"gallery.{size}", gallery[size], PRICES)


COLUMNS: tuple[str, ...] = ("moral", "trading", "pioneering", "fighting")
COMPONENT_KEYS = {
    "food_per_kind", "die", "character_board", "morality", "legendary", "first_player_fame",
    "hand_limit", "start_hand", "start_food", "paws", "tents_each", "days", "encounter_row",
    "characters",
}  # fmt: skip


def _check_die(ctx: _Ctx, die: Any) -> None:
    """The fight die: 1 to 20 faces, each a strength (and maybe a win)."""
    faces = _list(ctx, "die", die, 1)
    if len(faces) > 20:
        raise ctx.fail("die", f"expected at most 20 faces, found {len(faces)}")
    for i, face in enumerate(faces):
        face = _keys(ctx, f"die[{i}]", face, {"strength"}, {"win"})
        _range(ctx, f"die[{i}].strength", face["strength"], 0, 20)
        if "win" in face and not isinstance(face["win"], bool):
            raise ctx.fail(f"die[{i}].win", f"expected true or false, found {face['win']!r}")


def _check_legendary(ctx: _Ctx, legendary: Any) -> None:
    """The legendary tokens: each a distinct id, a story column, the cards it needs, its fame."""
    seen: set[str] = set()
    for i, token in enumerate(_list(ctx, "legendary", legendary)):
        token = _keys(ctx, f"legendary[{i}]", token, {"id", "column", "cards", "fame"})
        _id(ctx, f"legendary[{i}].id", token["id"], seen)
        _one_of(ctx, f"legendary[{i}].column", token["column"], COLUMNS)
        _range(ctx, f"legendary[{i}].cards", token["cards"], 1, 70)
        _range(ctx, f"legendary[{i}].fame", token["fame"], 0, 100)


def _check_components(ctx: _Ctx, doc: Any) -> None:
    """Counts and tracks. The bounds keep a game playable with 4 players: the start hands come
    out of the 70 deeds, the dealt tents out of the 14 tents, the encounter row out of the 20
    encounters, the start food out of the tray."""
    doc = _keys(ctx, "document", doc, COMPONENT_KEYS)
    food = _range(ctx, "food_per_kind", doc["food_per_kind"], 1, 1000)
    _check_die(ctx, doc["die"])
    board = _keys(
        ctx,
        "character_board",
        doc["character_board"],
        {"move", "strength", "trade", "backpack_slots", "backpack_move_slots"},
    )
    for key in ("move", "strength", "trade"):
        _range(ctx, f"character_board.{key}", board[key], 0, 20)
    slots = _range(ctx, "character_board.backpack_slots", board["backpack_slots"], 1, 20)
    _range(ctx, "character_board.backpack_move_slots", board["backpack_move_slots"], 0, slots)
    track = _keys(ctx, "morality", doc["morality"], {"min", "max", "fame"})
    low = _range(ctx, "morality.min", track["min"], -20, 0)
    high = _range(ctx, "morality.max", track["max"], 0, 20)
    fame = _list(ctx, "morality.fame", track["fame"])
    if len(fame) != high - low + 1:
        raise ctx.fail("morality.fame", f"expected {high - low + 1} values (min to max)")
    for i, v in enumerate(fame):
        _range(ctx, f"morality.fame[{i}]", v, 0, 100)
    _check_legendary(ctx, doc["legendary"])
    _range(ctx, "first_player_fame", doc["first_player_fame"], 0, 100)
    _range(ctx, "hand_limit", doc["hand_limit"], 1, 30)
    _range(ctx, "start_hand", doc["start_hand"], 0, 10)
    start = _dict(ctx, "start_food", doc["start_food"])
    for kind, n in start.items():
        _one_of(ctx, f"start_food.{kind}", kind, FOODS)
        _range(ctx, f"start_food.{kind}", n, 0, food // 4)
    _range(ctx, "paws", doc["paws"], 1, 10)
    _range(ctx, "tents_each", doc["tents_each"], 0, 3)
    _range(ctx, "days", doc["days"], 1, 10)
    _range(ctx, "encounter_row", doc["encounter_row"], 3, 3)  # the paw targets name 3 cards
    characters = _list(ctx, "characters", doc["characters"], 4)
    for i, name in enumerate(characters):
        if not isinstance(name, str) or not name:
            raise ctx.fail(f"characters[{i}]", f"expected a name, found {name!r}")


def check_pack(documents: dict[str, Any], texts: dict[str, str]) -> None:
    """Check every document of a pack (see the module docstring)."""
    items_doc = documents["items.json"]
    known: tuple[set[str], set[str]] = (set(), set())

    def ctx(file: str, where: str) -> _Ctx:
        return _Ctx(file, where, texts[file], *known)

    _check_items(ctx("items.json", "items"), items_doc)
    known[0].update(a["id"] for a in items_doc["artifacts"])
    known[1].update(i["id"] for i in items_doc["items"])
    _check_board(ctx("board.json", "board"), documents["board.json"])
    _check_locations(ctx("locations.json", "tiles"), documents["locations.json"])
    _check_tents(ctx("tents.json", "tents"), documents["tents.json"])
    _check_store(ctx("store.json", "store"), documents["store.json"])
    _check_components(ctx("components.json", "components"), documents["components.json"])
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
