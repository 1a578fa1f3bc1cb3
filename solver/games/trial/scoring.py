"""End of game: fame points and the winner.

Fame: face-up story cards; items and artifacts in the backpack; artifacts left in the gallery;
expedition flags; the morality track; legendary tokens (3 each); the first-player token (1). The
most fame wins; a tie goes to the most cards in the story (face up and down); still tied, the
victory is shared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.games.trial.core import player

if TYPE_CHECKING:
    from solver.games.trial.core import State


def fame(st: State, p: int) -> dict[str, int]:
    """Player ``p``'s fame, part by part, and the ``total``."""
    me = player(st, p)
    pack, comp, board = st.game.pack, st.game.components, st.game.board
    track = comp["morality"]
    parts = {
        "story": sum(int(pack.card(c)["fame"]) for c, up, _ in me["story"] if up),
        "backpack": sum(int(pack.item(k).get("fame", 0)) for k in me["backpack"]),
        "gallery": sum(int(pack.item(k).get("fame", 0)) for k in me["gallery"]),
        "flags": sum(board.finish[s] for s in me["flags"].values() if s is not None),
        "morality": int(track["fame"][me["morality"] - track["min"]]),
        "legendary": sum(
            int(t["fame"]) for t in comp["legendary"] if st.data["legendary"][t["id"]] == p
        ),
        "first_player": int(comp["first_player_fame"]) if st.data["first_player"] == p else 0,
    }
    parts["total"] = sum(parts.values())
    return parts


def winners(st: State) -> list[int]:
    """The players sharing the victory (after the tie-break on story cards)."""
    n = st.data["player_count"]
    keys = [(fame(st, p)["total"], len(player(st, p)["story"])) for p in range(n)]
    best = max(keys)
    return [p for p in range(n) if keys[p] == best]
