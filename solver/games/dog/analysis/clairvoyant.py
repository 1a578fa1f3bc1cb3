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
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from solver.games.dog.analysis.options import AnalysisOptions, derived_seed
from solver.games.dog.analysis.soonest import (
    SoonestWins,
    distances_to_human,
    sample_world,
    world_shape,
)
from solver.games.dog.forest import Forest
from solver.games.dog.rules import ROLL_1, SHOUT_HIT, SHOUT_SHRUG, Phase

__all__ = [
    "ClairvoyantCounts",
    "clairvoyant_estimate",
    "exact_clairvoyant_value",
    "exact_reference",
    "sample_worlds",
]


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


# -- the clairvoyant value, exactly ----------------------------------------------------------------
def exact_clairvoyant_value(
    forest: Forest, max_nodes: int, searches: SoonestWins | None = None
) -> float | None:
    """The share of *all* worlds of ``forest`` with a hindsight win, or None when that takes more
    than ``max_nodes`` stored positions (:func:`exact_reference` says how it is computed; on the
    compiled kernel ``solver._ext.dog.exact_clairvoyant`` computes the same, with the same
    budget, in C)."""
    if searches is None:
        searches = SoonestWins(forest)
    nrolls, ndice = world_shape(forest)
    if not searches.compiled:
        return exact_reference(forest, max_nodes, searches)
    from solver.games.dog.kernel import extension_module

    found = extension_module().exact_clairvoyant(
        searches.root, nrolls, ndice, max_nodes, searches.reach
    )
    return None if found is None else float(found)


EXACT_MAX_ENTRIES = 1024
"""Worlds with more entries (readings and dice) than this are not valued exactly (one level of
the reveal each; the compiled search's C stack)."""


def exact_reference(
    forest: Forest, max_nodes: int, searches: SoonestWins | None = None
) -> float | None:
    """The exact clairvoyant value by revealing a world's entries only when a route needs them,
    in pure Python (the twin of the compiled one, step for step: the same positions, the same
    order, the same budget and the same floating-point sums).

    From the positions reached so far, everything the revealed entries allow is expanded, depth
    first (a win: every world with this prefix has one, value 1). What is left waits for the
    next step-roll reading or the next shout die. If anything waits for a reading, it is revealed
    (1, 2 or 3, a third each), else the next die (its six values grouped by which waiting shouts
    they shrug off, each group with its share of 6); nothing waiting: value 0. Each position
    stored beyond those handed down counts against ``max_nodes``; over it, None.
    """
    if searches is None:
        searches = SoonestWins(forest, compiled=False)
    nrolls, ndice = world_shape(forest)
    if nrolls + ndice > EXACT_MAX_ENTRIES:
        return None
    root = searches.root
    reveal = _Reveal(forest, searches, max_nodes)
    if root.is_terminal():
        return 1.0 if root.won else 0.0
    if reveal.hopeless(root):
        return 0.0
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 4 * (nrolls + ndice) + 200))
        return reveal.value([(root, 0, 0)], [], [])
    except _OverBudget:
        return None
    finally:
        sys.setrecursionlimit(limit)


# the waiting marks of :class:`_Reveal`'s positions: expanded, waiting for a step-roll reading,
# waiting for a shout die, waiting for an entry past the world's last (never revealed)
_EXPANDED, _ON_ROLL, _ON_DIE, _PAST_END = 0, 1, 2, 3


