"""The runner knows games only through their analysis hooks: a toy game that is not the dog goes
through the batch, the report and curation, a game without hooks is refused, and no module of
``solver/analysis`` imports the dog package."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

import solver.analysis  # noqa: E402
from solver import registry  # noqa: E402
from solver.analysis.batch import read_results  # noqa: E402
from solver.analysis.cli_analyse import add_analyse_command  # noqa: E402
from solver.analysis.stand_ins import TOY_CLASSES, run_analyse, toy_spec  # noqa: E402
from solver.errors import FormatError, OptionError  # noqa: E402


@pytest.fixture
def toy_games(monkeypatch):
    """The toy game (with hooks) and one without hooks, registered for the test only."""
    monkeypatch.setattr(registry, "_SPECS", dict(registry._SPECS))
    registry.game_specs()  # the built-in games first
    registry.register(toy_spec("toy"))
    registry.register(toy_spec("hookless", analysis=False))


def test_no_analysis_module_imports_a_game():
    root = Path(solver.analysis.__file__).parent
    offenders = []
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [node.value] if node.value.startswith("solver.games") else []
            offenders += [f"{path.name}: {n}" for n in names if n.startswith("solver.games")]
    assert offenders == []


def test_a_game_without_analysis_hooks_is_refused(toy_games):
    with pytest.raises(OptionError, match=r"^analysis is not supported for hookless$"):
        run_analyse("--game", "hookless", "--count", "2", "--no-progress")
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        run_analyse("--game", "chess", "--count", "2", "--no-progress")


def test_the_toy_game_goes_through_batch_report_and_curation(toy_games, tmp_path, capsys):
    out, report, saved = tmp_path / "words.csv", tmp_path / "report", tmp_path / "saved"
    code = run_analyse(
        "--game", "toy", "--count", "8", "--size", "3x2", "--seed", "4", "--jobs", "1",
        "--output", str(out), "--report", str(report), "--select", "length >= 4",
        "--save-to", str(saved), "--no-progress",
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    frame = read_results(out, "toy")
    assert list(frame.columns[:6]) == ["source", "width", "height", "class", "length", "word"]
    assert str(frame["length"].dtype) == "Int64"
    assert list(frame["source"]) == [f"seed:{s}" for s in range(4, 12)]
    for word, klass in zip(frame["word"], frame["class"], strict=True):  # the toy's own rule
        assert klass == ("short" if len(word) <= 4 else "long")
    assert "analysed 8 words" in printed
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "| game | toy |" in text and "| words | 8 |" in text and "| sizes | 3x2 |" in text
    for name, definition in TOY_CLASSES.items():
        assert f"| {name} |" in text and definition in text
    assert (report / "length.png").exists()
    chosen = frame[frame["length"] >= 4]
    assert sorted(p.name for p in saved.iterdir()) == sorted(
        f"rolled-3x2-seed{s.split(':')[1]}.word" for s in chosen["source"]
    )
    for source, word in zip(chosen["source"], chosen["word"], strict=True):  # dumped by the hooks
        path = saved / f"rolled-3x2-seed{source.split(':')[1]}.word"
        assert path.read_text(encoding="utf-8") == word + "\n"


def test_toy_files_are_read_through_the_hooks(toy_games, tmp_path, capsys):
    good, bad = tmp_path / "a.word", tmp_path / "b.word"
    good.write_text("forest\n", encoding="utf-8")
    bad.write_text("12 34\n", encoding="utf-8")
    assert run_analyse("--game", "toy", str(good), str(bad), "--jobs", "1", "--no-progress") == 0
    printed = capsys.readouterr().out
    assert "analysed 2 words: 1 long, 1 error" in printed
    with pytest.raises(FormatError):
        toy_spec().analysis.load(str(bad))


@pytest.mark.parametrize("flag", ["-o", "--output", "--out"])
def test_the_output_has_one_name_and_two_aliases(flag):
    parser = argparse.ArgumentParser(prog="forest")
    add_analyse_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["analyse", "--count", "1", flag, "r.csv"])
    assert args.output == "r.csv" and args.analysis_game == "dog"
