"""The budget of a search, as one typed object: :class:`Limit`.

Every searcher takes its budget either as keywords (``mcts(state, iterations=1000)``) or as a
``Limit`` (``mcts(state, limit=Limit(iterations=1000))``); giving the same field both ways is an
:class:`~solver.errors.OptionError`. A field left ``None`` is not a bound. Each searcher uses the
fields that make sense for it and refuses the others by name (see ``docs/search.md``).

>>> from solver.search.limit import Limit
>>> Limit(iterations=2000, seconds=1.5)
Limit(iterations=2000, seconds=1.5, depth=None, memory_mb=None, top_k=None)
>>> Limit(seconds=-1)
Traceback (most recent call last):
...
solver.errors.OptionError: seconds must be a finite number > 0 or None, not -1
"""

from __future__ import annotations

import contextlib
import enum
import inspect
import operator
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace
from typing import Any, Concatenate, ParamSpec, TypeVar

from solver.errors import OptionError
from solver.fields import is_positive_number

__all__ = [
    "MAX_MEMORY_MB",
    "UNSET",
    "Limit",
    "Unset",
    "deadline_passed",
    "merge_limit",
    "parameters_after_name",
    "refuse_iterations_past",
    "reject_unknown",
    "sampling_budget",
    "search_cancel",
    "search_deadline",
    "seconds_left",
    "within_seconds",
]


class Unset(enum.Enum):
    """The type of :data:`UNSET`: a keyword the caller did not pass."""

    UNSET = enum.auto()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset.UNSET
"""Default of the keyword forms, so that a keyword given as ``None`` still counts as given."""


def whole(name: str, value: object, *, minimum: int = 1, optional: bool = True) -> int | None:
    """``value`` as an int ≥ ``minimum`` (any integer type but ``bool``), or None if allowed."""
    if value is None and optional:
        return None
    if not isinstance(value, bool):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if number >= minimum:
                return int(number)
    tail = " or None" if optional else ""
    raise OptionError(f"{name} must be a whole number ≥ {minimum}{tail}, not {value!r}")


def positive(name: str, value: object, *, optional: bool = True) -> float | None:
    """``value`` as a finite float > 0 (not ``bool``, not NaN or infinite), or None if allowed."""
    if value is None and optional:
        return None
    tail = " or None" if optional else ""
    if not is_positive_number(value):
        raise OptionError(f"{name} must be a finite number > 0{tail}, not {value!r}")
    return float(value)


MAX_MEMORY_MB = float(2**40)
"""The largest ``memory_mb`` a search takes (2^40 MB, an exbibyte): a larger one is refused, as
its byte count would overflow the searches' integer caps (``--memory-mb 1e308`` raised an
OverflowError traceback)."""


@dataclass(frozen=True)
class Limit:
    """How much a search may do; it stops at the first bound reached.

    - ``iterations``: MCTS simulations (a whole number ≥ 1).
    - ``seconds``: wall-clock seconds (> 0); a search bounded by time is not deterministic.
    - ``depth``: plies below the root for a depth-limited expectimax (decision and chance nodes
      each count one); needs ``ExpectimaxOptions(exact=False)``.
    - ``memory_mb``: megabytes for the search's tables (expectimax: its transposition table,
      default 1024; MCTS: the tree, as a node count at the compiled layout's bytes per node).
    - ``top_k``: report only the ``top_k`` best root moves in ``SearchResult.moves``.

    Values are checked on construction (``OptionError`` naming the field).
    """

    iterations: int | None = None
    seconds: float | None = None
    depth: int | None = None
    memory_mb: float | None = None
    top_k: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "iterations", whole("iterations", self.iterations))
        object.__setattr__(self, "seconds", positive("seconds", self.seconds))
        object.__setattr__(self, "depth", whole("depth", self.depth))
        object.__setattr__(self, "memory_mb", positive("memory_mb", self.memory_mb))
        if self.memory_mb is not None and self.memory_mb > MAX_MEMORY_MB:
            raise OptionError(
                f"memory_mb must be at most {MAX_MEMORY_MB:.0f} (2^40 MB), not {self.memory_mb!r}"
            )
        object.__setattr__(self, "top_k", whole("top_k", self.top_k))

    def refuse(self, searcher: str, names: Iterable[str], why: str) -> None:
        """Raise ``OptionError`` if a field of ``names`` is set: ``searcher`` has no such bound."""
        for name in names:
            if getattr(self, name) is not None:
                raise OptionError(f"{searcher} takes no {name} limit: {why}")


