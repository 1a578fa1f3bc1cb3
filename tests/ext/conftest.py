"""Out-of-tree test kernels: ``build_kernel`` compiles one of this folder's ``*_kernel.pyx``
against ``solver.get_include()`` alone (what a new game's author does); ``session_kernel`` does
it once a session for all the pytest-xdist workers: the ``duel`` and ``coin`` fixtures
(``cards``: ``tests/conftest.py``)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from solver.testing import load_module

HERE = Path(__file__).parent

_SETUP = """
import solver
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("{name}", ["{name}.pyx"], extra_compile_args=["-O1", "-g0"])],
        include_path=[solver.get_include()],
        language_level=3,
        quiet=True,
    ),
    script_args=["build_ext", "--inplace", "-q"],
)
"""


def build_kernel(name: str, folder: Path) -> ModuleType:
    """Compile ``tests/ext/<name>.pyx`` in ``folder`` and import it."""
    (folder / f"{name}.pyx").write_bytes((HERE / f"{name}.pyx").read_bytes())
    (folder / "setup.py").write_text(_SETUP.format(name=name))
    subprocess.run(
        [sys.executable, "setup.py"], cwd=folder, check=True, capture_output=True, text=True
    )
    (built,) = folder.glob(f"{name}*.so")
    return load_module(name, built)


def session_kernel(name: str, factory: pytest.TempPathFactory) -> ModuleType:
    """:func:`build_kernel` once a session, whatever the number of pytest-xdist workers.

    The build goes in the run's temporary folder, which the workers share (on a worker it is
    the parent of ``getbasetemp()``), under a lock: the first worker to ask compiles (seconds
    of Cython and gcc), the others import the module it built."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / f"kernel-{name}"
    with (root / f"kernel-{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if folder.is_dir():
                (built,) = folder.glob(f"{name}*.so")
                return load_module(name, built)
            scratch = root / f"kernel-{name}.building"
            shutil.rmtree(scratch, ignore_errors=True)  # a build that failed half-way
            scratch.mkdir()
            module = build_kernel(name, scratch)
            scratch.rename(folder)  # whole, or not there: a failed build is tried again
            return module
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def duel(tmp_path_factory: pytest.TempPathFactory, require_kernels: None) -> ModuleType:
    """The two-player constant-sum dice game kernel (``duel_kernel.pyx``), compiled."""
    return session_kernel("duel_kernel", tmp_path_factory)


@pytest.fixture(scope="session")
def coin(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The coin game kernel (``coin_kernel.pyx``, the example of ``docs/kernel-abi.md``),
    compiled."""
    return session_kernel("coin_kernel", tmp_path_factory)
