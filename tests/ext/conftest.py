"""Out-of-tree test kernels: ``build_kernel`` compiles one of this folder's ``*_kernel.pyx``
against ``solver.get_include()`` alone (what a new game's author does), once per session: the
``duel`` and ``coin`` fixtures (``cards``: ``tests/conftest.py``)."""

from __future__ import annotations

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
        [Extension("{name}", ["{name}.pyx"], extra_compile_args=["-O1"])],
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


@pytest.fixture(scope="session")
def duel(tmp_path_factory: pytest.TempPathFactory, require_kernels: None) -> ModuleType:
    """The two-player constant-sum dice game kernel (``duel_kernel.pyx``), compiled."""
    return build_kernel("duel_kernel", tmp_path_factory.mktemp("duel"))


@pytest.fixture(scope="session")
def coin(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The coin game kernel (``coin_kernel.pyx``, the example of ``docs/kernel-abi.md``),
    compiled."""
    return build_kernel("coin_kernel", tmp_path_factory.mktemp("coin"))
