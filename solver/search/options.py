"""The searchers' options as typed objects: :class:`MCTSOptions` and :class:`ExpectimaxOptions`.

Each option is declared and documented here once. The keyword forms
(``mcts(state, c=0.3, evaluator="mixed")``) build these objects; ``options=`` passes one whole
(``mcts(state, options=MCTSOptions(c=0.3))``). An object holds every option, so a keyword given
next to ``options=`` is an :class:`~solver.errors.OptionError`: use ``dataclasses.replace``.
Both are checked on construction, before any search starts.

>>> from solver.search.options import MCTSOptions
>>> MCTSOptions(evaluator="heuristic", backup="max").resolved_c()
0.1
>>> MCTSOptions(backup="median")
Traceback (most recent call last):
...
solver.errors.OptionError: backup must be 'mean', 'max' or a number from 0 to 1, not 'median'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from solver.errors import OptionError
from solver.fields import is_positive_number
from solver.search.evaluators import (
    Evaluator,
    EvaluatorLike,
    default_c,
    evaluator_from,
)
from solver.search.limit import UNSET

__all__ = [
    "DEFAULT_MAX_NODES",
    "ExpectimaxOptions",
    "Heuristic",
    "MCTSOptions",
    "option_names",
    "options_from",
]

DEFAULT_MAX_NODES = 20_000_000
"""The default tree cap: 20 million nodes (640 MB for a one-player game at 32 bytes a node)."""

MAX_MAX_NODES = 2**63 - 1
"""The largest ``max_nodes``: the compiled trees read it as a C int64 (a larger one raised
OverflowError from ``mcts(state, max_nodes=2**64)``)."""

Heuristic = Callable[[Any, int], float]
"""A leaf value for pure-Python states: ``heuristic(state, player) -> [0, 1]``."""


def _check_backup(backup: object) -> float | None:
    """The max weight of a backup: None for ``"mean"``, 1 for ``"max"``, else the number."""
    if backup == "mean":
        return None
    if backup == "max":
        return 1.0
    if (
        isinstance(backup, bool)
        or not isinstance(backup, (int, float))
        or not (0.0 <= backup <= 1.0)
    ):
        raise OptionError(f"backup must be 'mean', 'max' or a number from 0 to 1, not {backup!r}")
    return float(backup)


@dataclass(frozen=True)
class MCTSOptions:
    """How MCTS searches (its budget is a :class:`~solver.search.limit.Limit`).

    - ``c``: the UCT exploration constant, a finite number ≥ 0; None: the evaluator's default
      (1.4 for the rollout evaluators, 0.1 for ``"heuristic"``).
    - ``evaluator``: how a new leaf is valued: ``"rollout"``, ``"heuristic"``, ``"guided"``,
      ``"mixed"`` or an evaluator object (:mod:`solver.search.evaluators`).
    - ``rollouts``: playouts per leaf for the named rollout evaluators (None: 1); an evaluator
      object carries its own.
    - ``backup``: ``"mean"`` (plain UCT), ``"max"`` or a weight from 0 to 1 of the best child
      at decision nodes (chance nodes: the probability-weighted mean of their children); with a
      deterministic evaluator new decision children are primed with one evaluated visit each.
    - ``max_nodes``: the most nodes the tree may hold; the search stops early
      (``extra["stopped_by"] == "max_nodes"``) rather than grow past it.
    - ``threads``: root parallelism (1 to 64): ``threads`` trees, tree ``i`` seeded with
      ``derive_seed(seed, i)`` and given an equal share of the iterations (and each the whole of
      ``seconds`` and ``max_nodes``), searched in parallel and merged by root move (visits and
      value sums added). Deterministic for a seed, an iteration budget and a thread count.
    """

    c: float | None = None
    evaluator: str | Evaluator | EvaluatorLike = "rollout"
    rollouts: int | None = None
    backup: str | float = "mean"
    max_nodes: int = DEFAULT_MAX_NODES
    threads: int = 1

    def __post_init__(self) -> None:
        c = self.c
        if c is not None and (
            isinstance(c, bool)
            or not isinstance(c, (int, float))
            or not (c == 0 or is_positive_number(c))  # 10**400: math.isfinite overflowed
        ):
            raise OptionError(f"c must be a finite number ≥ 0 or None, not {c!r}")
        self.evaluator_object()  # checks evaluator and rollouts
        _check_backup(self.backup)
        m = self.max_nodes
        if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= MAX_MAX_NODES:
            raise OptionError(
                f"max_nodes must be a whole number from 1 to {MAX_MAX_NODES}, not {m!r}"
            )
        _check_threads(self.threads)

    def evaluator_object(self) -> Evaluator | EvaluatorLike:
        """The evaluator as an object (a public name becomes its built-in class)."""
        return evaluator_from(self.evaluator, self.rollouts)

    def resolved_c(self) -> float:
        """``c``, or the evaluator's default when it is None."""
        return float(self.c) if self.c is not None else default_c(self.evaluator_object())

    def backup_weight(self) -> float | None:
        """None for the mean backup, else the weight of the best child (``"max"``: 1)."""
        return _check_backup(self.backup)


