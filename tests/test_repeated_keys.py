"""A JSON object naming a key twice is refused wherever JSON is read (``solver.json_objects``).

Python's parser keeps the last of two values for one key silently, so ``{"players": 2,
"players": 4}`` in a saved state, a record or a tile set was read as 4 players with nothing
said. Checked here: the one loader against ``json.loads`` on random documents (equal where no
key repeats; a repeat planted at a known path is found there, at the line and column it was
written), and the library's readers and the command line on each kind of document. The hint
transports (stdio, HTTP, table sessions) are checked in ``tests/hint/test_repeated_keys.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import solver
from solver.errors import DuplicateKeyError, FormatError
from solver.games.guardians.data import data_file
from solver.json_objects import find_repeat, loads
from solver.testing import run_forest as forest


def _document(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: objects, lists, strings with braces, quotes and escapes in them."""
    kind = rng.randrange(5 if depth < 4 else 3)
    if kind == 0:
        return rng.choice([0, -3, 2.5, True, None])
    if kind == 1:
        return rng.choice(['a"b', "{[:,]}", "\\", "é", "k"])
    if kind == 2:
        return rng.choice(["x", "y", "k"])
    if kind == 3:
        return [_document(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = rng.sample(["k", "a", "{", 'q"', "p:", "k2"], rng.randrange(1, 5))
    return {key: _document(rng, depth + 1) for key in keys}


def _objects(value: Any, path: list[Any]) -> list[tuple[list[Any], dict]]:
    """Every object of ``value`` with its path."""
    found: list[tuple[list[Any], dict]] = []
    if isinstance(value, dict):
        found.append((path, value))
        for key, child in value.items():
            found.extend(_objects(child, [*path, key]))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(_objects(child, [*path, index]))
    return found


MARK = "\u2603"
"""A key no random document holds: where the repeat is planted."""


@pytest.mark.parametrize("seed", range(40))
def test_a_repeat_planted_anywhere_is_found_there(seed: int) -> None:
    rng = random.Random(seed)
    document = {"root": _document(rng)}
    text = json.dumps(document, indent=rng.choice([None, 1]))
    assert loads(text) == json.loads(text) and find_repeat(text) is None
    path, target = rng.choice(_objects(document, []))
    target[MARK] = 1
    planted = json.dumps(document, indent=rng.choice([None, 1]), ensure_ascii=False)
    first = planted.index(json.dumps(MARK, ensure_ascii=False))
    # the repeat: the key written again right after its first occurrence's value
    end = first + len(json.dumps(MARK, ensure_ascii=False)) + len(": 1")
    text = planted[:end] + f', "{MARK}": 2' + planted[end:]
    with pytest.raises(DuplicateKeyError) as caught:
        loads(text)
    error = caught.value
    assert (error.key, error.field) == (MARK, [*path, MARK])
    offset = end + 2
    assert error.line == text.count("\n", 0, offset) + 1
    assert error.column == offset - text.rfind("\n", 0, offset)


def test_escaped_spellings_of_one_key_are_one_key() -> None:
    with pytest.raises(DuplicateKeyError) as caught:
        loads('{"list": [{"ab": 1, "a\\u0062": 2}]}')
    assert caught.value.field == ["list", 0, "ab"]
    assert str(caught.value) == (
        "line 1, column 21: expected each key once in an object, found 'ab' again (at list.0.ab)"
    )


def _repeat(text: str, key: str, value: str) -> str:
    """``text`` with ``"key": value,`` written before the first ``"key":`` (the repeat)."""
    at = text.index(f'"{key}":')
    return text[:at] + f'"{key}": {value}, ' + text[at:]


@pytest.mark.parametrize(
    ("game", "options", "key"),
    [("guardians", {"players": 2}, "players"), ("trial", {"players": 2}, "players"),
     ("dog", {"forest": "dog/stick"}, "stamina")],
)  # fmt: skip
def test_a_saved_state_with_a_repeated_key_is_refused(game: str, options: dict, key: str) -> None:
    """Every game's states are read by the one loader (its ``state_from_json``), both engines."""
    for engine in solver.game_spec(game).engines:
        loaded = solver.load_game(game, engine=engine, **options)
        text = loaded.new_initial_state().to_json()
        loaded.state_from_json(text)  # as written: read
        with pytest.raises(DuplicateKeyError) as caught:
            loaded.state_from_json(_repeat(text, key, "0"))
        assert caught.value.key == key and isinstance(caught.value, FormatError)


def _recorded(tmp_path: Path) -> Path:
    record = tmp_path / "game.json"
    run = forest("guardians", "play", "--players", "1", "--agent", "greedy", "--seed", "1",
                 "--record", str(record))  # fmt: skip
    assert run.returncode == 0, run.stderr
    return record


def test_the_command_line_refuses_a_record_state_or_tile_set_naming_the_key(tmp_path) -> None:
    record = _recorded(tmp_path)
    text = record.read_text(encoding="utf-8")
    bad = tmp_path / "twice.json"
    bad.write_text(text.replace('"players": 1', '"players": 1, "players": 2', 1), "utf-8")
    said = "expected each key once in an object, found 'players' again (at options.players)"
    for argv in (["review", str(bad)], ["show", str(bad)], ["show", "--state", str(bad)]):
        run = forest("guardians", *argv)
        assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
        assert str(bad) in run.stderr and said in run.stderr, run.stderr
    tiles = json.loads(data_file("tiles.json").read_text(encoding="utf-8"))
    tile_file = tmp_path / "tiles.json"
    first = next(iter(tiles))
    tile_file.write_text(_repeat(json.dumps(tiles), first, json.dumps(tiles[first])), "utf-8")
    run = forest("guardians", "show", "--option", f"tiles={tile_file}")
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert f"found '{first}' again (at {first})" in run.stderr, run.stderr


class _Counted(str):
    """A text that counts the characters its slices copy (:func:`find_repeat` reads it)."""

    copied = 0

    def __getitem__(self, index: Any) -> str:
        part = str.__getitem__(self, index)
        _Counted.copied += len(part)
        return part


def test_the_scan_reads_the_text_in_place() -> None:
    """Defect (found by attack): the scan that locates a repeat copied the rest of the text
    after every string to look for its colon, so a 1 MB request of 95,000 keys held the HTTP
    service's event loop (every client, ``/health`` included) for 33 s. Now the scan reads
    each character once, and copies only the keys: a few times the text's length in all (it
    was about the number of strings times half the length: quadratic)."""
    for keys in (100, 2_000):
        text = "{" + ", ".join(f'"k{i}": "v{i}"' for i in range(keys)) + ', "k0": 1}'
        _Counted.copied = 0
        assert find_repeat(_Counted(text)) == (len(text) - len('"k0": 1}'), ["k0"])
        assert _Counted.copied <= 3 * len(text)


def test_a_long_key_is_quoted_short() -> None:
    """Defect (found by attack): a repeated key of 200,000 characters made a message of
    600,000 (the key and its path quoted whole); its start is quoted, and its length said."""
    key = "K" * 200_000
    text = json.dumps({"a": 1}).replace("}", f', "{key}": 1, "{key}": 2}}')
    with pytest.raises(DuplicateKeyError) as caught:
        loads(text)
    error = caught.value
    column = text.rindex(f'"{key}"') + 1
    assert error.key == key and error.field == [key]  # whole in the error's fields
    shown = f"{'K' * 60}... (200000 characters)"
    assert str(error) == (
        f"line 1, column {column}: expected each key once in an object, found '{shown}' again "
        f"(at {shown})"
    )
