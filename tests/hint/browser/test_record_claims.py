"""A loaded record's own words in the web table's review (a real Chromium against a real
``forest serve``): a record whose "labels" and "returns" disagree with the replay of its actions
is reviewed as the replay plays it, and the review's closing line says where the file disagrees,
as ``forest dog review`` says it. The table's review said nothing of it. Once the line changes
(a take back), the record's words are no longer this line's and are not said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.review import review_record

from ..conftest import Server
from ..test_review_ranges import _record


def _reviewed(page: Any) -> str:
    page.click("#review")
    page.wait_for_function("() => window.table.review && !window.table.review.running "
                           "&& window.table.busy === 0", timeout=120_000)  # fmt: skip
    assert page.inner_text("#error") == ""
    return page.inner_text("#review-status")


def test_a_loaded_record_s_disagreements_close_its_review(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    record = _record(seed=19)
    plain = review_record(record, exact=True)
    labels = [None] * len(record["actions"])  # a label is a string or null
    first = plain["decisions"][0]
    labels[first["ply"] - 1] = "nowhere"
    claimed = {
        **record,
        "labels": labels,
        "finished": True,
        "returns": [1 - round(plain["curve"][-1]["values"][0])],
    }  # an int: JS's 1.0 is 1
    said = review_record(claimed, exact=True)["notes"][:2]  # the command line's first notes
    assert said[0].startswith('the record\'s "labels" disagree') and "'nowhere'" in said[0]
    assert said[1].startswith('the record says "returns"')
    saved = tmp_path / "claimed.json"
    saved.write_text(json.dumps(claimed))
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(f"{server.url}/")
        page.wait_for_function("() => window.table.games.length > 0", timeout=30_000)
        page.set_input_files("#load", str(saved))
        total = len(record["actions"])
        page.wait_for_function(f"() => window.table.actions.length === {total} "
                               "&& window.table.busy === 0 && window.table.position !== null",
                               timeout=60_000)  # fmt: skip
        closing = _reviewed(page)
        assert all(note in closing for note in said), closing
        page.click("#take-back")
        page.wait_for_function(f"() => window.table.actions.length < {total} "
                               "&& window.table.busy === 0", timeout=60_000)  # fmt: skip
        closing = _reviewed(page)
        assert "the record" not in closing, closing
        assert not problems, problems
    finally:
        page.close()
