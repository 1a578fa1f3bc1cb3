"""A review's second look where an estimate's loss decides: the search's own noise.

A review values each decision by one search at a budget (a few hundred simulations a position,
say). Its loss, the best move's value less the value of the move played, is read off that one
search: where the two are apart by less than the search's noise, the loss is noise, and since a
loss is never below 0 the noise only adds (a player who always chose the first option read about as
accurate as the engines: the figures are in docs/hint-engine.md). So a decision whose first search
says the move played gave value away is searched again :data:`MORE_SEARCHES` times with other
seeds, at the same budget: the moves' values are pooled over the searches (each search's value of a
move weighted by its simulations), the loss is the pooled one, and the searches' spread gives it a
standard error (:func:`loss_error`: the spread of the best-less-played differences of the
searches). A loss below :data:`NOISE_FACTOR` standard errors is *within the noise*: the decision is
undecided (the review's notion of a decision the estimates cannot judge, counted accurate, no
mark). Nothing here knows any game: the searches are the hint engine's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from solver.agent_first import ALIKE

__all__ = [
    "MORE_SEARCHES",
    "NOISE_FACTOR",
    "loss_error",
    "needs_second_look",
    "noise_note",
    "pooled_reply",
    "within_noise",
]

MORE_SEARCHES = 2
"""The searches a decision with a loss gets beside its first (seeds 1, 2...: three in all)."""

NOISE_FACTOR = 2.0
"""A loss below this many standard errors (:func:`loss_error`) is within the searches' noise."""


def needs_second_look(decision: Mapping[str, Any]) -> bool:
    """Whether a decision's loss rests on one estimate's search and is not 0: searched (not a
    forced move carried), estimated (not exact), and the move played valued below the best."""
    loss = decision.get("loss")
    return (
        not decision.get("forced")
        and decision.get("method") != "exact"
        and loss is not None
        and loss >= ALIKE
    )


def pooled_reply(replies: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The hint answers of one position pooled: each move's value the simulation-weighted mean
    of its values (the plain mean where no search simulated it), its visits their sum, the moves
    ordered by visits (the most simulated first, as a search lists its choice; ties in the first
    answer's order). The root is the first answer's (its ``visits`` that search's).

    >>> a = {"moveInfos": [{"action": 1, "label": "x", "value": 0.5, "visits": 30},
    ...                    {"action": 2, "label": "y", "value": 0.4, "visits": 10}], "rootInfo": {}}
    >>> b = {"moveInfos": [{"action": 2, "label": "y", "value": 0.6, "visits": 50},
    ...                    {"action": 1, "label": "x", "value": 0.3, "visits": 10}], "rootInfo": {}}
    >>> pooled = pooled_reply([a, b])["moveInfos"]
    >>> [(m["action"], round(m["value"], 4), m["visits"]) for m in pooled]
    [(2, 0.5667, 60), (1, 0.45, 40)]
    """
    first = replies[0]
    order = {move["action"]: index for index, move in enumerate(first["moveInfos"])}
    kept: dict[Any, list[Mapping[str, Any]]] = {}
    for reply in replies:
        for move in reply["moveInfos"]:
            kept.setdefault(move["action"], []).append(move)
    moves = []
    for seen in kept.values():
        visits = sum(int(m.get("visits") or 0) for m in seen)
        if visits:
            value = sum(float(m["value"]) * int(m.get("visits") or 0) for m in seen) / visits
        else:
            value = sum(float(m["value"]) for m in seen) / len(seen)
        moves.append({**seen[0], "value": value, "visits": visits})
    moves.sort(key=lambda m: (-m["visits"], order.get(m["action"], len(order))))
    return {"moveInfos": moves, "rootInfo": first["rootInfo"]}


def loss_error(replies: Sequence[Mapping[str, Any]], best: Any, played: Any) -> float | None:
    """The standard error of a loss from the searches' spread: over the ``replies`` that
    simulated both moves, the sample standard deviation of the ``best`` move's value less the
    ``played`` move's, over the square root of their number. ``None`` where fewer than two
    searches simulated both (no spread to read).

    >>> def reply(b, p):
    ...     return {"moveInfos": [{"action": 0, "value": b, "visits": 9},
    ...                           {"action": 1, "value": p, "visits": 9}]}
    >>> round(loss_error([reply(0.5, 0.4), reply(0.5, 0.5), reply(0.5, 0.3)], 0, 1), 6)
    0.057735
    """
    differences = []
    for reply in replies:
        values = {m["action"]: m for m in reply["moveInfos"] if int(m.get("visits") or 0) > 0}
        if best in values and played in values:
            differences.append(float(values[best]["value"]) - float(values[played]["value"]))
    if len(differences) < 2:
        return None
    mean = sum(differences) / len(differences)
    spread = sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)
    return math.sqrt(spread / len(differences))


def within_noise(loss: float | None, error: float | None) -> bool:
    """Whether a ``loss`` (≥ :data:`ALIKE`) is below :data:`NOISE_FACTOR` standard errors."""
    return loss is not None and error is not None and ALIKE <= loss < NOISE_FACTOR * error


def noise_note(decisions: Sequence[Mapping[str, Any]]) -> str | None:
    """What the second looks found: of the decisions searched again (``searches`` > 1), how
    many losses were within the searches' noise (``withinNoise``), so undecided; ``None`` where
    no decision was searched again. Read from the decisions, so the service's whole notes over
    ranged answers say the same."""
    again = [d for d in decisions if int(d.get("searches") or 0) > 1]
    if not again:
        return None
    noisy = sum(bool(d.get("withinNoise")) for d in again)
    searches = max(int(d.get("searches") or 0) for d in again)
    if not noisy:  # "0 of the 7 ... so they are undecided" spoke of decisions there were none of
        return (
            f"none of the {len(again)} decisions whose first search valued the move played "
            f"below the best was within the search's noise at this budget (searched {searches} "
            "times with other seeds): their marks stand"
        )
    return (
        f"{noisy} of the {len(again)} decisions whose first search valued the move played below "
        f"the best were within the search's noise at this budget: searched {searches} times "
        f"with other seeds, their loss was below {NOISE_FACTOR:g} standard errors of the "
        "searches' spread, so they are undecided (marked noise, not inaccurate, a mistake or a "
        "blunder; counted accurate)"
    )
