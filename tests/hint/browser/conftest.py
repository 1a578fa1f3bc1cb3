"""The browser tests' shared fixtures: one ``forest serve`` and one Chromium for the package.

Package scope, not session scope: Playwright's sync API keeps an event loop running in the
thread while it is open, so a browser left open for the whole session would break every later
test that starts its own loop (``asyncio.run``). Here both close after the last browser test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..conftest import SERVE_OPTIONS, Server


@pytest.fixture(scope="package")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``forest serve`` for every browser test (the page only asks it; nothing a test
    checks depends on another's requests), so the suite starts it once, not once a module."""
    running = Server(tmp_path_factory.mktemp("serve-web"), *SERVE_OPTIONS)
    yield running
    running.stop()


@pytest.fixture(scope="package")
def server(web_server: Server) -> Server:
    """The browser tests' ``server`` is the shared ``web_server`` (the hint tests' own fixture of
    that name starts a server per module)."""
    return web_server


def ready(page: Any) -> None:
    """Wait until the page has its position and nothing is running (a request, a session's
    step)."""
    page.wait_for_function(
        "() => window.table.busy === 0 && !window.table.sessionBusy "
        "&& window.table.position !== null",
        timeout=60_000,
    )


def _missing(what: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing under CI=true (make test installs it)")
    pytest.skip(f"{what} is missing (make browser installs Chromium)")


@pytest.fixture(scope="package")
def browser() -> Any:
    chromium = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium")
                                            .exists() else None)  # fmt: skip
    if chromium is None:
        _missing("Debian's chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright Python client")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, server: Server, tmp_path: Path) -> Any:
    """A fresh page of the table, its first game shown (or its error state); a screenshot of it
    is kept in the test's folder."""
    opened = browser.new_page(viewport={"width": 1280, "height": 1000})
    opened.goto(f"{server.url}/")
    opened.wait_for_function("() => window.table.games.length > 0", timeout=30_000)
    opened.wait_for_function(
        "() => window.table.busy === 0 && (window.table.position !== null "
        "|| document.querySelector('#status').dataset.state === 'error')",
        timeout=60_000,
    )
    yield opened
    opened.screenshot(path=str(tmp_path / "table.png"), full_page=True)
    opened.close()
