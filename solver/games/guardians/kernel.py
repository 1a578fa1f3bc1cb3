"""Forest guardians' compiled engine: a thin entry over ``solver._ext.guardians``
(from ``ext/guardians.pyx``).

:class:`KernelGuardiansGame` takes the reference game's options and speaks the same protocol
as :class:`~solver.games.guardians.rules.GuardiansGame`; the differential tests hold the two to
every observable. Its states are fixed-size C structs (a ``clone()`` is a ``memcpy``) that the
compiled searchers take as they are. There is no fallback to the reference: without the
compiled extension, building a :class:`KernelGuardiansGame` raises
:class:`~solver.errors.ExtensionMissingError` saying how to build it.

>>> game = KernelGuardiansGame(players=2)
>>> state = game.new_initial_state()
>>> type(state).__name__, game.engine
('GuardiansKernelState', 'kernel')
>>> copy = state.clone()  # a copy of the struct, equal until one of them moves on
>>> copy == state, copy.child(copy.chance_outcomes()[0][0]) == state
(True, False)
"""

from __future__ import annotations

from typing import Any

from solver.kernels import CompiledModule

__all__ = ["KernelGuardiansGame", "extension_module"]

_COMPILED = CompiledModule("guardians", "the compiled guardians kernel")
_guardians: Any = _COMPILED.module


def extension_module() -> Any:
    """The compiled module ``solver._ext.guardians``; ExtensionMissingError if it is not built."""
    return _COMPILED.get()


if _guardians is not None:

    class KernelGuardiansGame(_guardians.GuardiansKernelGame):
        """Forest guardians, compiled engine (same protocol and options as the reference)."""

        __slots__ = ()
        name = "guardians"
        engine = "kernel"

else:

    class KernelGuardiansGame:  # type: ignore[no-redef]
        """Stands in for the compiled game when the extension is not built: raises on use."""

        name = "guardians"
        engine = "kernel"

        def __init__(self, players: Any = None, **options: Any) -> None:
            _COMPILED.get()  # raises: the module is not built
