"""Forest guardians' own commands (:mod:`solver.games.guardians.cli`) as a user runs them, a
``forest`` subprocess: ``order --svg FILE`` never replaces a file unasked and checks its path
before solving (one line, exit status 2).
"""

from __future__ import annotations

from solver.testing import one_line_error
from solver.testing import run_forest as forest


def test_order_svg_never_replaces_a_file_without_overwrite(tmp_path):
    # Defect: `order --svg FILE` replaced an existing FILE silently (every other output needs
    # --overwrite).
    target = tmp_path / "plan.svg"
    target.write_text("keep me", encoding="utf-8")
    run = forest("guardians", "order", "guardians/chain", "--svg", str(target))
    one_line_error(run, "--overwrite")
    assert target.read_text(encoding="utf-8") == "keep me"
    run = forest("guardians", "order", "guardians/chain", "--svg", str(target), "--overwrite")
    assert run.returncode == 0, run.stderr
    assert "<svg" in target.read_text(encoding="utf-8")


def test_order_checks_the_svg_path_before_solving(tmp_path):
    run = forest("guardians", "order", "guardians/chain", "--svg", str(tmp_path / "no" / "x.svg"))
    one_line_error(run, "does not exist")
