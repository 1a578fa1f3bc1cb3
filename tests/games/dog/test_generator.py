"""Tests of the forest generator (docs/rules/dog.md §12, solver/games/dog/generator.py)."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import OptionError
from solver.games.dog.forest import DELTAS, Forest, Terrain
from solver.games.dog.format import format_forest, parse_forest
from solver.games.dog.generator import (
    DISTRACTION_NAMES,
    GeneratorOptions,
    SplitMix64,
    middle_rows,
    roll_forest,
    start_cell,
)

GOLDEN = Path(__file__).parent / "golden"
SIZES = [(2, 2), (2, 16), (16, 2), (3, 3), (3, 5), (8, 6), (9, 9), (12, 12), (16, 16)]
NO_SPREAD = GeneratorOptions(puddle_spread_min=7)


def _special(forest: Forest) -> set[tuple[int, int]]:
    return {forest.start, forest.human}


def _neighbours(forest: Forest, cell: tuple[int, int]) -> list[tuple[int, int]]:
    out = []
    for dr, dc in DELTAS.values():
        other = (cell[0] + dr, cell[1] + dc)
        if forest.inside(other):
            out.append(other)
    return out


# -- the dice ------------------------------------------------------------------------------------
def test_splitmix64_matches_the_reference_sequence() -> None:
    # The published SplitMix64 outputs for the seed 0.
    rng = SplitMix64(0)
    assert [rng.next_u64() for _ in range(4)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


def test_splitmix64_accepts_the_full_seed_range() -> None:
    assert 0 <= SplitMix64(2**64 - 1).next_u64() < 2**64
    for bad in (-1, 2**64, 1.0, "3", True):
        with pytest.raises(OptionError, match="seed"):
            SplitMix64(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 7, 16])
def test_dice_are_in_range_and_fair(sides: int) -> None:
    rng = SplitMix64(sides)
    n = 600 * sides
    counts = Counter(rng.roll(sides) for _ in range(n))
    assert set(counts) == set(range(1, sides + 1))
    expected = n / sides
    for face in counts:
        assert abs(counts[face] - expected) < 5 * math.sqrt(expected)


def test_a_die_needs_a_side() -> None:
    with pytest.raises(OptionError, match="side"):
        SplitMix64(1).roll(0)


# -- determinism ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_same_seed_same_forest(width: int, height: int) -> None:
    for seed in (0, 1, 7, 12345, 2**64 - 1):
        a = roll_forest(width, height, seed)
        b = roll_forest(width, height, seed)
        assert a == b
        assert format_forest(a) == format_forest(b)


def test_different_seeds_differ() -> None:
    sheets = {format_forest(roll_forest(9, 9, seed)) for seed in range(200)}
    assert len(sheets) == 200
    # The grid alone differs too, not just the name.
    grids = {roll_forest(9, 9, seed).cells for seed in range(200)}
    assert len(grids) == 200


def test_the_name_records_size_and_seed() -> None:
    assert roll_forest(9, 9, 7).name == "rolled-9x9-seed7"
    assert roll_forest(12, 5, 0).name == "rolled-12x5-seed0"
    assert roll_forest().name == "rolled-9x9-seed0"


@pytest.mark.parametrize(
    ("width", "height", "seed"),
    [(9, 9, 7), (12, 12, 3)],
)
def test_golden_files(width: int, height: int, seed: int) -> None:
    forest = roll_forest(width, height, seed)
    golden = GOLDEN / f"rolled-{width}x{height}-seed{seed}.forest"
    text = golden.read_text(encoding="utf-8")
    assert format_forest(forest) == text, (
        f"roll_forest({width}, {height}, {seed}) no longer matches {golden.name}: the generator's "
        "procedure changed. If that is intended, document it in the module docstring and rewrite "
        "the golden files (and puzzles/dog/rolled-9x9-seed7.forest) with format_forest."
    )
    assert parse_forest(text) == forest


def test_the_curated_rolled_puzzle_is_the_golden_forest() -> None:
    from solver import puzzles

    assert puzzles.load("dog/rolled-9x9-seed7") == roll_forest(9, 9, 7)


# -- validity ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_rolled_forest_is_valid(width: int, height: int) -> None:
    rows = middle_rows(height)
    for seed in range(500):
        forest = roll_forest(width, height, seed)
        # Forest validates itself on construction; rebuild it to be sure nothing was bypassed.
        assert forest.replace() == forest
        assert (forest.width, forest.height, forest.turns) == (width, height, 20)
        assert forest.start == (height - 1, (width - 1) // 2)
        assert forest.human[0] == 0
        assert forest.terrain(forest.start) == Terrain.OPEN
        assert forest.terrain(forest.human) == Terrain.OPEN
        assert len(forest.shouters) == 1
        shouter = forest.shouters[0]
        assert shouter.row in rows
        assert forest.terrain(shouter.cell) == Terrain.OPEN
        assert shouter.cell not in _special(forest)
        assert shouter.direction in "NESW"
        assert 2 <= shouter.length <= 4
        assert parse_forest(format_forest(forest)) == forest


def test_positions_cover_the_range() -> None:
    humans = {roll_forest(9, 9, seed).human for seed in range(300)}
    assert humans == {(0, c) for c in range(9)}
    shouter_rows = {roll_forest(9, 9, seed).shouters[0].row for seed in range(300)}
    assert shouter_rows == {3, 4, 5}
    arrows = Counter(roll_forest(9, 9, seed).shouters[0].length for seed in range(300))
    assert set(arrows) == {2, 3, 4}
    directions = Counter(roll_forest(9, 9, seed).shouters[0].direction for seed in range(300))
    assert set(directions) == {"N", "E", "S", "W"}


def test_start_cell_and_middle_rows() -> None:
    assert start_cell(9, 9) == (8, 4)
    assert start_cell(8, 9) == (8, 3)  # the left one of the two middle columns
    assert start_cell(2, 2) == (1, 0)
    assert start_cell(16, 16) == (15, 7)
    assert list(middle_rows(9)) == [3, 4, 5]
    assert list(middle_rows(2)) == [0, 1]
    assert list(middle_rows(3)) == [1]
    assert list(middle_rows(16)) == list(range(5, 11))
    for height in range(2, 17):
        rows = middle_rows(height)
        assert len(rows) >= 1
        # symmetric about the middle of the grid
        assert rows.start == height - rows.stop


# -- statistics ----------------------------------------------------------------------------------
def _frequencies(forests: list[Forest]) -> tuple[Counter[Terrain], int]:
    counts: Counter[Terrain] = Counter()
    total = 0
    for forest in forests:
        special = _special(forest)
        for r in range(forest.height):
            for c in range(forest.width):
                if (r, c) not in special:
                    counts[forest.cells[r][c]] += 1
                    total += 1
    return counts, total


def test_terrain_frequencies_follow_the_2d6_table() -> None:
    # Without spreading, each non-special cell is one independent roll on the table. (Shouters
    # stand on cells rolled open, so they count as open.)
    forests = [roll_forest(9, 9, seed, NO_SPREAD) for seed in range(400)]
    counts, total = _frequencies(forests)
    scents = (Terrain.SCENT_N, Terrain.SCENT_E, Terrain.SCENT_S, Terrain.SCENT_W)
    expected = {
        Terrain.TREE: 6 / 36,  # 2-4
        Terrain.UNDERGROWTH: 9 / 36,  # 5-6
        Terrain.OPEN: 15 / 36 + 3 / 36 * 2 / 6,  # 7-9, and 11-12 then 5-6
        Terrain.PUDDLE: 3 / 36,  # 10
        Terrain.SQUIRREL: 3 / 36 / 6,
        Terrain.DOG: 3 / 36 / 6,
        Terrain.STICK: 3 / 36 / 6,
    }
    observed = dict(counts)
    observed["scent"] = sum(counts[s] for s in scents)  # type: ignore[index]
    expected["scent"] = 3 / 36 / 6  # type: ignore[index]
    assert math.isclose(sum(expected.values()), 1.0)
    for kind, p in expected.items():
        sigma = math.sqrt(p * (1 - p) / total)
        share = observed.get(kind, 0) / total
        assert abs(share - p) < 5 * sigma, (kind, share, p)
    for scent in scents:  # 1d4 for the direction
        assert abs(counts[scent] / observed["scent"] - 0.25) < 0.1  # type: ignore[index]


def test_puddles_spread_only_onto_open_neighbours() -> None:
    # The spread rolls come after every terrain roll, so the same seed with and without spreading
    # has the same rolled terrain; spreading only turns open trail next to a rolled puddle into
    # puddle, never the start or the human.
    always = GeneratorOptions(puddle_spread_min=1)
    grew = 0
    for seed in range(300):
        before = roll_forest(7, 7, seed, NO_SPREAD)
        after = roll_forest(7, 7, seed, always)
        cells = [(r, c) for r in range(7) for c in range(7)]
        rolled = {cell for cell in cells if before.terrain(cell) == Terrain.PUDDLE}
        changed = [cell for cell in cells if before.terrain(cell) != after.terrain(cell)]
        for cell in changed:
            assert before.terrain(cell) == Terrain.OPEN
            assert after.terrain(cell) == Terrain.PUDDLE
            assert cell not in _special(after)
            assert any(n in rolled for n in _neighbours(after, cell))
        assert len(changed) <= len(rolled)
        grew += len(changed)
    assert grew > 0


def test_default_spreading_adds_puddles() -> None:
    plain, total = _frequencies([roll_forest(9, 9, s, NO_SPREAD) for s in range(300)])
    spread, _ = _frequencies([roll_forest(9, 9, s) for s in range(300)])
    base = plain[Terrain.PUDDLE] / total
    share = spread[Terrain.PUDDLE] / total
    # a rolled puddle spreads on 4+ (1/2) when it has an open neighbour (usually)
    assert 1.25 * base < share < 1.55 * base


# -- options -------------------------------------------------------------------------------------
def test_default_options_are_the_rules() -> None:
    o = GeneratorOptions()
    assert (o.tree_max, o.undergrowth_max, o.open_max, o.puddle_max) == (4, 6, 9, 10)
    assert o.puddle_spread_min == 4
    assert o.distractions == ("squirrel", "scent", "dog", "stick", "open", "open")
    assert (o.shouters, o.arrow_min, o.arrow_max, o.turns) == (1, 2, 4, 20)
    assert o.start_column is None and o.human_column is None
    assert roll_forest(9, 9, 3, GeneratorOptions()) == roll_forest(9, 9, 3)
    assert set(DISTRACTION_NAMES) == {"squirrel", "scent", "dog", "stick", "open"}


def test_options_are_frozen_and_hashable() -> None:
    o = GeneratorOptions(distractions=["dog", "open"])  # type: ignore[arg-type]
    assert o.distractions == ("dog", "open")
    assert hash(o) == hash(GeneratorOptions(distractions=("dog", "open")))
    with pytest.raises(AttributeError):
        o.turns = 3  # type: ignore[misc]


def test_turns_and_columns_options() -> None:
    forest = roll_forest(6, 5, 1, GeneratorOptions(turns=7, start_column=0, human_column=5))
    assert forest.turns == 7
    assert forest.start == (4, 0)
    assert forest.human == (0, 5)


def test_shouter_count() -> None:
    assert roll_forest(9, 9, 1, GeneratorOptions(shouters=0)).shouters == ()
    for seed in range(50):
        forest = roll_forest(9, 9, seed, GeneratorOptions(shouters=5))
        cells = [s.cell for s in forest.shouters]
        assert len(set(cells)) == 5
        assert all(r in middle_rows(9) for r, _ in cells)
    # a 2x2 forest has two cells besides the start and the human, both in the middle rows
    forest = roll_forest(2, 2, 0, GeneratorOptions(shouters=2))
    assert {s.cell for s in forest.shouters} == {(0, 0), (0, 1), (1, 0), (1, 1)} - _special(forest)


def test_a_shouter_clears_its_cell_when_no_open_cell_is_left() -> None:
    all_trees = GeneratorOptions(tree_max=12, undergrowth_max=12, open_max=12, puddle_max=12)
    forest = roll_forest(5, 5, 4, all_trees)
    shouter = forest.shouters[0]
    assert forest.terrain(shouter.cell) == Terrain.OPEN
    counts, total = _frequencies([forest])
    assert counts[Terrain.TREE] == total - 1


def test_custom_tables() -> None:
    only_dogs = GeneratorOptions(
        tree_max=1, undergrowth_max=1, open_max=1, puddle_max=1, distractions=("dog",), shouters=0
    )
    forest = roll_forest(4, 4, 9, only_dogs)
    counts, total = _frequencies([forest])
    assert counts == Counter({Terrain.DOG: total})
    no_trees = GeneratorOptions(tree_max=1)
    assert all(
        Terrain.TREE not in row for s in range(30) for row in roll_forest(6, 6, s, no_trees).cells
    )
    arrows = GeneratorOptions(arrow_min=6, arrow_max=6)
    assert roll_forest(6, 6, 2, arrows).shouters[0].length == 6


@pytest.mark.parametrize(
    ("changes", "word"),
    [
        ({"tree_max": 0}, "tree_max"),
        ({"tree_max": 13}, "tree_max"),
        ({"tree_max": 7}, "tree_max"),
        ({"open_max": 5}, "undergrowth_max"),
        ({"puddle_max": 8}, "open_max"),
        ({"puddle_max": 4.5}, "puddle_max"),
        ({"puddle_spread_min": 0}, "puddle_spread_min"),
        ({"puddle_spread_min": 8}, "puddle_spread_min"),
        ({"distractions": ()}, "distractions"),
        ({"distractions": ("cat",)}, "cat"),
        ({"distractions": "squirrel"}, "distractions"),
        ({"distractions": (["dog"],)}, "distraction"),
        ({"shouters": -1}, "shouters"),
        ({"shouters": True}, "shouters"),
        ({"arrow_min": 0}, "arrow_min"),
        ({"arrow_max": 7}, "arrow_max"),
        ({"arrow_min": 4, "arrow_max": 3}, "arrow_min"),
        ({"turns": 0}, "turns"),
        ({"turns": 256}, "turns"),
        ({"turns": "20"}, "turns"),
        ({"start_column": -1}, "start_column"),
        ({"human_column": -2}, "human_column"),
    ],
)
def test_bad_options(changes: dict[str, object], word: str) -> None:
    with pytest.raises(OptionError, match=word) as info:
        GeneratorOptions(**changes)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("args", "word"),
    [
        ((1, 9, 0), "width"),
        ((17, 9, 0), "width"),
        ((9, 0, 0), "height"),
        ((9, 17, 0), "height"),
        (("9", 9, 0), "width"),
        ((9, True, 0), "height"),
        ((9, 9, -1), "seed"),
        ((9, 9, 2**64), "seed"),
        ((9, 9, 1.0), "seed"),
        ((9, 9, 0, GeneratorOptions(start_column=9)), "start_column"),
        ((9, 9, 0, GeneratorOptions(human_column=9)), "human_column"),
        ((2, 2, 0, GeneratorOptions(shouters=3)), "shouters"),
        ((9, 9, 0, GeneratorOptions(shouters=28)), "shouters"),
        ((9, 9, 0, {"turns": 3}), "options"),
    ],
)
def test_bad_arguments(args: tuple[object, ...], word: str) -> None:
    with pytest.raises(OptionError, match=word):
        roll_forest(*args)  # type: ignore[arg-type]


def test_integer_types_other_than_int_are_accepted() -> None:
    np = pytest.importorskip("numpy")
    forest = roll_forest(np.int64(9), np.int32(9), np.uint64(7))
    assert forest == roll_forest(9, 9, 7)
    assert forest.name == "rolled-9x9-seed7"
    assert GeneratorOptions(turns=np.int16(5)).turns == 5
    assert type(GeneratorOptions(turns=np.int16(5)).turns) is int


def test_most_shouters_that_fit() -> None:
    forest = roll_forest(9, 9, 0, GeneratorOptions(shouters=27))
    assert len(forest.shouters) == 27


@settings(max_examples=150, deadline=None)
@given(
    width=st.integers(2, 16),
    height=st.integers(2, 16),
    seed=st.integers(0, 2**64 - 1),
    bounds=st.lists(st.integers(1, 12), min_size=4, max_size=4).map(sorted),
    spread=st.integers(1, 7),
    table=st.lists(st.sampled_from(sorted(DISTRACTION_NAMES)), min_size=1, max_size=8),
    shouters=st.integers(0, 2),
    arrow=st.lists(st.integers(1, 6), min_size=2, max_size=2).map(sorted),
)
def test_any_valid_options_give_a_valid_reproducible_forest(
    width: int,
    height: int,
    seed: int,
    bounds: list[int],
    spread: int,
    table: list[str],
    shouters: int,
    arrow: list[int],
) -> None:
    options = GeneratorOptions(
        tree_max=bounds[0],
        undergrowth_max=bounds[1],
        open_max=bounds[2],
        puddle_max=bounds[3],
        puddle_spread_min=spread,
        distractions=tuple(table),
        shouters=shouters,
        arrow_min=arrow[0],
        arrow_max=arrow[1],
    )
    forest = roll_forest(width, height, seed, options)
    assert forest == roll_forest(width, height, seed, options)
    assert len(forest.shouters) == shouters
    assert all(arrow[0] <= s.length <= arrow[1] for s in forest.shouters)
    assert parse_forest(format_forest(forest)) == forest
