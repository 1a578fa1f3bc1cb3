"""The clairvoyant estimate of one forest: sampled worlds, each searched for a hindsight win
(what it estimates and why: :mod:`.classify`, "The clairvoyant estimate").

:func:`clairvoyant_estimate` draws ``clairvoyant_samples`` worlds from a generator seeded by the
source and counts the worlds with a hindsight win, in world order, while the worlds' searches have
stored fewer than ``clairvoyant_total_nodes`` nodes, each world's search capped at
``clairvoyant_max_nodes`` and what the total leaves (a world over its cap counts as a win, and as
undecided). Two implementations give the same counts:

- the reference loop: one :meth:`~.soonest.SoonestWins.world` search after the other, the worlds
  drawn one by one by :func:`~.soonest.sample_world` (pure Python with ``compiled=False``);
- on the compiled kernel, :func:`sample_worlds` draws the same worlds in bulk and
  ``solver._ext.dog.clairvoyant_worlds`` runs the same loop in C (``ext/dog.pyx``, "the
  clairvoyant estimate").

``tests/games/dog/test_analysis_clairvoyant.py`` holds them to each other.

>>> import random
>>> from solver.games.dog.generator import roll_forest
>>> forest = roll_forest(5, 5, seed=1).replace(turns=4)
>>> rolls, dice = sample_worlds(forest, random.Random(7), 2)
>>> rng = random.Random(7)
>>> [sample_world(forest, rng) for _ in range(2)] == [
...     (list(rolls[:4]), list(dice[:len(dice) // 2])),
...     (list(rolls[4:]), list(dice[len(dice) // 2:]))]
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from solver.games.dog.analysis.options import AnalysisOptions, derived_seed
from solver.games.dog.analysis.soonest import SoonestWins, sample_world, world_shape
from solver.games.dog.forest import Forest

__all__ = ["ClairvoyantCounts", "clairvoyant_estimate", "sample_worlds"]


@dataclass(frozen=True)
class ClairvoyantCounts:
    """Worlds with a hindsight win (undecided ones included), worlds sampled, undecided worlds."""

    wins: int
    samples: int
    undecided: int


def _words_for(worlds: int, rolls: int, dice: int) -> int:
    """Enough 32-bit words for ``worlds`` worlds most of the time (``randint(1, 3)`` takes 4/3 of
    a word on average, ``randint(1, 6)`` 8/6; more are drawn when they run out)."""
    return int(worlds * (rolls * 4 / 3 + dice * 8 / 6) * 1.1) + 64


def _bulk(rng: random.Random, rolls: int, dice: int, count: int) -> tuple[bytes, bytes]:
    from solver.games.dog.kernel import extension_module

    decode = extension_module().decode_worlds
    words = b""
    out_rolls: list[bytes] = []
    out_dice: list[bytes] = []
    left = count
    while left > 0:
        n = _words_for(left, rolls, dice)
        words += rng.getrandbits(32 * n).to_bytes(4 * n, "little")
        done, used, some_rolls, some_dice = decode(words, rolls, dice, left)
        out_rolls.append(some_rolls)
        out_dice.append(some_dice)
        words = words[4 * used :]
        left -= done
    return b"".join(out_rolls), b"".join(out_dice)


@cache
def _bulk_reads_like_randint() -> bool:
    """Whether this Python's ``randint`` reads the generator as :func:`_bulk` decodes it (CPython
    does); if not, worlds are drawn one by one (the same worlds, slower)."""
    rolls, dice = _bulk(random.Random(20260), 9, 21, 5)
    rng = random.Random(20260)
    for w in range(5):
        if [rng.randint(1, 3) for _ in range(9)] != list(rolls[9 * w : 9 * w + 9]):
            return False
        if [rng.randint(1, 6) for _ in range(21)] != list(dice[21 * w : 21 * w + 21]):
            return False
    return True


def sample_worlds(forest: Forest, rng: random.Random, count: int) -> tuple[bytes, bytes]:
    """``count`` worlds, the same as ``count`` calls of :func:`~.soonest.sample_world` with
    ``rng``: the step-roll readings of every world one byte each, world after world, and their
    shout dice likewise (needs the compiled kernel)."""
    rolls, dice = world_shape(forest)
    if _bulk_reads_like_randint():
        return _bulk(rng, rolls, dice, count)
    worlds = [sample_world(forest, rng) for _ in range(count)]
    return bytes(r for w in worlds for r in w[0]), bytes(d for w in worlds for d in w[1])


def _reference_loop(
    forest: Forest, options: AnalysisOptions, rng: random.Random, searches: SoonestWins
) -> ClairvoyantCounts:
    """One world after the other (the module doc): the reference."""
    wins = undecided = samples = spent = 0
    for _ in range(options.clairvoyant_samples):
        if spent >= options.clairvoyant_total_nodes:
            break
        rolls, dice = sample_world(forest, rng)
        cap = min(options.clairvoyant_max_nodes, max(1, options.clairvoyant_total_nodes - spent))
        answer = searches.world(rolls, dice, cap)
        spent += answer.nodes
        samples += 1
        if answer.status == "budget":
            undecided += 1
            wins += 1
        elif answer.turns is not None:
            wins += 1
    return ClairvoyantCounts(wins, samples, undecided)


def clairvoyant_estimate(
    forest: Forest,
    options: AnalysisOptions,
    source: str,
    searches: SoonestWins | None = None,
) -> ClairvoyantCounts:
    """The sampled worlds' counts for ``forest`` analysed as ``source`` (module doc).

    ``searches``: the forest's :class:`~.soonest.SoonestWins` (default: compiled on the kernel
    engine); a pure-Python one runs the reference loop.
    """
    if searches is None:
        searches = SoonestWins(forest, options.engine)
    rng = random.Random(derived_seed(options.seed, source, "clairvoyant"))
    if not searches.compiled:
        return _reference_loop(forest, options, rng, searches)
    from solver.games.dog.kernel import extension_module

    count = options.clairvoyant_samples
    rolls, dice = sample_worlds(forest, rng, count)
    wins, samples, undecided = extension_module().clairvoyant_worlds(
        searches.root,
        rolls,
        dice,
        count,
        options.clairvoyant_max_nodes,
        options.clairvoyant_total_nodes,
        searches.reach,
    )
    return ClairvoyantCounts(wins, samples, undecided)
