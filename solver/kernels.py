"""Which states run on a compiled kernel: the one test every searcher and agent asks.

A kernel state hands its C struct to compiled searchers as a ``forest_solver.KernelState``
capsule (``state._state_capsule()``) and its game hands the kernel's function table as a
``forest_solver.KernelHandle`` capsule (``game._kernel_handle()``); ``docs/kernel-abi.md`` is the
contract. :func:`kernel_of` gives both capsules, or ``None`` for a state of a pure-Python engine,
so no caller tests for the methods by hand. This module imports nothing compiled: it works
without the extension, where every state is a reference state.

:func:`get_include` (also ``solver.get_include()``) is the folder of the interface's ``.pxd``
files, for other Cython code that wants to ``cimport`` it.

>>> import solver
>>> game = solver.load_game("dog", forest="dog/tiny-example", engine="reference")
>>> kernel_of(game.new_initial_state()) is None
True
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, overload

from solver.errors import ExtensionMissingError, OptionError

__all__ = [
    "CompiledCount",
    "CompiledModule",
    "KernelCapsules",
    "game_of",
    "get_include",
    "kernel_of",
]

_INCLUDE_PACKAGE = "solver.include"  # ext/*.pxd, shipped in the wheel as solver/include/
_SOURCE_INCLUDE = Path(__file__).resolve().parent.parent / "ext"


class CompiledModule:
    """A game's compiled module ``solver._ext.NAME``, imported once when its engine module loads.

    Its absence is not an error until a kernel game is asked for: then :meth:`get` (or
    :meth:`missing`) gives an :class:`~solver.errors.ExtensionMissingError` saying how to build it
    and naming the pure-Python engine. There is no silent fallback from one engine to the other.
    """

    def __init__(self, name: str, what: str) -> None:
        self.name = name
        self.what = what
        self.module: ModuleType | None
        self.error: ImportError | None
        try:
            self.module, self.error = importlib.import_module(f"solver._ext.{name}"), None
        except ImportError as exc:
            self.module, self.error = None, exc

    def missing(self) -> ExtensionMissingError:
        """The error for a kernel game asked for without the module."""
        return ExtensionMissingError(
            f"{self.what} (solver._ext.{self.name}, built from ext/{self.name}.pyx) is not "
            "available: build it with `make install` (or `pip install -e .`) in the source tree, "
            "or choose the pure-Python engine with engine='reference' or "
            f"SOLVER_ENGINE=reference (import failed: {self.error})"
        )

    def get(self) -> ModuleType:
        """The module; :meth:`missing`'s error when it is not built."""
        if self.module is None:
            raise self.missing() from self.error
        return self.module


class CompiledCount:
    """A read-only ``int`` attribute reading one counter of a wrapped compiled object, for the
    Python classes that wrap the compiled searchers: ``entries = CompiledCount("_ps", "entries")``
    reads ``int(self._ps.entries)`` (a plain Python ``int``, whatever the extension returns)."""

    def __init__(self, holder: str, name: str) -> None:
        self.holder = holder
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> CompiledCount: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> int: ...
    def __get__(self, instance: object, owner: type | None = None) -> int | CompiledCount:
        if instance is None:
            return self
        return int(getattr(getattr(instance, self.holder), self.name))

    def __set__(self, instance: object, value: object) -> None:
        raise AttributeError(f"{self.name} is read-only: the compiled object counts it")


class KernelCapsules(NamedTuple):
    """The two capsules a compiled searcher takes; each keeps its owner alive."""

    handle: object
    """``forest_solver.KernelHandle``: the game's ``KernelHandle`` (vtable and static data)."""
    state: object
    """``forest_solver.KernelState``: the state's struct."""


def game_of(state: Any) -> Any:
    """The game ``state`` belongs to: ``state.game``, else ``state.get_game()``, else ``None``."""
    game = getattr(state, "game", None)
    if game is None:
        get_game = getattr(state, "get_game", None)
        if callable(get_game):
            game = get_game()
    return game


def kernel_of(state: Any) -> KernelCapsules | None:
    """``(handle capsule, state capsule)`` of a compiled-kernel state; ``None`` for any other.

    A state with ``_state_capsule()`` whose game lacks ``_kernel_handle()`` is a broken kernel
    wrapper, not a reference state: that raises :class:`~solver.errors.OptionError`.
    """
    make_state = getattr(state, "_state_capsule", None)
    if not callable(make_state):
        return None
    make_handle = getattr(game_of(state), "_kernel_handle", None)
    if not callable(make_handle):
        raise OptionError(
            f"{type(state).__name__} has _state_capsule() but its game has no _kernel_handle()"
        )
    return KernelCapsules(make_handle(), make_state())


def get_include() -> str:
    """The folder holding the kernel interface's ``.pxd`` files (``state.pxd``, ``rng.pxd``,
    ``leaf.pxd``, ``tree.pxd`` for the Monte Carlo searchers' shared tree code; ``trial.pxd``
    declares the compiled Trial's C structs, its headers in ``trial_kernel/``).

    Like ``numpy.get_include()``: give it to Cython so another project's kernel or searcher can
    ``from state cimport KernelVTable, KernelHandle, handle_capsule`` and
    ``from rng cimport splitmix64_next``::

        cythonize(extensions, include_path=[solver.get_include()])

    The wheel installs the files as ``solver/include/``; a source checkout uses ``ext/``. The
    folder also holds ``kernel_face.pxi``, the Python face (game and state base classes, the
    playout bench) a kernel module includes rather than writes (how: its opening comment).

    >>> from pathlib import Path
    >>> sorted(p.name for p in Path(get_include()).glob("*.pxd"))
    ['atomics.pxd', 'exact.pxd', 'leaf.pxd', 'rng.pxd', 'state.pxd', 'tree.pxd', 'trial.pxd']
    """
    spec = importlib.util.find_spec(_INCLUDE_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in [*folders, str(_SOURCE_INCLUDE)]:
        if (Path(folder) / "state.pxd").is_file():
            return str(Path(folder).resolve())
    raise ExtensionMissingError(
        "the kernel interface's .pxd files are not installed (expected solver/include/state.pxd "
        "in the installed package); reinstall forest-solver"
    )
