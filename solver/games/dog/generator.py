"""Rolling a forest: the default dog-forest generator (docs/rules/dog.md §12).

:func:`roll_forest` turns a size, a seed and :class:`GeneratorOptions` into a :class:`Forest`.
The result is the same on every platform and every Python version: all dice come from
:class:`SplitMix64`, a small integer generator written here in pure Python integers (Python's
``random`` module is never used, its algorithms may change between versions). The generator
does not promise a solvable forest; telling solvable from unsolvable ones is the analysis's job.

>>> forest = roll_forest(9, 9, seed=7)
>>> forest.name, forest.width, forest.height, forest.start, forest.turns
('rolled-9x9-seed7', 9, 9, (8, 4), 20)
>>> forest == roll_forest(9, 9, seed=7)
True
>>> len(roll_forest(6, 4, seed=1, options=GeneratorOptions(shouters=2)).shouters)
2

The exact procedure (any change to it changes every rolled forest, and the golden files in
``tests/games/dog/golden/`` catch that):

**Dice.** :class:`SplitMix64` (Steele, Lea and Flood's generator) is seeded with the seed itself
(0 ≤ seed < 2**64). Each draw adds ``0x9E3779B97F4A7C15`` to the state (mod 2**64) and mixes it:
``z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27; z *= 0x94D049BB133111EB; z ^= z >> 31``
(products mod 2**64). A die with ``n`` sides draws until a value is below ``n * (2**64 // n)``
(rejection, so every face is exactly equally likely) and reads it as ``1 + x % n``; even a
one-sided die makes its draw. "2d6" is two 1d6 rolls added. Picking "a random one" of ``k``
candidates rolls 1dk and takes the candidate with that 1-based index in the order the candidates
are listed (always row-major, or N, E, S, W for neighbours).

**Steps, in this order** (every roll below is made only when the step is reached):

1. The dog's start is on the bottom row, column ``options.start_column`` or, by default, the
   middle column ``(width - 1) // 2`` (for an even width, the left one of the two middle columns:
   column 4 of 9, column 3 of 8).
2. The human's column: ``options.human_column``, or by default 1d``width`` (column = roll − 1).
   The human is on the top row.
3. Terrain, every cell in row-major order (row 0 first, left to right), skipping the start and
   the human (they are open trail): roll 2d6 and read the sum on the table
   ``sum ≤ tree_max`` → tree, ``≤ undergrowth_max`` → undergrowth, ``≤ open_max`` → open trail,
   ``≤ puddle_max`` → puddle, otherwise roll 1d``len(distractions)`` on the distraction sub-table
   (default 1 squirrel, 2 scent trail, 3 another dog, 4 interesting stick, 5–6 open trail); a scent
   trail then rolls 1d4 for its direction: 1 N, 2 E, 3 S, 4 W.
4. Puddle spreading, after all terrain is rolled: for every puddle cell rolled in step 3, in
   row-major order, roll 1d6; on ``puddle_spread_min`` or more the puddle spreads to a random one
   of its orthogonal neighbours (listed N, E, S, W) that is inside the grid, is *currently* open
   trail and is neither the start nor the human. With no such neighbour nothing spreads and no
   further die is rolled. A spread cell does not spread again. Neighbouring puddles may so form
   regions of three or more cells (allowed by docs/rules/dog.md §8).
5. Shouters, one after the other (``options.shouters`` of them, default 1). The *middle rows*
   are rows ``height // 3`` to ``height - 1 - height // 3`` inclusive (rows 3–5 of 9, 4–7 of 12,
   1 of 3, both rows of 2). The candidates are the middle-row cells, in row-major order, that are
   open trail and are not the start, the human or an earlier shouter; pick a random one. If there
   is none, the candidates are all middle-row cells that are not the start, the human or an
   earlier shouter, and the picked cell is cleared to open trail. Then roll 1d4 for the direction
   (1 N, 2 E, 3 S, 4 W) and the arrow length ``arrow_min + (1d(arrow_max - arrow_min + 1) − 1)``
   (by default 1d3 + 1, so 2 to 4).
6. The forest is named ``rolled-{width}x{height}-seed{seed}`` (width first; the name does not
   record non-default options) and gets ``options.turns`` turns.

Impossible options raise :class:`~solver.errors.OptionError` naming the bad option.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from itertools import pairwise

from solver.errors import OptionError
from solver.games.dog.forest import (
    DELTAS,
    DIRECTIONS,
    MAX_ARROW,
    MAX_SIZE,
    MIN_SIZE,
    Cell,
    Forest,
    Shouter,
    Terrain,
)
from solver.rng import SplitMix64, check_seed, whole_number

__all__ = [
    "DISTRACTION_NAMES",
    "GeneratorOptions",
    "SplitMix64",
    "ValuedForest",
    "middle_rows",
    "roll_forest",
    "roll_forest_with_value",
    "start_cell",
]


DISTRACTION_NAMES: dict[str, Terrain] = {
    "squirrel": Terrain.SQUIRREL,
    "scent": Terrain.SCENT_N,  # the direction is rolled separately (1d4)
    "dog": Terrain.DOG,
    "stick": Terrain.STICK,
    "open": Terrain.OPEN,
}
"""The entries allowed in :attr:`GeneratorOptions.distractions` and what each one rolls."""

_SCENTS = (Terrain.SCENT_N, Terrain.SCENT_E, Terrain.SCENT_S, Terrain.SCENT_W)


@dataclass(frozen=True)
class GeneratorOptions:
    """The tunable parameters of :func:`roll_forest` (defaults: docs/rules/dog.md §12).

    The 2d6 terrain table is given by its upper bounds: a sum up to ``tree_max`` is a tree, up to
    ``undergrowth_max`` undergrowth, up to ``open_max`` open trail, up to ``puddle_max`` a puddle,
    and anything higher rolls on the ``distractions`` sub-table (one entry per die face, a die with
    as many sides as entries). A bound equal to the previous one (or 1 for ``tree_max``) leaves
    that kind out; ``puddle_max = 12`` leaves out the sub-table.

    >>> GeneratorOptions().distractions
    ('squirrel', 'scent', 'dog', 'stick', 'open', 'open')
    >>> GeneratorOptions(tree_max=1).tree_max  # no trees at all
    1
    >>> GeneratorOptions(arrow_min=5, arrow_max=3)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: arrow_min (5) must not exceed arrow_max (3)
    """

    tree_max: int = 4
    """2d6 sums 2..tree_max are trees (default 2–4)."""
    undergrowth_max: int = 6
    """Sums above tree_max up to this are undergrowth (default 5–6)."""
    open_max: int = 9
    """Sums above undergrowth_max up to this are open trail (default 7–9)."""
    puddle_max: int = 10
    """Sums above open_max up to this are puddles (default 10); higher: the distraction table."""
    puddle_spread_min: int = 4
    """A rolled puddle spreads on a 1d6 of at least this (default 4+; 1 always, 7 never)."""
    distractions: tuple[str, ...] = ("squirrel", "scent", "dog", "stick", "open", "open")
    """The distraction sub-table, one entry per face; names from :data:`DISTRACTION_NAMES`."""
    shouters: int = 1
    """How many shouters stand in the middle rows (default 1, 0 for none)."""
    arrow_min: int = 2
    """Shortest arrow (default 2: 1d3 + 1)."""
    arrow_max: int = 4
    """Longest arrow (default 4: 1d3 + 1); at most 6."""
    turns: int = 20
    """The forest's turn limit (1..255)."""
    start_column: int | None = None
    """The dog's column on the bottom row; ``None``: ``(width - 1) // 2``."""
    human_column: int | None = None
    """The human's column on the top row; ``None``: rolled (1d``width``)."""

    def __post_init__(self) -> None:
        distractions = self.distractions
        if isinstance(distractions, str) or not isinstance(distractions, (tuple, list)):
            raise OptionError(
                f"distractions must be a sequence of names, not {type(distractions).__name__}"
            )
        object.__setattr__(self, "distractions", tuple(distractions))
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "distractions" or (value is None and f.name.endswith("_column")):
                continue
            object.__setattr__(self, f.name, whole_number(f.name, value))
        self._check_terrain_table()
        self._check_distractions()
        self._check_counts()

    def _check_terrain_table(self) -> None:
        """The 2d6 bounds from 1 to 12, in order; the puddle spread a 1d6 target (7: never)."""
        bounds = [
            ("tree_max", self.tree_max),
            ("undergrowth_max", self.undergrowth_max),
            ("open_max", self.open_max),
            ("puddle_max", self.puddle_max),
        ]
        for name, value in bounds:
            if not 1 <= value <= 12:
                raise OptionError(f"{name} must be a 2d6 bound from 1 to 12, not {value}")
        for (lo_name, lo), (hi_name, hi) in pairwise(bounds):
            if lo > hi:
                raise OptionError(f"{lo_name} ({lo}) must not exceed {hi_name} ({hi})")
        if not 1 <= self.puddle_spread_min <= 7:
            raise OptionError(
                f"puddle_spread_min must be from 1 (always) to 7 (never), not "
                f"{self.puddle_spread_min}"
            )

    def _check_distractions(self) -> None:
        """At least one entry, each a name of :data:`DISTRACTION_NAMES`."""
        if not self.distractions:
            raise OptionError("distractions must have at least one entry")
        for entry in self.distractions:
            if not isinstance(entry, str) or entry not in DISTRACTION_NAMES:
                raise OptionError(
                    f"unknown distraction {entry!r}; expected one of {', '.join(DISTRACTION_NAMES)}"
                )

    def _check_counts(self) -> None:
        """The shouters, the arrows' lengths, the turns and the columns within their ranges."""
        if self.shouters < 0:
            raise OptionError(f"shouters must be 0 or more, not {self.shouters}")
        for name, value in (("arrow_min", self.arrow_min), ("arrow_max", self.arrow_max)):
            if not 1 <= value <= MAX_ARROW:
                raise OptionError(f"{name} must be from 1 to {MAX_ARROW}, not {value}")
        if self.arrow_min > self.arrow_max:
            raise OptionError(
                f"arrow_min ({self.arrow_min}) must not exceed arrow_max ({self.arrow_max})"
            )
        if not 1 <= self.turns <= 255:
            raise OptionError(f"turns must be from 1 to 255, not {self.turns}")
        for name in ("start_column", "human_column"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise OptionError(f"{name} must be 0 or more (or None), not {value}")


def middle_rows(height: int) -> range:
    """The rows where shouters stand: ``height // 3`` to ``height - 1 - height // 3``.

    >>> list(middle_rows(9)), list(middle_rows(12)), list(middle_rows(3)), list(middle_rows(2))
    ([3, 4, 5], [4, 5, 6, 7], [1], [0, 1])
    """
    third = height // 3
    return range(third, height - third)


def start_cell(width: int, height: int, options: GeneratorOptions | None = None) -> Cell:
    """Where the dog starts: the bottom row, the middle column (the left-middle one if even).

    >>> start_cell(9, 9), start_cell(8, 5), start_cell(2, 2)
    ((8, 4), (4, 3), (1, 0))
    """
    column = options.start_column if options is not None else None
    return (height - 1, (width - 1) // 2 if column is None else column)


def _check_size(width: int, height: int, options: GeneratorOptions) -> None:
    for name, value in (("width", width), ("height", height)):
        if not MIN_SIZE <= value <= MAX_SIZE:
            raise OptionError(f"{name} must be from {MIN_SIZE} to {MAX_SIZE}, not {value}")
    for name in ("start_column", "human_column"):
        value = getattr(options, name)
        if value is not None and value >= width:
            raise OptionError(f"{name} {value} is outside a forest {width} columns wide")
    start = start_cell(width, height, options)
    rows = middle_rows(height)
    # The start (bottom row) and the human (top row) are never the same cell.
    room = width * len(rows) - (start[0] in rows) - (0 in rows)
    if options.shouters > room:
        raise OptionError(
            f"shouters ({options.shouters}) do not fit: a {width}x{height} forest has only "
            f"{room} middle-row cells (rows {rows.start}..{rows.stop - 1}) besides the start "
            f"and the human"
        )


def roll_forest(
    width: int = 9,
    height: int = 9,
    seed: int = 0,
    options: GeneratorOptions | None = None,
) -> Forest:
    """Roll a ``width`` × ``height`` forest from ``seed`` (the procedure: see the module doc).

    >>> forest = roll_forest(4, 3, seed=2)
    >>> forest.name, forest.start, forest.human[0]
    ('rolled-4x3-seed2', (2, 1), 0)
    >>> roll_forest(1, 9)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: width must be from 2 to 16, not 1
    >>> roll_forest(9, 9, seed=-1)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: seed must be a whole number from 0 to 2**64 - 1, not -1
    """
    if options is None:
        options = GeneratorOptions()
    elif not isinstance(options, GeneratorOptions):
        raise OptionError(f"options must be GeneratorOptions, not {type(options).__name__}")
    width, height, seed = (
        whole_number("width", width),
        whole_number("height", height),
        check_seed(seed),
    )
    _check_size(width, height, options)
    rng = SplitMix64(seed)

    # 1-2. The start and the human.
    start = start_cell(width, height, options)
    if options.human_column is not None:
        human = (0, options.human_column)
    else:
        human = (0, rng.roll(width) - 1)
    special = {start, human}

    # 3. Terrain, row-major.
    cells = [[Terrain.OPEN] * width for _ in range(height)]
    rolled_puddles: list[Cell] = []
    for r in range(height):
        for c in range(width):
            if (r, c) in special:
                continue
            cells[r][c] = _roll_terrain(rng, options)
            if cells[r][c] == Terrain.PUDDLE:
                rolled_puddles.append((r, c))

    # 4. Puddle spreading.
    for r, c in rolled_puddles:
        _spread_puddle(rng, options, cells, (r, c), special)

    # 5. Shouters.
    shouters = _place_shouters(rng, options, cells, special)

    # 6. The forest.
    return Forest(
        width=width,
        height=height,
        cells=cells,
        start=start,
        human=human,
        shouters=shouters,
        turns=options.turns,
        name=f"rolled-{width}x{height}-seed{seed}",
    )


def _roll_terrain(rng: SplitMix64, o: GeneratorOptions) -> Terrain:
    """One cell's terrain: 2d6 on the table, a distraction on its sub-table (a scent trail's
    direction on 1d4)."""
    total = rng.roll(6) + rng.roll(6)
    if total <= o.tree_max:
        return Terrain.TREE
    if total <= o.undergrowth_max:
        return Terrain.UNDERGROWTH
    if total <= o.open_max:
        return Terrain.OPEN
    if total <= o.puddle_max:
        return Terrain.PUDDLE
    entry = o.distractions[rng.roll(len(o.distractions)) - 1]
    terrain = DISTRACTION_NAMES[entry]
    if terrain == Terrain.SCENT_N:
        terrain = _SCENTS[rng.roll(4) - 1]
    return terrain


def _spread_puddle(
    rng: SplitMix64, o: GeneratorOptions, cells: list[list[Terrain]], at: Cell, special: set[Cell]
) -> None:
    """A rolled puddle at ``at`` spreads (1d6 of at least ``puddle_spread_min``) to an open
    neighbour, picked at random (not the start or the human)."""
    if rng.roll(6) < o.puddle_spread_min:
        return
    height, width = len(cells), len(cells[0])
    r, c = at
    around: list[Cell] = []
    for direction in DIRECTIONS:
        dr, dc = DELTAS[direction]
        cell = (r + dr, c + dc)
        if (
            0 <= cell[0] < height
            and 0 <= cell[1] < width
            and cell not in special
            and cells[cell[0]][cell[1]] == Terrain.OPEN
        ):
            around.append(cell)
    if around:
        nr, nc = rng.pick(around)
        cells[nr][nc] = Terrain.PUDDLE


def _place_shouters(
    rng: SplitMix64, o: GeneratorOptions, cells: list[list[Terrain]], special: set[Cell]
) -> list[Shouter]:
    """The shouters on free middle-row cells (open ones first, made open), each with an arrow
    rolled in direction (1d4) and length."""
    height, width = len(cells), len(cells[0])
    shouters: list[Shouter] = []
    taken = set(special)
    rows = middle_rows(height)
    for _ in range(o.shouters):
        free = [(r, c) for r in rows for c in range(width) if (r, c) not in taken]
        open_free = [(r, c) for r, c in free if cells[r][c] == Terrain.OPEN]
        r, c = rng.pick(open_free or free)
        cells[r][c] = Terrain.OPEN
        direction = DIRECTIONS[rng.roll(4) - 1]
        length = o.arrow_min + rng.roll(o.arrow_max - o.arrow_min + 1) - 1
        shouters.append(Shouter(r, c, direction, length))
        taken.add((r, c))
    return shouters


# -- forests made to order ------------------------------------------------------------------------
DEFAULT_MAX_TRIES = 10_000
"""Seeds :func:`roll_forest_with_value` tries before giving up."""
DEFAULT_MAX_NODES = 2_000_000
"""Nodes the exact search of one forest may expand before it counts as not fitting."""
VALUE_TOLERANCE = 1e-12
"""A value this close outside the band still counts as inside (floating-point sums)."""


@dataclass(frozen=True)
class ValuedForest:
    """A forest :func:`roll_forest_with_value` found, with what it proved about it.

    ``value`` is the exact optimal win probability (None when only an interval was proven, with
    ``allow_interval``); ``value_low``/``value_high`` bound it (equal to it when exact);
    ``tries`` counts the forests rolled, this one included; ``par`` is its par when
    ``par_at_least`` asked for one, else None; ``skill`` is its skill measure (the value less
    ``weakest``, the win probability of the ladder's level 1, made as ``weakest_method`` says:
    ``exact`` or ``sampled``; :mod:`solver.games.dog.analysis.skill`) when a skill band asked for
    one, else None.
    """

    forest: Forest
    seed: int
    tries: int
    value: float | None
    value_low: float
    value_high: float
    par: int | None = None
    skill: float | None = None
    weakest: float | None = None
    weakest_method: str | None = None

    @property
    def exact(self) -> bool:
        return self.value is not None


def _check_band(low: object, high: object, what: str = "win-probability") -> tuple[float, float]:
    for name, x in (("low", low), ("high", high)):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or x != x:
            raise OptionError(f"the {what} band's {name} end must be a number, not {x!r}")
    lo, hi = float(low), float(high)  # type: ignore[arg-type]
    if not 0.0 <= lo < hi <= 1.0:
        raise OptionError(f"the {what} band must satisfy 0 <= LO < HI <= 1, not {lo:g}:{hi:g}")
    return lo, hi


def _skill_in(
    forest: Forest, proven: tuple[float | None, float, float], band: tuple[float, float]
) -> tuple[float, float, str] | None:
    """``(skill, weakest, method)`` when the forest's skill measure lies in ``band``, else None.

    The weakest level's value is the analysis' (exact where its evaluation fits, else sampled);
    with only an interval proven for the optimum, the skill's whole interval must lie inside."""
    from solver.games.dog.analysis.options import AnalysisOptions
    from solver.games.dog.analysis.skill import skill_of, weakest_win_probability

    weakest = weakest_win_probability(forest, AnalysisOptions(), source=forest.name)
    value, vlo, vhi = proven
    low, high = skill_of(vlo, weakest.value), skill_of(vhi, weakest.value)
    if low < band[0] - VALUE_TOLERANCE or high > band[1] + VALUE_TOLERANCE:
        return None
    skill = low if value is not None else (low + high) / 2
    return skill, weakest.value, weakest.method


def _par(forest: Forest, max_nodes: int) -> int | None:
    from solver.games.dog.analysis.soonest import SoonestWins

    return SoonestWins(forest, "kernel").par(max_nodes).turns


def _proven(
    search: object, state: object, low: float, high: float, max_nodes: int, allow_interval: bool
) -> tuple[float | None, float, float] | None:
    """``(value, lo, hi)`` when the forest's value is proven inside [low, high], else None."""
    # one search with the band as its window: outside it fails low or high, inside it is exact
    found = search.interval(state, -1, low, high, max_nodes)  # type: ignore[attr-defined]
    if found is not None:
        lo, hi = found
        if hi < low - VALUE_TOLERANCE or lo > high + VALUE_TOLERANCE:
            return None
        value = search.value(state, max_nodes)  # type: ignore[attr-defined]
        if value is None:
            return None
        if low - VALUE_TOLERANCE <= value <= high + VALUE_TOLERANCE:
            return value, value, value
        return None
    if not allow_interval:
        return None
    # the exact search does not fit: the deepest depth-limited interval that does
    best: tuple[float, float] | None = None
    depth = 4
    while depth <= 1024:
        found = search.interval(state, depth, None, None, max_nodes)  # type: ignore[attr-defined]
        if found is None:
            break
        best = found
        if found[1] < low - VALUE_TOLERANCE or found[0] > high + VALUE_TOLERANCE:
            return None  # proven outside the band
        depth *= 2
    if best is None or best[0] < low - VALUE_TOLERANCE or best[1] > high + VALUE_TOLERANCE:
        return None
    return None, best[0], best[1]


def roll_forest_with_value(
    width: int,
    height: int,
    low: float,
    high: float,
    *,
    seed: int = 0,
    turns: int | None = None,
    par_at_least: int | None = None,
    skill: tuple[float, float] | None = None,
    max_tries: int = DEFAULT_MAX_TRIES,
    allow_interval: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    memory_mb: float = 256.0,
    options: GeneratorOptions | None = None,
) -> ValuedForest:
    """A forest of a chosen difficulty: roll the forests of seeds ``seed``, ``seed + 1``, ...
    until one whose exact optimal win probability lies in the closed band [``low``, ``high``]
    (and, with ``par_at_least``, whose par is at least that many turns; with ``skill``, a
    ``(low, high)`` band, whose skill measure lies in it: the value less the win probability of
    the ladder's level 1, as the analysis' ``skill`` column gives it).

    Each forest is solved by the pruning exact search (``solver.search.pruning``) within
    ``max_nodes`` expanded nodes and ``memory_mb``; a forest whose search does not fit is skipped,
    or with ``allow_interval`` accepted when a depth-limited search proves an interval inside
    the band. Deterministic: the same arguments give the same forest. Raises ``OptionError`` for a
    bad band (0 <= low < high <= 1 is required) and ``SolverError`` when none of ``max_tries``
    forests qualifies. Needs the compiled kernel.

    >>> found = roll_forest_with_value(5, 5, 0.3, 0.6, seed=0, turns=6)
    >>> found.forest.name, found.tries, round(found.value, 4)
    ('rolled-5x5-seed52', 53, 0.583)
    """
    from solver.errors import SolverError

    lo, hi = _check_band(low, high)
    start = check_seed(seed)
    tries = whole_number("max_tries", max_tries)
    if tries < 1:
        raise OptionError(f"max_tries must be a whole number >= 1, not {max_tries!r}")
    if par_at_least is not None and whole_number("par_at_least", par_at_least) < 1:
        raise OptionError(f"par_at_least must be a whole number >= 1, not {par_at_least!r}")
    skill_band = None if skill is None else _check_band(*skill, what="skill")
    wanted = _Wanted((lo, hi), par_at_least, skill_band, allow_interval, max_nodes, memory_mb)
    for k in range(tries):
        current = start + k
        if current >= 2**64:
            break
        forest = roll_forest(width, height, seed=current, options=options)
        if turns is not None:
            forest = forest.replace(turns=turns)
        found = _valued(forest, current, k + 1, wanted)
        if found is not None:
            return found
    what = "an exact" if not allow_interval else "an exact or proven"
    par_text = f" and a par of at least {par_at_least}" if par_at_least is not None else ""
    if skill_band is not None:
        par_text += f" and a skill measure in [{skill_band[0]:g}, {skill_band[1]:g}]"
    raise SolverError(
        f"no forest of seeds {start} to {start + tries - 1} has {what} win probability in "
        f"[{lo:g}, {hi:g}]{par_text} (tried {tries}); widen the band, raise --max-tries, or "
        "change the size or turns"
    )


@dataclass(frozen=True)
class _Wanted:
    """What :func:`roll_forest_with_value` asks of a forest, and the exact search's limits."""

    band: tuple[float, float]
    par_at_least: int | None
    skill_band: tuple[float, float] | None
    allow_interval: bool
    max_nodes: int
    memory_mb: float


def _valued(forest: Forest, seed: int, tries: int, wanted: _Wanted) -> ValuedForest | None:
    """``forest`` (rolled from ``seed``, the ``tries``-th) with what it proved, when its value
    lies in the band and its par and skill measure fit; else None."""
    from solver._ext.pruning import PruningSearch
    from solver.games.dog.kernel import KernelDogGame

    game = KernelDogGame(forest)
    search = PruningSearch(game, max(1, int(wanted.memory_mb * 2**20)))
    lo, hi = wanted.band
    state = game.new_initial_state()
    proven = _proven(search, state, lo, hi, wanted.max_nodes, wanted.allow_interval)
    if proven is None:
        return None
    par = None
    if wanted.par_at_least is not None:
        par = _par(forest, wanted.max_nodes)
        if par is None or par < wanted.par_at_least:
            return None
    skill_band = wanted.skill_band
    measured = None if skill_band is None else _skill_in(forest, proven, skill_band)
    if skill_band is not None and measured is None:
        return None
    value, vlo, vhi = proven
    found = ValuedForest(forest, seed, tries, value, vlo, vhi, par)
    if measured is not None:
        found = replace(found, skill=measured[0], weakest=measured[1], weakest_method=measured[2])
    return found
