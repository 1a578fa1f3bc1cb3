"""What one of a game's own options takes, in words, for a refusal that names it.

A game declares its options by name and help line (``GameSpec.options``) and, for a few, the
values they take (``GameSpec.option_choices``); it declares no option types. A text given where
the option takes a boolean or a number (``--option open_backs=yes``, a hint request's
``"open_backs": "yes"``) is refused here, naming the option and what it takes, rather than
reaching the game (or, where no path is read, being told it "may name a file"). Without
declared choices, what the option takes is read from the game's default for it: the attribute
of that name on the game built with no options (a boolean default takes true or false, a whole
number a whole number...). An option whose default is no such value (a file's content, an
object) may take a text: nothing is said of it here.

A value of the wrong JSON type (``level=[3]``, ``"open_backs": 2.5``) is refused the same way
(:func:`value_refusal`), on every surface (``load_game``, ``--option``, a hint request's
``options``), before the game sees it: a list given as guardians' ``level`` to a 2-player game
was told levels are solo only, not that a level is a whole number.

Shared code: it names no game; every game is read through its declaration.
"""

from __future__ import annotations

import json
from typing import Any

from solver.errors import json_quoted, printable, shortened
from solver.spec import GameSpec

_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "a boolean, true or false"),  # before int: a bool is an int
    (int, "a whole number"),
    (float, "a number"),
    (list, "a list"),
    (tuple, "a list"),
    (dict, "an object"),
)
"""A default's type and what an option with such a default takes, in words."""

_DEFAULTS: dict[str, dict[str, Any]] = {}
"""Per game name: its options' defaults, read once from the game built with no options."""

_NO_DEFAULT = object()


def _defaults(spec: GameSpec) -> dict[str, Any]:
    """``spec``'s options' defaults: the game built with no options (its default engine), read
    attribute by attribute; an option the game does not expose, or a game that cannot be built
    without options, has none (kept once per game name: a refusal's path, never a request's)."""
    if spec.name not in _DEFAULTS:
        try:
            game = spec.build()
        except Exception:  # a game that needs an option to be built: no defaults to read
            game = None
        _DEFAULTS[spec.name] = {
            name: getattr(game, name, _NO_DEFAULT) for name in spec.options if game is not None
        }
    return _DEFAULTS[spec.name]


def expected(spec: GameSpec, name: str) -> str | None:
    """What ``spec``'s option ``name`` takes, in words (``"a boolean, true or false"``, ``"one
    of 1, 2, 3"``), or ``None`` where it may take a text (a file's path, say) or is unknown."""
    choices = spec.option_choices.get(name)
    if choices is not None:
        return f"one of {', '.join(str(v) for v in choices.values)}"
    default = _defaults(spec).get(name, _NO_DEFAULT)
    for kind, words in _KINDS:
        if isinstance(default, kind):
            return words
    return None


_ACCEPTS: dict[str, tuple[type, ...]] = {
    "a boolean, true or false": (bool,),
    "a whole number": (int,),
    "a number": (int, float),
    "a list": (list, tuple),
    "an object": (dict,),
}
"""What a value must be for an option that takes what the words say (a bool is refused where a
number is taken: ``True`` is an int to Python, not to JSON)."""


_JSON_TYPES = (bool, int, float, str, list, tuple, dict)
"""The values JSON (a request, ``--option``) can give: only these are judged here."""


def _accepted(spec: GameSpec, name: str) -> tuple[str, tuple[type, ...]] | None:
    """What option ``name`` takes, in words, and the Python types of such values; ``None``
    where nothing is known (an option that may take a text, a file's content, an object)."""
    choices = spec.option_choices.get(name)
    if choices is not None:
        kinds = tuple({type(v) for v in choices.values})
        return f"one of {', '.join(str(v) for v in choices.values)}", kinds
    words = expected(spec, name)
    if words is not None:
        return words, _ACCEPTS[words]
    default = _defaults(spec).get(name, _NO_DEFAULT)
    if default is None or default is _NO_DEFAULT or isinstance(default, str):
        return None  # nothing known: the game judges the value
    return _FILE_WORDS, (str, dict)  # a file's content (guardians' tile set): its path or JSON


def takes(spec: GameSpec, name: str) -> str | None:
    """What ``spec``'s option ``name`` takes, in words, as a refusal of a value of the wrong
    type says it (a file's content included: ``"a file's path (a text) or its JSON form (an
    object)"``), or ``None`` where nothing is known here."""
    accepted = _accepted(spec, name)
    return None if accepted is None else accepted[0]


