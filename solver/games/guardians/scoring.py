"""Scores, combo cards, the end-of-game limits and the winner (2-4 players) or level result.

Score = mission points + combo cards - 1 per reset (solo: no combo cards). With 2-4 players the
highest score wins; a tie goes to the player with fewer tiles in forest and pile together; players
still tied share the win equally.

>>> combo_card(3, [4, 3, 2, 1])
3
>>> combo_card(4, [4, 3, 0, 1])
3
>>> combo_card(2, [0, 3, 2, 1]) is None
True
>>> winners_share([10, 12, 12], [5, 7, 6])
[0.0, 0.0, 1.0]
>>> winners_share([10, 10], [5, 5])
[0.5, 0.5]
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "COMBO_SUPPLY",
    "MISSION_LIMITS",
    "combo_card",
    "winners_share",
]

#: How many +2, +3, +4 and +5 combo cards the game holds (index 0 is the +2 card).
COMBO_SUPPLY: tuple[int, ...] = (4, 3, 2, 1)
#: Completed missions that end the game, by number of players.
MISSION_LIMITS: dict[int, int] = {2: 10, 3: 9, 4: 8}


def combo_card(missions: int, supply: Sequence[int]) -> int | None:
    """The value of the combo card earned by ``missions`` missions in one turn, or ``None``.

    The card's rank is ``min(missions, 5)``; if that card is gone, the highest card of a lower
    rank still in ``supply`` (counts of the +2..+5 cards) is taken instead.
    """
    if missions < 2:
        return None
    for value in range(min(missions, 5), 1, -1):
        if supply[value - 2] > 0:
            return value
    return None


def winners_share(scores: Sequence[int], tiles: Sequence[int]) -> list[float]:
    """1 for the winner, 0 for the others; players still tied after the tie-break share 1."""
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if s == best]
    fewest = min(tiles[i] for i in tied)
    winners = [i for i in tied if tiles[i] == fewest]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(scores))]
