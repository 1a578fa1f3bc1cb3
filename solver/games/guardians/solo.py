"""Solo play: the pawn colours, the round track, the six levels and their tasks.

A solo game is played at one level: 12 rounds plus one extra round for every level task
completed, and won when the score reaches the level's threshold. Levels are data
(``puzzles/guardians/levels.json``), validated completely before use.

Task kinds (``kind`` and its parameters in the JSON form):

- ``all_colours``: a mission completed with every pawn colour;
- ``start_tile``: the start tile's mission completed;
- ``colour_points`` (``colour``, ``points``): at least ``points`` mission points credited to
  the pawn colour ``colour`` (``blue``, ``green``, ``yellow`` or ``red``);
- ``missions_in_turn`` (``count``): at least ``count`` missions completed in one turn;
- ``long_mission`` (``length``): a mission whose walk visits at least ``length`` tiles
  (the start tile's walk counts 6);
- ``small_forest`` (``tiles``): at most ``tiles`` tiles in the forest at the end of a round
  from round 12 on.

>>> levels = default_levels()
>>> [level.threshold for level in levels]
[60, 67, 74, 81, 88, 95]
>>> levels[1].tasks[0].text()
'complete a mission whose walk visits at least 5 tiles'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from solver.errors import FormatError, OptionError
from solver.fields import field_error
from solver.files import read_json_file

__all__ = [
    "BASE_ROUNDS",
    "PAWN_COLOURS",
    "PAWN_NAMES",
    "TASK_KINDS",
    "Level",
    "Task",
    "default_levels",
    "level_by_number",
    "levels_from_dict",
    "load_levels",
]

BASE_ROUNDS = 12
#: The solo pawn colours by index, as letters (``.grove`` pawns) and names (labels).
PAWN_COLOURS = "bgyr"
PAWN_NAMES = ("blue", "green", "yellow", "red")
THRESHOLDS = (60, 67, 74, 81, 88, 95)
#: Each task kind with its parameters (name, smallest value, largest value).
TASK_KINDS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "all_colours": (),
    "start_tile": (),
    "colour_points": (("points", 1, 1000),),
    "missions_in_turn": (("count", 2, 20),),
    "long_mission": (("length", 2, 6),),
    "small_forest": (("tiles", 1, 200),),
}


@dataclass(frozen=True)
class Task:
    """One level task: its kind, its number parameter (or 0) and its pawn colour (or -1)."""

    kind: str
    value: int = 0
    colour: int = -1

    def text(self) -> str:
        """The task in words."""
        if self.kind == "all_colours":
            return "complete a mission with every pawn colour"
        if self.kind == "start_tile":
            return "complete the start tile"
        if self.kind == "colour_points":
            return f"score at least {self.value} VP with the {PAWN_NAMES[self.colour]} pawn"
        if self.kind == "missions_in_turn":
            return f"complete at least {self.value} missions in one turn"
        if self.kind == "long_mission":
            return f"complete a mission whose walk visits at least {self.value} tiles"
        return f"end a round from round {BASE_ROUNDS} on with at most {self.value} forest tiles"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "colour_points":
            out["colour"] = PAWN_NAMES[self.colour]
        for name, _, _ in TASK_KINDS[self.kind]:
            out[name] = self.value
        return out


@dataclass(frozen=True)
class Level:
    """A solo level: its number, the score threshold that wins it, its tasks."""

    number: int
    threshold: int
    tasks: tuple[Task, ...]


def _bad(field: str, expected: str, found: Any) -> FormatError:
    return field_error(f"levels field {field}", expected, found)


def _task(data: Any, where: str) -> Task:
    if not isinstance(data, Mapping):
        raise _bad(where, "a JSON object", data)
    kind = data.get("kind")
    if kind not in TASK_KINDS:
        raise _bad(f"{where}.kind", f"one of {', '.join(TASK_KINDS)}", kind)
    allowed = {"kind"} | {name for name, _, _ in TASK_KINDS[kind]}
    if kind == "colour_points":
        allowed.add("colour")
    extra = sorted(set(data) - allowed)
    if extra:
        raise _bad(f"{where}.{extra[0]}", f"absent for a {kind} task", data[extra[0]])
    value = 0
    for name, low, high in TASK_KINDS[kind]:
        v = data.get(name)
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise _bad(f"{where}.{name}", f"a whole number {low}..{high}", v)
        value = v
    colour = -1
    if kind == "colour_points":
        colour_name = data.get("colour")
        if colour_name not in PAWN_NAMES:
            raise _bad(f"{where}.colour", f"one of {', '.join(PAWN_NAMES)}", colour_name)
        colour = PAWN_NAMES.index(colour_name)
    return Task(kind, value, colour)


def levels_from_dict(data: Any) -> tuple[Level, ...]:
    """The six validated levels from their JSON form; :class:`FormatError` naming the field."""
    if not isinstance(data, Mapping) or set(data) != {"levels"}:
        raise _bad("(top level)", 'an object with one key "levels"', data)
    raw = data["levels"]
    if not isinstance(raw, list) or len(raw) != len(THRESHOLDS):
        raise _bad("levels", f"a list of {len(THRESHOLDS)} levels", raw)
    levels = []
    for index, item in enumerate(raw):
        where = f"levels[{index}]"
        if not isinstance(item, Mapping) or set(item) != {"level", "threshold", "tasks"}:
            raise _bad(where, "an object with level, threshold and tasks", item)
        if item["level"] != index + 1 or isinstance(item["level"], bool):
            raise _bad(f"{where}.level", f"{index + 1}", item["level"])
        if item["threshold"] != THRESHOLDS[index] or isinstance(item["threshold"], bool):
            raise _bad(f"{where}.threshold", f"{THRESHOLDS[index]}", item["threshold"])
        tasks = item["tasks"]
        if not isinstance(tasks, list) or len(tasks) != 2:
            raise _bad(f"{where}.tasks", "a list of 2 tasks", tasks)
        levels.append(
            Level(
                index + 1,
                THRESHOLDS[index],
                tuple(_task(t, f"{where}.tasks[{i}]") for i, t in enumerate(tasks)),
            )
        )
    return tuple(levels)


def levels_to_dict(levels: tuple[Level, ...]) -> dict[str, Any]:
    """The JSON form of the levels (the inverse of :func:`levels_from_dict`)."""
    return {
        "levels": [
            {
                "level": lv.number,
                "threshold": lv.threshold,
                "tasks": [t.to_dict() for t in lv.tasks],
            }
            for lv in levels
        ]
    }


def load_levels(path: str | os.PathLike[str]) -> tuple[Level, ...]:
    """Read and validate a levels file (JSON): read at most 16 MB, bad UTF-8, bad JSON and
    nesting too deep are :class:`~solver.errors.FormatError`, an unreadable path an
    :class:`~solver.errors.OptionError`."""
    return read_json_file(path, "levels", "a JSON levels file", levels_from_dict)


@lru_cache(maxsize=1)
def default_levels() -> tuple[Level, ...]:
    """The six levels shipped as ``puzzles/guardians/levels.json``."""
    from solver.games.guardians.data import data_file

    return load_levels(data_file("levels.json"))


def level_by_number(level: int | Level) -> Level:
    """Level ``level`` (1..6) of the default levels, or ``level`` itself."""
    if isinstance(level, Level):
        return level
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 6:
        raise OptionError(f"a solo level is a whole number 1..6, not {level!r}")
    return default_levels()[level - 1]
