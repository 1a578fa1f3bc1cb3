"""Shared fixtures: the compiled-extension policy, the slow tests' time limit, and the
hidden-information test kernel.

A test that needs the compiled extension (``solver._ext``: the dog and guardians kernels, the
three compiled searchers and the Trial's compiled helpers) goes through ``require_kernels``:
without the extension it is skipped locally, but under ``CI=true`` it fails, so a broken build
cannot pass CI unnoticed. A test asks for it as a fixture argument, a module with
``pytestmark = pytest.mark.usefixtures("require_kernels")``, and every test parametrised with
``engine="kernel"`` gets it automatically. ``cards`` and ``cards_twin`` are the test kernel of a
card game with hidden hands (compiled once a session) and its pure-Python twin.

Every test has a time limit (pytest-timeout): ``timeout`` in ``pyproject.toml`` for the default
suite, :data:`SLOW_TIMEOUT` for a test marked ``slow`` (``make test-all``), or its own
``@pytest.mark.timeout(seconds)``.

Property tests (Hypothesis) run under the ``forest`` profile: the same examples, but no per-example
deadline and no "too slow" health check, since both measure wall time, which on a shared 2-core
machine at load 10 says nothing about the code (the per-test timeout still bounds a hang).
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

import solver
from solver.testing import load_module

settings.register_profile("forest", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("forest")

_EXT_TESTS = Path(__file__).resolve().parent / "ext"
_ROOT = Path(__file__).resolve().parents[1]

_KERNEL_SOURCES = Path(solver.__file__).resolve().parents[1] / "ext"
KERNEL_MODULES = tuple(f"solver._ext.{pyx.stem}" for pyx in sorted(_KERNEL_SOURCES.glob("*.pyx")))
"""Every compiled kernel the build makes: one module per ``ext/*.pyx`` of the tree ``solver`` is
imported from (so a kernel added later is checked too, and a copy of this file elsewhere, as
``tests/test_kernel_policy.py`` makes, reads the same list)."""
assert KERNEL_MODULES, f"no kernel sources in {_KERNEL_SOURCES}"


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


SLOW_TIMEOUT = 1800
"""Seconds a test marked ``slow`` may run (unless it names its own limit). A slow test is an
exhaustive check of minutes, and ``make test-all`` runs them on a loaded machine: the longest one
without a limit of its own took under a third of this at a load of 10 on 2 cores (the dog's route
graph over many forests), so half an hour fails a hang, not a busy machine."""


LONG_FIRST = (
    "tests/games/guardians/test_kernel_diff.py::",
    "tests/conformance/test_protocol.py::test_engines_of_a_game_agree_on_random_play",
)
"""The default suite's longest tests (20-60 s each; bench/results/test-suite-time.md), run first:
pytest-xdist's work stealing hands out the tests not yet started, so a long test started last
keeps one core busy after the other has run out of work (up to a minute of ``make test`` on 2
cores). None of them shares a module fixture with the tests it leaves behind."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked ``slow`` without a ``timeout`` marker of its own gets :data:`SLOW_TIMEOUT`;
    the tests of :data:`LONG_FIRST` go first (in their order; every other test keeps its own)."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))  # stable: False first


@pytest.fixture(autouse=True)
def _kernel_engine_policy(request: pytest.FixtureRequest) -> None:
    """A test parametrised with ``engine="kernel"`` needs the compiled extension."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("engine") == "kernel":
        request.getfixturevalue("require_kernels")


# -- the hidden-information test kernel (tests/ext/cards_kernel.pyx) and its Python twin ---------
@pytest.fixture(scope="session")
def cards(tmp_path_factory: pytest.TempPathFactory, require_kernels: None) -> ModuleType:
    """The high-cards kernel (ABI 2, every hidden-information slot filled), compiled out of tree
    against ``solver.get_include()`` once a session for all the workers
    (``tests/ext/conftest.py``'s ``session_kernel``)."""
    helpers = load_module("_ext_test_kernels", _EXT_TESTS / "conftest.py")
    return helpers.session_kernel("cards_kernel", tmp_path_factory)


@pytest.fixture(scope="session")
def cards_twin() -> ModuleType:
    """The pure-Python twin of the high-cards kernel (``tests/ext/cards_twin.py``)."""
    return load_module("cards_twin", _EXT_TESTS / "cards_twin.py")


@pytest.fixture
def declared_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The high-cards games (the kernel's and its twin's, both named ``"cards"``) declared for the
    test with hidden information, as a game's spec declares it: the searchers read the
    declaration (``GameSpec.hidden_information``), not the state's methods."""
    from solver import registry
    from solver.spec import GameSpec, Opened

    spec = GameSpec(name="cards", title="high cards", summary="the hidden-information test kernel",
                    players=(2,), engines={"reference": lambda **options: None},
                    open=lambda *args, **keywords: Opened(None, None, "default"),
                    hidden_information=True)  # fmt: skip
    registry.registered_games()  # the built-in games first, so this one is only added
    monkeypatch.setitem(registry._SPECS, spec.name, spec)


@pytest.fixture(scope="session")
def in_tree_build() -> Callable[[], contextlib.AbstractContextManager[None]]:
    """A lock, held across processes, on building the package in the checkout: ``pip wheel`` of
    the checkout builds in its ``build/`` folder, and two such builds at once (the slow wheel
    tests on two pytest-xdist workers) would write the same object files and remove each other's
    ``bdist`` folder. ``with in_tree_build(): ...`` around the build."""

    @contextlib.contextmanager
    def held() -> Iterator[None]:
        folder = _ROOT / "build"
        folder.mkdir(exist_ok=True)
        with (folder / ".in-tree-build.lock").open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    return held
