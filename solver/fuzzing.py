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
from collections.abc import Sequence
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
            key = rng.choice(sorted(value))
            r = rng.random()
            if r < 0.15:
                del value[key]
            elif r < 0.2:
                value["zz"] = 1
            elif r < descend:
                value[key] = edit(value[key])
            else:
                value[key] = copy.deepcopy(rng.choice(odd))
            return value
        if isinstance(value, list) and value:
            i = rng.randrange(len(value))
            r = rng.random()
            if r < 0.15:
                del value[i]
            elif r < 0.25:
                value.append(copy.deepcopy(value[i]))
            elif r < descend:
                value[i] = edit(value[i])
            else:
                value[i] = copy.deepcopy(rng.choice(odd))
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return value + rng.choice(list(nudges))
        if grow_strings and isinstance(value, str) and value and rng.random() < 0.5:
            return value + "x"
        return copy.deepcopy(rng.choice(odd))

    return edit(value)