@dataclass(frozen=True)
class ExpectimaxOptions:
    """How expectimax searches (its budget: ``Limit(depth=..., memory_mb=...)``).

    - ``exact``: search to the end of the game (the exact value); False allows a depth limit
      and chance pruning, with heuristic leaves.
    - ``adversarial``: chance picks the outcome worst for the target player (the player to move
      at the root, player 0 under a chance root) instead of the average: the guaranteed value.
    - ``min_probability``: in [0, 1); with ``exact=False``, a node whose path probability is
      below it is valued by the heuristic instead of searched (not with ``adversarial``).
    - ``heuristic``: ``heuristic(state, player)`` for the leaves of pure-Python states (None:
      ``state.heuristic(player)`` where it exists); kernel states use the kernel's.
    - ``prune``: the exact search by alpha-beta expectimax with bounds
      (:mod:`solver.search.pruning`); None (default) uses it wherever it applies (an exact,
      non-adversarial search of a kernel that declares its utility range, with one player or
      two constant-sum ones), True requires it (``OptionError`` where it does not apply), False
      keeps the plain search.
    - ``threads``: threads for the pruning search (1 to 64): workers sharing one table and the
      whole ``memory_mb`` solve the root's children together (the same values as one thread).
    """

    exact: bool = True
    adversarial: bool = False
    min_probability: float = 0.0
    heuristic: Heuristic | None = None
    prune: bool | None = None
    threads: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.exact, bool):
            raise OptionError(f"exact must be True or False, not {self.exact!r}")
        if not isinstance(self.adversarial, bool):
            raise OptionError(f"adversarial must be True or False, not {self.adversarial!r}")
        p = self.min_probability
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise OptionError(f"min_probability must be a number in [0, 1), not {p!r}")
        if not 0.0 <= p < 1.0 or math.isnan(p):
            raise OptionError(f"min_probability must be in [0, 1), not {p!r}")
        object.__setattr__(self, "min_probability", float(p))
        if p > 0.0 and self.exact:
            raise OptionError(
                f"min_probability={p} prunes chance outcomes, which exact=True does "
                "not allow; pass exact=False"
            )
        if p > 0.0 and self.adversarial:
            raise OptionError(
                "min_probability prunes unlikely chance outcomes, which adversarial=True does not "
                "allow (the worst outcome counts however unlikely it is)"
            )
        if self.heuristic is not None and not callable(self.heuristic):
            raise OptionError(f"heuristic must be a callable(state, player) or None, not "
                              f"{self.heuristic!r}")  # fmt: skip
        if self.prune is not None and not isinstance(self.prune, bool):
            raise OptionError(f"prune must be True, False or None, not {self.prune!r}")
        if self.prune and (not self.exact or self.adversarial):
            raise OptionError(
                "prune=True is the exact, non-adversarial search: pass exact=True and "
                "adversarial=False, or prune=None"
            )
        _check_threads(self.threads)


MAX_THREADS = 64
"""The most threads a search may use."""


def _check_threads(threads: object) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise OptionError(
            f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}"
        )
    return threads


OptionsT = TypeVar("OptionsT", "MCTSOptions", "ExpectimaxOptions")


def option_names(kind: type) -> tuple[str, ...]:
    """The fields of the options dataclass ``kind``, in order: the option keywords a searcher
    takes beside its budget (the keyword form of one ``options=`` object).

    >>> option_names(MCTSOptions)
    ('c', 'evaluator', 'rollouts', 'backup', 'max_nodes', 'threads')
    """
    return tuple(field.name for field in fields(kind))


def options_from(
    kind: type[OptionsT],
    options: object,
    given: Mapping[str, object],
    defaults: Mapping[str, object],
) -> OptionsT:
    """The options object of a call: ``options`` whole, or one built from the keywords given.

    ``given`` maps option names to keyword values (``UNSET`` when not passed); ``defaults`` holds
    the values the keyword form uses where it differs from the class's own defaults.
    """
    passed = {name: value for name, value in given.items() if value is not UNSET}
    if options is not None:
        if not isinstance(options, kind):
            raise OptionError(
                f"options must be a {kind.__name__} or None, not {type(options).__name__}"
            )
        if passed:
            name = next(iter(passed))
            raise OptionError(
                f"{name} is given twice: as a keyword and in options= (an {kind.__name__} "
                f"holds every option; use dataclasses.replace(options, {name}=...))"
            )
        return options
    return kind(**{**defaults, **passed})  # type: ignore[arg-type]
