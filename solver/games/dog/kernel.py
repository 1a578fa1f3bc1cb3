"""The dog game's compiled engine: a thin entry over ``solver._ext.dog`` (from ``ext/dog.pyx``).

:class:`KernelDogGame` speaks the same protocol as the reference
:class:`~solver.games.dog.rules.DogGame` and agrees with it on every observable (the
differential tests check that). Its states are ``solver._ext.dog.DogKernelState`` objects: a
fixed-size C struct each, so ``clone()`` is a ``memcpy``. There is no fallback to the reference:
without the compiled extension, building a :class:`KernelDogGame` raises
:class:`~solver.errors.ExtensionMissingError` saying how to build it.

>>> from solver import puzzles
>>> game = KernelDogGame(puzzles.load("dog/tiny-example"))
>>> state = game.new_initial_state()
>>> type(state).__name__, game.engine
('DogKernelState', 'kernel')
>>> state.apply_action(11)
>>> copy = state.clone()  # a copy of the struct, equal until one of them moves on
>>> copy == state, copy.child(copy.legal_actions()[0]) == state
(True, False)
"""

from __future__ import annotations

from typing import Any

from solver.kernels import CompiledModule

__all__ = ["KernelDogGame", "extension_module"]

_COMPILED = CompiledModule("dog", "the compiled dog kernel")
_dog: Any = _COMPILED.module


def extension_module():
    """The compiled module ``solver._ext.dog``; raises ExtensionMissingError if it is not built."""
    return _COMPILED.get()


if _dog is not None:

    class KernelDogGame(_dog.DogKernelGame):
        """The dog game on one forest, compiled engine (same protocol as the reference).

        ``new_initial_state``, ``num_players``, ``num_distinct_actions``,
        ``max_chance_outcomes`` and ``state_from_json`` are the compiled class's own methods.
        """

        __slots__ = ()
        name = "dog"
        engine = "kernel"

        def __eq__(self, other: object) -> bool:
            """Games on equal forests are one game (as the reference's ``DogGame``)."""
            return type(other) is type(self) and other.forest == self.forest

        def __hash__(self) -> int:
            return hash(self.forest)

else:

    class KernelDogGame:  # type: ignore[no-redef]
        """Stands in for the compiled game when the extension is not built: raises on use."""

        name = "dog"
        engine = "kernel"

        def __init__(self, forest=None, **options) -> None:
            _COMPILED.get()  # raises: the module is not built
