"""The data behind guardians' solo leaf value: positions of recorded solo games and their ends.

Replays game ``g`` of ``forest guardians solo --level L --seed S`` (the default agent, at its own
play budget: the games of ``bench/results/guardians_levels_games.jsonl``) and writes one JSON
line per decision of the solo player: the level, the game, the round, the rounds the track holds
then, the level tasks done, the score, the colour heuristic's ``progress``, and
the game's final score. ``--fit`` reads the rows back and prints the least-squares points per
round left and the spread of the final score around the projection, by rounds left: the
constants of ``solver.games.guardians.heuristic`` (its docstring quotes the fit).

Every finished game is appended at once, and games already in ``--rows`` are skipped: a stopped
run resumes::

    nice -n 10 python bench/guardians_solo_value.py --levels 1,2,3,4,5,6 --games 25 \\
        --rows bench/results/guardians_solo_value_rows.jsonl
    python bench/guardians_solo_value.py --fit --rows bench/results/guardians_solo_value_rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any

from solver.games.guardians.solo import default_levels

__all__ = ["THRESHOLDS", "calibration", "fit", "game_rows"]

THRESHOLDS = {level.number: level.threshold for level in default_levels()}
"""The levels' thresholds (``puzzles/guardians/levels.json``)."""


def game_rows(level: int, seed: int, index: int) -> list[dict[str, Any]]:
    """One row per solo decision of game ``index`` (the default agent's game, replayed on the
    reference rules for the colour heuristic's terms)."""
    from solver.game import play_game
    from solver.games.guardians import SPEC
    from solver.games.guardians.heuristic import progress
    from solver.rng import derive_seed

    game = SPEC.build(players=1, level=level)
    game_seed = derive_seed(seed, index)
    agent = SPEC.agent(SPEC.strongest_agent).build(game, seed=derive_seed(game_seed, 1))
    record = play_game(game, [agent], seed=game_seed)
    final = int(record.final.scores()[0])
    state = SPEC.build(engine="reference", players=1, level=level).new_initial_state()
    rows = []
    for action in record.actions:
        if not state.is_chance_node():
            rows.append(
                {
                    "level": level,
                    "game": index,
                    "round": state.round,
                    "rounds": state.rounds(),
                    "tasks_done": sum(state.tasks_done),
                    "score": state.score(0),
                    "progress": round(progress(state, 0), 4),
                    "final": final,
                }
            )
        state.apply_action(action)
    assert state.score(0) == final, "the reference replay ends where the game did"
    return rows


def fit(rows: list[dict[str, Any]]) -> dict[str, float]:
    """The projection's weights (least squares of ``final - score`` on progress, rounds left and
    tasks not done, no intercept) and the spread (per square root of a round left, and its
    floor: the grid point of the best log-likelihood of reaching the threshold)."""
    import numpy as np

    def column(key: str) -> Any:
        return np.array([r[key] for r in rows], dtype=float)

    score, final = column("score"), column("final")
    left = np.maximum(column("rounds") - column("round") + 1, 0)
    terms = np.stack([column("progress"), left, 2 - column("tasks_done")], axis=1)
    weights = np.linalg.lstsq(terms, final - score, rcond=None)[0]
    projected = score + terms @ weights
    threshold = np.array([THRESHOLDS[r["level"]] for r in rows], dtype=float)
    won = final >= threshold

    def loss(per_round: float, floor: float) -> float:
        scale = np.sqrt(per_round**2 * left + floor**2) * math.sqrt(3) / math.pi
        p = np.clip(1 / (1 + np.exp(-(projected - threshold + 0.5) / scale)), 1e-12, 1 - 1e-12)
        return float(-(won * np.log(p) + (1 - won) * np.log(1 - p)).mean())

    grid = [(a / 4, b) for a in range(12, 25) for b in (0.0, 1.0, 2.0, 3.0, 4.0)]
    per_round, floor = min(grid, key=lambda g: loss(*g))
    return {
        "progress_share": float(weights[0]),
        "round_points": float(weights[1]),
        "task_points": float(weights[2]),
        "spread_per_round": per_round,
        "spread_floor": floor,
        "log_loss": loss(per_round, floor),
    }


def calibration(rows: list[dict[str, Any]]) -> list[str]:
    """The shipped value (:func:`solo_chance` on each row's terms) against the share of rows
    whose game reached the threshold, by tenths of the value; then each level's first round."""
    from solver.games.guardians import heuristic as h

    def value(r: dict[str, Any]) -> float:
        left = max(0, r["rounds"] - r["round"] + 1)
        projected = (
            r["score"] + h.PROGRESS_SHARE * r["progress"] + h.ROUND_POINTS * left
            + h.TASK_POINTS * (2 - r["tasks_done"])
        )  # fmt: skip
        spread = math.sqrt(h.SPREAD_PER_ROUND**2 * left + h.SPREAD_FLOOR**2)
        x = (projected - THRESHOLDS[r["level"]] + 0.5) / (spread * math.sqrt(3) / math.pi)
        return 1 / (1 + math.exp(-x))

    lines = ["| value | rows | mean value | reached the threshold |", "|---|---|---|---|"]
    pairs = [(value(r), r["final"] >= THRESHOLDS[r["level"]]) for r in rows]
    for tenth in range(10):
        bin_ = [(v, w) for v, w in pairs if min(int(v * 10), 9) == tenth]
        if bin_:
            mean = statistics.fmean(v for v, _ in bin_)
            share = statistics.fmean(w for _, w in bin_)
            span = f"{tenth / 10:.1f}-{(tenth + 1) / 10:.1f}"
            lines.append(f"| {span} | {len(bin_)} | {mean:.3f} | {share:.3f} |")
    lines += [
        "",
        "| level | round-1 rows | mean value | reached the threshold |",
        "|---|---|---|---|",
    ]
    for level in sorted({r["level"] for r in rows}):
        first = [(v, w) for (v, w), r in zip(pairs, rows, strict=True)
                 if r["level"] == level and r["round"] == 1 and r["score"] == 0]  # fmt: skip
        mean, share = statistics.fmean(v for v, _ in first), statistics.fmean(w for _, w in first)
        lines.append(f"| {level} | {len(first)} | {mean:.3f} | {share:.3f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1")
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rows", type=Path, required=True)
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    if args.fit:
        rows = [json.loads(line) for line in args.rows.read_text().splitlines()]
        games = len({(r["level"], r["game"]) for r in rows})
        print(f"{len(rows)} decisions of {games} games; the fit:")
        print(", ".join(f"{k} {v:.3f}" for k, v in fit(rows).items()))
        print("\n".join(calibration(rows)))
        return
    done = set()
    if args.rows.exists():
        lines = args.rows.read_text().splitlines()
        done = {(r["level"], r["game"]) for r in map(json.loads, lines)}
    for g in range(args.games):
        for level in (int(x) for x in args.levels.split(",")):
            if (level, g) in done:
                continue
            rows = game_rows(level, args.seed, g)
            with args.rows.open("a") as out:
                out.write("".join(json.dumps(r) + "\n" for r in rows))
            print(level, g, rows[0]["final"], len(rows), flush=True)


if __name__ == "__main__":
    main()
