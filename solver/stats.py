"""Small statistics helpers: confidence intervals for win rates.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)
>>> wilson_interval(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math

Z_95 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for ``wins`` out of ``games``."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    # at no wins (every win) the low (high) end is exactly 0 (1): centre - half rounds to a
    # residue there (5.55e-17 for 0 of 3), which a reader takes for a measured chance
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)
