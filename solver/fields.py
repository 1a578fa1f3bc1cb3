"""Path-aware field checks for documents read from JSON: one way to say what a field should be
and to show what it held.

Every reader of a saved state, a position, a tile set or a levels file names the field that is
wrong (``players.0.score``), what it should be, and what it held, shown as JSON and cut at
:data:`SHOWN_MAX` characters: one :func:`shown` for all of them, so a long or strange value reads
the same whatever the document.

>>> error = field_error("state field players.0.score", "a whole number 0..99", "x" * 80)
>>> error.expected, len(error.found), error.found[-4:]
('state field players.0.score to be a whole number 0..99', 60, 'x...')
"""

from __future__ import annotations

import json
import math
from typing import Any, TypeAlias, TypeGuard

from solver.errors import FormatError

__all__ = [
    "SHOWN_MAX",
    "JSONValue",
    "field_error",
    "is_finite_number",
    "is_positive_number",
    "shown",
    "whole_number",
]

JSONValue: TypeAlias = "bool | int | float | str | list[JSONValue] | dict[str, JSONValue] | None"
"""A value as ``json.loads`` gives it: what a request, a saved document or a row holds raw."""

SHOWN_MAX = 60
"""The longest value an error shows (longer ones end in ``...``)."""


def shown(value: Any, limit: int = SHOWN_MAX) -> str:
    """``value`` as an error shows it: its JSON (its type's name when it has none), at most
    ``limit`` characters.

    >>> shown([1, 2]), shown(object()), shown("a" * 70)[-5:]
    ('[1, 2]', 'object', 'aa...')
    """
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def field_error(where: str, expected: str, found: Any) -> FormatError:
    """The error of a field: ``expected WHERE to be EXPECTED, found VALUE`` (``where`` names the
    document's field: ``"state field players.0.score"``)."""
    return FormatError(f"{where} to be {expected}", line=1, column=1, found=shown(found))


def check_state_game(data: dict[str, Any], game: str) -> None:
    """Refuse a saved state of another game by its name: a state that names its game (the
    Trial's do: ``"game": "trial"``) read as ``game``'s said only which of ``game``'s fields it
    lacked (``expected state field backs to be present, found null``)."""
    named = data.get("game")
    if isinstance(named, str) and named != game:
        raise FormatError(f"a {game} state", line=1, column=1, found=f"a state of {shown(named)}")


def whole_number(where: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is a whole number (not a bool) in ``low..high``, else :func:`field_error`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise field_error(where, f"a whole number {low}..{high}", value)
    return value


def is_finite_number(value: object) -> TypeGuard[int | float]:
    """Is ``value`` a finite number: an ``int`` or a ``float``, never a ``bool``, NaN or an
    infinity, nor an ``int`` too large for a float (JSON reads a whole number of any length)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # 10**400: math.isfinite cannot convert it (it raised, a traceback)
        return False


def is_positive_number(value: object) -> TypeGuard[int | float]:
    """Is ``value`` a finite number > 0 (:func:`is_finite_number`): what every seconds,
    megabytes or time limit a caller passes must be."""
    return is_finite_number(value) and value > 0
