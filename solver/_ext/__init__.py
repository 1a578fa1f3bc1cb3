"""Private compiled kernels and searcher loops, built from ``ext/*.pyx`` by ``setup.py``.

Use them through the public API (``solver.load_game``, ``solver.search``), not directly.
"""