LIMIT_FIELDS = tuple(f.name for f in fields(Limit))


def merge_limit(limit: Limit | None, given: Mapping[str, object]) -> Limit:
    """The ``Limit`` of a call: ``limit`` with the budget keywords the caller passed.

    ``given`` maps field names to keyword values (:data:`UNSET` when not passed). A field passed
    as a keyword and also set in ``limit`` is an ``OptionError``.
    """
    if limit is not None and not isinstance(limit, Limit):
        raise OptionError(f"limit must be a Limit or None, not {type(limit).__name__}")
    base = limit if limit is not None else Limit()
    changes: dict[str, Any] = {}
    for name, value in given.items():
        if value is UNSET:
            continue
        if getattr(base, name) is not None:
            raise OptionError(
                f"{name} is given twice: as a keyword and in limit= (keep one of them)"
            )
        changes[name] = value
    return replace(base, **changes) if changes else base


_DEADLINE: ContextVar[float | None] = ContextVar("solver_search_deadline", default=None)
_CANCEL: ContextVar[threading.Event | None] = ContextVar("solver_search_cancel", default=None)

LEAST_SECONDS = 1e-6
"""The seconds a search started past its deadline still gets (a search's own floor, one
simulation for the compiled loops, still runs: an agent always has a move)."""


@contextlib.contextmanager
def search_deadline(at: float | None, cancel: threading.Event | None = None) -> Iterator[None]:
    """Inside, every sampling search (MCTS, ISMCTS) stops by ``at`` (a ``time.monotonic()``
    time) whatever its own budget says, and plays what it has found; ``None``: no effect. For a
    caller bounding searches it does not start itself: a table session's step plays agents by
    name, each with its own iteration budget, within the step's seconds. ``cancel``: once it is
    set the deadline counts as passed (:func:`seconds_left`, :func:`deadline_passed`), and the
    exact agent's solve stops (a hint's strength move after a ``terminate``)."""
    token = _DEADLINE.set(at)
    stop = _CANCEL.set(cancel)
    try:
        yield
    finally:
        _CANCEL.reset(stop)
        _DEADLINE.reset(token)


@contextlib.contextmanager
def within_seconds(seconds: float | None) -> Iterator[None]:
    """A :func:`search_deadline` ``seconds`` from now, or the one in force if that is sooner
    (its cancel event kept); ``None``: the one in force only. For a command whose phases
    (searches, a solver) share one wall-clock budget and read :func:`seconds_left`."""
    if seconds is None:
        yield
        return
    left = seconds_left()
    at = time.monotonic() + (seconds if left is None else min(seconds, left))
    with search_deadline(at, search_cancel()):
        yield


def search_cancel() -> threading.Event | None:
    """The cancel event of the :func:`search_deadline` in force, or ``None``."""
    return _CANCEL.get()


def _cancelled() -> bool:
    cancel = _CANCEL.get()
    return cancel is not None and cancel.is_set()


def seconds_left() -> float | None:
    """The seconds to the :func:`search_deadline` in force (at least :data:`LEAST_SECONDS`), or
    ``None`` outside one. Agents that search without a sampling budget (guardians' lookahead)
    read it between their own steps."""
    at = _DEADLINE.get()
    if at is None:
        return None
    return LEAST_SECONDS if _cancelled() else max(LEAST_SECONDS, at - time.monotonic())


