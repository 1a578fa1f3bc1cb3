"""A review's chance-coverage notes are one note a cause, whatever each chance node's numbers.

Found by attack: ``POST /v1/review`` (and ``forest trial review --iterations 5``) of a Trial
game listed 'the iteration budget allowed 5 simulations at this chance node of N outcomes' once
for every outcome count N met (19, 18, 12, ... 59: 20 and more notes saying one thing), since
each note was kept by its whole text.
"""

from __future__ import annotations

import random
import re

import solver
from solver.review import review_record
from solver.search.coverage import chance_coverage

_COVERAGE = re.compile(r"(\d+) positions? of (\d+) searched: the iteration budget allowed")


def _record(steps: int) -> dict:
    """A Trial record of ``steps`` random actions (chance outcomes drawn by their ids)."""
    state = solver.load_game("trial", engine="kernel").new_initial_state()
    rng, actions = random.Random(5), []
    for _ in range(steps):
        moves = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                 else state.legal_actions())  # fmt: skip
        actions.append(rng.choice(moves))
        state.apply_action(actions[-1])
    return {"game": "trial", "engine": "kernel", "options": {"players": 4}, "actions": actions}


def test_chance_coverage_notes_are_folded_into_one():
    record = _record(60)
    game = solver.load_game("trial", engine="kernel")
    state, short = game.new_initial_state(), set()
    for action in record["actions"]:  # the outcome counts the review meets, counted apart
        if chance_coverage(state, 5, "iteration budget") is not None:
            short.add(len(state.chance_outcomes()))
        state.apply_action(action)
    assert len(short) > 1  # else the record could not show the defect
    review = review_record(record, iterations=5, exact=False)
    coverage = [note for note in review["notes"] if _COVERAGE.match(note)]
    assert len(coverage) == 1, coverage
    low, high = min(short), max(short)
    assert f"allowed 5 simulations at chance nodes of {low} to {high} outcomes" in coverage[0]


def test_the_fold_reads_the_numbers_not_the_words(monkeypatch):
    """The review folds the chance-coverage notes from the searches' numbers: a change of the
    one chance node's wording (here a made-up one) leaves the fold whole. The fold parsed the
    note's words with a pattern, so any rewording split it into one note per outcome count."""
    from solver.search.coverage import ChanceCoverage

    def reworded(self: ChanceCoverage) -> str:
        return f"sampled {self.simulations} of {self.outcomes} outcomes ({self.cap})"

    monkeypatch.setattr(ChanceCoverage, "note", property(reworded))
    record = _record(20)
    game = solver.load_game("trial", engine="kernel")
    state, short = game.new_initial_state(), []
    for action in [*record["actions"], None]:  # the chance nodes the review meets short
        if chance_coverage(state, 2, "iteration budget") is not None:
            short.append(len(state.chance_outcomes()))
        if action is not None:
            state.apply_action(action)
    assert len(set(short)) > 1  # else one note would be one note anyway
    review = review_record(record, iterations=2, exact=False)
    assert not [note for note in review["notes"] if "sampled 2 of" in note], review["notes"]
    (note,) = [note for note in review["notes"] if "chance node" in note]
    assert re.fullmatch(
        rf"{len(short)} positions of \d+ searched: the iteration budget allowed 2 simulations at "
        rf"chance nodes of {min(short)} to {max(short)} outcomes: the value is over the outcomes "
        "they sampled, not every one",
        note,
    ), note
