"""The positions of a review, each reached once: a walk along the record.

A review values every position of a record from ply ``start`` to ``last``. :class:`Walk` applies
the record's actions one at a time to a running state and hands each search its own copy, so the
replay is linear in the game's length (a hint request per position replayed the record from its
start: quadratic, 22 s of a long four-player Trial's review went to it). Searching a copy of the
running state is searching the state the request would have replayed, so a review's values are
what they were (same seed, budget and threads).

A position with a single move (one legal action, or a chance node with one outcome) is
*forced*: it is not searched. Its value is the value of the position its only move leads to (the
same game from there on), read from the search of the first position after it that is not forced
(``valueFromPly``), which the walk searches ahead (past the range or the record if need be:
the move is the game's, not the record's) and keeps for when it gets there. The value is read
for the seat the forced position's value is for (the player to move; player 0 at a chance node):
from the later search's ``values`` (every seat's) where it gives them, else from its ``value`` when
it is that same seat's. Otherwise (a hidden-information game's next searched position with
another player to move: that search's values are another seat's view, from what that seat sees)
the forced position is searched as any other. Nothing here knows any game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.game import State

__all__ = ["MAX_FORCED_RUN", "Seen", "Walk", "only_move"]

MAX_FORCED_RUN = 256
"""The most forced moves a walk follows ahead to find a position to search (a game whose forced
moves never end: the last position reached is searched, forced or not)."""

Search = Callable[[int, "State"], dict[str, Any]]
"""``search(ply, state)``: the hint engine's answer at ``state``, the position at ``ply`` (a copy
the search may change)."""


def only_move(state: State) -> int | None:
    """The single move of a forced position (the only legal action, or a chance node's only
    outcome); ``None`` where there is a choice or the game is over."""
    if state.is_terminal():
        return None
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return outcomes[0][0] if len(outcomes) == 1 else None
    legal = state.legal_actions()
    return legal[0] if len(legal) == 1 else None


def viewer_of(state: State) -> int:
    """The seat a position's value is for: the player to move, player 0 at a chance node (as a
    hint's default observer)."""
    player = state.current_player()
    return player if player >= 0 else 0


def value_for(reply: dict[str, Any], seat: int) -> float | None:
    """A hint answer's value for ``seat``: its ``values`` entry, or its ``value`` where that is
    the seat's; ``None`` where the answer does not know it."""
    root = reply["rootInfo"]
    values = root.get("values") or []
    if len(values) > seat:
        return float(values[seat])
    if root["player"] == seat:
        return float(root["value"])
    return None


@dataclass
class Seen:
    """A position of the walk: ``reply``, the hint engine's answer its values come from (its own
    search, or for a forced position carried, the search at ``source``); ``forced``, its only
    move and that move's label where it has one move; ``seat``, whom its value is for."""

    ply: int
    reply: dict[str, Any]
    source: int
    seat: int
    to_move: int
    forced: tuple[int, str] | None = None

    @property
    def carried(self) -> bool:
        """Whether the value is another position's (a forced position not searched)."""
        return self.source != self.ply


class Walk:
    """The record's positions from ``start`` on, in order, each reached by one action applied
    to the running ``state`` (the position at ply ``start``)."""

    def __init__(self, state: State, ids: Sequence[int], start: int, search: Search) -> None:
        self.state = state
        self.ply = start
        self._ids = ids
        self._search = search
        self._ahead: dict[int, dict[str, Any]] = {}

    def upcoming(self) -> int:
        """The record's next action (the one :meth:`step` plays)."""
        return self._ids[self.ply]

    def step(self) -> int:
        """Play the record's next action (returned)."""
        action = self._ids[self.ply]
        self.state.apply_action(action)
        self.ply += 1
        return action

    def seen(self) -> Seen:
        """The position at the walk's ply, valued (searched, or carried where forced)."""
        state, ply = self.state, self.ply
        only = only_move(state)
        if only is None:
            return self._searched(ply, state)
        label = state.action_to_string(only)
        seen = self._carried(ply, state, only)
        if seen is None:  # the later search cannot say this seat's value: search it after all
            seen = self._searched(ply, state)
        seen.forced = (only, label)
        return seen

    def _searched(self, ply: int, state: State) -> Seen:
        """The position at ``ply`` valued by its own search (searched ahead already, or now on a
        copy): its seat and player to move are the answer's."""
        reply = self._ahead.pop(ply, None)
        if reply is None:
            reply = self._search(ply, state.clone())
        root = reply["rootInfo"]
        return Seen(ply, reply, ply, root["player"], root["currentPlayer"])

    def _carried(self, ply: int, state: State, only: int) -> Seen | None:
        """A forced position valued by the first position after it that is not forced (searched
        now, and kept for when the walk reaches it); ``None`` where that search does not know
        this position's seat's value."""
        ahead = state.clone()
        ahead.apply_action(only)
        source = ply + 1
        while source - ply < MAX_FORCED_RUN and (move := only_move(ahead)) is not None:
            ahead.apply_action(move)
            source += 1
        reply = self._ahead.get(source)
        if reply is None:
            reply = self._search(source, ahead)
        self._ahead = {source: reply}
        seat = viewer_of(state)
        if value_for(reply, seat) is None:
            return None
        return Seen(ply, reply, source, seat, state.current_player())
