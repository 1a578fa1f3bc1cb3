"""Every ``forest`` command that writes a file: never a replaced file without ``--overwrite``,
never a half-written one, the umask respected (issue 16 §3: ``forest analyse -o results.csv``
silently replaced an 8-row file with 2 rows, and ``--report`` replaced ``report.md``).

Each command runs as the user runs it, a ``forest`` subprocess, against a file that holds the
user's own text: the text must survive, the error is one line naming the flag, and with
``--overwrite`` the file is replaced whole, with no temporary file left beside it.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from solver.testing import one_line_error, run_forest

MINE = "my own notes\n"


def forest(*argv: str, cwd: Path, umask: int | None = None) -> subprocess.CompletedProcess[str]:
    return run_forest(*argv, cwd=cwd, umask=umask)


def _record(cwd: Path, name: str = "game.json") -> str:
    made = forest("dog", "play", "dog/tiny-2x2", "--agent", "random", "--record", name, cwd=cwd)
    assert made.returncode == 0, made.stderr
    return name


# (a label, the output file, the command's arguments); {out} is the output file
WRITERS: list[tuple[str, str, list[str]]] = [
    ("dog render -o", "sheet.svg", ["dog", "render", "dog/tiny-2x2", "-o", "{out}"]),
    ("guardians render -o", "g.svg", ["guardians", "render", "-o", "{out}"]),
    ("trial render -o", "t.svg", ["trial", "render", "--players", "2", "-o", "{out}"]),
    ("dog generate -o", "r.forest", ["dog", "generate", "--size", "5x4", "-o", "{out}"]),
    ("dog play --record", "game.json",
     ["dog", "play", "dog/tiny-2x2", "--agent", "random", "--record", "{out}"]),
    ("guardians play --record", "game.json",
     ["guardians", "play", "--players", "2", "--agent", "random", "--record", "{out}"]),
    ("trial play --record", "game.json",
     ["trial", "play", "--players", "2", "--agent", "random", "--record", "{out}"]),
    ("guardians order --svg", "order.svg",
     ["guardians", "order", "guardians/order-trap", "--svg", "{out}"]),
]  # fmt: skip


@pytest.mark.parametrize(("label", "name", "argv"), WRITERS, ids=[w[0] for w in WRITERS])
def test_a_command_never_replaces_a_file_unasked(tmp_path, label, name, argv):
    target = tmp_path / name
    target.write_text(MINE, encoding="utf-8")
    command = [part.replace("{out}", name) for part in argv]
    refused = forest(*command, cwd=tmp_path)
    assert refused.returncode == 2, (label, refused.stderr)
    assert refused.stderr.startswith("forest: error: ") and refused.stderr.count("\n") == 1
    assert "--overwrite" in refused.stderr and name in refused.stderr
    assert target.read_text(encoding="utf-8") == MINE
    replaced = forest(*command, "--overwrite", cwd=tmp_path, umask=0o022)
    assert replaced.returncode == 0, (label, replaced.stderr)
    assert target.read_text(encoding="utf-8") != MINE
    assert stat.S_IMODE(target.stat().st_mode) == 0o644  # the umask, not mkstemp's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary left


@pytest.mark.parametrize("game", ["dog", "guardians", "trial"])
def test_a_new_output_file_respects_the_umask(tmp_path, game):
    made = forest(game, "render", "-o", "new.svg", *(["dog/tiny-2x2"] if game == "dog" else []),
                  cwd=tmp_path, umask=0o027)  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert stat.S_IMODE((tmp_path / "new.svg").stat().st_mode) == 0o640


def test_review_plot_is_never_replaced_unasked(tmp_path):
    pytest.importorskip("matplotlib")
    record = _record(tmp_path)
    plot = tmp_path / "curve.svg"
    plot.write_text(MINE, encoding="utf-8")
    argv = ["dog", "review", record, "--iterations", "20", "--plot", "curve.svg"]
    refused = forest(*argv, cwd=tmp_path)
    assert refused.returncode == 2 and "--overwrite" in refused.stderr
    assert plot.read_text(encoding="utf-8") == MINE
    replaced = forest(*argv, "--overwrite", cwd=tmp_path)
    assert replaced.returncode == 0, replaced.stderr
    assert "<svg" in plot.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([record, "curve.svg"])


FAKE = "solver.analysis.stand_ins:fake_analyse"


def _analyse(cwd: Path, count: int, *extra: str) -> subprocess.CompletedProcess[str]:
    return forest("analyse", "--count", str(count), "--size", "6x6", "--jobs", "1", "--analysis",
                  FAKE, "--no-progress", *extra, cwd=cwd)  # fmt: skip


def test_analyse_never_replaces_its_results_file_unasked(tmp_path):
    # the defect as met: an 8-row results file silently became a 2-row one
    pytest.importorskip("pandas")
    assert _analyse(tmp_path, 8, "-o", "results.csv").returncode == 0
    before = (tmp_path / "results.csv").read_text(encoding="utf-8")
    assert len(before.splitlines()) == 9
    refused = _analyse(tmp_path, 2, "-o", "results.csv")
    assert refused.returncode == 2 and "results.csv: already exists" in refused.stderr
    assert "--overwrite" in refused.stderr and refused.stderr.count("\n") == 1
    assert (tmp_path / "results.csv").read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"]  # no journal, no lock
    replaced = _analyse(tmp_path, 2, "-o", "results.csv", "--overwrite")
    assert replaced.returncode == 0, replaced.stderr
    assert len((tmp_path / "results.csv").read_text(encoding="utf-8").splitlines()) == 3


def test_analyse_never_replaces_a_report_unasked(tmp_path):
    pytest.importorskip("matplotlib")
    assert _analyse(tmp_path, 4, "-o", "r.csv", "--report", "report").returncode == 0
    report = tmp_path / "report" / "report.md"
    report.write_text(MINE, encoding="utf-8")
    plots = {p.name: p.read_bytes() for p in (tmp_path / "report").glob("*.png")}
    # on its own results, and with a new batch: refused before anything runs
    for argv in (["-o", "r.csv", "--report", "report"],
                 ["-o", "r2.csv", "--report", "report"]):  # fmt: skip
        run = (
            forest("analyse", *argv, cwd=tmp_path)
            if argv[1] == "r.csv"
            else _analyse(tmp_path, 3, *argv)
        )
        assert run.returncode == 2 and "report.md: already exists" in run.stderr, run.stderr
        assert report.read_text(encoding="utf-8") == MINE
    assert not (tmp_path / "r2.csv").exists()
    assert {p.name: p.read_bytes() for p in (tmp_path / "report").glob("*.png")} == plots
    again = forest("analyse", "-o", "r.csv", "--report", "report", "--overwrite", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert report.read_text(encoding="utf-8").startswith("#")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging left


def test_a_report_into_a_folder_holding_other_files_keeps_them(tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "mine.txt").write_text(MINE, encoding="utf-8")
    run = _analyse(tmp_path, 3, "-o", "r.csv", "--report", "notes")
    assert run.returncode == 0, run.stderr
    assert (folder / "mine.txt").read_text(encoding="utf-8") == MINE
    assert (folder / "report.md").is_file()


def test_a_named_pipe_nobody_reads_is_refused_not_waited_on(tmp_path):
    pipe = tmp_path / "pipe.svg"
    os.mkfifo(pipe)
    run = forest("dog", "render", "dog/tiny-2x2", "-o", str(pipe), cwd=tmp_path)
    assert run.returncode == 2 and "nothing reads this pipe" in run.stderr, run.stderr


def test_a_full_disk_is_one_clear_line():
    run = run_forest("dog", "render", "dog/tiny-2x2", "-o", "/dev/full")
    one_line_error(run, "/dev/full: cannot write: No space left on device")


RECORDERS = [w for w in WRITERS if w[0].endswith("play --record")]


@pytest.mark.parametrize(("label", "name", "argv"), RECORDERS, ids=[w[0] for w in RECORDERS])
def test_an_unwritable_record_is_refused_before_the_game(tmp_path, label, name, argv):
    """``play --record /dev/full`` played the whole game, printed it, then failed writing: the
    path is checked first (one line, exit 2, nothing played)."""
    command = [part.replace("{out}", "/dev/full") for part in argv]
    one_line_error(forest(*command, cwd=tmp_path), "/dev/full: cannot write: No space left")


def test_a_full_disk_is_refused_before_the_game(tmp_path, monkeypatch, capsys):
    """A folder with no free block left (statvfs says so) is refused before the game is played;
    no file is made."""
    import solver.files
    from solver.cli import main

    real = os.statvfs

    class Full:
        f_bavail = f_bfree = 0

    monkeypatch.setattr(solver.files.os, "statvfs", lambda p: Full() if p == tmp_path else real(p))
    target = tmp_path / "game.json"
    code = main(["dog", "play", "dog/tiny-2x2", "--agent", "random", "--record", str(target)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", out
    assert err == f"forest: error: {target}: cannot write: No space left on device\n"
    assert list(tmp_path.iterdir()) == []


def test_render_never_overwrites_unasked(tmp_path):
    (tmp_path / "sheet.svg").write_text("keep me", encoding="utf-8")
    run = run_forest("dog", "render", "dog/tiny-2x2", "-o", "sheet.svg", cwd=tmp_path)
    one_line_error(run, "sheet.svg: already exists (add --overwrite to replace it)")
    assert (tmp_path / "sheet.svg").read_text(encoding="utf-8") == "keep me"
    run = run_forest(
        "dog", "render", "dog/tiny-2x2", "-o", "sheet.svg", "--overwrite", cwd=tmp_path
    )
    assert run.returncode == 0 and "<svg" in (tmp_path / "sheet.svg").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.svg"]  # no temporary left


EMPTY_PATHS: list[list[str]] = [
    ["dog", "render", "dog/tiny-2x2", "-o", ""],
    ["dog", "generate", "-o", ""],
    ["dog", "play", "dog/tiny-2x2", "--agent", "random", "--record", ""],
    ["guardians", "play", "--players", "2", "--agent", "random", "--record", ""],
    ["dog", "review", "game.json", "--plot", ""],
    ["dog", "show", "dog/tiny-2x2", "--state", ""],
    ["guardians", "order", "guardians/order-trap", "--svg", ""],
    ["analyse", "x.forest", "-o", ""],
    ["analyse", "x.forest", "--report", ""],
    ["analyse", "x.forest", "--save-to", ""],
    ["serve", "--port", "0", "--port-file", ""],
]


@pytest.mark.parametrize("argv", EMPTY_PATHS, ids=[" ".join(a[:2] + a[-2:-1]) for a in EMPTY_PATHS])
def test_an_empty_path_is_refused_before_any_work(tmp_path, monkeypatch, capsys, argv):
    """Found by attack: ``--record ''`` (and ``--plot ''``, ``--state ''``, ``--svg ''``,
    ``serve --port-file ''``) was taken as no option at all: the game was played, nothing written,
    exit 0; ``analyse --report ''`` wrote into the current folder. Each is now one line, status 2,
    and nothing is written."""
    from solver.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "an empty path names no file" in err, err
    assert list(tmp_path.iterdir()) == []
