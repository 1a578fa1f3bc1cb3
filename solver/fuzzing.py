"""Seeded single edits of JSON documents, for fuzzing a game's loaders (packs, saved states).

A loader must refuse a broken document with a :mod:`solver.errors` class or accept it and play
on without error; :func:`mutate_json` makes the broken documents. One function serves every
fuzz test, with the knobs where they differ: the odd values put in place, how often an edit
descends into a container rather than replacing it, the nudges applied to integers and whether
strings grow.

>>> import random
>>> mutate_json(random.Random(1), {"a": [1, 2], "b": "x"}, odd=[None])
{'a': [101, 2], 'b': 'x'}
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["mutate_json"]


def mutate_json(
    rng: random.Random,
    value: Any,
    *,
    odd: Sequence[Any],
    descend: float = 0.8,
    nudges: Sequence[int] = (-1, 1, -100, 100),
    grow_strings: bool = False,
) -> Any:
    """``value`` with one random edit somewhere inside (changed in place where it is a container):
    in a dict or list, delete an entry (15 %), add one (a key ``zz``, or a copy of an item:
    5 % / 10 %), descend into one (up to ``descend``) or replace it by one of ``odd``; an integer
    is nudged by one of ``nudges``; a string grows by ``x`` half the time (``grow_strings``);
    anything else becomes one of ``odd``."""

    def edit(value: Any) -> Any:
        if isinstance(value, dict) and value:
            return _edit_entry(rng, value, rng.choice(sorted(value)), edit, odd, descend)
        if isinstance(value, list) and value:
            return _edit_entry(rng, value, rng.randrange(len(value)), edit, odd, descend)
        if isinstance(value, int) and not isinstance(value, bool):
            return value + rng.choice(list(nudges))
        if grow_strings and isinstance(value, str) and value and rng.random() < 0.5:
            return value + "x"
        return copy.deepcopy(rng.choice(odd))

    return edit(value)


def _edit_entry(
    rng: random.Random,
    box: Any,
    key: Any,
    edit: Callable[[Any], Any],
    odd: Sequence[Any],
    descend: float,
) -> Any:
    """One edit at ``box[key]`` (a dict's key or a list's index): delete, add, descend (with
    ``edit``) or replace by one of ``odd``; a dict grows a key ``zz``, a list a copy of the
    entry (5 % / 10 %)."""
    r = rng.random()
    if r < 0.15:
        del box[key]
    elif isinstance(box, dict) and r < 0.2:
        box["zz"] = 1
    elif isinstance(box, list) and r < 0.25:
        box.append(copy.deepcopy(box[key]))
    elif r < descend:
        box[key] = edit(box[key])
    else:
        box[key] = copy.deepcopy(rng.choice(odd))
    return box
