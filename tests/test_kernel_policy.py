"""The compiled-extension policy of ``tests/conftest.py``: skip locally, fail under ``CI=true``.

Each case runs pytest in a subprocess on a tiny test folder whose conftest is this project's,
followed by a line that makes ``import solver._ext.dog`` fail (a ``None`` in ``sys.modules``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")

TESTS = """
import pytest

def test_by_fixture(require_kernels):
    pass

@pytest.mark.parametrize("engine", ["kernel"])
def test_by_engine(engine):
    pass
"""

MODULE_MARK = """
import pytest

pytestmark = pytest.mark.usefixtures("require_kernels")

def test_by_module_mark():
    pass
"""


def _run(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rsE", "-p", "no:cacheprovider", str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    poison = 'import sys\nsys.modules["solver._ext.dog"] = None  # the extension "is absent"\n'
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST.read_text() + poison, encoding="utf-8")
    (tmp_path / "test_tiny.py").write_text(TESTS, encoding="utf-8")
    (tmp_path / "test_module_mark.py").write_text(MODULE_MARK, encoding="utf-8")
    return tmp_path


def test_without_the_extension_kernel_tests_fail_under_ci(folder: Path) -> None:
    run = _run(folder, "true")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "3 errors" in run.stdout and "passed" not in run.stdout and "skipped" not in run.stdout
    assert "the compiled extension is missing under CI (solver._ext.dog)" in run.stdout


@pytest.mark.parametrize("ci", [None, "false"])
def test_without_the_extension_kernel_tests_skip_elsewhere(folder: Path, ci: str | None) -> None:
    run = _run(folder, ci)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 skipped" in run.stdout and "error" not in run.stdout
    assert "the compiled extension is not built (solver._ext.dog)" in run.stdout


def test_with_the_extension_kernel_tests_run_under_ci(folder: Path, require_kernels: None) -> None:
    conftest = folder / "conftest.py"
    conftest.write_text(CONFTEST.read_text(), encoding="utf-8")  # no poison: the real extension
    run = _run(folder, "true")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout
