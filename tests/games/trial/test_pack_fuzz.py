"""Malformed content packs: every one is refused with a :class:`PackError` naming its file and
field, or loads and plays; none crashes the schema or, later, the rules.

Targeted cases, one per class of defect found by fuzzing (a crash inside the schema on a value of
the wrong kind, a file whose fields were not checked, a missing store column, an unknown food on a
tile), then a seeded fuzz: one or two random edits of the shipped pack, each either refused with a
``PackError`` or loaded and played for 400 random actions on both engines.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from solver.errors import SolverError
from solver.fuzzing import mutate_json
from solver.games.trial.content import FILES, PackError, load_pack
from solver.registry import load_game
from solver.testing import random_action

SHIPPED = Path(__file__).resolve().parents[3] / "puzzles" / "trial"
BASE = {name: json.loads((SHIPPED / name).read_text(encoding="utf-8")) for name in FILES}


def write(folder: Path, docs: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (folder / name).write_text(json.dumps(docs[name], indent=1), encoding="utf-8")
    return folder


def edited(folder: Path, file: str, edit: Any) -> Path:
    """The shipped pack with ``edit(document)`` applied to ``file``'s document."""
    docs = copy.deepcopy(BASE)
    result = edit(docs[file])
    if result is not None:
        docs[file] = result
    return write(folder, docs)


def setter(*path: Any, value: Any = None, delete: bool = False) -> Any:
    def edit(doc: Any) -> None:
        for key in path[:-1]:
            doc = doc[key]
        if delete:
            del doc[path[-1]]
        else:
            doc[path[-1]] = value

    return edit


# (file, edit, the field the error names) — each a defect the fuzz found
CASES = [
    ("store.json", setter("columns", 3, value=[]), "columns[3]"),
    ("store.json", setter("rows", 0, value=-1), "rows[0]"),
    ("store.json", setter("columns", 1, delete=True), "columns"),
    ("store.json", setter("columns", 0, "size", value="large"), "columns[0].size"),
    ("store.json", setter("note", value={"step": 1}), "document.note"),
    ("items.json", setter("artifacts", value=True), "artifacts"),
    ("items.json", setter("items", value=None), "items"),
    ("items.json", setter("items", 5, value=None), "items[5]"),
    ("items.json", setter("artifacts", 7, value=1), "artifacts[7]"),
    ("items.json", setter("items", 0, "strength", value="1"), "shovel.strength"),
    ("items.json", setter("items", 1, "id", value="shovel"), "items[1].id"),
    ("tents.json", setter("tents", 12, value=[]), "tents[12]"),
    ("locations.json", setter("tiles", 11, value=0), "tiles[11]"),
    (
        "locations.json",
        setter("tiles", 2, "ruined", "exchange", value="mushroomx"),
        "grove-mushroom.ruined.exchange",
    ),
    (
        "locations.json",
        setter("tiles", 6, "ruined", "discard_pick", value="2"),
        "lookout-1.ruined.discard_pick",
    ),
    (
        "board.json",
        setter("areas", "swamps", "spaces", 4, "id", value=-1),
        "areas.swamps.spaces[4].id",
    ),
    ("board.json", setter("spaces", 0, "x", value="0"), "lookout-1.x"),
    ("board.json", setter("edges", 0, value=["lookout-1", "path-01", "camp-1"]), "edges[0]"),
    ("board.json", setter("tunnel_tokens", value=1.5), "tunnel_tokens"),
    ("components.json", setter("tents_each", value=[]), "tents_each"),
    ("components.json", setter("start_hand", value=""), "start_hand"),
    ("components.json", setter("encounter_row", delete=True), "document.encounter_row"),
    ("components.json", setter("encounter_row", value=True), "encounter_row"),
    ("components.json", setter("encounter_row", value=1), "encounter_row"),
    ("components.json", setter("legendary", 2, value=0), "legendary[2]"),
    ("components.json", setter("morality", delete=True), "document.morality"),
    ("components.json", setter("morality", "fame", 10, delete=True), "morality.fame"),
    ("components.json", setter("character_board", value=None), "character_board"),
    (
        "components.json",
        setter("character_board", "backpack_move_slots", value=""),
        "character_board.backpack_move_slots",
    ),
    ("components.json", setter("die", 0, "win", value="yes"), "die[0].win"),
    ("components.json", setter("start_food", "acorn", value=5), "start_food.acorn"),
    ("components.json", setter("food_per_kind", value=0), "food_per_kind"),
    ("components.json", lambda doc: [], "document"),
    ("deeds.json", lambda doc: {"cards": None}, "cards"),
]


@pytest.mark.parametrize(("file", "edit", "field"), CASES, ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_a_malformed_pack_is_a_pack_error_naming_file_and_field(tmp_path, file, edit, field):
    folder = edited(tmp_path / "pack", file, edit)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.file == file
    assert info.value.field == field, str(info.value)


def test_the_shipped_pack_written_out_loads_unchanged(tmp_path):
    pack = load_pack(write(tmp_path / "pack", BASE))
    assert pack.components == BASE["components.json"] and len(pack.cards) == 126


# -- the seeded fuzz ---------------------------------------------------------------------------
ODD = [0, -1, 1, 10**9, None, True, "x", [], {}, 1.5, "", [1], {"step": 1}]


def mutate(rng: random.Random, value: Any) -> Any:
    """``value`` with one random edit somewhere inside (delete, duplicate, replace, nudge)."""
    return mutate_json(rng, value, odd=ODD, grow_strings=True)


def play(pack: Path, rng: random.Random, engine: str, actions: int = 400) -> None:
    game = load_game("trial", engine=engine, players=rng.choice([2, 3, 4]), pack=str(pack))
    st = game.new_initial_state()
    for _ in range(actions):
        if st.is_terminal():
            break
        st.apply_action(random_action(st, rng, by_probability=False))
    st.returns()


def fuzz(folder: Path, seed: int, count: int) -> dict[str, int]:
    rng = random.Random(seed)
    tally = {"refused": 0, "played": 0}
    for _ in range(count):
        docs = copy.deepcopy(BASE)
        for _ in range(rng.randint(1, 2)):
            name = rng.choice(FILES)
            docs[name] = mutate(rng, docs[name])
        write(folder, docs)
        try:
            load_pack(folder)
        except PackError as exc:
            assert exc.file in FILES and exc.field, str(exc)
            tally["refused"] += 1
            continue
        for engine in ("reference", "kernel"):
            try:
                play(folder, random.Random(rng.random()), engine)
            except SolverError as exc:  # an illegal action would be a bug; other errors are not
                assert "not legal" not in str(exc), str(exc)
        tally["played"] += 1
    return tally


def test_randomly_edited_packs_are_refused_or_play(tmp_path):
    tally = fuzz(tmp_path / "pack", 20261130, 40)
    assert tally["refused"] >= 10 and tally["played"] >= 5, tally


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_randomly_edited_packs_are_refused_or_play(tmp_path, seed):
    tally = fuzz(tmp_path / "pack", seed, 300)
    assert tally["refused"] >= 100 and tally["played"] >= 30, tally
