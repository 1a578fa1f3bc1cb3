"""Route questions: the CP-SAT rules model against the brute-force twin as the forest grows.

Run with ``pytest bench/test_bench_routes.py --benchmark-enable -s``. Rolled n x n forests
(``roll_forest(n, n, SEEDS[n])``, 20 turns), n = 6, 8, 10, 12, 16; par and hindsight (rolls and
shouts drawn from ``random.Random(n)``). Each solve is timed over a few rounds; the median goes to
``benchmark.extra_info`` with, for the rules model, the ratio brute force / rules model, and the
last test prints a table saying which wins at each size.

The brute force is a breadth-first search with no budget: it is skipped where a pre-measurement
(one solve, this machine) went past about 20 s. Pre-measured (seconds, par / hindsight):

====  =================  ==============  ===========================
n     brute force        rules model     note
====  =================  ==============  ===========================
6     0.05 / 0.02        0.10 / 0.20     par 3, hindsight 4
8     0.06 / 0.02        0.10 / 0.50     par 2, hindsight 3
10    4.4 / 1.4          0.33 / 4.2      par 4, hindsight 6
12    4.7 / 7.7          0.03 / 0.44     par 4, hindsight 6
16    > 40 / > 40        4.4 / 18        par 10, hindsight 13: skipped
====  =================  ==============  ===========================

Nothing here asserts a wall-clock time (timings depend on the machine); the answers of the two
methods are asserted equal wherever both run.
"""

from __future__ import annotations

import random
import statistics
import time

import pytest

from solver.games.dog.generator import roll_forest
from solver.games.dog.routes import hindsight, par
from solver.games.dog.routes.graph import hindsight_brute_force, par_brute_force

SIZES = (6, 8, 10, 12, 16)
SEEDS = {6: 1006, 8: 1008, 10: 1010, 12: 1013, 16: 1016}  # 1012 is unreachable: no contest
TURNS = 20
BRUTE_FORCE_SIZES = {6, 8, 10, 12}  # the pre-measured table: 16 went past 40 s
TIME_LIMIT = 60.0  # CP-SAT deterministic time per question (never reached above)
MEDIANS: dict[tuple[str, str, int], float] = {}  # (question, method, n) -> median seconds
ANSWERS: dict[tuple[str, int], int | None] = {}  # the brute force's turns, to compare


def _forest(n: int):
    return roll_forest(n, n, seed=SEEDS[n]).replace(turns=TURNS)


def _sequences(n: int) -> tuple[list[int], list[bool]]:
    rng = random.Random(n)
    return [rng.randint(1, 3) for _ in range(TURNS)], [rng.random() < 0.5 for _ in range(200)]


def _solver(question: str, method: str, n: int):
    forest = _forest(n)
    rolls, shouts = _sequences(n)
    if question == "par":
        if method == "rules":
            return lambda: par(forest, time_limit=TIME_LIMIT)
        return lambda: par_brute_force(forest)
    if method == "rules":
        return lambda: hindsight(forest, rolls, shouts, time_limit=TIME_LIMIT)
    return lambda: hindsight_brute_force(forest, rolls, shouts)


def _measure(benchmark, question: str, method: str, n: int):
    solve = _solver(question, method, n)
    times: list[float] = []
    answers = []

    def timed():
        start = time.perf_counter()
        answers.append(solve())
        times.append(time.perf_counter() - start)

    first_start = time.perf_counter()
    timed()  # a first solve decides how many rounds fit
    rounds = 5 if time.perf_counter() - first_start < 2.0 else 1
    benchmark.pedantic(timed, rounds=rounds, iterations=1)
    median = statistics.median(times)
    MEDIANS[(question, method, n)] = median
    answer = answers[-1]
    benchmark.extra_info.update(
        {
            "n": n,
            "question": question,
            "method": method,
            "median_s": median,
            "turns": answer.turns,
            "states": answer.states,
        }
    )
    return answer


@pytest.mark.parametrize("n", sorted(BRUTE_FORCE_SIZES))
@pytest.mark.parametrize("question", ["par", "hindsight"])
def test_brute_force(benchmark, question: str, n: int) -> None:
    answer = _measure(benchmark, question, "brute-force", n)
    assert answer.proven
    ANSWERS[(question, n)] = answer.turns


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("question", ["par", "hindsight"])
def test_rules_model(benchmark, question: str, n: int) -> None:
    answer = _measure(benchmark, question, "rules", n)
    assert answer.proven
    if (question, n) in ANSWERS:
        assert answer.turns == ANSWERS[(question, n)]
    brute = MEDIANS.get((question, "brute-force", n))
    rules = MEDIANS[(question, "rules", n)]
    benchmark.extra_info["brute_force_over_rules"] = None if brute is None else brute / rules


def test_print_table() -> None:
    lines = [
        f"{'question':<10} {'n':>3} {'brute force s':>14} {'rules model s':>14} "
        f"{'ratio bf/rules':>15}  faster"
    ]
    for question in ("par", "hindsight"):
        for n in SIZES:
            rules = MEDIANS.get((question, "rules", n))
            brute = MEDIANS.get((question, "brute-force", n))
            if rules is None:
                continue
            if brute is None:
                lines.append(
                    f"{question:<10} {n:>3} {'skipped':>14} {rules:>14.3f} {'-':>15}  rules model"
                )
                continue
            winner = "rules model" if rules < brute else "brute force"
            lines.append(
                f"{question:<10} {n:>3} {brute:>14.3f} {rules:>14.3f} {brute / rules:>15.2f}  "
                f"{winner}"
            )
    print("\n" + "\n".join(lines))
