"""The parts of a guardians state that its readers and views share with the rules: the phase a
state waits in and one player's holdings.

They live below ``rules`` (which re-exports them) so that the state's JSON reader and its text
view need not import the rules module that imports them (no import circle).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from solver.games.guardians.actions import PAWNS
from solver.games.guardians.board import Cell, Face
from solver.games.guardians.tiles import START_ID

__all__ = [
    "CHANCE_PHASES",
    "ORIGIN",
    "PHASE_NAMES",
    "PHASE_WORDS",
    "POOL_SIZE",
    "Phase",
    "PlayerState",
    "last_round",
    "level_tasks",
    "never_met",
]


class Phase(IntEnum):
    """What the state waits for. The integer codes are shared with a compiled kernel."""

    DRAW = 0  # chance: a tile from the bag into the pool
    START_PAWN = 1  # solo set-up: which pawn stands on the start tile
    GROW = 2  # decision: reset, take 2 tiles or take 1 tile
    PLACE = 3  # decision: which pool tile goes where
    PAWN = 4  # solo: which pawn goes on the mission tile just placed
    MISSIONS = 5  # decision: a walk, or end turn
    TRACK = 6  # chance (solo): the tile drawn onto the round track
    OVER = 7  # terminal
    PICK = 8  # decision (hidden backs): which pool tile ``take 1 tile`` flips
    REVEAL = 9  # chance (hidden backs): the mission on the back of the tile being flipped


PHASE_NAMES = {p: p.name.lower() for p in Phase}
PHASE_WORDS = {
    **{p: name.replace("_", " ") for p, name in PHASE_NAMES.items()},
    Phase.START_PAWN: "choose the start pawn",
    Phase.PAWN: "a pawn onto the new mission",
    Phase.TRACK: "round track",
    Phase.PICK: "pick the tile to flip",
    Phase.REVEAL: "reveal the flipped tile",
}
"""The phases as the text, the table and the picture say them (``PHASE_NAMES`` stay the state
JSON's: ``forest guardians show`` read ``phase start_pawn``)."""
CHANCE_PHASES = (Phase.DRAW, Phase.TRACK, Phase.REVEAL)
POOL_SIZE = 6
"""The tiles the pool holds once drawn full."""
ORIGIN: Cell = (0, 0)
"""The cell of every forest's start tile (a game from a grove position aside): the solo pawn
enters there."""


def last_round(state: Any) -> str | None:
    """Why the round under way is the game's last, in words, or ``None`` (not yet, or over).

    With 2-4 players a player who reaches the mission limit (10/9/8 missions, the game's
    ``mission_limit``) ends the game once the round is finished; in every game a bag that ran
    out (``end_triggered`` with nobody at the limit) makes the round the last. Read through the
    attributes both engines' states and games have (``people``, ``end_triggered``, ``game``), so
    the text, the picture and the web table say it alike on either engine."""
    if state.is_terminal():
        return None
    game = state.game
    why: list[str] = []
    if not game.solo:
        limit = game.mission_limit
        reached = [p for p, who in enumerate(state.people) if len(who.pile) >= limit]
        if reached:
            names = " and ".join(f"player {p}" for p in reached)
            why.append(f"{names} reached the mission limit ({limit} missions)")
    if state.end_triggered and not state.bag:
        why.append("the bag is empty")
    return f"last round: {'; '.join(why)}" if why else None


class PlayerState:
    """One player's forest, pawns, points pile, resets and combo cards.

    ``pawns[p]`` is the cell of pawn ``p`` or ``None`` while it waits in the reserve; ``pile``
    lists the completed missions as ``(tile id, pawn, round)`` in the order they were done.
    """

    __slots__ = ("cards", "forest", "pawns", "pile", "resets")

    def __init__(self) -> None:
        self.forest: dict[Cell, Face] = {}
        self.pawns: list[Cell | None] = [None] * PAWNS
        self.pile: list[tuple[int, int, int]] = []
        self.resets = 0
        self.cards: list[int] = []

    def copy(self) -> PlayerState:
        other = PlayerState()
        other.forest = dict(self.forest)
        other.pawns = list(self.pawns)
        other.pile = list(self.pile)
        other.resets = self.resets
        other.cards = list(self.cards)
        return other

    def reserve(self) -> list[int]:
        """The pawns still in the reserve."""
        return [p for p, cell in enumerate(self.pawns) if cell is None]

    def pawn_at(self, cell: Cell) -> int | None:
        for p, where in enumerate(self.pawns):
            if where == cell:
                return p
        return None


def level_tasks(state: Any) -> list[tuple[str, bool, str]]:
    """A solo game's level tasks as the text, the picture and the web table say them: each
    one's words, whether it is done and what it brings (``"+1 round"``); ``[]`` without a level
    (2-4 players).

    A task this game can never meet says so instead of what it brings: the start tile's, where
    player 0's forest holds no start tile (a position without ``[*]``: the start tile is never
    drawn from the bag), so a picture of such a position does not ask for it. Read through
    attributes both engines' states have (``game.level``, ``people``, ``tasks_done``)."""
    level = state.game.level
    if level is None:
        return []
    out = []
    for task, done in zip(level.tasks, state.tasks_done, strict=True):
        brings = "+1 round"
        if not done and never_met(state, task):
            brings = "no start tile here: cannot be met"
        out.append((task.text(), bool(done), brings))
    return out


def never_met(state: Any, task: Any) -> bool:
    """Whether the solo ``task`` can never be met in ``state``'s game: the start tile's, where
    player 0's forest and points pile hold no start tile (it is never drawn from the bag). The
    pictures say so, and the solo value counts no round on it (the kernel's ``never_met``)."""
    return bool(task.kind == "start_tile" and not _has_start_tile(state.people[0]))


def _has_start_tile(person: Any) -> bool:
    """Whether a player's forest or points pile holds the start tile (id 0)."""
    return any(face.tile == START_ID for face in person.forest.values()) or any(
        tile == START_ID for tile, _, _ in person.pile
    )
