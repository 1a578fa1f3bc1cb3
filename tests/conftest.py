"""Shared fixtures: the compiled-extension policy.

Under ``CI=true`` a kernel test must not skip for want of the compiled extension: the
``require_kernels`` fixture fails instead, so a broken build cannot pass CI unnoticed.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def require_kernels() -> None:
    """Skip without the compiled extension, except under CI, where its absence fails."""
    try:
        import solver._ext.dog  # noqa: F401
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the compiled extension is missing under CI: {exc}")
        pytest.skip(f"the compiled extension is not built: {exc}")
