"""What a searched value is, in the words every surface shows beside it (the hint's
``rootInfo.valueLabel``, the web table, ``forest GAME best-move`` and ``review``).

A value is one of three kinds, told apart by how it was found (``method``) and how the
estimate's simulations valued their leaves (the searcher's ``evaluator``, ``leaves`` here):

- **exact** (``method == "exact"``): the game's value, e.g. its exact win probability;
- **estimated**: simulations played to the end of the game (``rollout``, ``guided`` leaves):
  a sampled estimate that converges on the value as the budget grows;
- **heuristic**: simulations that stop where the game's heuristic values the position
  (``heuristic``, ``mixed``, the Trial's ``heuristic-playout``, or an evaluator not named
  here): the heuristic's guess, which need not be near a win rate measured by play (the
  Trial's set-up: 0.52 for seat 0 while it won 7 of 40 heuristic self-play games).

>>> value_label("win probability", "exact", None)
'exact win probability'
>>> value_label("win probability", "mcts", "rollout")
'estimated win probability'
>>> value_label("win probability", "ismcts", "heuristic-playout")
'heuristic estimate of the win probability'
"""

from __future__ import annotations

__all__ = ["PLAYED_OUT", "is_heuristic", "value_label"]

PLAYED_OUT = frozenset({"rollout", "guided"})
"""Evaluators whose simulations play to the end of the game (their values are play's)."""


def is_heuristic(method: str, leaves: str | None) -> bool:
    """Whether a value of ``method`` with ``leaves`` rests on the game's heuristic (an estimate
    whose leaves were not played to the end; ``None``: not known, taken as played out)."""
    return method != "exact" and leaves is not None and leaves not in PLAYED_OUT


def value_label(value_kind: str, method: str, leaves: str | None) -> str:
    """The words for a value of ``value_kind`` (``"win probability"``) found by ``method``
    (``exact``, ``mcts``, ``ismcts``) with ``leaves`` (the evaluator's name, or None)."""
    if method == "exact":
        return f"exact {value_kind}"
    if is_heuristic(method, leaves):
        return f"heuristic estimate of the {value_kind}"
    return f"estimated {value_kind}"
