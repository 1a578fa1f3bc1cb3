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


def test_a_counter_says_the_count_and_the_time_left_at_its_pace() -> None:
    """``Progress.counter``: ``NOUN done/total`` (the total fixed, or given with each count, as
    a review's is); with ``left_after``, from that count to the last one, the time left at the
    pace since the work began, read on the progress's own (here, a hand-set) clock."""
    from solver.cmdkit import Progress

    now = [100.0]
    progress = Progress("reviewing", enabled=False, clock=lambda: now[0])
    progress.counter("games played", 5)(3)
    assert progress.detail == "games played 3/5"
    show = progress.counter("position", left_after=10, tip="fewer, faster")
    now[0] = 130.0  # 30 s for the first 10 of 40: 90 s for the other 30
    show(9, 40)
    assert progress.detail == "position 9/40"
    show(10, 40)
    assert progress.detail == "position 10/40, about 90 s left (fewer, faster)"
    show(40, 40)
    assert progress.detail == "position 40/40"
    progress.counter("position", left_after=1)(1, 4)
    assert progress.detail == "position 1/4, about 90 s left"
