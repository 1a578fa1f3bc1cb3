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


def test_order_names_its_argument_file_as_the_readme_and_every_command_do():
    # `forest guardians order` alone said "the following arguments are required: position"
    # beside README's `forest guardians order FILE.grove` and every other command's FILE
    run = forest("guardians", "order")
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert "required: FILE" in run.stderr and "position" not in run.stderr, run.stderr
    run = forest("guardians", "order", "--help")
    usage = run.stdout.split("\n\n")[0]
    assert run.returncode == 0 and usage.split()[-1] == "FILE", usage


def test_best_move_on_a_new_game_says_why_no_outcome_has_a_move(capsys):
    # Defect: `forest guardians best-move` on a new game (the draw: chance acts again under every
    # outcome) printed 24 headings `if draw tile N (p=0.042):` with nothing under any, no word of
    # why. Now a note, as the Trial's new game has; the JSON fields stay.
    import json

    from solver import load_game
    from solver.cli import main

    state = load_game("guardians").new_initial_state()
    assert state.is_chance_node()
    for action, _ in state.chance_outcomes():
        child = state.clone()
        child.apply_action(action)
        assert child.is_chance_node()  # the independent fact: no outcome reaches a decision
    assert main(["guardians", "best-move", "--iterations", "8", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert main(["guardians", "best-move", "--iterations", "8", "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["outcomes"]) == len(state.chance_outcomes())
    assert all(row["moves"] == [] and row["best_action"] is None for row in report["outcomes"])
    (note,) = [note for note in report["notes"] if "nobody has a move to choose" in note]
    assert "--state" in note and "play --human" in note
    assert not any(line.startswith("if ") for line in lines)
    assert f"note: {note}" in lines[1:]
