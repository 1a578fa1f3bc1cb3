"""The web table's "Review the game" on a long game has one whole budget, shows its progress and
labels the decisions searched less (found by a new user's pass: a 697-ply Trial game took 411 s
over 117 requests, every position at the hint's 2000 simulations, with no whole budget).

A two-player Trial game of the heuristic agents (363 plies) is reviewed on a budget far
too small for it (2 s), so most positions get only the floor's share. The assertions hold
whatever the machine's speed: every ply is reviewed; every request carries a share of the
budget; each position asks the game's review setting (``GameSpec.review_iterations``), not the
hint's 2000; a decision is marked ``~`` exactly where its own ``simulations`` are fewer than
asked (the server's rule, ``solver.review_notes.searched_less``), and the closing line counts
them; the graph's caption names every kind of value met (estimates, exact). No wall-clock
assertion.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import solver
from solver.review_notes import searched_less, searched_less_note

from ..conftest import Server
from .conftest import ready

BUDGET = 2  # seconds for the whole review: far too few, so positions are searched less


def _long_record(folder: Path, agent: str = "heuristic", seed: int = 3) -> Path:
    path = folder / f"long-{agent}-{seed}.json"
    command = [sys.executable, "-m", "solver.cli", "trial", "play", "--agent", agent, "--players",
               "2", "--seed", str(seed), "--record", str(path), "--no-progress"]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return path


def _load(page: Any, server: Server, path: Path, plies: int) -> None:
    """Open the table and load the record at ``path`` (``plies`` actions) from its file."""
    page.goto(f"{server.url}/")
    page.wait_for_function("() => window.table.games.length > 0", timeout=30_000)
    ready(page)
    page.set_input_files("#load", str(path))
    page.wait_for_function(f"() => window.table.actions.length === {plies} "
                           "&& window.table.busy === 0", timeout=60_000)  # fmt: skip


KEEP = """() => {
  const list = document.querySelector('#history');
  list.querySelectorAll('li').forEach((item, index) => { item.kept = index; });
  window.listChanges = 0;
  new MutationObserver((records) => {
    for (const r of records) window.listChanges += r.addedNodes.length + r.removedNodes.length;
  }).observe(list, { childList: true });
  return list.scrollTop;
}"""
"""Before the review: every move-list entry's node tagged with its index, the entries added to or
taken from the list counted from then on, and the list's scroll position."""


def _entries_were_marked_not_rebuilt(page: Any, review: dict[str, Any], scrolled: float) -> None:
    """The review marked the list's entries in place (before, each of its ~60 answers rebuilt
    the whole list: quadratic on a long game, and the focus and scroll went): every entry is the
    node it was, marks included; the current entry is in view; and what the list shows, and where
    it is scrolled, is what drawing it whole from the review gives."""
    kept = page.evaluate("""() => [...document.querySelectorAll('#history li')]
        .map((item, index) => item.kept === index && item.querySelector('button').dataset.ply
             === String(index + 1))""")  # fmt: skip
    assert len(kept) == len(review["curve"]) - 1 and all(kept)
    assert page.evaluate("() => window.listChanges") == 0
    marked = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#history button[data-mark]')].map((b) => [b.dataset.ply, b.dataset.mark]))""")
    want = {str(d["ply"]): d["mark"] for d in review["decisions"].values() if d["mark"]}
    assert marked == want
    # entries carry marks to keep (2 s for 363 plies leaves most positions searched less)
    assert page.evaluate("() => document.querySelectorAll('#history li span').length") > 0
    # not scrolled back (a mark wrapping a line above the current entry may scroll it down)
    assert page.evaluate("() => document.querySelector('#history').scrollTop") >= scrolled
    assert page.evaluate("""() => {
        const list = document.querySelector('#history').getBoundingClientRect();
        const at = document.querySelector('#history .current').getBoundingClientRect();
        return at.top >= list.top && at.bottom <= list.bottom; }""")
    # the list as the whole redraw after each answer left it: the same entries, marks and scroll
    redrawn = page.evaluate("""() => { const list = document.querySelector('#history');
        const before = [list.innerHTML, list.scrollTop]; drawHistory();
        return [before, [list.innerHTML, list.scrollTop]]; }""")
    assert redrawn[0] == redrawn[1]


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
        _load(page, server, path, len(actions))
        page.evaluate(f"() => {{ window.table.reviewSeconds = {BUDGET}; }}")
        scrolled = page.evaluate(KEEP)
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
        assert status.startswith(f"reviewed {len(actions)} plies"), status
        # the server's note on the decisions searched less, over the whole review
        note = searched_less_note(list(decisions), asked)
        if short:
            assert note is not None and note in status, status
            assert "marked ~ in the move list" in status, status
        else:
            assert note is None and "~" not in status
        assert page.is_hidden("#review-progress")
        _entries_were_marked_not_rebuilt(page, review, scrolled)
        # the caption names every kind of value the review met, not the last request's alone:
        # the last six plies of a Trial game may all be exact, and the graph of ISMCTS estimates
        # was captioned "exact win probability" (found by a new user's pass)
        words = review["valueLabel"]
        if any(p["method"] != "exact" for p in review["curve"].values()):
            assert "estimate" in words, words
        assert page.inner_text("#graph-caption").startswith(f"{words} along the game")
    finally:
        page.close()


