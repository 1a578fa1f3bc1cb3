"""The review's word on the decisions searched less than asked.

A review bounded by a whole time (``--total-seconds``, ``POST /v1/review``'s ``totalSeconds``,
the web table's review) gives each position a share of the time left: where a share ran out
before the asked simulations, that decision's value and mark rest on fewer. The review says how
many, and each such decision's ``simulations`` says by how much.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from solver.render.ascii import count

__all__ = ["folded_search_notes", "searched_less", "searched_less_note"]

_CHANCE_COVERAGE = re.compile(
    r"the (?P<cap>.+) allowed (?P<ran>\d+) simulations? at this chance node of "
    r"(?P<outcomes>\d+) outcomes: the value is over the outcomes they sampled, not every one"
)
"""The words of :func:`solver.search.auto.chance_coverage_note`, whose numbers vary by position."""


def searched_less(decision: Mapping[str, Any], iterations: int | None) -> bool:
    """Whether ``decision`` was searched with fewer simulations than the ``iterations`` asked:
    an estimate (not exact) of a position with a choice (a forced move is not searched)."""
    if iterations is None or decision.get("forced") or decision.get("method") == "exact":
        return False
    return int(decision.get("simulations") or 0) < iterations


def searched_less_note(
    decisions: Sequence[Mapping[str, Any]], iterations: int | None
) -> str | None:
    """The note for the decisions :func:`searched_less` picks out, or None when there are none."""
    short = [d for d in decisions if searched_less(d, iterations)]
    if not short:
        return None
    fewest = min(int(d.get("simulations") or 0) for d in short)
    searched = [d for d in decisions if not d.get("forced")]
    return (
        f"{count(len(short), 'decision')} of {len(searched)} searched with fewer than the "
        f"{iterations} simulations asked (the fewest {fewest}): the review's time ran short "
        "there, so their values and marks are rougher estimates"
    )


def _span(numbers: list[int]) -> str:
    """``"7"`` for one number, ``"7 to 70"`` for several."""
    low, high = min(numbers), max(numbers)
    return str(low) if low == high else f"{low} to {high}"


def folded_search_notes(said: Mapping[str, int], searched: int) -> list[str]:
    """The searches' notes ``said`` (each note with the positions that gave it), each once with
    its count of the ``searched`` positions. The chance-coverage notes of one cause are one
    note whatever their numbers: each chance node names its own outcome count, so a Trial review
    at 5 simulations listed one note per count (20 and more notes saying the same thing)."""
    kept: dict[str, int] = {}
    folded: dict[str, tuple[int, list[int], list[int]]] = {}
    for note, n in said.items():
        match = _CHANCE_COVERAGE.fullmatch(note)
        if match is None:
            kept[note] = n
            continue
        total, ran, outcomes = folded.get(match["cap"], (0, [], []))
        ran.append(int(match["ran"]))
        outcomes.append(int(match["outcomes"]))
        folded[match["cap"]] = (total + n, ran, outcomes)
    notes = [f"{count(n, 'position')} of {searched} searched: {note}" for note, n in kept.items()]
    for cap, (n, ran, outcomes) in folded.items():
        simulations = "simulation" if max(ran) == 1 else "simulations"
        nodes = "this chance node" if n == 1 else "chance nodes"
        notes.append(
            f"{count(n, 'position')} of {searched} searched: the {cap} allowed {_span(ran)} "
            f"{simulations} at {nodes} of {_span(outcomes)} outcomes: the value is over the "
            "outcomes they sampled, not every one"
        )
    return notes
