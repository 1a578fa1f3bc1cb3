"""What a game record says of its game beside its actions, held to their replay.

``play --record`` writes each action's ``labels`` and the game's ``returns`` beside the
``actions``. The review replays the actions, so the replay decides, as it does for the record's
``"finished"`` (:func:`solver.review.finished_note`): where the record's words disagree with the
replay (a record edited by hand, labels of another version of the game's content, returns of
another game), a note at the head of the review's notes says so, naming the first difference,
and the game is reviewed as the replay plays it. A record whose ``labels`` is not a list of
strings (or nulls), or whose ``returns`` is not a list of numbers, is no record ``play
--record`` writes: the review refuses it naming the field (:func:`claims_problem`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from solver.errors import SolverError, shortened
from solver.fields import is_finite_number
from solver.labels import HIDDEN_LABEL

if TYPE_CHECKING:
    from solver.game import State

__all__ = ["claims_problem", "labels_note", "replayed_labels", "returns_note"]

RETURNS_TOLERANCE = 1e-9
"""How far a record's return may be from the replay's and still agree (JSON's round trip of a
float is exact: this only forgives a writer that rounded its last digit)."""


def claims_problem(record: Mapping[str, Any]) -> tuple[str, str] | None:
    """The field and the message refusing a record's ``labels`` or ``returns`` of the wrong
    shape, or ``None`` (both absent or null are fine: an unfinished record's returns are
    null)."""
    labels = record.get("labels")
    if labels is not None and (
        not isinstance(labels, list) or not all(x is None or isinstance(x, str) for x in labels)
    ):
        return "labels", 'a game record\'s "labels" is a list of strings (one an action)'
    returns = record.get("returns")
    if returns is not None and (
        not isinstance(returns, list) or not all(is_finite_number(x) for x in returns)
    ):
        return "returns", ('a game record\'s "returns" is a list of finite numbers (one a '
                           "seat) or null")  # fmt: skip
    return None


def replayed_labels(start: State, ids: Sequence[int], said: Sequence[str | None] = ()) -> list[str]:
    """The label of each of ``ids`` where the replay plays it from ``start`` (a fresh state the
    caller gives up: it is played on). Read on the state's label twin where it has one (a
    compiled engine's reference copy: one decode, not one an action). Where the record's own
    label (``said``) is another that the game reads as the same action (its ``string_to_action``:
    a label of an earlier version of the game, which old records hold, or a state-free one), that
    label is the replay's: it names what was played, so it is no disagreement."""
    from solver.game import LabelReader

    reader = LabelReader(start).reader()
    labels = []
    for index, action in enumerate(ids):
        label = str(reader.action_to_string(action))
        own = said[index] if index < len(said) else None
        if isinstance(own, str) and own != label and _reads_as(reader, own, action):
            label = own
        labels.append(label)
        reader.apply_action(action)
    return labels


def _reads_as(state: State, label: str, action: int) -> bool:
    """Whether ``state``'s game reads ``label`` as ``action`` (a label it reads as no legal
    action, or as another, is no name of it)."""
    try:
        return bool(state.string_to_action(label) == action)
    except SolverError:
        return False


def labels_note(said: Sequence[str | None], replayed: Sequence[str]) -> str | None:
    """The note on a record whose ``labels`` (``said``) disagree with the ``replayed`` labels of
    its actions, or ``None`` where they agree. A null label, or one hidden from the seat that
    recorded it (:data:`~solver.labels.HIDDEN_LABEL`), says nothing to disagree with."""
    differ = [
        (index, label, replayed[index])
        for index, label in enumerate(said[: len(replayed)])
        if isinstance(label, str) and label != HIDDEN_LABEL and label != replayed[index]
    ]
    parts = []
    if differ:
        index, label, played = differ[0]
        more = f" (and {len(differ) - 1} more)" if len(differ) > 1 else ""
        parts.append(f"action {index} is labelled {shortened(label)!r} where the replay plays "
                     f"{shortened(played)!r}{more}")  # fmt: skip
    if len(said) != len(replayed):
        parts.append(f"it has {len(said)} labels for {len(replayed)} actions")
    if not parts:
        return None
    return (f"the record's \"labels\" disagree with the replay of its actions: "
            f"{'; '.join(parts)}: the actions are reviewed as the replay plays them (the replay "
            "decides)")  # fmt: skip


def returns_note(said: Sequence[float] | None, ended: State, actions: int) -> str | None:
    """The note on a record whose ``returns`` (``said``; ``None``: null or absent) the replay of
    its ``actions`` contradicts (``ended``: where they lead), or ``None`` where they agree."""
    if said is None:
        return None
    shown = shortened(json.dumps(list(said)))
    if not ended.is_terminal():
        return (f'the record says "returns": {shown}, but its {actions} actions stop before '
                "the game's end (no returns yet): the review values the game as far as they go "
                "(the replay decides)")  # fmt: skip
    got = [float(x) for x in ended.returns()]
    if len(got) == len(said) and all(
        abs(float(a) - b) <= RETURNS_TOLERANCE for a, b in zip(said, got, strict=True)
    ):
        return None
    return (f'the record says "returns": {shown}, but the replay of its {actions} actions ends '
            f"with {json.dumps([round(x, 6) for x in got])}: the review values the replayed game "
            "(the replay decides)")  # fmt: skip