def deadline_passed() -> bool:
    """Whether a :func:`search_deadline` in force has passed or been cancelled (never outside
    one): agents whose search is a loop of their own (guardians' planner, broad, lookahead)
    read it between candidates and play the best they have found."""
    at = _DEADLINE.get()
    return at is not None and (at - time.monotonic() <= LEAST_SECONDS or _cancelled())


def overdue(slack: float) -> bool:
    """Whether a :func:`search_deadline` in force passed more than ``slack`` seconds ago or has
    been cancelled (never outside one): for the least answer a command still owes after its
    searches used the budget (guardians' first legal order), finished within a fixed slack."""
    at = _DEADLINE.get()
    return at is not None and (time.monotonic() - at > slack or _cancelled())


def sampling_budget(
    searcher: str,
    limit: Limit | None,
    given: Mapping[str, object],
    *,
    default_iterations: int,
    refused: Sequence[str],
    why: str,
    max_iterations: int | None = None,
) -> Limit:
    """The budget of a sampling search (MCTS, ISMCTS): ``limit`` merged with the keywords in
    ``given``, ``default_iterations`` when neither names a budget (``seconds`` alone is one, as
    ``best_move`` reads it: ``mcts(state, seconds=5)`` searched 1000 simulations, 5 s unused,
    where ``best_move(state, seconds=5)`` searched 5 s), the fields this searcher
    cannot honour refused, at least one of iterations and seconds required, iterations past
    ``max_iterations`` refused (the tree searchers' visit counters: a larger count overflowed the
    compiled tree's C long), and the seconds no later than a :func:`search_deadline` in force."""
    timed = given.get("seconds", UNSET) not in (UNSET, None)
    if limit is None and given.get("iterations", UNSET) is UNSET and not timed:
        given = {**given, "iterations": default_iterations}
    budget = merge_limit(limit, given)
    budget.refuse(searcher, list(refused), why)
    if budget.iterations is None and budget.seconds is None:
        raise OptionError(f"{searcher} needs a budget: give iterations and/or seconds")
    if max_iterations is not None:
        refuse_iterations_past(budget.iterations, max_iterations)
    left = seconds_left()
    if left is not None and (budget.seconds is None or budget.seconds > left):
        budget = replace(budget, seconds=left)  # a search_deadline in force bounds it
    return budget


def refuse_iterations_past(iterations: int | None, most: int) -> None:
    """Refuse, as an ``OptionError``, an iteration budget past ``most`` (the tree searchers'
    visit counters, ``MAX_VISITS``: a larger count overflowed the compiled tree's C long): one
    check and one message for every entry that takes an iteration count."""
    if iterations is not None and iterations > most:
        raise OptionError(f"iterations must be at most {most}, not {iterations!r}")


def reject_unknown(function: str, unknown: Mapping[str, object], known: Iterable[str]) -> None:
    """Raise ``OptionError`` naming the first keyword of ``unknown`` (a ``**`` catch-all)."""
    if unknown:
        name = next(iter(unknown))
        expected = ", ".join(sorted(known))
        raise OptionError(
            f"{function}() got an unknown option {name!r}; expected one of {expected}"
        )


P = ParamSpec("P")
R = TypeVar("R")


def parameters_after_name(
    model: Callable[Concatenate[str, P], object],
) -> Callable[[Callable[..., R]], Callable[P, R]]:
    """Give the decorated function ``model``'s parameters but the first, the name of the
    function called (what its error messages say): for public searchers that are
    ``model(their name, ...)`` and keep its keywords written once. Type checkers check calls
    against those parameters, and ``help()`` and ``inspect.signature`` show them, with the
    decorated function's own return annotation."""

    def adopt(function: Callable[..., R]) -> Callable[P, R]:
        shown = inspect.signature(model)
        returns = inspect.signature(function).return_annotation
        rest = list(shown.parameters.values())[1:]
        function.__signature__ = shown.replace(  # type: ignore[attr-defined]
            parameters=rest, return_annotation=returns
        )
        return function

    return adopt
