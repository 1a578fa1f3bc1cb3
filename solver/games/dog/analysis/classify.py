"""Solvability classes of dog forests: unreachable, hopeless, guaranteed or uncertain.

:func:`analyse_forest` answers, for one forest, with a :class:`ForestAnalysis`;
:func:`analyse_source` is the picklable entry the batch runner calls with a small descriptor and
which returns a flat, JSON-friendly row.

The tests run in this order, and the first that decides wins:

1. **unreachable**: no tree-free path joins the dog's start and the human (a breadth-first
   search over the non-tree cells): win probability exactly 0.
2. **hopeless**: no *par*, no win within the turn limit even when the player chooses every roll
   (:func:`first_win` with every chance outcome open, the question of
   :func:`dog.routes.graph.par_brute_force`): exactly 0.
3. **guaranteed**: the AND-OR proof search of :mod:`.proof` wins whatever the dice do (exactly
   1); only when it runs out of ``proof_max_nodes`` is the adversarial expectimax tried.
4. **uncertain**, with the win probability: the exact expectimax value when its table fits in
   ``exact_memory_mb``, else the MCTS agent's win rate with its Wilson interval (a lower bound's
   estimate); the clairvoyant estimate of :mod:`.clairvoyant` gives an upper bound's.

Why each answer holds (the rules that make 1 and 2 exact, the world coupling behind the
clairvoyant estimate, the par search's pruning, the budgets and their defaults, the difficulty
score) is written down in docs/analysis.md, section 5; the figures behind the default budgets are
in bench/results/dog-analysis-budgets.md. Every search is bounded, and every random draw comes
from a seed derived (SHA-256) from ``options.seed``, the source string and the purpose, so a row
is the same in every run and process, ``seconds`` aside.

>>> from solver.games.dog.forest import Forest, Terrain
>>> grid = [[Terrain.OPEN] * 3 for _ in range(2)]
>>> forest = Forest(width=3, height=2, cells=grid, start=(1, 0), human=(0, 0), turns=2)
>>> result = analyse_forest(forest, AnalysisOptions(mcts_games=10, clairvoyant_samples=10))
>>> result.klass, result.win_probability, result.par
('guaranteed', 1.0, 1)
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.errors import OptionError, SearchBudgetError
from solver.games.dog import SPEC
from solver.games.dog.analysis.clairvoyant import clairvoyant_estimate, exact_clairvoyant_value
from solver.games.dog.analysis.options import SEED_BITS, AnalysisOptions, derived_seed
from solver.games.dog.analysis.skill import WeakestLevel, skill_of, weakest_win_probability
from solver.games.dog.analysis.soonest import (
    STEP_REACH,
    FirstWin,
    SoonestWins,
    clairvoyant_win,
    distances_to_human,
    first_win,
    par_chooser,
    sample_world,
)
from solver.games.dog.forest import Cell, Forest
from solver.stats import wilson_interval

__all__ = [
    "CLASSES",
    "AnalysisOptions",
    "FirstWin",
    "ForestAnalysis",
    "analyse_forest",
    "analyse_source",
    "clairvoyant_win",
    "difficulty_score",
    "first_win",
    "is_reachable",
    "route_cells",
    "sample_world",
]

_par_chooser = par_chooser  # the name callers used before the searches had their own module

CLASSES = ("unreachable", "hopeless", "guaranteed", "uncertain")
VALUE_EPS = 1e-9
"""An expectimax value within this of 1 counts as 1 (the values are sums of float products)."""
assert STEP_REACH == 3  # the most steps a move can take (a roll of 5-6), from .soonest


# -- the answer -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ForestAnalysis:
    """What :func:`analyse_forest` found about one forest (see the module doc for the meaning).

    ``klass`` is one of :data:`CLASSES`; ``method`` says what decided the win probability
    (``"graph"``, ``"par"``, ``"proof"``, ``"adversarial"``, ``"expectimax"`` or ``"mcts"``).
    ``ci_low``/``ci_high`` equal the probability when ``exact``. ``route`` lists the cells of the
    par route (start first, forced-run cells included), empty when there is no par.
    ``value_low``/``value_high`` are proven bounds on the optimal win probability: the value itself
    when ``exact``, else the pruning search's deepest depth-limited interval within its node budget
    (None without the compiled kernel).
    """

    source: str
    width: int
    height: int
    turns: int
    klass: str
    par: int | None
    par_status: str
    win_probability: float
    exact: bool
    method: str
    ci_low: float
    ci_high: float
    games: int
    clairvoyant_estimate: float
    clairvoyant_low: float
    clairvoyant_high: float
    clairvoyant_samples: int
    clairvoyant_undecided: int
    difficulty: float
    route: tuple[Cell, ...]
    seconds: float
    value_low: float | None = None
    value_high: float | None = None
    clairvoyant_method: str = "sampled"
    weakest_win_probability: float = 0.0
    weakest_low: float = 0.0
    weakest_high: float = 0.0
    weakest_method: str = "class"
    skill: float = 0.0

    def to_row(self) -> dict[str, Any]:
        """A flat, JSON-friendly row (``class`` for ``klass``, ``route`` as a JSON string)."""
        row: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "klass":
                row["class"] = value
            elif f.name == "route":
                row["route"] = json.dumps([[r, c] for r, c in value])
            else:
                row[f.name] = value
        row["upper_bound"] = self.upper_bound
        return row

    @property
    def upper_bound(self) -> float:
        """A *proven* upper bound on the optimal win probability (issue 4's ``upper_bound``
        column; issue 8 moved the sampled clairvoyant number it once held to
        ``clairvoyant_estimate``, since a sample can fall below the value): the value itself
        when exact; else the least of ``value_high`` and the clairvoyant share when that share
        was computed over all worlds (``clairvoyant_method`` ``exact`` or ``class``), which bounds
        the value from above; 1 when neither is known."""
        if self.exact:
            return self.win_probability
        bounds = [1.0]
        if self.value_high is not None:
            bounds.append(self.value_high)
        if self.clairvoyant_method in ("exact", "class"):
            bounds.append(self.clairvoyant_estimate)
        return min(bounds)


def difficulty_score(win_probability: float, par: int | None, turns: int) -> float:
    """``0.8 * (1 - p) + 0.2 * (par / turns)`` (no par: 1), in [0, 1].

    >>> difficulty_score(0.0, None, 20), difficulty_score(1.0, 2, 20)
    (1.0, 0.02)
    """
    share = 1.0 if par is None else min(1.0, par / turns)
    p = min(1.0, max(0.0, win_probability))
    return round(0.8 * (1.0 - p) + 0.2 * share, 12)


_derived_seed = derived_seed


# -- 1. reachability ------------------------------------------------------------------------------
def is_reachable(forest: Forest) -> bool:
    """Whether a tree-free orthogonal path joins the start and the human (module doc, test 1)."""
    return tuple(forest.start) in distances_to_human(forest)


# -- 2. the par route ------------------------------------------------------------------------------
def route_cells(forest: Forest, actions: Sequence[int]) -> tuple[Cell, ...]:
    """The cells the dog stands on along ``actions`` from the start (forced-run cells included)."""
    state = SPEC.build(engine="reference", forest=forest).new_initial_state()
    cells = [forest.start]
    for action in actions:
        state.apply_action(action)
        pos = tuple(state.pos)
        last = cells[-1]
        if pos == last:
            continue
        dr = (pos[0] > last[0]) - (pos[0] < last[0])
        dc = (pos[1] > last[1]) - (pos[1] < last[1])
        if dr and dc:  # not a straight line: cannot happen, but never invent cells
            cells.append(pos)
            continue
        r, c = last
        while (r, c) != pos:
            r, c = r + dr, c + dc
            cells.append((r, c))
    return tuple(cells)


# -- 3./4. the analysis ---------------------------------------------------------------------------
def _expectimax(forest: Forest, options: AnalysisOptions, adversarial: bool) -> float | None:
    from solver.search.expectimax import expectimax

    game = SPEC.build(engine=options.engine, forest=forest)
    try:
        result = expectimax(
            game.new_initial_state(),
            exact=True,
            adversarial=adversarial,
            memory_mb=options.exact_memory_mb,
        )
    except SearchBudgetError:
        return None
    return float(result.value)


def _mcts_rate(forest: Forest, options: AnalysisOptions, source: str) -> tuple[int, int]:
    from solver.games.dog.play import play_game
    from solver.search.agents import mcts_agent

    game = SPEC.build(engine=options.engine, forest=forest)
    base = _derived_seed(options.seed, source, "mcts")
    wins = 0
    for g in range(options.mcts_games):
        seed = (base + g) % (1 << SEED_BITS)
        agent = mcts_agent(game, seed=seed, iterations=options.mcts_iterations)
        wins += play_game(game, agent, seed=seed).won
    return wins, options.mcts_games


def _par_past_the_cap(forest: Forest, options: AnalysisOptions, found: FirstWin) -> FirstWin:
    """``found``, or where the par search stored its ``par_max_nodes`` positions with no win
    (``"budget"``), the par of the rules model (CP-SAT, what ``forest dog route`` answers) within
    ``par_cpsat_seconds`` deterministic seconds: a breadth-first search stores every position of
    the turns before the par, which on a 12x12 forest outgrows the cap (big-12x12's par 5 needs
    410,296 of them) while the model proves it in about a second. Unproven there too (or the
    model not asked: 0 seconds), the answer stays ``"budget"``. Inside a search deadline (the
    hint service's analysis) the model gets at most the seconds left."""
    if found.status != "budget" or options.par_cpsat_seconds <= 0:
        return found
    from solver.games.dog.routes.cpsat import par_cpsat_model
    from solver.search.limit import deadline_passed, seconds_left

    if deadline_passed():  # seconds_left() is never below its floor: no model is built now
        return found
    left = seconds_left()
    seconds = options.par_cpsat_seconds if left is None else min(left, options.par_cpsat_seconds)
    # CP-SAT's deterministic seconds run slower than the clock on a loaded machine: inside a
    # deadline the wall clock bounds the model too
    deadline = None if left is None else time.monotonic() + left
    answer = par_cpsat_model(forest, time_limit=seconds, deadline=deadline)
    if answer.status == "optimal" and answer.actions is not None:
        return FirstWin(answer.turns, answer.actions, "optimal", found.nodes)
    if answer.status == "infeasible":
        return FirstWin(None, (), "infeasible", found.nodes)
    return found


def analyse_forest(
    forest: Forest, options: AnalysisOptions | None = None, *, source: str = ""
) -> ForestAnalysis:
    """Classify ``forest`` and measure its win probability and bounds (see the module doc)."""
    options = options if options is not None else AnalysisOptions()
    if not isinstance(forest, Forest):
        raise OptionError(f"analyse_forest needs a Forest, not {type(forest).__name__}")
    source = source or forest.name
    started = time.perf_counter()
    par: int | None = None
    par_status = "infeasible"
    route: tuple[Cell, ...] = ()
    games = 0
    upper = (0.0, 0.0, 0.0)
    samples = undecided = 0
    clairvoyant_method = "class"  # unreachable and hopeless: 0, guaranteed: 1, by the class

    if not is_reachable(forest):
        klass, method, p, exact, ci = "unreachable", "graph", 0.0, True, (0.0, 0.0)
    else:
        searches = SoonestWins(forest, options.engine)
        found = _par_past_the_cap(forest, options, searches.par(options.par_max_nodes))
        par, par_status = found.turns, found.status
        if found.turns is not None:
            route = route_cells(forest, found.actions)
        if par_status == "infeasible":
            klass, method, p, exact, ci = "hopeless", "par", 0.0, True, (0.0, 0.0)
        else:
            klass, method, p, exact, ci = _classify_play(forest, options, source, par_status)
            if klass == "guaranteed" or (method == "mcts" and p == 1.0):
                upper = (1.0, 1.0, 1.0)  # proven, or the trivial bound (module doc: early exit)
                clairvoyant_method = "class" if klass == "guaranteed" else "trivial"
            else:
                upper, clairvoyant_method, samples, undecided = _clairvoyant_bound(
                    forest, options, source, searches
                )
            if method == "mcts":
                games = options.mcts_games
    difficulty = difficulty_score(p, par, forest.turns)
    value_low, value_high = (p, p) if exact else _proven_interval(forest, options)
    weakest = WeakestLevel(0.0, 0.0, 0.0, "class")  # no policy wins what the optimum cannot
    if klass not in ("unreachable", "hopeless"):
        weakest = weakest_win_probability(forest, options, source=source)
    return ForestAnalysis(
        source=source,
        width=forest.width,
        height=forest.height,
        turns=forest.turns,
        klass=klass,
        par=par,
        par_status=par_status,
        win_probability=p,
        exact=exact,
        method=method,
        ci_low=ci[0],
        ci_high=ci[1],
        games=games,
        clairvoyant_estimate=upper[0],
        clairvoyant_low=upper[1],
        clairvoyant_high=upper[2],
        clairvoyant_samples=samples,
        clairvoyant_undecided=undecided,
        difficulty=difficulty,
        route=route,
        seconds=time.perf_counter() - started,
        value_low=value_low,
        value_high=value_high,
        clairvoyant_method=clairvoyant_method,
        weakest_win_probability=weakest.value,
        weakest_low=weakest.low,
        weakest_high=weakest.high,
        weakest_method=weakest.method,
        skill=skill_of(p, weakest.value),
    )


def _clairvoyant_bound(
    forest: Forest, options: AnalysisOptions, source: str, searches: SoonestWins
) -> tuple[tuple[float, float, float], str, int, int]:
    """The clairvoyant upper bound ``(value, low, high)``, its method (``exact`` or ``sampled``),
    the worlds sampled and those left undecided: exact where the options ask for it and the
    budget allows, else estimated from sampled worlds."""
    value = None
    if options.clairvoyant_method == "exact":
        value = exact_clairvoyant_value(forest, options.clairvoyant_total_nodes, searches)
    if value is not None:
        return (value, value, value), "exact", 0, 0
    counts = clairvoyant_estimate(forest, options, source, searches)
    wins, samples = counts.wins, counts.samples
    lo, hi = wilson_interval(wins, samples)
    return (wins / samples if samples else 1.0, lo, hi), "sampled", samples, counts.undecided


INTERVAL_MAX_NODES = 500_000
"""Nodes each depth of :func:`_proven_interval` may expand (its table: at least 16 MB, at most
``exact_memory_mb``, a cache that replaces rather than fails)."""


def _proven_interval(forest: Forest, options: AnalysisOptions) -> tuple[float | None, float | None]:
    """Bounds proven on the optimal win probability of a forest not solved exactly: the pruning
    search's interval at depths 4, 8, 16, ... plies (below the depth a node is only known to lie
    in [0, 1]), the deepest that fits ``INTERVAL_MAX_NODES``; (None, None) without the kernel."""
    try:
        from solver._ext.pruning import PruningSearch
        from solver.games.dog.kernel import KernelDogGame
    except ImportError:
        return None, None
    game = KernelDogGame(forest)
    search = PruningSearch(game, max(16 << 20, int(options.exact_memory_mb * 2**20)))
    state = game.new_initial_state()
    best: tuple[float | None, float | None] = (None, None)
    depth = 4
    while depth <= 4096:
        found = search.interval(state, depth, None, None, INTERVAL_MAX_NODES)
        if found is None:
            break
        best = (float(found[0]), float(found[1]))
        if found[1] - found[0] < 1e-12:
            break
        depth *= 2
    return best


def _classify_play(
    forest: Forest, options: AnalysisOptions, source: str, par_status: str
) -> tuple[str, str, float, bool, tuple[float, float]]:
    """Tests 3 and 4 for a reachable forest that is not known to be hopeless."""
    from solver.games.dog.analysis.proof import prove_guaranteed

    root = SPEC.build(engine=options.engine, forest=forest).new_initial_state()
    proof = prove_guaranteed(root, options.proof_max_nodes)
    if proof.status == "win":
        return "guaranteed", "proof", 1.0, True, (1.0, 1.0)
    fits = True
    if proof.status == "unknown":  # the proof search ran out: the adversarial table may fit
        guaranteed = _expectimax(forest, options, adversarial=True)
        fits = guaranteed is not None
        if guaranteed is not None and guaranteed >= 1.0 - VALUE_EPS:
            return "guaranteed", "adversarial", 1.0, True, (1.0, 1.0)
    if fits:
        value = _expectimax(forest, options, adversarial=False)
        if value is not None:
            # A par route has positive probability, so the exact value cannot be 0 (module doc);
            # with the par search over its budget there is no par to lean on, so 0 may happen.
            if value <= 0.0:
                assert par_status != "optimal", "a forest with a par has a positive win probability"
                return "hopeless", "expectimax", 0.0, True, (0.0, 0.0)
            value = min(1.0, value)
            return "uncertain", "expectimax", value, True, (value, value)
    wins, games = _mcts_rate(forest, options, source)
    lo, hi = wilson_interval(wins, games)
    return "uncertain", "mcts", (wins / games if games else 0.0), False, (lo, hi)


# -- the batch runner's entry ---------------------------------------------------------------------
def _descriptor_forest(descriptor: Any) -> tuple[Forest, str]:
    if not isinstance(descriptor, dict) and callable(getattr(descriptor, "load", None)):
        # a batch Source (solver.analysis.sources): it knows how to load its forest
        return descriptor.load(), str(descriptor.source)
    if not isinstance(descriptor, dict):
        raise OptionError(f"a source descriptor is a dict, not {type(descriptor).__name__}")
    if "path" in descriptor:
        from solver.games.dog.format import load_forest

        path = descriptor["path"]
        forest = load_forest(path)
        source = str(descriptor.get("source") or path)
    elif {"width", "height", "seed"} <= set(descriptor):
        from solver.games.dog.generator import roll_forest

        forest = roll_forest(descriptor["width"], descriptor["height"], descriptor["seed"])
        source = str(descriptor.get("source") or f"seed:{descriptor['seed']}")
    else:
        raise OptionError(
            "a source descriptor needs 'path', or 'width', 'height' and 'seed'; "
            f"got keys {sorted(descriptor)}"
        )
    if descriptor.get("turns") is not None:
        forest = forest.replace(turns=descriptor["turns"])
    return forest, source


def analyse_source(descriptor: Any) -> dict[str, Any]:
    """Analyse one forest described by a small dict; return a flat row (module doc).

    A :class:`solver.analysis.sources.Source` (anything with ``.load()`` and ``.source``) is
    accepted too and analysed with the default options.

    ``{"source": "seed:17", "width": 9, "height": 9, "seed": 17}`` rolls a forest,
    ``{"source": "x.forest", "path": "x.forest"}`` reads one; an optional ``"turns"`` overrides
    the turn limit and ``"options"`` holds :class:`AnalysisOptions` fields. Bad input raises.

    >>> row = analyse_source({"width": 3, "height": 3, "seed": 0, "turns": 2,
    ...                       "options": {"mcts_games": 5, "clairvoyant_samples": 5}})
    >>> row["source"], row["class"], row["par"], row["route"]
    ('seed:0', 'guaranteed', 1, '[[2, 1], [1, 1], [0, 1]]')
    """
    forest, source = _descriptor_forest(descriptor)
    raw = descriptor.get("options") if isinstance(descriptor, dict) else None
    options = AnalysisOptions.from_dict(raw)
    return analyse_forest(forest, options, source=source).to_row()
