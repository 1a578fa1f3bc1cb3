"""Forest guardians' batch analysis: how many missions a position's best order completes, and
whether the naive order (the first legal walk, again and again) loses some.

An instance is a ``.grove`` position (one player's forest at the mission step of a turn), read
from a file or rolled by :func:`roll_grove`: a random forest of ``width`` x ``height`` cells
grown tile by tile from the middle (so it is one piece), forest side up in three colours, with
up to four pawns standing on mission-side tiles. :func:`analyse_source` answers the headline
question exactly within a state budget: the best mission order
(:func:`~.mission_order_search.best_order`, most missions then most points), the first legal
order, and the position's shape (tiles, pawns, candidate walks, cut vertices).

Classes (docs/analysis.md): ``none`` (no mission can be completed), ``easy`` (the first legal
order is already optimal), ``trap`` (it ends with fewer missions, or as many for fewer points),
``unsolved`` (the exhaustive search needed more than :data:`MAX_STATES` positions).

The skill measure (``forest analyse --skill-games G``, :func:`ladder_spread`): the position is
played to the end of its solo game ``G`` times by the strength ladder's strongest level and ``G``
times by its weakest, the i-th game of each dealt the same tiles; ``skill`` is the strongest
level's win rate less the weakest's (a win: the solo level's threshold reached). Off by default
(the strongest level plays whole games).

>>> hooks = analysis_hooks()
>>> list(hooks.classes)
['none', 'easy', 'trap', 'unsolved']
>>> grove = hooks.roll(3, (5, 4), None)
>>> grove.name, (grove.width, grove.height)
('rolled-5x4-seed3', (5, 4))
>>> hooks.load is not None and hooks.dump(grove).startswith("name: rolled-5x4-seed3")
True
"""

from __future__ import annotations

import bisect
from typing import Any

from solver.spec import AnalysisHooks

__all__ = ["ADVICE", "CLASSES", "COLUMNS", "MAX_STATES", "analyse_source", "analysis_hooks"]

MAX_STATES = 20_000
"""The most positions the exhaustive mission search may memoise per instance (its budget)."""

CLASSES: dict[str, str] = {
    "none": "no mission can be completed at this mission step (no legal walk)",
    "easy": "the first legal order (the first legal walk, again and again) already completes as "
    "many missions for as many points as the best order",
    "trap": "the first legal order completes fewer missions than the best order, or as many for "
    "fewer points: the order matters",
    "unsolved": f"the exhaustive best-order search needed more than {MAX_STATES} positions, "
    "or more time than the analysis allowed (best_count unknown; the first legal order is "
    "still given)",
}
"""The classes, in report order, with their definitions."""

ADVICE: dict[str, str] = {
    "none": "the forests are too sparse for any walk: roll a larger --size",
    "easy": "no position punishes the naive order: roll a larger --size for longer chains",
    "trap": "every position punishes the naive order: roll a smaller --size to see easy ones",
    "unsolved": "the positions are too large for the exhaustive search: roll a smaller --size",
}
"""What to change when every position of a batch lands in one class."""

COLUMNS: dict[str, str] = {
    "tiles": "Int64",
    "pawns": "Int64",
    "mission_tiles": "Int64",
    "candidate_walks": "Int64",
    "cut_vertices": "Int64",
    "best_count": "Int64",
    "best_points": "Int64",
    "first_count": "Int64",
    "first_points": "Int64",
    "lost_missions": "Int64",
    "exact": "boolean",
    "best_order": "string",
    "skill_games": "Int64",
    "strongest_win_rate": "float64",
    "weakest_win_rate": "float64",
    "skill": "float64",
}
"""The result columns (besides the shared ones) with their types."""

_PALETTE = "BGR"
_PAWNS = "bgyr"