class _Reveal:
    """One :func:`exact_reference` search: the forest's figures, the positions' keys and the
    budget of stored positions left."""

    def __init__(self, forest: Forest, searches: SoonestWins, max_nodes: int) -> None:
        root = searches.root
        self.nrolls, self.ndice = world_shape(forest)
        self.distance = distances_to_human(forest)
        self.reach, self.turns = searches.reach, forest.turns
        self.numbers = {cell: dict(forest.arrows_at(cell)) for cell in _cells(forest)}
        self.to_key: Callable[[Any], Any] = (
            (lambda s: s._to_bytes()) if hasattr(root, "_to_bytes") else (lambda s: s.to_json())
        )
        self.budget = max_nodes

    def hopeless(self, state: Any) -> bool:
        """Whether the human is out of the dog's reach for the turns left."""
        d = self.distance.get(tuple(state.pos))
        return d is None or d > self.reach * (self.turns - state.turn + 1)

    def value(
        self, waiting: list[tuple[Any, int, int]], rolls: list[int], dice: list[int]
    ) -> float:
        """The share of the worlds that start with ``rolls`` and ``dice`` where one of the
        ``waiting`` positions ``(state, readings used, dice used)`` leads to a win."""
        found = self.expand(waiting, rolls, dice)
        if found is None:
            return 1.0
        nodes, marks = found
        blocked = [
            node for node, mark in zip(nodes, marks, strict=True) if mark in (_ON_ROLL, _ON_DIE)
        ]
        if not blocked:
            return 0.0
        total = 0.0
        if _ON_ROLL in marks:
            for reading in (1, 2, 3):
                total += self.value(blocked, [*rolls, reading], dice) / 3.0
            return total
        waiting_numbers = {
            self.numbers[tuple(s.pos)][s.pending]
            for (s, _, _), mark in zip(nodes, marks, strict=True)
            if mark == _ON_DIE
        }
        for first, count in _die_groups(waiting_numbers):
            total += self.value(blocked, rolls, [*dice, first]) * count / 6.0
        return total

    def expand(
        self, waiting: list[tuple[Any, int, int]], rolls: list[int], dice: list[int]
    ) -> tuple[list[tuple[Any, int, int]], list[int]] | None:
        """Every position the revealed entries reach from ``waiting``, depth first, and each
        one's mark; ``None`` at a win."""
        to_key = self.to_key
        seen: dict[Any, int] = {}
        nodes: list[tuple[Any, int, int]] = []
        marks: list[int] = []
        stack: list[int] = []

        def store(node: tuple[Any, int, int], key: Any) -> None:
            seen[key] = len(nodes)
            stack.append(len(nodes))
            nodes.append(node)
            marks.append(_EXPANDED)

        for state, k, j in waiting:
            key = (to_key(state), k, j)
            if key not in seen:
                store((state, k, j), key)
        while stack:
            index = stack.pop()
            state, k, j = nodes[index]
            step = self.moves(state, k, j, rolls, dice)
            if isinstance(step, int):
                marks[index] = step
                continue
            actions, k2, j2 = step
            for action in actions:
                child = state.child(action)
                if child.is_terminal():
                    if child.won:
                        return None
                    continue
                if self.hopeless(child):
                    continue
                key = (to_key(child), k2, j2)
                if key in seen:
                    continue
                self.budget -= 1
                if self.budget < 0:
                    raise _OverBudget
                store((child, k2, j2), key)
        return nodes, marks

    def moves(
        self, state: Any, k: int, j: int, rolls: list[int], dice: list[int]
    ) -> tuple[list[int], int, int] | int:
        """The actions from ``state`` the revealed entries allow, with the readings and dice used
        after them; or the mark of a position waiting for an entry not revealed yet."""
        if state.phase == Phase.ROLL:
            if k >= len(rolls):
                return _ON_ROLL if k < self.nrolls else _PAST_END
            steps = max(1, rolls[k] - 1) if state.stick else rolls[k]
            return [ROLL_1 + steps - 1], k + 1, j
        if state.phase == Phase.SHOUT:
            if j >= len(dice):
                return _ON_DIE if j < self.ndice else _PAST_END
            number = self.numbers[tuple(state.pos)][state.pending]
            return [SHOUT_SHRUG if dice[j] < number else SHOUT_HIT], k, j + 1
        return state.legal_actions(), k, j


def _die_groups(waiting_numbers: set[int]) -> list[tuple[int, int]]:
    """The die's six values grouped by which of the ``waiting_numbers`` (shouts) they shrug off:
    each run of values alike as ``(first value, count)``."""
    groups = []
    first = 1
    while first <= 6:
        count = 1
        for w in range(first + 1, 7):
            if any((first < n) != (w < n) for n in waiting_numbers):
                break
            count += 1
        groups.append((first, count))
        first += count
    return groups


class _OverBudget(Exception):
    pass


def _cells(forest: Forest) -> list[tuple[int, int]]:
    return [(r, c) for r in range(forest.height) for c in range(forest.width)]
