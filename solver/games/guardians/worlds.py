"""Forest guardians' sampled worlds: a hidden-backs state dealt again with every back face up,
the backs nobody has seen drawn at random among those still unseen (determinization).

Why: with hidden backs a tile's id stands for its face only (its back is decided when it is
flipped). A *world* renames each tile of the set to a tile of the same face: a flipped tile to
one with the back it showed, the others to the rest of their face's tiles in a random order.
Tiles of one face are alike but for the back, so every world consistent with what the player
has seen is equally likely, and the renamed state is a legal state of the open-backs game
(``open_backs=True``): a planner sees there which tile carries which mission. The solo endgame
player's ``worlds`` option plans several and votes (:mod:`~solver.games.guardians.endgame`).
"""

from __future__ import annotations

import json
from typing import Any

from solver.rng import SplitMix64

__all__ = ["open_game_of", "sample_world"]

HIDDEN_FIELDS = ("backs", "unseen", "picked", "revealing")


def open_game_of(game: Any) -> Any:
    """The open-backs game of a hidden-backs game (the same engine, players, tiles and level);
    ``None`` for a game started from a position (its extra tiles have no set twins)."""
    if game.position is not None or game.open_backs:
        return None
    return type(game)(players=game.players, tiles=game.tiles, level=game.level, open_backs=True)


def sample_world(state: Any, open_game: Any, rng: SplitMix64) -> tuple[Any, dict[int, int]]:
    """A world of ``state`` (at a step with no tile being flipped or placed, such as the growth
    step): the open game's state and the renaming back (open tile id -> the state's)."""
    data = json.loads(state.to_json())
    shown = {int(tile): back for tile, back in data["backs"]}
    rename = _renaming(state.get_game(), open_game, shown, rng)
    for key in HIDDEN_FIELDS:
        data.pop(key, None)
    for who in data["players"]:
        who["forest"] = [[r, c, rename[t], side] for r, c, t, side in who["forest"]]
        who["pile"] = [[rename[t], pawn, when] for t, pawn, when in who["pile"]]
    for key in ("bag", "discard", "pool"):
        data[key] = sorted(rename[t] for t in data[key])
    data["track"] = [rename[t] for t in data["track"]]
    back = {u: t for t, u in rename.items()}
    return open_game.state_from_json(json.dumps(data)), back


def _renaming(game: Any, open_game: Any, shown: dict[int, str], rng: SplitMix64) -> dict[int, int]:
    """Each tile id of ``game`` to a tile id of ``open_game`` with its face: a shown back's
    tile to one with that back, the others shuffled over the rest (Fisher-Yates)."""
    truth = {tile.id: tile.sequence for tile in open_game.tiles.tiles}
    rename = {0: 0}  # the start tile
    for members in game.face_members.values():
        by_back: dict[str, list[int]] = {}
        for u in members:
            by_back.setdefault(truth[u], []).append(u)
        for t in members:
            if t in shown:
                rename[t] = by_back[shown[t]].pop()
        rest = [u for back in sorted(by_back) for u in by_back[back]]
        for i in range(len(rest) - 1, 0, -1):
            j = rng.below(i + 1)
            rest[i], rest[j] = rest[j], rest[i]
        unseen = [t for t in members if t not in shown]
        rename.update(zip(unseen, rest, strict=True))
    return rename
