"""Forest guardians' keyed chance draws: the common random numbers of the agents' play-outs.

Why: an agent comparing candidate turns by playing each out (the ``lookahead`` agent's
continuations, the solo endgame's play-outs) should see the same luck in every candidate where
the candidates leave the game alike, or the comparison measures the draws, not the turns. So a
chance outcome is drawn with a uniform number keyed by *what is drawn*, not by the order of
events: a draw from a bag of n tiles by (sample, n), a round-track draw likewise, a reveal by
(sample, tile).
"""

from __future__ import annotations

from typing import Any

from solver.rng import SplitMix64, derive_seed

__all__ = ["REVEAL_KEY", "TRACK_KEY", "keyed_outcome"]

REVEAL_KEY = 1_000
TRACK_KEY = 2_000


def keyed_outcome(state: Any, sample_seed: int) -> int:
    """A chance outcome of ``state`` drawn with a uniform number keyed by what is drawn (see the
    module docstring). Two candidate turns that leave the bag alike so see the same refill,
    whatever reveals one of them met on the way (common random numbers)."""
    from solver.games.guardians.rules import Phase
    from solver.rng import sample_outcome

    phase = state.phase
    if phase == Phase.REVEAL:
        key = REVEAL_KEY + int(state.revealing or 0)
    elif phase == Phase.TRACK:
        key = TRACK_KEY + len(state.bag)
    else:
        key = len(state.bag)
    return sample_outcome(state.chance_outcomes(), SplitMix64(derive_seed(sample_seed, key)))