def takes_file(spec: GameSpec, name: str) -> bool:
    """Whether ``spec``'s option ``name`` takes a file's content: its path, or its JSON form
    (guardians' ``tiles``), where a transport that reads no path takes only the JSON form."""
    return takes(spec, name) == _FILE_WORDS


_FILE_WORDS = "a file's path (a text) or its JSON form (an object)"
"""What an option whose default is an object of the game's own (a file's content: guardians'
``tiles``, a ``TileSet``) takes: the file's path, or its JSON form."""


def described(value: Any, typed: str | None = None) -> str:
    """``value`` as a refusal names it: ``the list [3]``, ``the number 2.5``, ``true``; as the
    user ``typed`` it where given (``1e2``, not ``100.0``)."""
    if isinstance(value, bool):
        return "the boolean " + json.dumps(value)
    kind = (
        "number" if isinstance(value, (int, float)) else
        "list" if isinstance(value, (list, tuple)) else
        "object" if isinstance(value, dict) else
        "text" if isinstance(value, str) else type(value).__name__
    )  # fmt: skip
    if typed is not None:
        return f"the {kind} {printable(shortened(typed.strip()))}"
    try:
        shown = json_quoted(value)
    except (TypeError, ValueError, RecursionError):
        shown = printable(repr(value))
    return f"the {kind} {shortened(shown)}"


def value_refusal(
    spec: GameSpec,
    name: str,
    value: Any,
    label: str,
    *,
    api: bool = False,
    typed: str | None = None,
) -> str | None:
    """Why ``value`` is no value of ``spec``'s option ``name``, said of ``label`` (``level``,
    ``--option level``, ``options.level``), or ``None`` when its type fits (the game checks the
    rest: the range, the player count) or is not known here. ``None`` (unset) and values JSON
    cannot give (a ``Level``, a ``TileSet``: the API's own objects) are the game's to judge. A
    text for an option that takes none: :func:`text_refusal`. ``api``: the value came from
    Python (``load_game``), where an option taking a file's content also takes the game's own
    object (a ``TileSet``): its type is left to the game, whose refusal names that object too.
    ``typed``: the value as the user typed it (``--option level=1e2``), quoted so; a number
    typed otherwise than JSON writes it (``-0``) and none of the option's choices is refused
    here, so quoted, where the game would judge it and quote the number it reads (0).

    >>> from solver.registry import game_spec
    >>> value_refusal(game_spec("guardians"), "level", [3], "--option level")
    '--option level takes one of 1, 2, 3, 4, 5, 6, not the list [3]'
    >>> value_refusal(game_spec("guardians"), "open_backs", 1, "open_backs")
    'open_backs takes a boolean, true or false, not the number 1'
    >>> value_refusal(game_spec("guardians"), "level", 9, "level") is None
    True
    """
    if value is None or not isinstance(value, _JSON_TYPES):
        return None  # unset, or a Python object of the game's own (a Level, a TileSet, a Path)
    if isinstance(value, str):
        return text_refusal(spec, name, value, label)
    accepted = _accepted(spec, name)
    if accepted is None or (api and accepted[0] == _FILE_WORDS):
        return None
    words, kinds = accepted
    fits = isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool))
    if fits and not _quoted_alike(value, typed) and not _chosen(spec, name, value):
        fits = False  # the game would quote the number it was given (0), not the typed -0
    return None if fits else f"{label} takes {words}, not {described(value, typed)}"


def _quoted_alike(value: Any, typed: str | None) -> bool:
    """Whether a refusal quoting ``value`` quotes it as the user ``typed`` it (``None``: not
    typed): JSON reads ``-0`` as 0, which a game's own refusal would quote."""
    return typed is None or json.dumps(value) == typed.strip()


def _chosen(spec: GameSpec, name: str, value: Any) -> bool:
    """Whether ``value`` is one of option ``name``'s declared choices, or it declares none."""
    choices = spec.option_choices.get(name)
    return choices is None or value in choices.values


def text_refusal(spec: GameSpec, name: str, text: str, label: str) -> str | None:
    """Why ``text`` is no value of option ``name``, which takes no text, said of ``label`` (the
    option as the surface names it: ``--option open_backs``, ``options.open_backs``):
    ``'options.open_backs takes a boolean, true or false, not the text "yes"'``; ``None`` when
    the option may take a text."""
    words = expected(spec, name)
    if words is None:
        return None
    return f"{label} takes {words}, not the text {json_quoted(shortened(text))}"
