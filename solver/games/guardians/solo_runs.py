"""Solo runs: an agent plays a level many times; the win rate and the score distribution.

Game ``g`` of a run with seed ``S`` draws its chance outcomes from ``derive_seed(S, g)`` and
seeds its agent with ``derive_seed(derive_seed(S, g), 1)``, so every game is a pure function of
(level, agent, iterations, S, g): ``forest guardians solo`` and the calibration bench
(``bench/guardians_levels.py``, games spread over processes) give the same games.

>>> report = solo_run(1, "greedy", games=2, seed=5)
>>> report.games, len(report.scores), 0 <= report.ci_low <= report.win_rate <= report.ci_high
(2, 2, True)
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from solver.errors import OptionError
from solver.rng import check_seed, derive_seed
from solver.stats import wilson_interval

__all__ = [
    "SoloReport",
    "histogram_lines",
    "solo_game",
    "solo_game_record",
    "solo_report",
    "solo_run",
]

HISTOGRAM_BIN = 10
"""Score histogram bins of 10 points: 0-9, 10-19, ..."""


@dataclass(frozen=True)
class SoloReport:
    """A solo run: the level, its threshold, the agent, the games, the wins and every score."""

    level: int
    threshold: int
    agent: str
    iterations: int | None
    seed: int
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    scores: tuple[int, ...]
    iterations_unit: str | None = None
    """What ``iterations`` counts, in the agent's words (``AgentSpec.budget``: the lookahead's
    ``"continuations a decision"``, not MCTS simulations); None where nothing is counted."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``--json``: every field in order (``iterations_unit`` beside
        ``iterations``), the scores summarised before they are listed."""
        summary: dict[str, Any] = {}
        for key, value in asdict(self).items():
            if key not in ("scores", "iterations_unit"):
                summary[key] = value
            if key == "iterations":
                summary["iterations_unit"] = self.iterations_unit
        return summary | {
            "score_min": min(self.scores),
            "score_median": statistics.median(self.scores),
            "score_max": max(self.scores),
            "scores": list(self.scores),
        }


def solo_game(level: int, agent: str, seed: int, index: int, iterations: int = 1000) -> int:
    """The final score of game ``index`` of a run (see the module docstring)."""
    return solo_game_record(level, agent, seed, index, iterations)[0]


def solo_game_record(
    level: int, agent: str, seed: int, index: int, iterations: int | None = None
) -> tuple[int, tuple[bool, ...]]:
    """Game ``index`` of a run: its final score and, per level task, whether it was met
    (``iterations`` ``None``: the agent's own play default)."""
    from solver.game import play_game
    from solver.games.guardians import SPEC

    game = SPEC.build(players=1, level=level)
    game_seed = derive_seed(check_seed(seed), index)
    player = SPEC.agent(agent).build(game, seed=derive_seed(game_seed, 1), iterations=iterations)
    record = play_game(game, [player], seed=game_seed)
    final: Any = record.final
    return int(final.scores()[0]), tuple(bool(done) for done in final.tasks_done)


def solo_report(
    level: int, agent: str, seed: int, iterations: int | None, scores: Sequence[int]
) -> SoloReport:
    """The report of a run whose games scored ``scores`` (game 0 first)."""
    from solver.games.guardians.solo import level_by_number

    if not scores:
        raise OptionError("a solo run needs at least 1 game")
    threshold = level_by_number(level).threshold
    wins = sum(score >= threshold for score in scores)
    low, high = wilson_interval(wins, len(scores))
    low, high = (0.0 if wins == 0 else low), (1.0 if wins == len(scores) else high)  # rounding
    return SoloReport(
        level=level,
        threshold=threshold,
        agent=agent,
        iterations=iterations,
        seed=seed,
        games=len(scores),
        wins=wins,
        win_rate=wins / len(scores),
        ci_low=low,
        ci_high=high,
        scores=tuple(scores),
        iterations_unit=_unit(agent, iterations),
    )


def _unit(agent: str, iterations: int | None) -> str | None:
    """What ``agent``'s ``iterations`` count (its declared budget words; the ``lookahead``'s in
    solo: its endgame player's play-outs), None without a budget or for an agent guardians does
    not offer."""
    from solver.games.guardians import SPEC
    from solver.games.guardians.endgame import SOLO_UNIT

    if not iterations or agent not in SPEC.agent_names():
        return None
    return SOLO_UNIT if agent == "lookahead" else SPEC.agent(agent).budget


def solo_run(
    level: int,
    agent: str,
    *,
    games: int,
    seed: int = 0,
    iterations: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SoloReport:
    """Play ``games`` solo games of ``level`` with ``agent`` (one process)."""
    from solver.games.guardians.solo import level_by_number

    level_by_number(level)  # checks the level before any game
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"--games must be at least 1, not {games}")
    scores = []
    for g in range(games):
        scores.append(solo_game_record(level, agent, seed, g, iterations)[0])
        if progress is not None:
            progress(g + 1)
    return solo_report(level, agent, seed, iterations, scores)


def histogram_lines(scores: Sequence[int], threshold: int, width: int = 40) -> list[str]:
    """A text histogram of the scores in bins of 10 points; ``*`` marks the bin holding the
    threshold, shown (empty if need be) even when every score lies below or above it."""
    bins: dict[int, int] = {}
    for score in scores:
        bins[score // HISTOGRAM_BIN] = bins.get(score // HISTOGRAM_BIN, 0) + 1
    top = max(bins.values())
    marked = threshold // HISTOGRAM_BIN
    lines = []
    for b in range(min(*bins, marked), max(*bins, marked) + 1):
        count = bins.get(b, 0)
        bar = "#" * max(1 if count else 0, round(width * count / top))
        low, high = b * HISTOGRAM_BIN, b * HISTOGRAM_BIN + HISTOGRAM_BIN - 1
        mark = "*" if low <= threshold <= high else " "
        lines.append(f"{low:>4}-{high:<4}{mark} {count:>5}  {bar}".rstrip())
    return lines
