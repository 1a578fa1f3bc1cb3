"""Shared fixtures: the compiled-extension policy.

A test that needs the compiled extension (``solver._ext``: the dog and guardians kernels, the
two compiled searchers and the Trial's compiled helpers) goes through ``require_kernels``:
without the extension it is skipped locally, but under ``CI=true`` it fails, so a broken build
cannot pass CI unnoticed. A test asks for it as a fixture argument, a module with
``pytestmark = pytest.mark.usefixtures("require_kernels")``, and every test parametrised with
``engine="kernel"`` gets it automatically.
"""

from __future__ import annotations

import importlib
import os

import pytest

KERNEL_MODULES = (
    "solver._ext.dog",
    "solver._ext.mcts",
    "solver._ext.expectimax",
    "solver._ext.trial",
    "solver._ext.guardians",
)


@pytest.fixture(scope="session")
def require_kernels() -> None:
    """Skip without the compiled extension, except under CI, where its absence fails."""
    for name in KERNEL_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            if os.environ.get("CI") == "true":
                pytest.fail(f"the compiled extension is missing under CI ({name}): {exc}")
            pytest.skip(f"the compiled extension is not built ({name}): {exc}")


@pytest.fixture(autouse=True)
def _kernel_engine_policy(request: pytest.FixtureRequest) -> None:
    """A test parametrised with ``engine="kernel"`` needs the compiled extension."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("engine") == "kernel":
        request.getfixturevalue("require_kernels")
