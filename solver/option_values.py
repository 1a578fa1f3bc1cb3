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

Shared code: it names no game; every game is read through its declaration.
"""

from __future__ import annotations

import json
from typing import Any

from solver.errors import shortened
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


def text_refusal(spec: GameSpec, name: str, text: str, label: str) -> str | None:
    """Why ``text`` is no value of option ``name``, which takes no text, said of ``label`` (the
    option as the surface names it: ``--option open_backs``, ``options.open_backs``):
    ``'options.open_backs takes a boolean, true or false, not the text "yes"'``; ``None`` when
    the option may take a text."""
    words = expected(spec, name)
    if words is None:
        return None
    return f"{label} takes {words}, not the text {json.dumps(shortened(text))}"
