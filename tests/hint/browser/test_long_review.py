"""The web table's "Review the game" on a long game has one whole budget, shows its progress and
labels the decisions searched less (found by a new user's pass: a 697-ply Trial game took 411 s
over 117 requests, every position at the hint's 2000 simulations, with no whole budget).

A two-player Trial game of the heuristic agents (363 plies) is reviewed on a budget far
too small for it (2 s), so most positions get only the floor's share. The assertions hold
whatever the machine's speed: every ply is reviewed; every request carries a share of the
budget; each position asks the game's review setting (``GameSpec.review_iterations``), not the
hint's 2000; a decision is marked ``~`` exactly where its own ``simulations`` are fewer than
asked (the server's rule, ``solver.review_notes.searched_less``), and the closing line counts
them. No wall-clock assertion.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import solver
from solver.review_notes import searched_less

from ..conftest import Server
from .conftest import ready

BUDGET = 2  # seconds for the whole review: far too few, so positions are searched less


def _long_record(folder: Path) -> Path:
    path = folder / "long.json"
    command = [sys.executable, "-m", "solver.cli", "trial", "play", "--agent", "heuristic",
               "--players", "2", "--seed", "3", "--record", str(path), "--no-progress"]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return path


def test_a_long_game_is_reviewed_within_its_budget_with_honest_labels(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    path = _long_record(tmp_path)
    actions = json.loads(path.read_text())["actions"]
    assert len(actions) > 300  # a long game (the page's floor, 0.05 s a ply, makes it 18 s)
    page = browser.new_page()
    requests: list[dict[str, Any]] = []
    page.on("request", lambda r: requests.append(json.loads(r.post_data or "{}"))
            if r.url.endswith("/v1/review") else None)  # fmt: skip
    try:
        page.goto(f"{server.url}/")
        page.wait_for_function("() => window.table.games.length > 0", timeout=30_000)
        ready(page)
        page.set_input_files("#load", str(path))
        page.wait_for_function(f"() => window.table.actions.length === {len(actions)} "
                               "&& window.table.busy === 0", timeout=60_000)  # fmt: skip
        page.evaluate(f"() => {{ window.table.reviewSeconds = {BUDGET}; }}")
        page.click("#review")
        page.wait_for_function("() => !document.querySelector('#review-progress').hidden")
        assert "budget 2 s" in page.inner_text("#review-status")
        page.wait_for_function("() => window.table.review && !window.table.review.running",
                               timeout=600_000)  # fmt: skip
        assert page.inner_text("#error") == ""
        review = page.evaluate("() => window.table.review")
        asked = solver.game_spec("trial").review_iterations
        assert asked is not None and asked < 2000
        assert review["asked"] == asked
        assert sorted(int(p) for p in review["curve"]) == list(range(len(actions) + 1))
        assert requests and all(r["limit"] == {"iterations": asked} for r in requests)
        assert all(r["totalSeconds"] > 0 for r in requests)
        decisions = review["decisions"].values()
        short = {d["ply"] for d in decisions if searched_less(d, asked)}
        marked = page.evaluate("() => [...document.querySelectorAll('#history button[data-short]')]"
                               ".map((b) => Number(b.dataset.ply))")  # fmt: skip
        assert set(marked) == short
        status = page.inner_text("#review-status")
        searched = sum(not d["forced"] for d in decisions)
        assert status.startswith(f"reviewed {len(actions)} plies"), status
        if short:
            assert (
                f"{len(short)} of {searched} decisions searched with fewer than {asked}" in status
            )
        else:
            assert "~" not in status
        assert page.is_hidden("#review-progress")
    finally:
        page.close()
