"""Private compiled kernels and searcher loops, built from ``ext/*.pyx`` by ``setup.py``.

Use them through the public API (``solver.load_game``, ``solver.search``), not directly. The C
interface they share (``ext/state.pxd``, ``ext/rng.pxd``) ships as ``solver/include``; see
``solver.get_include()`` and ``docs/kernel-abi.md``.
"""
