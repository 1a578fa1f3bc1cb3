"""The command line's argument types (:mod:`solver.cmdkit`), driven through a ``forest``
subprocess: a count that no compiled searcher can hold is refused by its type, in one line."""

from __future__ import annotations

import argparse
import sys

import pytest

from solver import cmdkit
from solver.testing import run_forest as forest

# each whole-number type of a range, with that range (independent of cmdkit's own constants)
RANGED = [
    (cmdkit.positive_int, 1, 2**63 - 1),
    (cmdkit.nonnegative_int, 0, 2**63 - 1),
    (cmdkit.seed_int, 0, 2**64 - 1),
    (cmdkit.whole_from_1_to(16), 1, 16),
    (cmdkit.whole_from(0, 65535), 0, 65535),
]


def _refusal(parse, text: str) -> str:
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        parse(text)
    return str(caught.value)


@pytest.mark.parametrize(("parse", "low", "high"), RANGED)
def test_a_number_past_the_maximum_is_told_the_range_however_long(parse, low, high):
    """One wording for "too large": the range, alike for the maximum plus one and for a number
    of 5,000 digits (int() refuses more than 4,300). It was three: "of at most 9223372036854775807"
    (positive_int), "of at most 4300 digits" (nonnegative_int), "from A to B" (the others)."""
    said = _refusal(parse, str(high + 1))
    assert f"from {low} to {high}" in said and "digits" not in said, said
    huge = "9" * 5_000
    assert _refusal(parse, huge) == said.replace(repr(str(high + 1)), repr(huge))
    assert parse(str(high)) == high and parse(f"+{low}") == low


@pytest.mark.parametrize(("parse", "low", "high"), RANGED)
def test_digits_int_reads_are_held_to_the_range_by_their_value(parse, low, high):
    """int() reads the decimal digits of every script ('٣' is 3, full-width '３' too) and leading
    zeros: a number so written is held to the range like its ASCII twin. 5,000 Arabic-Indic
    digits were 'expected a whole number' (int()'s digit limit, not the range), and 3 after
    5,000 zeros 'of at most 4300 digits', though it is 3."""
    huge = "\u0663" * 5_000
    said = _refusal(parse, str(high + 1))
    assert _refusal(parse, huge) == said.replace(repr(str(high + 1)), repr(huge))
    assert parse("0" * 5_000 + "3") == 3 and parse("\u0660" * 5_000 + "\uff13") == 3
    assert parse("\u0663") == 3 and parse(" +\uff13 ") == 3
    if low > 0:
        assert _refusal(parse, "-" + "\u0663" * 5_000).startswith(
            f"expected a whole number of at least {low}"
        )
    superscript = _refusal(parse, "\u00b2")  # a digit, not a decimal one: int() reads no '²'
    assert superscript.startswith("expected a whole number") and "digits" not in superscript


def test_whole_int_s_digit_limit_is_int_s_own(monkeypatch):
    """whole_int's "of at most N digits" says int()'s limit as it stands, not a copy of it; and
    a digit int() cannot read ('²', which str.isdigit passes) is no number too long."""
    limit = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(1_000)
        assert "of at most 1000 digits" in _refusal(cmdkit.whole_int, "9" * 1_001)
        assert cmdkit.whole_int("9" * 1_000) == 10**1_000 - 1
    finally:
        sys.set_int_max_str_digits(limit)
    assert _refusal(cmdkit.whole_int, "\u00b2") == "expected a whole number, found '\u00b2'"


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
