"""What a review's decisions add up to: each player's accuracy, and the notes a review closes with.

A decision's loss is read as Lichess's accuracy (:func:`accuracy_of`), averaged per player
(:func:`mean_accuracy`); the closing notes say what that figure counts without judging (the
undecided decisions, :func:`undecided_note`, and the words before the figures,
:func:`accuracy_title`), a fall of a player's value the moves do not account for
(:func:`fall_note`), the decisions a player came to with the game already lost
(:func:`lost_note`), the losses within the searches' noise and the decisions searched less
than asked. One wording for ``forest GAME review``, ``POST /v1/review`` and the web table
(:func:`closing_notes`); :mod:`solver.review` re-exports every name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from solver.review_noise import noise_note
from solver.review_notes import searched_less_note

__all__ = [
    "LOST_BELOW",
    "LOST_SHARE",
    "UNJUDGED_FALL",
    "accuracy_of",
    "accuracy_title",
    "closing_notes",
    "fall_note",
    "lost_note",
    "mean_accuracy",
    "undecided_note",
]


def accuracy_of(loss: float | None) -> float | None:
    """Lichess's accuracy of a move that gave away ``loss`` (a value in [0, 1]): with Δ the win
    probability lost in percentage points, ``103.1668·e^(−0.04354·Δ) − 3.1669`` clamped to
    [0, 100]. Lichess also weights a game's moves by the position's volatility; we do not (a
    player's accuracy is the plain mean over their moves, docs/hint-engine.md).

    >>> accuracy_of(0.0), round(accuracy_of(0.1), 2), accuracy_of(1.0)
    (99.9999, 63.58, 0.0)
    """
    if loss is None:
        return None
    delta = min(100.0, max(0.0, 100.0 * loss))
    return round(min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * delta) - 3.1669)), 4)


def mean_accuracy(decisions: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Each player's mean accuracy over their decisions with a known loss (keys: the seat)."""
    kept: dict[str, list[float]] = {}
    for decision in decisions:
        if decision.get("accuracy") is not None:
            kept.setdefault(str(decision["player"]), []).append(float(decision["accuracy"]))
    return {seat: round(sum(values) / len(values), 4) for seat, values in sorted(kept.items())}


def undecided_note(decisions: Sequence[Mapping[str, Any]]) -> str | None:
    """What the accuracy counts without judging: the decisions where the estimate valued the
    move played alike with the best and with others (``undecided``: a heuristic blind to what
    tells them apart gives every move there loss 0, so a random player's game could read 99%
    accurate), and the accuracy over the others. ``None`` when there are none."""
    undecided = sum(bool(d.get("undecided")) for d in decisions)
    if not undecided:
        return None
    judged = mean_accuracy([d for d in decisions if not d.get("undecided")])
    rest = ", ".join(f"player {seat} {value:.1f}" for seat, value in judged.items())
    over = (
        f"; over the other {len(decisions) - undecided}, leaving them out: {rest}" if rest else ""
    )
    noisy = sum(bool(d.get("undecided") and d.get("withinNoise")) for d in decisions)
    what = (
        "one of several the estimates valued alike with the best (they could not tell them apart)"
        if not noisy
        else f"one the estimates could not tell from the best ({undecided - noisy} valued alike "
        f"with it and others, {noisy} below it by less than the search's noise)"
    )
    return (
        f"at {undecided} of {len(decisions)} decisions the move played was {what}: the accuracy "
        f"shown counts them as accurate (loss 0){over}"
    )


def accuracy_title(decisions: Sequence[Mapping[str, Any]]) -> str:
    """What the accuracy figures are (the words before them on ``forest GAME review``'s last
    line): where some decisions are ``undecided``, that the mean counts them as accurate, so it
    reads beside :func:`undecided_note`'s accuracy over the others as the same measure with
    them in and left out, not as two answers to one question.

    >>> accuracy_title([{"undecided": False}])
    "accuracy (Lichess's curve, unweighted mean)"
    >>> accuracy_title([{"undecided": True}, {"undecided": True}, {"undecided": False}])[42:]
    ', counting the 2 decisions valued alike with the best as accurate)'
    """
    undecided = sum(bool(d.get("undecided")) for d in decisions)
    noisy = any(d.get("undecided") and d.get("withinNoise") for d in decisions)
    counted = ""
    if undecided:
        what = "decision" if undecided == 1 else f"{undecided} decisions"
        told = "the estimates could not tell from" if noisy else "valued alike with"
        counted = f", counting the {what} {told} the best as accurate"
    return f"accuracy (Lichess's curve, unweighted mean{counted})"


UNJUDGED_FALL = 0.25
"""How much more a player's value may fall over a review than their moves gave away before a
note says so (:func:`fall_note`)."""


def fall_note(
    decisions: Sequence[Mapping[str, Any]],
    curve: Sequence[Mapping[str, Any]],
    kind: str,
    *,
    exact: bool = False,
) -> str | None:
    """Where a player's value fell over the review far more than their moves gave away: the
    accuracy judges the moves only, and the rest fell between them (chance, and, unless the
    review is ``exact``, an estimate's drift from one position to the next; a poor player's
    solo game of chance can fall to 0 with no move marked). ``None`` when no player's fall
    exceeds their moves' losses by :data:`UNJUDGED_FALL`."""
    at = {point["ply"]: point for point in curve}
    last = curve[-1] if curve else None
    if last is None:
        return None
    said = []
    for seat in sorted({int(d["player"]) for d in decisions}):
        mine = [d for d in decisions if int(d["player"]) == seat and d.get("loss") is not None]
        first = at.get(min(int(d["ply"]) for d in mine) - 1) if mine else None
        start, end = _seat_value(first, seat), _seat_value(last, seat)
        if start is None or end is None:
            continue
        # an undecided decision gave nothing away as the accuracy counts it (loss 0)
        lost = sum(float(d["loss"]) for d in mine if not d.get("undecided"))
        if start - end - lost >= UNJUDGED_FALL:
            said.append(f"player {seat}'s {kind} fell from {start:.2f} to {end:.2f} while their "
                        f"moves gave away {lost:.2f}")  # fmt: skip
    if not said:
        return None
    why = "chance" if exact else "chance, and the estimates' drift from one position to the next"
    return (
        f"{'; '.join(said)}: the rest fell between the moves ({why}), which the marks and the "
        "accuracy do not judge"
    )


LOST_BELOW = 0.02
"""A value before the move below which the game is already lost for the player to move
(:func:`lost_note`): a move gives away at most about what the best move keeps, so none can
give away more than about this much (Lichess's curve: accuracy 91 or more whatever is played).
Near 1 there is no such bound: a move that throws a won game away loses it all, and the review
judges it (a random player's move gave away 0.67 from an exact win probability of 1), so a won
game's decisions are not counted."""

LOST_SHARE = 0.25
"""The share of a player's judged decisions that must come with the game already lost before
:func:`lost_note` speaks of them: a few such decisions (the last moves of a lost game) barely
move the mean; a quarter or more can carry it."""


def lost_note(
    decisions: Sequence[Mapping[str, Any]], curve: Sequence[Mapping[str, Any]], kind: str
) -> str | None:
    """The players who came to :data:`LOST_SHARE` or more of their judged decisions (those with
    an accuracy) with the game already lost for them: their value before the move (the curve's
    point at the ply before, for their seat) below :data:`LOST_BELOW`. There no move can give
    much away, so every move reads accurate: a player who lost early choosing the first option
    at every decision read 98.9 against the engines' 99.7 (chess sites' accuracy has the same
    limit). ``None`` when no player did.

    >>> curve = [{"ply": 0, "value": 0.5, "player": 0, "values": [0.5, 0.5]},
    ...          {"ply": 1, "value": 0.01, "player": 1, "values": [0.99, 0.01]},
    ...          {"ply": 2, "value": 0.99, "player": 0, "values": [0.99, 0.01]},
    ...          {"ply": 3, "value": 0.01, "player": 1, "values": [0.99, 0.01]}]
    >>> decisions = [{"ply": p, "player": (p - 1) % 2, "accuracy": 100.0} for p in (1, 2, 3, 4)]
    >>> lost_note(decisions, curve, "win probability").split(" with the game")[0]
    'player 1 came to 2 of their 2 decisions'
    """
    at = {int(point["ply"]): point for point in curve}
    said: list[str] = []
    for seat in sorted({int(d["player"]) for d in decisions}):
        mine = [d for d in decisions if int(d["player"]) == seat and d.get("accuracy") is not None]
        before = [_seat_value(at.get(int(d["ply"]) - 1), seat) for d in mine]
        lost = sum(value is not None and value < LOST_BELOW for value in before)
        if mine and lost >= LOST_SHARE * len(mine):
            said.append(_lost_words(seat, lost, len(mine), first=not said))
    if not said:
        return None
    return (
        f"{', '.join(said)}{',' if len(said) > 1 else ''} with the game already lost for them "
        f"(their {kind} before the move below {LOST_BELOW}): no move there could give much away, "
        "so their accuracy says little about those moves"
    )


def _lost_words(seat: int, lost: int, judged: int, *, first: bool) -> str:
    """``player SEAT came to LOST of their JUDGED decisions`` (after the first player: ``player
    SEAT to LOST of their JUDGED``); a player judged once came to ``their only decision`` (a
    range of a few plies read ``1 of their 1 decisions``).

    >>> _lost_words(0, 3, 6, first=True), _lost_words(1, 1, 1, first=False)
    ('player 0 came to 3 of their 6 decisions', 'player 1 to their only one')
    >>> _lost_words(0, 1, 1, first=True)
    'player 0 came to their only decision'
    """
    came = "came to" if first else "to"
    if judged == 1:
        return f"player {seat} {came} their only {'decision' if first else 'one'}"
    return f"player {seat} {came} {lost} of their {judged}{' decisions' if first else ''}"


def _seat_value(point: Mapping[str, Any] | None, seat: int) -> float | None:
    """A curve point's value for ``seat``: its ``values`` entry, or its ``value`` where the point
    is that seat's (a hidden-card game's search gives only its observer's value: such a game's
    points before its end have no ``values``, so its fall was never noted); ``None`` else."""
    if point is None:
        return None
    values = point.get("values") or []
    if len(values) > seat:
        return float(values[seat])
    if point.get("player") == seat and point.get("value") is not None:
        return float(point["value"])
    return None


def closing_notes(
    decisions: Sequence[Mapping[str, Any]],
    curve: Sequence[Mapping[str, Any]],
    kind: str,
    iterations: int | None,
) -> list[str]:
    """The notes a review closes with, over its ``decisions`` and ``curve`` (in ply order): the
    decisions the estimates could not judge (:func:`undecided_note`), a fall the marks do not
    judge (:func:`fall_note`; exact where every point's value is), the decisions come to with the
    game already lost (:func:`lost_note`) and the decisions searched with
    fewer than the ``iterations`` asked (:func:`~solver.review_notes.searched_less_note`). One
    wording for the command line, ``POST /v1/review`` and the web table, which reviews a game a
    range at a time and asks them of the whole (the service's ``wholeNotes``)."""
    exact = bool(curve) and all(point.get("method") == "exact" for point in curve)
    return [
        *_note_if_any(undecided_note(decisions)),
        *_note_if_any(noise_note(decisions)),
        *_note_if_any(fall_note(decisions, curve, kind, exact=exact)),
        *_note_if_any(lost_note(decisions, curve, kind)),
        *_note_if_any(searched_less_note(decisions, iterations)),
    ]


def _note_if_any(note: str | None) -> list[str]:
    """``[note]``, or no note where there is none (``None``)."""
    return [] if note is None else [note]
