"""Playing strength of the dog-game agents: win rates on rolled forests, MCTS against the optimum.

Two tables, written as markdown (to ``--out`` and to stdout):

1. **Generated 9x9 forests.** ``--forests`` forests ``roll_forest(9, 9, seed)`` for consecutive
   seeds from ``--seed``; on each, ``--games`` games per agent: ``mcts`` (``--iterations``
   simulations per decision; UCT with leaves valued by the kernel's heuristic, a
   win-probability estimate: ``evaluator="heuristic"``, c = 0.1, ``backup="max"``, see
  ``solver.agents``),
   ``greedy`` and ``random``. Win rates with Wilson 95% intervals, per
   forest and pooled over all forests (the pooled interval treats every game as independent).
2. **Small forests solved exactly.** Curated tiny puzzles and ``--small-forests`` generated 4x4
   forests cut to 4 turns: the exact optimum (exact expectimax from the start: the best possible
   win probability) next to the measured win rates of ``mcts``, the ``exact`` agent (a check of
   the measurement: it should match the optimum), ``greedy`` and ``random``
   (``--exact-games`` games each, by default ``--games``).

Every game is a pure function of its seeds: the dice of game ``i`` on forest ``f`` come from the
same seed for every agent (common random numbers), and each MCTS game gets its own searcher seed.
Games run in ``--workers`` processes (``multiprocessing``); a progress line goes to stderr.

The defaults are the full run (20 forests x 1000 games x 3 agents, 14 small forests x 1000 games
x 4 agents, 1000 simulations per MCTS decision: 116,000 games); it takes about 5 minutes with 2
workers on 2 cores, because a 9x9 game of MCTS takes only ~10-20 ms (the compiled UCT runs
~0.5-0.9 M simulations/s). ``--turns`` cuts the 9x9 forests' turn limit (default: their own 20),
which makes them harder: with 20 turns both ``mcts`` and ``greedy`` win almost every game::

    python bench/strength.py --forests 20 --games 1000 --iterations 1000 --seed 0 \\
        --out bench/results/strength.md
    python bench/strength.py --forests 10 --games 300 --turns 6 --out /tmp/strength-6.md
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

try:
    import solver
except ImportError:  # run from a checkout without installing: python bench/strength.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import solver

from solver.agents import make_agent
from solver.games.dog.generator import roll_forest
from solver.games.dog.play import play_game
from solver.rng import derive_seed
from solver.stats import wilson_interval

AGENTS_9X9 = ("mcts", "greedy", "random")
AGENTS_SMALL = ("mcts", "exact", "greedy", "random")
SMALL_PUZZLES = (
    "dog/tiny-2x2",
    "dog/tiny-3x3",
    "dog/corridor",
    "dog/squirrel-corner",
    "dog/stick",
    "dog/another-dog",
    "dog/tiny-shout",
    "dog/trail-crossing",
)
SMALL_SIZE = (4, 4)
SMALL_TURNS = 4
CHUNK = 25  # games per task
EXACT_MEMORY_MB = 1024


# -- forests ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ForestSpec:
    """How to build a forest in any process: a curated puzzle or a rolled forest."""

    puzzle: str | None = None
    width: int = 9
    height: int = 9
    seed: int = 0
    turns: int | None = None

    @property
    def label(self) -> str:
        if self.puzzle is not None:
            return self.puzzle
        name = f"rolled-{self.width}x{self.height}-seed{self.seed}"
        return name if self.turns is None else f"{name} ({self.turns} turns)"

    def build(self):
        if self.puzzle is not None:
            return solver.puzzles.load(self.puzzle)
        forest = roll_forest(self.width, self.height, seed=self.seed)
        return forest if self.turns is None else forest.replace(turns=self.turns)


# -- the workers ------------------------------------------------------------------------------
_GAMES: dict[ForestSpec, object] = {}
_EXACT_AGENTS: dict[ForestSpec, object] = {}


def _game(spec: ForestSpec):
    if spec not in _GAMES:
        _GAMES[spec] = solver.load_game("dog", forest=spec.build(), engine="kernel")
    return _GAMES[spec]


def _agent(name: str, spec: ForestSpec, seed: int, iterations: int):
    game = _game(spec)
    if name == "exact":  # deterministic and stateless: solve once per forest and process
        if spec not in _EXACT_AGENTS:
            _EXACT_AGENTS[spec] = make_agent("exact", game)
        return _EXACT_AGENTS[spec]
    return make_agent(name, game, seed=seed, iterations=iterations)


def _game_seed(base: int, forest_index: int, game: int) -> int:
    """The seed of game ``game`` on forest ``forest_index`` (dice and searcher)."""
    return derive_seed(derive_seed(base, forest_index), game)


@dataclass(frozen=True)
class Task:
    table: str  # "9x9" or "small"
    forest_index: int
    spec: ForestSpec
    agent: str
    first: int  # games first .. first + count - 1
    count: int
    base_seed: int
    iterations: int


def run_task(task: Task) -> tuple[Task, int]:
    """Play the task's games; return the number of wins."""
    game = _game(task.spec)
    wins = 0
    for i in range(task.first, task.first + task.count):
        seed = _game_seed(task.base_seed, task.forest_index, i)
        agent = _agent(task.agent, task.spec, seed, task.iterations)
        wins += play_game(game, agent, seed=seed).won
    return task, wins


