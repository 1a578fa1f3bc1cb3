"""The compiled ISMCTS path (``solver._ext.ismcts``): which states it searches, and its tree read
back for :func:`solver.search.ismcts.ismcts`.

:func:`plan` decides once per call, by the state's kind and the evaluator, with no silent
fallback:

- a compiled-kernel state (``solver.kernels.kernel_of``) of a game that declares hidden
  information (``GameSpec.hidden_information``: :mod:`solver.search.clairvoyance`) and whose
  kernel fills the hidden-information slots ``information_state_key`` and
  ``resample_hidden`` (ABI 2, ``docs/kernel-abi.md``) is searched by the compiled loop with a
  determinisation per simulation; a kernel state of a game without hidden information (the dog,
  guardians) by the compiled loop with every step keyed by its action;
- a kernel state of a game that declares hidden information but whose table does not redeal is
  searched by the Python ISMCTS (through the state's ``resample_hidden``), since the compiled
  loop cannot redeal it;
- any other state by the Python ISMCTS.

``compiled=True`` demands the compiled loop (an :class:`~solver.errors.OptionError` naming what
is missing otherwise), ``compiled=False`` the Python ISMCTS. The compiled loop values leaves with
the built-in evaluators (``rollout``, ``heuristic``, ``guided``, ``mixed``) and
:class:`~solver.search.evaluators.PlayoutEvaluator` (the kernel's ``playout_action``); another
evaluator object on a kernel state is refused unless ``compiled=False`` asks for the Python path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import ExtensionMissingError, OptionError
from solver.game import State
from solver.kernels import CompiledCount, KernelCapsules, game_of, kernel_of
from solver.search.clairvoyance import has_hidden_information
from solver.search.evaluators import (
    Evaluator,
    EvaluatorLike,
    GuidedEvaluator,
    HeuristicEvaluator,
    MixedEvaluator,
    PlayoutEvaluator,
    RolloutEvaluator,
    name_of,
)

__all__ = ["HIDDEN_SLOTS", "KernelTree", "Plan", "plan"]

HIDDEN_SLOTS = frozenset({"information_state_key", "resample_hidden"})
"""The vtable slots a kernel fills to be searched with hidden information."""

_CODES: dict[type, int] = {
    RolloutEvaluator: 0,
    HeuristicEvaluator: 1,
    GuidedEvaluator: 2,
    MixedEvaluator: 3,
}
_PLAYOUT = 4


def extension() -> Any:
    """The compiled module ``solver._ext.ismcts`` (ExtensionMissingError when it is not built)."""
    try:
        import solver._ext.ismcts as ext
    except ImportError as exc:
        raise ExtensionMissingError(
            "the compiled ISMCTS (solver._ext.ismcts) is not built; build it with `make install`, "
            f"or search with compiled=False ({exc})"
        ) from None
    return ext


@dataclass(frozen=True)
class Plan:
    """How one ISMCTS call searches: the compiled loop or the Python tree, and with what."""

    compiled: bool
    hidden: bool
    """Determinisations and information keys (else every step is keyed by its action)."""
    capsules: KernelCapsules | None = None
    game: Any = None
    code: int = 0
    """The compiled loop's evaluator code (``EVALUATOR_*`` of ``ext/ismcts.pyx``)."""
    rollouts: int = 1
    depth: int = 0
    multi: bool = False
    """Multiple-observer ISMCTS: one tree per player (the observer's read back)."""


def _python(state: State, capsules: KernelCapsules | None, slots: set[str]) -> Plan:
    hidden = has_hidden_information(state)
    if hidden and not callable(getattr(state, "resample_hidden", None)):
        if capsules is not None and slots >= HIDDEN_SLOTS:
            raise OptionError(
                f"{type(state).__name__} redeals in its kernel but has no resample_hidden() "
                "method: the Python ISMCTS cannot search it (use the compiled path)"
            )
        raise OptionError(
            f"{type(state).__name__}: its game declares hidden information but the state has no "
            "resample_hidden() method: the Python ISMCTS cannot redeal it"
        )
    return Plan(compiled=False, hidden=hidden, capsules=capsules)


def _code(evaluator: Evaluator | EvaluatorLike) -> tuple[int, int, int] | None:
    """``(code, rollouts, depth)`` of an evaluator the compiled loop runs; None otherwise."""
    if isinstance(evaluator, PlayoutEvaluator):
        return _PLAYOUT, 1, evaluator.depth
    code = _CODES.get(type(evaluator))
    if code is None:
        return None
    return code, int(getattr(evaluator, "n_rollouts", 1)), 0


