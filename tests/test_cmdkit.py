"""The command line's argument types (:mod:`solver.cmdkit`), driven through a ``forest``
subprocess: a count that no compiled searcher can hold is refused by its type, in one line."""

from __future__ import annotations

from solver.testing import run_forest as forest


def test_a_count_beyond_64_bits_is_refused_by_the_argument_type():
    # Defect: `best-move --iterations 99999999999999999999` reached the compiled MCTS and ended in
    # "OverflowError: Python int too large to convert to C long" (a traceback).
    run = forest("guardians", "best-move", "guardians/chain", "--iterations", "9" * 20)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "--iterations" in run.stderr and run.stderr.count("\n") == 1, run.stderr
