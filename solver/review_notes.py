"""The review's word on the decisions searched less than asked.

A review bounded by a whole time (``--total-seconds``, ``POST /v1/review``'s ``totalSeconds``,
the web table's review) gives each position a share of the time left: where a share ran out
before the asked simulations, that decision's value and mark rest on fewer. The review says how
many, and each such decision's ``simulations`` says by how much.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from solver.render.ascii import count

if TYPE_CHECKING:  # solver.search's package imports every searcher: only where a note is folded
    from solver.search.coverage import ChanceCoverage

__all__ = ["folded_search_notes", "searched_less", "searched_less_note"]


def searched_less(decision: Mapping[str, Any], iterations: int | None) -> bool:
    """Whether ``decision`` was searched with fewer simulations than the ``iterations`` asked:
    an estimate (not exact) of a position with a choice (a forced move is not searched). A
    decision that gives no ``simulations`` (``None``: one a client of ``POST /v1/review`` sent
    back without them) says nothing of its search, so it is not counted."""
    if iterations is None or decision.get("forced") or decision.get("method") == "exact":
        return False
    simulations = decision.get("simulations")
    return simulations is not None and int(simulations) < iterations


def searched_less_note(
    decisions: Sequence[Mapping[str, Any]], iterations: int | None
) -> str | None:
    """The note for the decisions :func:`searched_less` picks out, or None when there are none."""
    short = [d for d in decisions if searched_less(d, iterations)]
    if not short:
        return None
    fewest = min(int(d.get("simulations") or 0) for d in short)
    searched = [d for d in decisions if not d.get("forced")]
    aside = "" if len(searched) == len(decisions) else " (moves forced aside)"
    return (
        f"{len(short)} of {count(len(searched), 'searched decision')}{aside} got fewer "
        f"than the {iterations} simulations asked (the fewest {fewest}): the review's time ran "
        "short there, so their values and marks are rougher estimates"
    )


def folded_search_notes(
    said: Mapping[str, int], short: Mapping[ChanceCoverage, int], searched: int
) -> list[str]:
    """The searches' notes ``said`` (each note with the positions that gave it), each once with
    its count of the ``searched`` positions, then their chance coverages ``short`` (each with
    the positions that had it), one note a cause whatever their numbers: each chance node has
    its own outcome count, so a Trial review at 5 simulations listed one note per count (20 and
    more notes saying the same thing). The coverages are read as numbers, never from a note's
    words (:mod:`solver.search.coverage` words both notes)."""
    from solver.search.coverage import coverage_words

    notes = [f"{count(n, 'position')} of {searched} searched: {note}" for note, n in said.items()]
    causes: dict[str, list[tuple[ChanceCoverage, int]]] = {}
    for coverage, n in short.items():
        causes.setdefault(coverage.cap, []).append((coverage, n))
    for cap, met in causes.items():
        n = sum(times for _, times in met)
        words = coverage_words(cap, [c.simulations for c, _ in met],
                               [c.outcomes for c, _ in met], nodes=n)  # fmt: skip
        notes.append(f"{count(n, 'position')} of {searched} searched: {words}")
    return notes