def plan(state: State, evaluator: Evaluator | EvaluatorLike, compiled: bool | None) -> Plan:
    """The path that searches ``state`` (see the module docstring)."""
    if compiled is not None and not isinstance(compiled, bool):
        raise OptionError(f"compiled must be True, False or None, not {compiled!r}")
    capsules = kernel_of(state)
    slots: set[str] = set()
    if capsules is not None and compiled is not False:
        slots = set(extension().kernel_slots(capsules.handle))
    if compiled is False:
        if capsules is not None:
            try:
                slots = set(extension().kernel_slots(capsules.handle))
            except ExtensionMissingError:
                slots = set()
        return _python(state, capsules, slots)
    if capsules is None:
        if compiled:
            raise OptionError(
                f"compiled=True needs a compiled-kernel state; {type(state).__name__} is a "
                "Python state (load the game with engine='kernel', or leave compiled unset)"
            )
        return _python(state, None, slots)
    game = game_of(state)
    hidden = has_hidden_information(state)
    if hidden and not slots >= HIDDEN_SLOTS:
        if compiled:
            missing = ", ".join(sorted(HIDDEN_SLOTS - slots))
            raise OptionError(
                f"the kernel of {game!r} has hidden information but fills no {missing} in its "
                "table (ABI 2, docs/kernel-abi.md): the compiled ISMCTS cannot redeal it; "
                "search with compiled=False"
            )
        return _python(state, capsules, slots)
    code, rollouts, depth = _compiled_leaves(evaluator, slots, game)
    return Plan(True, hidden, capsules, game, code, rollouts, depth)


def _compiled_leaves(
    evaluator: Evaluator | EvaluatorLike, slots: set[str], game: object
) -> tuple[int, int, int]:
    """The compiled loop's leaf code, rollouts and depth for ``evaluator``; refused when the
    compiled ISMCTS has no such evaluator or the kernel (its table's ``slots``) lacks what it
    needs (a heuristic; the playout policy)."""
    found = _code(evaluator)
    name = name_of(evaluator)
    if found is None:
        raise OptionError(
            f"the compiled ISMCTS values leaves with the rollout, heuristic, guided or mixed "
            f"evaluator or a PlayoutEvaluator, not {name!r}; pass compiled=False to search "
            "this kernel state with the Python ISMCTS"
        )
    code, rollouts, depth = found
    if code != 0 and "heuristic" not in slots:
        raise OptionError(f"evaluator {name!r} needs a kernel with a heuristic; {game!r} has none")
    if code == _PLAYOUT and "playout_action" not in slots:
        raise OptionError(
            f"evaluator {name!r} plays the kernel's playout_action, which {game!r} does not fill"
        )
    return code, rollouts, depth


class KernelTree:
    """One compiled ISMCTS tree, read back in the shape the result builder wants."""

    def __init__(self, state: State, chosen: Plan, observer: int) -> None:
        assert chosen.capsules is not None
        self.plan = chosen
        self.observer = observer
        self.tree = extension().Tree(
            chosen.game,
            chosen.capsules.handle,
            chosen.capsules.state,
            observer,
            chosen.hidden,
            chosen.multi,
        )

    def search(
        self,
        seed: int,
        deal_seed: int,
        iterations: int | None,
        seconds: float | None,
        c: float,
        max_nodes: int,
        resume: bool = False,
    ) -> tuple[int, str]:
        """Run simulations (``ext/ismcts.pyx``'s ``Tree.search``); ``resume``: a later slice of
        one search, going on from the streams where the last call left them."""
        done, reason = self.tree.search(
            -1 if iterations is None else iterations,
            0.0 if seconds is None else seconds,
            seed,
            deal_seed,
            c,
            self.plan.code,
            self.plan.rollouts,
            self.plan.depth,
            max_nodes,
            resume,
        )
        return int(done), str(reason)

    node_count = CompiledCount("tree", "node_count")

    def root(self) -> tuple[int, tuple[float, ...]]:
        """The root's visits and value sums."""
        return int(self.tree.visits(0)), tuple(self.tree.value_sums(0))

    def root_edges(self) -> list[tuple[int, int, tuple[float, ...]]]:
        """``[(action, visits, value sums)]`` of the root's edges."""
        return [(int(a), int(v), tuple(sums)) for a, v, _avail, sums in self.tree.edges_of(0)]

    def pv_actions(self, action: int) -> list[int]:
        """The observer's own moves from the root after ``action``, most visited first, while it
        stays to move (the Python tree's ``pv`` rule)."""
        tree = self.tree
        node, actions = 0, [action]
        while True:
            child = tree.child_by_action(node, action)
            if child < 0 or tree.player(child) != self.observer:
                break
            edges = tree.edges_of(child)
            if not edges or (self.plan.hidden and tree.player(node) != self.observer):
                break
            best = max(edges, key=lambda e: (e[1], -e[0]))
            if best[1] == 0:
                break
            action, node = int(best[0]), child
            actions.append(action)
        return actions