def test_the_graph_caption_names_every_kind_of_value_the_review_met(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """The review asks in ranges of six plies, each answer naming its own plies' kinds of value;
    the caption took the last answer's alone. This game's last range (plies 366-367) is all
    exact, so a graph of ISMCTS estimates was captioned "exact win probability" (found by a new
    user's pass). With a budget large enough for every range, the caption names both kinds."""
    path = _long_record(tmp_path, agent="random", seed=1)
    actions = json.loads(path.read_text())["actions"]
    page = browser.new_page()
    answers: list[dict[str, Any]] = []
    page.on("response", lambda r: answers.append(r.json())
            if r.url.endswith("/v1/review") and r.ok else None)  # fmt: skip
    try:
        _load(page, server, path, len(actions))
        page.evaluate("() => { window.table.reviewSeconds = 1200; }")
        page.click("#review")
        page.wait_for_function("() => window.table.review && !window.table.review.running",
                               timeout=600_000)  # fmt: skip
        assert page.inner_text("#error") == ""
        curve = page.evaluate("() => window.table.review.curve").values()
        methods = {point["method"] for point in curve}
        assert "exact" in methods and methods - {"exact"}  # both kinds along this game
        caption = page.inner_text("#graph-caption")
        assert "heuristic estimate of the win probability" in caption, caption
        assert "exact win probability" in caption, caption
        words = page.evaluate("() => window.table.review.valueLabel")
        assert caption.startswith(f"{words} along the game")
        # each kind once, and only the kinds the answers named
        kinds = {kind for answer in answers for kind in answer["valueLabel"].split(" / ")}
        end = " at the game's end"  # a kind said bare covers its own at the game's end
        kinds = {k for k in kinds if not (k.endswith(end) and k[: -len(end)] in kinds)}
        assert sorted(words.split(" / ")) == sorted(kinds)
    finally:
        page.close()


def test_the_review_says_which_decisions_the_estimates_could_not_judge(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """A random player's solo guardians game: `forest guardians review` says at how many
    decisions the move played was valued alike with the best and others (counted accurate) and
    the accuracy over the rest (1c740b9); the table's review said nothing, its accuracy table
    near 100. Its closing line now says what the server's note says of the same decisions
    (solver.review.undecided_note), the accuracies to their shown decimal, and its accuracy
    table's caption what the command line's accuracy line says (solver.review.accuracy_title:
    counted as accurate; it said "Lichess's curve, unweighted mean" alone)."""
    import re

    from solver.review import accuracy_title, undecided_note

    path = tmp_path / "solo-random.json"
    command = [sys.executable, "-m", "solver.cli", "guardians", "play", "--players", "1",
               "--agent", "random", "--seed", "2", "--record", str(path),
               "--no-progress"]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    actions = json.loads(path.read_text())["actions"]
    page = browser.new_page()
    try:
        _load(page, server, path, len(actions))
        page.click("#review")
        page.wait_for_function("() => window.table.review && !window.table.review.running",
                               timeout=600_000)  # fmt: skip
        assert page.inner_text("#error") == ""
        decisions = list(page.evaluate("() => window.table.review").get("decisions").values())
        note = undecided_note(decisions)
        assert note is not None  # a random player's solo game has such decisions
        status = page.inner_text("#review-status")
        head = note.split("; over the other")[0]
        assert head in status, status
        numbers = r"player (\d) (\d+\.\d)"
        want = {p: float(v) for p, v in re.findall(numbers, note)}
        shown = {p: float(v) for p, v in re.findall(numbers, status.split(head)[1])}
        assert shown.keys() == want.keys() and all(abs(shown[p] - want[p]) <= 0.1 for p in want), (
            status,
            note,
        )
        # the accuracy table's caption says what the command line's accuracy line says of the
        # same decisions: they are counted as accurate (it said "Lichess's curve, unweighted
        # mean" alone)
        title = accuracy_title(decisions)
        assert "valued alike with the best as accurate" in title
        caption = page.inner_text("#accuracy caption")
        assert caption == title[0].upper() + title[1:], caption
    finally:
        page.close()


def _review_whole(page: Any) -> None:
    """Press Review the game and wait until the review has ended."""
    page.click("#review")
    page.wait_for_function("() => window.table.review && !window.table.review.running",
                           timeout=120_000)  # fmt: skip


def _fall_record(folder: Path) -> tuple[dict[str, Any], Path]:
    """A random player's 10-ply dog game (seed 19) and its record's file."""
    from solver.agents import make_agent
    from solver.play import play_game

    game = solver.load_game("dog", forest="dog/another-dog")
    played = play_game(game, [make_agent("random", game, seed=19)], seed=19)
    record = {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 19,
              "actions": played.actions}  # fmt: skip
    path = folder / "fall.json"
    path.write_text(json.dumps(record))
    return record, path


def test_the_review_closes_with_the_fall_the_marks_do_not_judge(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """A random player's 10-ply dog game (seed 19): its win probability falls from 1 to 0 while
    its moves give away 0.67, chance taking the rest. `forest dog review` and POST /v1/review
    say so (solver.review.fall_note); the table's review, six plies a request, never did. Its
    closing line now says the review's closing notes as the command line's review of the whole
    record words them (solver.review.closing_notes), the fall among them."""
    from solver.review import closing_notes, fall_note, review_record

    record, path = _fall_record(tmp_path)
    whole = review_record(record)  # exact where it fits, as the table asks
    notes = closing_notes(whole["decisions"], whole["curve"], whole["valueKind"], None)
    fall = fall_note(whole["decisions"], whole["curve"], whole["valueKind"], exact=whole["exact"])
    assert fall is not None and fall in notes and len(record["actions"]) > 6  # two ranges
    page = browser.new_page()
    try:
        _load(page, server, path, len(record["actions"]))
        _review_whole(page)
        assert page.inner_text("#error") == ""
        status = page.inner_text("#review-status")
        assert status.startswith(f"reviewed {len(record['actions'])} plies; "), status
        assert "; ".join(notes) in status, status
    finally:
        page.close()


def test_a_review_too_large_to_send_back_is_still_reviewed(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """The last range carries the earlier answers back; where that body is over the server's
    limit (413 too_large: a very long game) the range is asked again without them, the review
    ends, and its closing line says the notes are left out rather than say the last range's."""
    record, path = _fall_record(tmp_path)
    page = browser.new_page()
    sent: list[bool] = []

    def refuse(route: Any) -> None:
        carried = "earlier" in json.loads(route.request.post_data or "{}")
        sent.append(carried)
        if carried:
            route.fulfill(status=413, content_type="application/json", body=json.dumps(
                {"id": None, "error": "the body is larger than 65536 bytes", "field": None,
                 "code": "too_large", "version": 1}))  # fmt: skip
        else:
            route.continue_()

    try:
        _load(page, server, path, len(record["actions"]))
        page.route("**/v1/review", refuse)
        _review_whole(page)
        assert page.inner_text("#error") == ""
        assert sent == [False, True, False]  # 0-6, then 6-10 with earlier, then without
        status = page.inner_text("#review-status")
        assert status.startswith("reviewed 10 plies; its closing notes are left out ("), status
        assert "fell from" not in status
        curve = page.evaluate("() => Object.keys(window.table.review.curve).length")
        assert curve == len(record["actions"]) + 1
    finally:
        page.close()


def test_a_changed_line_leaves_no_stale_review_words(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """Found trying the review on every game: a take back during a review left its bar up and
    its line saying "reviewing plies 24-30 of 367..." for good; after a finished review, a take
    back or a new game left its closing line (notes on a line no longer played: the fall to 0 at
    the ply taken back) beside the new line or game."""
    path = _long_record(tmp_path)
    plies = len(json.loads(path.read_text())["actions"])
    page = browser.new_page()
    try:
        _load(page, server, path, plies)
        page.click("#review")
        page.wait_for_function("() => window.table.review && window.table.review.reviewed >= 12",
                               timeout=120_000)  # fmt: skip
        page.click("#take-back")
        page.wait_for_function("() => window.table.busy === 0 && !window.table.review.running")
        reviewed = page.evaluate("() => window.table.review.reviewed")
        assert page.is_hidden("#review-progress")
        status = page.inner_text("#review-status")
        assert status == f"the review stopped at ply {reviewed}: the line changed", status
        page.wait_for_timeout(500)  # the stale answer in flight, if any, changes nothing
        assert page.inner_text("#review-status") == status and page.is_hidden("#review-progress")
    finally:
        page.close()
    record, path = _fall_record(tmp_path)
    page = browser.new_page()
    try:
        _load(page, server, path, len(record["actions"]))
        _review_whole(page)
        assert "fell from 1.00 to 0.00" in page.inner_text("#review-status")
        page.click("#take-back")
        page.wait_for_function("() => window.table.busy === 0")
        kept = page.evaluate("() => window.table.actions.length")
        assert kept < len(record["actions"])
        assert page.inner_text("#review-status") == (
            f"reviewed up to ply {kept}; the line changed after it (Review the game for its notes)"
        )
        page.click("#new-game")
        page.wait_for_function("() => window.table.busy === 0 && window.table.actions.length === 0")
        assert page.inner_text("#review-status") == "" and page.is_hidden("#review-progress")
    finally:
        page.close()
