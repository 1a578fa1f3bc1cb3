"""The Trial's content pack: the board, the components and the cards, read from JSON and checked.

A pack is a folder of JSON files (``board.json``, ``locations.json``, ``items.json``,
``store.json``, ``tents.json``, ``components.json``, ``deeds.json``, ``encounters.json``,
``expeditions.json``); the shipped pack is ``puzzles/trial/``. Users load their own with
``load_pack(PATH)``. Every problem in a pack raises :class:`PackError` (a
:class:`~solver.errors.FormatError`) naming the file, the card or component id and the field;
nothing half-checked is returned. The effect language the cards are written in is checked by
:mod:`solver.games.trial.schema` and described in ``docs/rules/trial.md``.

>>> pack = load_pack()
>>> len(pack.deeds), len(pack.encounters), len(pack.expeditions)
(70, 20, 36)
>>> pack.card("deed-01")["name"]
'Food Delivery'
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from solver.games.trial.schema import PackError, check_pack

__all__ = ["FILES", "Pack", "PackError", "default_pack", "load_pack"]

FILES: tuple[str, ...] = (
    "board.json",
    "locations.json",
    "items.json",
    "store.json",
    "tents.json",
    "components.json",
    "deeds.json",
    "encounters.json",
    "expeditions.json",
)
"""The files a pack folder holds."""

_SOURCE_ROOT = Path(__file__).resolve().parents[3] / "puzzles" / "trial"


@dataclass(frozen=True)
class Pack:
    """A checked content pack. The raw documents are kept as dicts (the schema is in the docs);
    ``cards`` indexes every card by id, in deck order."""

    source: str
    board: dict[str, Any]
    locations: list[dict[str, Any]]
    items: list[dict[str, Any]]
    artifacts: list[dict[str, Any]]
    store: dict[str, Any]
    tents: list[dict[str, Any]]
    components: dict[str, Any]
    deeds: list[dict[str, Any]]
    encounters: list[dict[str, Any]]
    expeditions: list[dict[str, Any]]
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)

    def card(self, card_id: str) -> dict[str, Any]:
        """The card ``card_id`` (a :class:`KeyError` for an unknown id)."""
        return self.cards[card_id]

    def card_ids(self) -> list[str]:
        """Every card id: deeds, encounters, then expeditions."""
        return list(self.cards)

    def item(self, item_id: str) -> dict[str, Any]:
        """The item or artifact kind ``item_id``."""
        for entry in (*self.items, *self.artifacts):
            if entry["id"] == item_id:
                return entry
        raise KeyError(item_id)


def _pack_root(path: str | os.PathLike[str] | None) -> Traversable | Path:
    if path is not None:
        root = Path(path)
        if not root.is_dir():
            raise PackError(str(root), "pack", "path", "expected a folder holding the pack's files")
        try:
            present = set(os.listdir(root))
        except OSError as exc:  # a folder without read permission
            raise PackError(str(root), "pack", "path", f"cannot read: {exc.strerror}") from None
        if not present.intersection(FILES):  # a folder, but no pack in it
            raise PackError(
                str(root),
                "pack",
                "path",
                f"a folder holding none of the pack's files ({FILES[0]}, ...)",
            )
        return root
    try:
        return resources.files("solver._puzzles") / "trial"
    except ModuleNotFoundError:
        return _SOURCE_ROOT


def _read(root: Traversable | Path, name: str) -> tuple[Any, str]:
    entry = root / name
    try:
        found = entry.is_file()
    except OSError as exc:  # a user's folder that cannot be searched
        raise PackError(name, "pack", "file", f"cannot read: {exc.strerror}") from None
    if not found:
        where = f" from {root}" if isinstance(root, Path) else ""  # a user's pack: its folder
        raise PackError(name, "pack", "file", f"the file is missing{where}")
    if isinstance(entry, Path):  # a user's pack: size-capped, bad bytes named
        from solver.files import read_bytes

        data = read_bytes(entry, "content-pack file")
    else:
        data = entry.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PackError(name, "json", f"line {line}", "not UTF-8 text", line=line) from None
    try:
        return json.loads(text), text
    except json.JSONDecodeError as exc:
        raise PackError(name, "json", f"line {exc.lineno}", exc.msg, line=exc.lineno) from None
    except RecursionError:
        raise PackError(name, "json", "line 1", "nested too deeply", line=1) from None


def load_pack(path: str | os.PathLike[str] | None = None) -> Pack:
    """The content pack in folder ``path`` (default: the shipped pack), checked.

    >>> load_pack().board["tunnel_tokens"]
    2
    """
    root = _pack_root(path)
    documents: dict[str, Any] = {}
    texts: dict[str, str] = {}
    for name in FILES:
        documents[name], texts[name] = _read(root, name)
    check_pack(documents, texts)
    cards: dict[str, dict[str, Any]] = {}
    for name in ("deeds.json", "encounters.json", "expeditions.json"):
        for card in documents[name]["cards"]:
            cards[card["id"]] = card
    return Pack(
        source=str(path) if path is not None else "default",
        board=documents["board.json"],
        locations=documents["locations.json"]["tiles"],
        items=documents["items.json"]["items"],
        artifacts=documents["items.json"]["artifacts"],
        store=documents["store.json"],
        tents=documents["tents.json"]["tents"],
        components=documents["components.json"],
        deeds=documents["deeds.json"]["cards"],
        encounters=documents["encounters.json"]["cards"],
        expeditions=documents["expeditions.json"]["cards"],
        cards=cards,
    )


_DEFAULT: Pack | None = None


def default_pack() -> Pack:
    """The shipped pack, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_pack()
    return _DEFAULT
