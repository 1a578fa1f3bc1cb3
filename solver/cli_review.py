"""``forest GAME review FILE``: every decision of a recorded game against the best move.

Written once over the game protocol, its declaration and the hint engine, like the other
commands every game gets (:mod:`solver.cli_game` wires them into the parser; ``play --human`` and
``play --record``, which write the records, are :mod:`solver.cli_human`). It prints every
decision's value against the best move's, the loss and the marks of
:data:`solver.review.THRESHOLDS`, and ``--plot`` draws the curve as PNG or SVG.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from solver.cli_human import Screen
from solver.errors import OptionError, path_said, shortened
from solver.render.ascii import count
from solver.spec import GameSpec

__all__ = ["review_command"]

MARK_PLURALS = {"inaccuracy": "inaccuracies"}
"""The review's marks whose plural is not the name and an ``s``."""


def review_command(spec: GameSpec, args: argparse.Namespace) -> int:
    """``forest GAME review FILE``: the review as a table (or JSON), and the plot."""
    from solver.review import (
        RecordError,
        check_plot_name,
        read_record,
        review_record,
        write_plot,
    )

    try:
        record = read_record(args.file)
    except RecursionError:
        raise OptionError(f"{path_said(args.file)}: a game record nested too deeply") from None
    if record.get("game") != spec.name:
        raise OptionError(
            f"{path_said(args.file)} records a game of {shortened(str(record.get('game')))!r}, "
            f"not {spec.name}"
        )
    exact = True if args.exact else (False if args.mcts else None)
    if args.plot:
        from solver.cmdkit import check_output

        check_plot_name(args.plot)
        check_output(args.plot, overwrite=args.overwrite)  # before the review's searches
    from solver import command_clock
    from solver.cmdkit import progress_of

    actions = record.get("actions", [])
    begun = command_clock.started()  # the clock of --total-seconds, and of the progress line
    what = f"reviewing {count(len(actions), 'action')} of {path_said(args.file)}"
    with progress_of(args, what, since=begun) as shown:
        # the positions searched and, once a few are, the time left at their pace
        # (and how to make it shorter, or the total cap in force, which it never passes)
        total = args.total_seconds
        tip = ("--iterations N: fewer, faster; --total-seconds S: a cap" if total is None
               else f"at most {total:g} s in all, --total-seconds")  # fmt: skip
        until = None if total is None else begun + total
        counter = shown.counter("position", left_after=10, tip=tip, until=until)
        try:
            review = review_record(
                record, iterations=args.iterations, seconds=args.seconds, exact=exact,
                allow_paths=True, progress=counter, total_seconds=args.total_seconds,
                since=begun,
            )  # fmt: skip
        except RecordError as exc:  # the record names the file's fault: actions.N, state...
            raise OptionError(f"{path_said(args.file)}: {exc}") from None
    if args.plot:
        from solver.files import write_whole

        write_whole(args.plot, lambda temporary: write_plot(review, temporary),
                    overwrite=args.overwrite)  # fmt: skip
    if args.json:
        print(json.dumps(review, indent=2))
        return 0
    screen = Screen()
    _show_review(screen, review, record, args.file)
    if args.plot:
        screen.print(f"wrote {args.plot}")
    sys.stdout.flush()
    return 0


EXACT_CUT = "the exact search did not finish within"
"""A review note's words where a position's exact search ran out of its time (the hint's note)."""
INSIST = (
    "note: --exact values every position exactly (no time bound; the memory cap still "
    "applies), --seconds S gives its exact search S/2 a position"
)
"""How to have those positions exact: said after such a note."""


def _show_review(screen: Screen, review: dict[str, Any], record: dict[str, Any], path: str) -> None:
    """The review as text: the decisions' table, why it is empty or stops early, the notes,
    the marks with their thresholds and the accuracy."""
    from solver.review import accuracy_title, values_kind

    actions = record.get("actions", [])
    kind = values_kind(review, plural=True)
    rows = [[str(d["ply"]), str(d["player"]), d["label"], _num(d["value"]), d["bestLabel"] or "",
             _num(d["best"]), _loss(d["loss"]), _mark(d)]
            for d in review["decisions"]]  # fmt: skip
    label = review.get("valueLabel") or review["valueKind"]
    how = "" if label.startswith(kind) else f" ({kind})"  # not "exact ... (exact)"
    budget = _budget_words(review)
    if budget and not review["exact"]:
        how = f"{how[:-1]}, {budget})" if how else f" ({budget})"
    screen.table(
        f"review of {path}: {label}{how}",
        ["ply", "player", "move", "value", "best", "best value", "loss", "mark"], rows,
    )  # fmt: skip
    marks = ", ".join(
        count(n, name, MARK_PLURALS.get(name)) for name, n in review["summary"].items()
    )
    limits = ", ".join(f"{name} ≥ {t:g}" for name, t in review["thresholds"].items())
    if not review["decisions"] and not actions:  # a saved position: the record has no line
        screen.print("no decision to review: the record has no actions (a saved position; "
                     "review the game played from it)")  # fmt: skip
    elif not review["decisions"]:  # an empty table alone would not say why
        what = "is a chance outcome" if len(actions) == 1 else "are chance outcomes"
        screen.print(f"no decision to review: the record's {count(len(actions), 'action')} "
                     f"{what} (rolls, draws) only")  # fmt: skip
    if record.get("finished") is False and not review["finished"]:  # else a note says why
        screen.print("the record is unfinished (the game was left before its end): the review "
                     "stops where it does")  # fmt: skip
    for note in review.get("notes", ()):
        screen.print(f"note: {note}")
    if any(EXACT_CUT in note for note in review.get("notes", ())):
        screen.print(INSIST)
    kept = sum(d.get("bestBy") == "played" for d in review["decisions"])
    if kept:
        screen.print(
            f"note: at {count(kept, 'decision')} the move played was valued above "
            "the search's choice (its first listed move), so the move played is shown as best, "
            "loss 0 (--json: searchBestLabel, searchBestValue)"
        )
    screen.print(f"{marks}  (loss thresholds: {limits})")
    if review.get("accuracy"):
        accuracy = ", ".join(f"player {seat} {value:.1f}" for seat, value in
                             review["accuracy"].items())  # fmt: skip
        screen.print(f"{accuracy_title(review['decisions'])}: {accuracy}")


def _budget_words(review: dict[str, Any]) -> str:
    """The search budget a position had, in words (``300 simulations a position``)."""
    limit = review.get("limit") or {}
    parts = []
    if limit.get("iterations"):
        parts.append(count(limit["iterations"], "simulation") + " a position")
    if limit.get("seconds"):
        parts.append(f"{limit['seconds']:g} s a position")
    return ", at most ".join(parts)


def _mark(decision: dict[str, Any]) -> str:
    """A decision's mark, or ``noise`` where its loss was within the searches' noise (a loss
    shown with no mark: :mod:`solver.review_noise`)."""
    if decision.get("withinNoise"):
        return "noise"
    return str(decision["mark"] or "")


def _num(value: float | None) -> str:
    return "?" if value is None else f"{value:.4f}"


def _loss(value: float | None) -> str:
    """A loss to 4 places, rounded down: a loss printed at a threshold is marked (0.04996,
    unmarked, printed 0.0500 beside 'inaccuracy ≥ 0.05' read as a missing mark)."""
    from solver.review import _TOLERANCE  # the marks' own slack

    if value is None:
        return "?"
    return f"{math.floor((value + _TOLERANCE) * 10_000) / 10_000:.4f}"
