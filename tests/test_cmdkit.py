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


def test_a_progress_line_reads_the_clock_its_budget_runs_on() -> None:
    """A review's progress line read its own clock, started when the line opened, while
    ``--total-seconds`` counts from the command's start: the time left said nothing of the
    budget. With ``since`` the pace counts from the work's start, and ``until`` (the budget's
    end on that clock) bounds the time left."""
    from solver.cmdkit import Progress

    now = [130.0]
    progress = Progress("reviewing", enabled=False, clock=lambda: now[0], since=100.0)
    progress.counter("position", left_after=10)(10, 40)
    assert progress.detail == "position 10/40, about 90 s left"  # 30 s since the start
    progress.counter("position", left_after=10, until=150.0)(10, 40)
    assert progress.detail == "position 10/40, about 20 s left"  # the budget ends first
    now[0] = 160.0
    progress.counter("position", left_after=10, until=150.0)(20, 40)
    assert progress.detail == "position 20/40, about 0 s left"


def test_the_review_command_times_its_progress_from_the_command_start(tmp_path, monkeypatch):
    from solver import cmdkit, command_clock
    from solver.cli import main

    record = tmp_path / "game.json"
    assert main(["dog", "play", "dog/tiny-2x2", "--agent", "random", "--record", str(record)]) == 0
    opened: list[tuple[float | None, float | None]] = []

    class Seen(cmdkit.Progress):
        def counter(self, *args: object, until: float | None = None, **how: object) -> object:
            opened.append((self._since, until))
            return super().counter(*args, until=until, **how)  # type: ignore[arg-type]

    monkeypatch.setattr(cmdkit, "Progress", Seen)
    argv = ["dog", "review", str(record), "--iterations", "5", "--total-seconds", "60"]
    assert main(argv) == 0
    ((since, until),) = opened
    assert since == command_clock.started() and until == since + 60
