"""The benches share the tests' compiled-extension policy (``tests/conftest.py``).

A bench of the compiled kernel or searchers skips where the extension is not built, and fails
under ``CI=true``: the fixtures are those of the tests, loaded from their file. The bench
folder goes on the path, so the ``pytest`` benches import ``benchkit`` as the scripts do.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches' shared ``benchkit``

_PATH = Path(__file__).resolve().parent.parent / "tests" / "conftest.py"
_SPEC = importlib.util.spec_from_file_location("_forest_tests_conftest", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
_TESTS_CONFTEST = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_TESTS_CONFTEST)

require_kernels = _TESTS_CONFTEST.require_kernels
_kernel_engine_policy = _TESTS_CONFTEST._kernel_engine_policy