def roll_grove(seed: int, width: int, height: int) -> Any:
    """A random position of ``width`` x ``height`` cells from ``seed`` (same seed, same grove).

    Between half and four fifths of the cells get a tile, grown one neighbour at a time from the
    middle cell so the forest is one piece; a tile is forest side up (colour from B G R, a
    mission of 2 or 3 colours on its back) or, one time in three while pawns remain, mission side
    up with a solo pawn on it; at least one pawn is placed.
    """
    from solver.games.guardians.board import neighbours
    from solver.games.guardians.grove_position import DEFAULT_TABLE, Grove, GroveCell
    from solver.rng import SplitMix64

    rng = SplitMix64(seed)
    area = width * height
    target = max(2, min(area, area // 2 + rng.below(area * 3 // 10 + 1)))
    order = [(height // 2, width // 2)]  # the cells so far, kept sorted
    cells = set(order)
    while len(cells) < target:
        r, c = rng.pick(order)
        n = rng.pick(neighbours((r, c)))
        if 0 <= n[0] < height and 0 <= n[1] < width and n not in cells:
            cells.add(n)
            bisect.insort(order, n)
    letters = list(_PAWNS)
    grid: list[list[Any]] = [[None] * width for _ in range(height)]
    for index, (r, c) in enumerate(order):
        length = 2 if rng.roll(3) > 1 else 3
        sequence = "".join(rng.pick(_PALETTE) for _ in range(length))
        last_chance = index == len(order) - 1 and len(letters) == len(_PAWNS)
        if letters and (rng.roll(3) == 1 or last_chance):
            pawn = letters.pop(rng.below(len(letters)))
            grid[r][c] = GroveCell(None, sequence, True, False, pawn)
        else:
            grid[r][c] = GroveCell(rng.pick(_PALETTE), sequence)
    name = f"rolled-{width}x{height}-seed{seed}"
    return Grove(name, "solo", DEFAULT_TABLE, tuple(tuple(row) for row in grid))


def cut_vertices(cells: set[tuple[int, int]]) -> int:
    """How many tiles would split the forest if removed (the forest's cut vertices)."""
    from solver.games.guardians.connectivity import splits_forest

    return sum(1 for cell in cells if splits_forest(cells, cell))


def position_state(grove: Any) -> Any:
    """The position's state at its mission step, on the kernel engine when the position fits the
    kernel (at most 254 tiles with the tile set, a forest in one piece: ``ext/guardians.pyx``),
    else on the reference rules. The two agree on every observable (the differential tests), so
    the row is the same either way; only the time differs. A missing kernel is an error."""
    from solver.errors import ExtensionMissingError, OptionError
    from solver.games.guardians.kernel import KernelGuardiansGame
    from solver.games.guardians.rules import GuardiansGame

    try:
        return KernelGuardiansGame(position=grove).new_initial_state()
    except ExtensionMissingError:
        raise
    except OptionError:  # past the kernel's limits
        return GuardiansGame(position=grove).new_initial_state()


def analyse_grove(grove: Any, max_states: int = MAX_STATES) -> dict[str, Any]:
    """The analysis row of a position (see the module docstring for the classes)."""
    from solver.games.guardians.mission_order_cpsat import candidate_walks
    from solver.games.guardians.mission_order_search import bounded_best_order, first_legal_order

    state = position_state(grove)
    tiles = grove.tiles()
    first = first_legal_order(state)
    row: dict[str, Any] = {
        "width": grove.width,
        "height": grove.height,
        "tiles": len(tiles),
        "pawns": sum(1 for _, cell in tiles if cell.pawn is not None),
        "mission_tiles": sum(1 for _, cell in tiles if cell.mission),
        "candidate_walks": len(candidate_walks(state)),
        "cut_vertices": cut_vertices({place for place, _ in tiles}),
        "first_count": first.count,
        "first_points": first.points,
    }
    if first.count == 0:  # no legal walk at all: the best order is empty too
        return {
            **row,
            "class": "none",
            "best_count": 0,
            "best_points": 0,
            "lost_missions": 0,
            "exact": True,
            "best_order": "",
        }
    best = bounded_best_order(state, max_states)
    if best is None:
        return {**row, "class": "unsolved", "exact": False}
    easy = (first.count, first.points) >= (best.count, best.points)
    return {
        **row,
        "class": "easy" if easy else "trap",
        "best_count": best.count,
        "best_points": best.points,
        "lost_missions": best.count - first.count,
        "exact": True,
        "best_order": "; ".join(step.label for step in best.steps),
    }


def ladder_spread(grove: Any, games: int, seed: int) -> dict[str, Any]:
    """The skill measure's columns (module doc): ``games`` solo games from the position by the
    ladder's strongest level and as many by its weakest, game ``i`` of each dealt from the
    chance seed ``derive_seed(seed, i)`` and played by the level seeded the same way."""
    from solver.game import play_game
    from solver.games.guardians import SPEC
    from solver.render.tables import skill_columns
    from solver.rng import derive_seed

    game = position_state(grove).get_game()
    rates = {}
    for level in ("level1", "level10"):
        build = SPEC.agent(level).build
        wins = 0
        for i in range(games):
            agent = build(game, seed=derive_seed(seed, i))
            wins += play_game(game, [agent], seed=derive_seed(seed, i)).final.returns()[0] > 0.5
        rates[level] = wins / games
    return skill_columns(games, rates["level10"], rates["level1"])


def skill_seed(source: str) -> int:
    """The seed of an instance's skill games: SHA-256 of its source name (the same in every run
    and process)."""
    import hashlib

    return int.from_bytes(hashlib.sha256(source.encode()).digest()[:5], "big")


def analyse_source(source: Any) -> dict[str, Any]:
    """The function ``forest analyse --game guardians`` runs on each instance."""
    grove = source.load()
    row = analyse_grove(grove)
    games = getattr(source, "skill_games", 0)
    if games:
        row.update(ladder_spread(grove, games, skill_seed(str(source.source))))
    return row


def load(path: str) -> Any:
    """A position read from a ``.grove`` file."""
    from solver.games.guardians.grove_format import load_grove

    return load_grove(path)


def dump(grove: Any) -> str:
    """A position's ``.grove`` text."""
    from solver.games.guardians.grove_format import format_grove

    return str(format_grove(grove))


def roll(seed: int, size: tuple[int, int], turns: int | None) -> Any:
    """The position :func:`roll_grove` rolls at ``size`` (no turn limit: ``turns`` is unused)."""
    return roll_grove(seed, size[0], size[1])


def report_sections(frame: Any, directory: Any, load_row: Any) -> list[str]:
    """The report's guardians section: per class, the mean shape and orders of its positions,
    then the positions where the first legal order loses the most missions."""
    from solver.render.tables import md_table, numbers, skill_section, texts

    classes = texts(frame, "class")
    shown = ("tiles", "candidate_walks", "cut_vertices", "best_count", "first_count")
    rows: list[list[Any]] = []
    for name in CLASSES:
        chosen = (classes == name).to_numpy()
        if not chosen.any():
            continue
        means = [numbers(frame[chosen], column).mean() for column in shown]
        rows.append([name, int(chosen.sum()), *(f"{m:.1f}" if m == m else "" for m in means)])
    lines = ["## Mission orders", ""]
    lines += md_table(["class", "positions", *(c.replace("_", " ") for c in shown)], rows)
    lost = numbers(frame, "lost_missions")
    worst = frame[(lost > 0).to_numpy()].assign(_lost=lost[lost > 0])
    worst = worst.sort_values("_lost", ascending=False, kind="stable").head(5)
    lines += ["", "The positions where the first legal order loses the most missions:", ""]
    if worst.empty:
        lines.append("None: the first legal order never lost a mission.")
    else:
        table = [
            [r["source"], r["best_count"], r["first_count"], r["best_order"]]
            for r in worst.to_dict(orient="records")
        ]
        lines += md_table(["source", "best", "first legal", "best order"], table)
    return [*lines, "", *skill_section(frame, directory, "position")]


def analysis_hooks() -> AnalysisHooks:
    """Forest guardians' analysis hooks (see :class:`~solver.spec.AnalysisHooks`)."""
    from solver.games.guardians.grove_position import MAX_GROVE_SIZE

    return AnalysisHooks.of_module(
        __name__,
        value_column="best_count",
        budgets=f"exhaustive best-order search: at most {MAX_STATES} positions per instance",
        extension=".grove",
        noun="position",
        size_range=(2, MAX_GROVE_SIZE),
        default_size=(6, 5),
        max_file_bytes=1 << 16,
        skill_games=True,
    )