def _tasks(table, specs, agents, games, base_seed, iterations) -> list[Task]:
    tasks = []
    for index, spec in enumerate(specs):
        for agent in agents:
            for first in range(0, games, CHUNK):
                count = min(CHUNK, games - first)
                tasks.append(Task(table, index, spec, agent, first, count, base_seed, iterations))
    # The slow agent first, so that the pool ends on short tasks.
    tasks.sort(key=lambda t: t.agent != "mcts")
    return tasks


# -- progress ---------------------------------------------------------------------------------
class Progress:
    """A one-line progress indicator on stderr: games done, rate, elapsed and ETA."""

    def __init__(self, total: int, enabled: bool = True) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self.start = time.perf_counter()
        self._last = 0.0

    def advance(self, games: int) -> None:
        self.done += games
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.5 or self.done == self.total):
            self._last = now
            elapsed = now - self.start
            eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
            sys.stderr.write(
                f"\r  {self.done:>8}/{self.total} games {100 * self.done / self.total:5.1f}%"
                f"  elapsed {_duration(elapsed)}  eta {_duration(eta)}   "
            )
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{seconds:02d}s" if hours else f"{minutes}m{seconds:02d}s"


def _run(tasks: list[Task], workers: int, progress: Progress) -> dict[tuple, int]:
    wins: dict[tuple, int] = defaultdict(int)
    if workers <= 1:
        results = map(run_task, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap_unordered(run_task, tasks)
    try:
        for task, won in results:
            wins[(task.table, task.forest_index, task.agent)] += won
            progress.advance(task.count)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return wins


# -- the exact optimum ------------------------------------------------------------------------
def exact_value(spec: ForestSpec) -> float | None:
    """The best possible win probability from the start, or None if the solve is too big."""
    from solver.errors import SearchBudgetError
    from solver.search import expectimax

    state = _game(spec).new_initial_state()
    try:
        return float(expectimax(state, exact=True, memory_mb=EXACT_MEMORY_MB).value)
    except SearchBudgetError:
        return None


# -- the report -------------------------------------------------------------------------------
def _rate(wins: int, games: int, counts: bool = False) -> str:
    """``12.3% [10.1, 14.8]``, with more decimals where one would hide a loss or a win."""
    low, high = wilson_interval(wins, games)
    rate = 100 * wins / games
    digits = 1
    while digits < 3 and (
        (wins < games and round(rate, digits) >= 100)
        or (wins > 0 and round(rate, digits) <= 0)
        or round(100 * low, digits) == round(100 * high, digits)
    ):
        digits += 1
    text = f"{rate:.{digits}f}% [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"
    return f"{text} ({wins}/{games})" if counts else text


def report(args, specs_9x9, specs_small, optimum, wins, elapsed) -> str:
    exact_games = args.exact_games
    lines = [
        "# Dog game: agent strength",
        "",
        f"Settings: `--forests {args.forests} --games {args.games} --iterations "
        f"{args.iterations} --seed {args.seed}"
        + (f" --turns {args.turns}" if args.turns else "")
        + f" --small-forests {args.small_forests} "
        f"--exact-games {exact_games} --workers {args.workers}`.",
        f"Wall time {_duration(elapsed)} on {os.cpu_count()} CPUs ({args.workers} workers); "
        f"forest-solver {solver.__version__}, Python {platform.python_version()}, "
        "kernel engine.",
        "",
        "Win rates with Wilson 95% intervals. The dice of game *i* on a forest come from the same "
        "seed for every agent; `mcts` is the agent of `solver.agents`: UCT with "
        f"{args.iterations} simulations per decision, leaves valued by the kernel's heuristic "
        '(a win-probability estimate; `evaluator="heuristic"`, c = 0.1, `backup="max"`: '
        "children primed with the heuristic, max backups at decision nodes), "
        "`greedy` the stamina-weighted shortest path, `random` uniform over legal actions.",
        "",
        f"## Generated 9x9 forests ({args.games} games per agent and forest, "
        f"{args.turns or 20} turns)",
        "",
        "| forest | mcts | greedy | random |",
        "|---|---|---|---|",
    ]
    totals: dict[str, int] = defaultdict(int)
    for index, spec in enumerate(specs_9x9):
        cells = []
        for agent in AGENTS_9X9:
            won = wins[("9x9", index, agent)]
            totals[agent] += won
            cells.append(_rate(won, args.games))
        lines.append(f"| {spec.label} | " + " | ".join(cells) + " |")
    if specs_9x9:
        pooled = args.games * len(specs_9x9)
        cells = [_rate(totals[agent], pooled, counts=True) for agent in AGENTS_9X9]
        lines.append(f"| **all {len(specs_9x9)} forests** | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"## Small forests: exact optimum against measured win rates ({exact_games} games each)",
        "",
        "The optimum is the exact expectimax value from the start (the best win probability any "
        "policy can reach). *optimum in CI* says whether it lies inside MCTS's 95% interval "
        "(**no**: MCTS measurably below the optimum); the `exact` agent plays the optimal "
        "policy and checks the measurement (its interval misses the optimum 1 time in 20).",
        "",
        "| forest | size, turns | optimum | mcts | optimum in CI | exact agent | greedy | random |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for index, spec in enumerate(specs_small):
        forest = _game(spec).forest
        value = optimum[index]
        mcts_won = wins[("small", index, "mcts")]
        low, high = wilson_interval(mcts_won, exact_games)
        inside = "—" if value is None else ("yes" if low <= value <= high else "**no**")
        cells = [
            spec.label,
            f"{forest.width}x{forest.height}, {forest.turns}",
            "too big" if value is None else f"{100 * value:.2f}%",
            _rate(mcts_won, exact_games),
            inside,
        ]
        for agent in AGENTS_SMALL[1:]:
            won = wins.get(("small", index, agent))
            cells.append("—" if won is None else _rate(won, exact_games))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


# -- main -------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n", 1)[0])
    parser.add_argument("--forests", type=int, default=20, help="generated 9x9 forests (20)")
    parser.add_argument("--games", type=int, default=1000, help="games per agent and forest (1000)")
    parser.add_argument(
        "--iterations", type=int, default=1000, help="MCTS simulations per decision (1000)"
    )
    parser.add_argument(
        "--turns", type=int, default=None, help="turn limit of the 9x9 forests (their own: 20)"
    )
    parser.add_argument("--seed", type=int, default=0, help="first forest seed and game seeds (0)")
    parser.add_argument("--out", default="bench/results/strength.md", help="markdown output file")
    parser.add_argument(
        "--small-forests", type=int, default=6, help="generated 4x4 forests solved exactly (6)"
    )
    parser.add_argument(
        "--exact-games",
        type=int,
        default=None,
        help="games per agent on each small forest (default: --games)",
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="worker processes (2; 1 runs in this process)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    args = parser.parse_args(argv)
    if args.exact_games is None:
        args.exact_games = args.games
    for name in ("forests", "small_forests"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be ≥ 0")
    for name in ("games", "exact_games", "iterations", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be ≥ 1")
    if args.seed < 0:
        parser.error("--seed must be ≥ 0")
    if args.turns is not None and args.turns < 1:
        parser.error("--turns must be ≥ 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    specs_9x9 = [ForestSpec(seed=args.seed + i, turns=args.turns) for i in range(args.forests)]
    specs_small = [ForestSpec(puzzle=name) for name in SMALL_PUZZLES] + [
        ForestSpec(width=SMALL_SIZE[0], height=SMALL_SIZE[1], seed=args.seed + i, turns=SMALL_TURNS)
        for i in range(args.small_forests)
    ]
    if not args.quiet:
        sys.stderr.write("solving the small forests exactly...\n")
    optimum = [exact_value(spec) for spec in specs_small]
    tasks = _tasks("9x9", specs_9x9, AGENTS_9X9, args.games, args.seed, args.iterations)
    tasks += _tasks(
        "small", specs_small, AGENTS_SMALL, args.exact_games, args.seed, args.iterations
    )
    # The exact agent needs a table that fits: leave it out where the solve was too big.
    too_big = {i for i, value in enumerate(optimum) if value is None}
    tasks = [t for t in tasks if not (t.agent == "exact" and t.forest_index in too_big)]
    progress = Progress(sum(t.count for t in tasks), enabled=not args.quiet)
    wins = _run(tasks, args.workers, progress)
    progress.close()
    text = report(args, specs_9x9, specs_small, optimum, wins, time.perf_counter() - start)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
