"""The library's own pseudo-random generator: SplitMix64 on plain integers.

Everything random in the library (the forest generator, the searchers' sampling, the deals of
hidden information) draws from this generator, never from Python's ``random`` module, whose
algorithms may change between versions: the same seed gives the same numbers on every platform.
``ext/rng.pxd`` is the compiled twin the kernels' C loops draw from; ``tests/ext/test_rng.py``
holds the two to the same stream.

>>> rng = SplitMix64(7)
>>> [rng.roll(6) for _ in range(4)]
[4, 1, 1, 4]
"""

from __future__ import annotations

import operator
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from solver.errors import OptionError

T = TypeVar("T")
MASK64 = (1 << 64) - 1
_MASK64 = MASK64
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_TWO_POW_M53 = 1.0 / 9007199254740992.0


def whole_number(name: str, value: object) -> int:
    """``value`` as an ``int`` (any integer type, such as NumPy's, but not ``bool``)."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise OptionError(f"{name} must be a whole number, not {value!r}")


def check_seed(value: object) -> int:
    try:
        seed = whole_number("seed", value)
    except OptionError:
        seed = -1
    if not 0 <= seed <= _MASK64:
        raise OptionError(f"seed must be a whole number from 0 to 2**64 - 1, not {value!r}")
    return seed


class SplitMix64:
    """The SplitMix64 generator (64-bit state, 64-bit outputs) on plain Python integers.

    >>> rng = SplitMix64(0)
    >>> hex(rng.next_u64())
    '0xe220a8397b1dcdaf'
    >>> hex(rng.next_u64())
    '0x6e789e6aa1b965f4'
    >>> rng = SplitMix64(7)
    >>> [rng.roll(6) for _ in range(8)]
    [4, 1, 1, 4, 5, 4, 5, 1]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = check_seed(seed)

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GOLDEN_GAMMA) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def roll(self, sides: int) -> int:
        """Roll a fair die with ``sides`` faces: 1..sides, each exactly equally likely.

        >>> rng = SplitMix64(3)
        >>> all(1 <= rng.roll(4) <= 4 for _ in range(100))
        True
        """
        if sides < 1:
            raise OptionError(f"a die needs at least one side, not {sides}")
        limit = (1 << 64) // sides * sides
        while True:
            x = self.next_u64()
            if x < limit:
                return 1 + x % sides

    def pick(self, candidates: Sequence[T]) -> T:
        """A uniformly random candidate (1d``len(candidates)``, 1-based index)."""
        return candidates[self.roll(len(candidates)) - 1]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place, every order equally likely (Fisher-Yates from the back,
        one :meth:`roll` a position): what a game's ``resample_hidden`` deals with.

        >>> cards = list(range(6))
        >>> SplitMix64(1).shuffle(cards)
        >>> sorted(cards) == list(range(6)) and cards != list(range(6))
        True
        """
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]

    # The draws the searchers make (``ext/rng.pxd``: splitmix64_next, _uniform, _below in C).
    def next(self) -> int:
        """The next 64-bit output (alias of :meth:`next_u64`)."""
        return self.next_u64()

    def uniform(self) -> float:
        """A float in [0, 1): ``(next >> 11) * 2**-53``."""
        return (self.next_u64() >> 11) * _TWO_POW_M53

    def below(self, k: int) -> int:
        """An index below ``k``: ``((next >> 32) * k) >> 32`` (as the compiled searchers do)."""
        return ((self.next_u64() >> 32) * k) >> 32


def weighted_index(weights: Sequence[float], u: float) -> int:
    """The index a uniform ``u`` in [0, 1) picks among ``weights`` (probabilities, in order): the
    first whose running total exceeds ``u``, else the last (rounding). The library's one chance
    draw, in every Python searcher and driver; ``ext/rng.pxd``'s ``weighted_index`` is its C twin
    (the same sums in the same order, so both pick the same outcome for the same ``u``).

    >>> weighted_index([0.5, 0.25, 0.25], 0.6), weighted_index([0.5, 0.5], 0.9999999)
    (1, 1)
    """
    total = 0.0
    for index, weight in enumerate(weights):
        total += weight
        if u < total:
            return index
    return len(weights) - 1


def sample_outcome(outcomes: Sequence[tuple[int, float]], rng: SplitMix64) -> int:
    """A chance outcome of ``outcomes`` (``(action, probability)`` pairs) by its probability,
    with one :meth:`SplitMix64.uniform` draw (:func:`weighted_index`); ``ext/rng.pxd``'s
    ``sample_outcome`` draws the same outcome from the same generator state in C."""
    return int(outcomes[weighted_index([p for _, p in outcomes], rng.uniform())][0])


_SEED_STEP = 1_000_003


def derive_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th game (or decision, or forest) of a run seeded with ``seed``.

    One formula for every place that derives per-item seeds from a run's seed, so that runs are
    reproducible item by item.

    >>> derive_seed(0, 3), derive_seed(2, 0)
    (3, 2000006)
    """
    return (seed * _SEED_STEP + index) & _MASK64


def redeal_stream(rng: object) -> SplitMix64:
    """The generator a ``resample_hidden(player, rng)`` deals from: ``rng`` itself when it is a
    :class:`SplitMix64`; for Python's ``random.Random`` (or any generator with ``getrandbits``),
    a SplitMix64 seeded with 64 of its bits, so a caller's own generator works on every engine
    (the compiled Trial seeds its C redeal from ``next_u64``, which ``random.Random`` lacks).

    >>> import random
    >>> bits = random.Random(3).getrandbits(64)
    >>> redeal_stream(random.Random(3)).next_u64() == SplitMix64(bits).next_u64()
    True
    >>> redeal_stream(3)
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: rng must be a solver.rng.SplitMix64 or a random.Random, not int
    """
    if isinstance(rng, SplitMix64):
        return rng
    draw = getattr(rng, "getrandbits", None)
    if not callable(draw) or isinstance(rng, type):
        raise OptionError(
            f"rng must be a solver.rng.SplitMix64 or a random.Random, not {type(rng).__name__}"
        )
    return SplitMix64(int(draw(64)) & _MASK64)
