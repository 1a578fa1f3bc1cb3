"""A chance root searched with fewer simulations than it has outcomes: the numbers and the words.

An estimate of a chance node stops at its budget (its iterations, its time, its memory cap, a
terminate), but never before one simulation (:func:`solver.search.auto.floor_simulations`): its
value is then the probability-weighted mean over the outcomes its simulations sampled, not over
every one. The searchers report that shortfall as numbers (:class:`ChanceCoverage`), and the
note a user reads is worded here from them, once: for one chance node (a hint's note,
:attr:`ChanceCoverage.note`) or for several of one cause at once (a review's folded note,
:func:`coverage_words`). A reader that groups the shortfalls (the review) reads the numbers,
never the words.

>>> ChanceCoverage("time", 1, 59).note
'the time allowed 1 simulation at this chance node of 59 outcomes: the value is over the outcomes they sampled, not every one'
>>> coverage_words("iteration budget", [5], [6, 70], nodes=26)
'the iteration budget allowed 5 simulations at chance nodes of 6 to 70 outcomes: the value is over the outcomes they sampled, not every one'
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.game import State

__all__ = ["ChanceCoverage", "chance_coverage", "coverage_words"]


@dataclass(frozen=True)
class ChanceCoverage:
    """A chance root whose search ran ``simulations`` (fewer than its ``outcomes``) before its
    ``cap`` stopped it (:func:`solver.search.auto.stop_cause`'s words: ``"time"``, ``"iteration
    budget"``, ``"memory cap"``, ``"stop (a terminate)"``)."""

    cap: str
    simulations: int
    outcomes: int

    @property
    def note(self) -> str:
        """The note of this one chance node."""
        return coverage_words(self.cap, [self.simulations], [self.outcomes], nodes=1)


def chance_coverage(state: State, simulations: int, cap: str = "time") -> ChanceCoverage | None:
    """The shortfall of ``state``'s search of ``simulations`` stopped by ``cap``; ``None`` where
    there is none (a decision node, or every outcome could have been sampled)."""
    if not state.is_chance_node():
        return None
    outcomes = len(state.chance_outcomes())
    return ChanceCoverage(cap, simulations, outcomes) if simulations < outcomes else None


def _span(numbers: Sequence[int]) -> str:
    """``"7"`` for one number (or several equal), ``"7 to 70"`` for several."""
    low, high = min(numbers), max(numbers)
    return str(low) if low == high else f"{low} to {high}"


def coverage_words(
    cap: str, simulations: Sequence[int], outcomes: Sequence[int], nodes: int
) -> str:
    """The note of ``nodes`` chance nodes stopped by one ``cap`` after ``simulations`` each, of
    ``outcomes`` each (the ranges are said: ``5``, ``6 to 70``)."""
    ran = "simulation" if max(simulations) == 1 else "simulations"
    where = "this chance node" if nodes == 1 else "chance nodes"
    return (f"the {cap} allowed {_span(simulations)} {ran} at {where} of {_span(outcomes)} "
            "outcomes: the value is over the outcomes they sampled, not every one")  # fmt: skip
