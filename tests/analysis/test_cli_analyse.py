"""``forest analyse`` (:mod:`solver.analysis.cli_analyse`) as a user runs it: issue 8's defects,
each driven the way a user met it, ``forest analyse`` as a subprocess, and two real processes for
the race (made deterministic by the run's test-only pause points,
:data:`solver.analysis.batch.PAUSE_VARIABLE`, not by sleeping).

The analysis is the cheap fake of :mod:`solver.analysis.stand_ins` unless the defect needs the real
one.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from solver.analysis.batch import PAUSE_VARIABLE, Job, journal_header, read_results  # noqa: E402
from solver.analysis.journal import journal_path, lock_path  # noqa: E402
from solver.analysis.worker import analyse_one  # noqa: E402
from solver.testing import run_forest  # noqa: E402

FAKE = "solver.analysis.stand_ins:fake_analyse"
PAUSED = "forest-analyse-pause: "


def forest_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FOREST_")}
    env.update(extra)
    return env


def forest(*argv: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``forest ARGV...`` in a new process, to completion (no FOREST_* of ours leaks in)."""
    return run_forest(*argv, cwd=cwd, env=forest_env(**env), inherit_env=False)


def start(*argv: str, cwd: Path, **env: str) -> subprocess.Popen[str]:
    """``forest ARGV...`` started in a new process; its stdin releases the pause points."""
    return subprocess.Popen(
        [sys.executable, "-m", "solver.cli", *argv],
        cwd=cwd,
        env=forest_env(**env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_pause(proc: subprocess.Popen[str], point: str) -> None:
    """Read the process's stderr until it says it paused at ``point`` (a blocking read)."""
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.strip() == PAUSED + point:
            return
    proc.wait(timeout=60)
    pytest.fail(f"the run ended (status {proc.returncode}) before pausing at {point}")


def refused(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The one-line error of a refused command (exit 2, no traceback), checked for ``needles``."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("forest: error:")]
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


# -- defect 2: the race
def test_a_second_run_while_the_first_writes_its_output_is_refused(tmp_path):
    """Run A paused with its rows done and its output not yet written (where it used to release
    the lock): run B on the same output is refused, and A's output holds A's rows."""
    first = start(
        "analyse", "--count", "30", "--size", "6x6", "--jobs", "1", "-o", "r.csv",
        "--analysis", FAKE, "--no-progress", cwd=tmp_path, **{PAUSE_VARIABLE: "finalise"},
    )  # fmt: skip
    try:
        wait_for_pause(first, "finalise")
        second = forest(
            "analyse", "--count", "3", "--size", "5x5", "--jobs", "1", "-o", "r.csv",
            "--analysis", FAKE, "--no-progress", cwd=tmp_path,
        )  # fmt: skip
        refused(second, "another run is writing", "r.csv")
        assert journal_path(tmp_path / "r.csv").exists()  # B did not touch A's journal
        out, _ = first.communicate("\n", timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 0
    assert "analysed 30 forests" in out
    frame = read_results(tmp_path / "r.csv")
    assert list(frame["source"]) == [f"seed:{s}" for s in range(30)]
    assert (frame["width"] == 6).all()
    assert not journal_path(tmp_path / "r.csv").exists()
    assert not lock_path(tmp_path / "r.csv").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]  # no temporary file left


def test_a_run_after_the_first_finished_takes_the_lock_afresh(tmp_path):
    for count in (4, 2):
        result = forest(
            "analyse", "--count", str(count), "--jobs", "1", "-o", "r.csv", "--analysis", FAKE,
            "--no-progress", "--overwrite", cwd=tmp_path,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert len(read_results(tmp_path / "r.csv")) == count


# -- defects 3 and 4: --save-to
def test_save_to_never_copies_a_file_a_results_file_names(tmp_path):
    (tmp_path / "evil.csv").write_text(
        "source,width,height,class\n/etc/passwd,,,uncertain\n", encoding="utf-8"
    )
    result = forest("analyse", "--out", "evil.csv", "--save-to", "saved", cwd=tmp_path)
    refused(result, "/etc/passwd", ".forest")
    saved = tmp_path / "saved"
    assert not saved.exists() or not any(saved.iterdir())


def fake_batch(tmp_path: Path, count: int, size: str, command: str = "analyse") -> str:
    """``forest analyse`` of ``count`` rolled instances by the fake analysis into ``r.csv``,
    which must succeed; its stdout."""
    made = forest(
        command, "--count", str(count), "--size", size, "--jobs", "1", "-o", "r.csv",
        "--analysis", FAKE, "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return made.stdout


def test_save_to_refuses_to_replace_a_file(tmp_path):
    fake_batch(tmp_path, 3, "5x4")
    (tmp_path / "saved").mkdir()
    mine = tmp_path / "saved" / "rolled-5x4-seed1.forest"
    mine.write_text("my notes\n", encoding="utf-8")
    refused(forest("analyse", "-o", "r.csv", "--save-to", "saved", cwd=tmp_path), "--overwrite")
    assert mine.read_text(encoding="utf-8") == "my notes\n"
    assert [p.name for p in (tmp_path / "saved").iterdir()] == [mine.name]
    again = forest("analyse", "-o", "r.csv", "--save-to", "saved", "--overwrite", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "saved 3 forests" in again.stdout
    assert mine.read_text(encoding="utf-8").startswith("name: rolled-5x4-seed1")


# -- defect 5: a billion forests
def test_a_billion_forests_are_streamed_not_listed(tmp_path):
    """``--count 1000000000`` built every source in memory first (MemoryError); now the first
    chunk is done within a 1.5 GB address-space limit."""
    resource = pytest.importorskip("resource")
    limit = 1536 * 2**20

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "analyse", "--count", "1000000000", "--size", "2x2",
         "--jobs", "1", "--out", "h.csv", "--analysis", FAKE, "--no-progress"],
        cwd=tmp_path, env=forest_env(**{PAUSE_VARIABLE: "chunk"}, OPENBLAS_NUM_THREADS="1"),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=cap,
    )  # fmt: skip
    try:
        wait_for_pause(proc, "chunk")
        journal = journal_path(tmp_path / "h.csv").read_text(encoding="utf-8").splitlines()
        assert json.loads(journal[0])["count"] == 1_000_000_000
        assert len(journal) == 1 + 32  # one chunk of 32 forests
    finally:
        proc.kill()
        proc.communicate(timeout=60)


# -- defect 6: silent wrong answers
def test_a_tampered_journal_value_is_a_damaged_line_and_repair_keeps_the_rest(tmp_path):
    job = Job.generated(6, size=(6, 6), seed=0)
    from solver.analysis.stand_ins import fake_analyse

    rows = [analyse_one(fake_analyse, job.source_at(i)) for i in range(4)]
    rows[1]["par"] = "12; DROP TABLE"  # a tampered value in an Int64 column
    lines = [json.dumps(journal_header(job, fake_analyse))]
    lines += [json.dumps({"i": i, "row": row}) for i, row in enumerate(rows)]
    journal = journal_path(tmp_path / "r.csv")
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["analyse", "--count", "6", "--size", "6x6", "--jobs", "1", "-o", "r.csv",
            "--analysis", FAKE, "--no-progress", "--resume"]  # fmt: skip
    refused(forest(*argv, cwd=tmp_path), "damaged at line 3", "--resume --repair")
    assert journal.read_text(encoding="utf-8") == "\n".join(lines) + "\n"  # untouched

    log = tmp_path / "calls.log"
    repaired = forest(*argv, "--repair", cwd=tmp_path, FOREST_FAKE_LOG=str(log))
    assert repaired.returncode == 0, repaired.stderr
    assert "dropped 1 damaged lines (line 3)" in repaired.stderr
    calls = sorted(line.split()[0] for line in log.read_text(encoding="utf-8").splitlines())
    assert calls == ["seed:1", "seed:4", "seed:5"]  # the three good rows were kept
    frame = read_results(tmp_path / "r.csv")
    assert str(frame["par"].dtype) == "Int64"
    expected = fake_analyse(job.source_at(1))["par"]
    assert frame.loc[1, "par"] == expected or (expected is None and pd.isna(frame.loc[1, "par"]))


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("a,b\n1,2\n3,4,5\n", ["ragged.csv", "line 3", "2 fields"]),
        ("name,size\nx,9\n", ["ragged.csv", "not a results file", "'source'"]),
        ("source,class,par\nseed:1,uncertain,seven\n", ["ragged.csv", "column 'par'", "line 2"]),
        ("", ["ragged.csv", "empty"]),
    ],
)
def test_a_report_of_a_file_that_is_no_results_file_is_refused(tmp_path, text, needles):
    (tmp_path / "ragged.csv").write_text(text, encoding="utf-8")
    refused(forest("analyse", "--out", "ragged.csv", "--report", "r", cwd=tmp_path), *needles)
    assert not (tmp_path / "r" / "report.md").exists()


# -- defect 7: inconsistent errors
def _fifo(path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs named pipes")
    os.mkfifo(path)


@pytest.mark.parametrize(
    ("make", "words"),
    [(Path.mkdir, "'results.csv' is a directory"), (_fifo, "results.csv: not a regular file")],
    ids=["directory", "fifo"],
)
def test_an_output_that_is_no_regular_file_fails_before_the_batch(tmp_path, make, words):
    """A FIFO found by attack: it ran the whole batch, then refused to write ("not a regular
    file to write this into") and left its journal, which every later run met (fresh: "holds
    the rows of an interrupted run"; --resume: the same refusal at the end)."""
    make(tmp_path / "results.csv")
    log = tmp_path / "calls.log"
    result = forest(
        "analyse", "--count", "5", "--jobs", "1", "-o", "results.csv", "--analysis", FAKE,
        cwd=tmp_path, FOREST_FAKE_LOG=str(log),
    )  # fmt: skip
    refused(result, words)
    assert not log.exists()  # nothing was analysed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"]  # no journal, no lock


@pytest.mark.parametrize("flag", ["--report", "--save-to"])
def test_a_folder_that_is_a_link_to_nothing_fails_before_the_batch(tmp_path, flag):
    """Found by attack: a --report or --save-to that is a symbolic link to nothing passed the
    check before the batch (it exists() not), so the batch ran and then the report failed
    naming its own staging folder ('.out.x4dn_zuv: cannot write: Not a directory'), the save
    saying 'cannot read or write 'out': File exists'."""
    if not hasattr(os, "symlink"):
        pytest.skip("needs symbolic links")
    if flag == "--report":
        pytest.importorskip("matplotlib")
    os.symlink(tmp_path / "gone" / "folder", tmp_path / "out")
    log = tmp_path / "calls.log"
    select = ["--select", "class == class"] if flag == "--save-to" else []
    result = forest(
        "analyse", "--count", "2", "--jobs", "1", "-o", "results.csv", "--analysis", FAKE,
        flag, "out", *select, cwd=tmp_path, FOREST_FAKE_LOG=str(log),
    )  # fmt: skip
    refused(result, f"{flag} 'out' is not a directory (a symbolic link to nothing)")
    assert not log.exists()  # nothing was analysed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no results, no journal


def test_the_csv_decode_error_names_the_file(tmp_path):
    (tmp_path / "bad.csv").write_bytes(b"source,class\nseed:1,un\xffcertain\n")
    refused(
        forest("analyse", "--out", "bad.csv", "--select", "class == 'x'", cwd=tmp_path),
        "bad.csv", "line 2, column 10", "0xff",
    )  # fmt: skip


def _unreadable(tmp_path: Path) -> str:
    path = tmp_path / "locked.forest"
    path.write_text("not read\n", encoding="utf-8")
    path.chmod(0)
    return str(path)


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda tmp: str(tmp / "missing.forest"), "no such forest file"),
        (lambda tmp: str(tmp), "is a folder, not a forest file"),
        pytest.param(
            _unreadable, "cannot read: Permission denied",
            marks=pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file"),
        ),
    ],
    ids=["missing", "a folder", "unreadable"],
)  # fmt: skip
def test_an_instance_path_that_is_no_readable_file_fails_before_the_batch(
    tmp_path, monkeypatch, capsys, make, needle
):
    """docs/analysis.md: a path given on the command line that is not a regular readable file is
    the user's error, one line naming it and exit 2, before any instance is analysed (it used to
    be an error row, exit 0); the good file before it is not analysed either."""
    from solver.cli import main

    repo = Path(__file__).resolve().parents[2]
    bad = make(tmp_path)
    log = tmp_path / "calls.log"
    monkeypatch.setenv("FOREST_FAKE_LOG", str(log))
    good = str(repo / "puzzles/dog/corridor.forest")
    out = tmp_path / "r.csv"
    argv = ["analyse", good, bad, "--jobs", "1", "-o", str(out), "--analysis", FAKE]
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("forest: error: "), err
    assert bad in err[0] and needle in err[0], err
    assert not log.exists() and not out.exists()  # nothing was analysed, nothing written


def _csv_rows(path: Path) -> list[dict[str, str]]:
    """A CSV results file's rows as written (text), every column."""
    import csv

    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize(("game", "name", "exact"), [
    ("dog", "dog/corridor", ("width", "height", "class", "par", "win_probability", "route")),
    ("guardians", "guardians/chain", ("width", "tiles", "class", "best_count", "best_order")),
])  # fmt: skip
def test_a_puzzle_name_is_analysed_as_its_file(tmp_path, monkeypatch, capsys, game, name, exact):
    """Found by a new user's pass: `forest analyse dog/stick -o r.csv` was refused, 'dog/stick:
    no such forest file', where every other command (and POST /v1/analyse) reads a puzzle name,
    and an installed package has no puzzles/ folder to name instead. A name GAME/NAME that is no
    path is the puzzle: its row is the row of the puzzle's file named by its path (the twin), the
    source column keeping the name given; --save-to re-reads it from the results file."""
    from solver import puzzles
    from solver.cli import main

    monkeypatch.chdir(tmp_path)  # no dog/ or guardians/ folder here
    common = ["--game", game, "--jobs", "1", "--no-progress", "-o"]
    assert main(["analyse", name, *common, "by-name.csv"]) == 0
    assert main(["analyse", str(puzzles.path(name)), *common, "by-path.csv"]) == 0
    capsys.readouterr()
    by_name, by_path = (_csv_rows(tmp_path / f) for f in ("by-name.csv", "by-path.csv"))
    assert [row["source"] for row in by_name] == [name]
    # the exact columns (sampled ones draw from a stream seeded by the source's text)
    assert [{c: row[c] for c in exact} for row in by_name] == [
        {c: row[c] for c in exact} for row in by_path
    ]
    assert main(["analyse", "--game", game, "-o", "by-name.csv", "--save-to", "kept"]) == 0
    assert [p.name for p in (tmp_path / "kept").iterdir()] == [puzzles.path(name).name]
    noun = {"dog": "forest", "guardians": "position"}[game]  # it said "saved 1 positions"
    assert f"saved 1 {noun} to kept\n" in capsys.readouterr().out
    # an unknown name is still the path's own one-line error, before anything runs
    assert main(["analyse", f"{game}/no-such-puzzle", *common, "none.csv"]) == 2
    assert "no such" in capsys.readouterr().err and not (tmp_path / "none.csv").exists()


@pytest.mark.parametrize(("game", "size", "expression", "needle"), [
    ("dog", "5x5", "clas == 'guaranteed'", "unknown column 'clas'"),
    ("guardians", "5x4", "win_probability > 0.5", "unknown column 'win_probability'"),
    ("trial", "2x1", "players >", "bad selection 'players >'"),
])  # fmt: skip
def test_a_selection_naming_no_column_of_the_batch_fails_before_it(
    tmp_path, monkeypatch, capsys, game, size, expression, needle
):
    """Found by a new user's pass: `forest analyse --count 2 --select "clas == 1" -o w.csv`
    analysed both forests and wrote w.csv, then refused 'clas'. A column the batch will not
    write is refused with the syntax, before anything runs (the game's declared columns, which
    the batch writes); a valid selection of the game's own columns still runs."""
    from solver.cli import main

    monkeypatch.chdir(tmp_path)
    argv = ["analyse", "--game", game, "--count", "1", "--size", size, "-o", "r.csv",
            "--no-progress", "--select"]  # fmt: skip
    assert main([*argv, expression]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("forest: error: ") and needle in err[0], err
    assert sorted(tmp_path.iterdir()) == []  # nothing analysed, nothing written
    if game == "dog":
        assert main([*argv, "class == 'guaranteed' or par > 0"]) == 0
        assert (tmp_path / "r.csv").exists()


@pytest.mark.slow
def test_an_unreachable_scheduler_on_the_command_line_leaves_nothing(tmp_path):
    pytest.importorskip("distributed")
    result = forest(
        "analyse", "--count", "2", "--scheduler", "tcp://127.0.0.1:9", "-o", "r.csv",
        "--analysis", FAKE, "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    refused(result, "cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert sorted(tmp_path.iterdir()) == []


# -- defect 8: leftovers
def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = next((line for line in status.splitlines() if line.startswith("State:")), "")
    return "Z" not in state.split(":", 1)[1][:3]  # a zombie has ended


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_local_workers_end_when_the_run_is_killed(tmp_path):
    log = tmp_path / "calls.log"
    proc = start(
        "analyse", "--count", "5000", "--size", "5x5", "--jobs", "2", "-o", "r.csv",
        "--analysis", FAKE, "--no-progress", "--chunk-size", "2", cwd=tmp_path,
        FOREST_FAKE_LOG=str(log), FOREST_FAKE_DELAY="0.02",
    )  # fmt: skip
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2:
            assert time.monotonic() < deadline, "the workers never started"
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            if log.exists():
                workers = {int(line.split()[1]) for line in log.read_text().splitlines()[:-1]}
                workers.discard(proc.pid)
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)  # the parent only: it cannot clean up
        proc.communicate(timeout=60)
        deadline = time.monotonic() + 30  # loky's idle workers used to linger for ~5 minutes
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived the run"
    finally:
        for pid in workers:  # this test's own (indirect) children, if the check failed
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# -- defect 9: the report tells the whole truth
def test_one_class_batches_are_called_out_with_what_to_change(tmp_path):
    result = forest(
        "analyse", "--count", "4", "--size", "6x6", "--seed", "1", "--jobs", "1", "-o", "r.csv",
        "--report", "rep", "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "4 guaranteed" in result.stdout
    notice = [line for line in result.stderr.splitlines() if "one class" in line]
    # the CLI line starts lower case after "forest: ", as every one-line message does (it
    # said "forest: Every forest ..."); the report's sentence keeps its capital
    assert notice == [
        "forest: every forest (4 of 4) landed in one class, guaranteed: the forests are too easy "
        "to tell apart: try a shorter turn limit (--turns, e.g. 8 instead of the generator's 20) "
        "or a larger --size."
    ]
    text = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "**Every forest (4 of 4) landed in one class, guaranteed:" in text
    for fact in (
        "| command | `forest analyse --count 4 --size 6x6 --seed 1 --jobs 1 -o r.csv --report rep "
        "--no-progress` |",
        "| game | dog |",
        "| forests | 4 |",
        "| sizes | 6x6 |",
        "| turn limits | 20 |",
        "| seeds | 1 to 4 |",
        "| analysis budgets | exact_memory_mb=32, mcts_games=100,",
    ):
        assert fact in text, fact
    from solver.games.dog.analysis import CLASSES

    for name, definition in CLASSES.items():  # every class defined, found or not
        assert f"| {name} | " in text and definition in text
    assert "solvable" not in text  # the undefined word is gone; "winnable" is defined
    assert "A *winnable* forest was analysed without error" in text


# -- a user's pass over the docs
def test_analyze_is_the_same_command(tmp_path):
    """``forest analyze`` (the American spelling) was an invalid choice."""
    assert fake_batch(tmp_path, 2, "6x6", "analyze").startswith("analysed 2 forests -> r.csv")
    refused(forest("analyze", "--count", "0", cwd=tmp_path), "--count")


def test_a_reader_that_leaves_early_is_no_error(tmp_path):
    """``forest analyse ... | head -1``: the broken pipe was reported as "forest: error: cannot
    read or write: Broken pipe", exit 2, where every other command ends quietly."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "analyse", "--count", "40", "--size", "6x6",
         "--jobs", "1", "--analysis", FAKE, "--no-progress"],
        cwd=tmp_path, env=forest_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before anything is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "error" not in err, err


def test_a_results_file_of_another_game_is_refused_naming_it(tmp_path):
    """Read without --game (the dog by default), a guardians results file was reported as
    forests, and --save-to rolled its seeds again as dog forests."""
    made = forest("analyse", "--game", "guardians", "--count", "2", "--size", "5x4", "--jobs",
                  "1", "-o", "g.csv", "--no-progress", cwd=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    refused(forest("analyse", "-o", "g.csv", "--save-to", "saved", cwd=tmp_path),
            "g.csv holds the results of guardians, not of dog", "add --game guardians")  # fmt: skip
    assert not (tmp_path / "saved").exists()
    saved = forest("analyse", "--game", "guardians", "-o", "g.csv", "--save-to", "saved",
                   cwd=tmp_path)  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    assert sorted(p.suffix for p in (tmp_path / "saved").iterdir()) == [".grove", ".grove"]


def _stopped_at_the_first_chunk(tmp_path: Path, jobs: str, signum: int) -> tuple[int, str, str]:
    """A run of 6 forests in chunks of 2 sent ``signum`` once its first chunk is journaled:
    its status, stdout and stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "analyse", "--count", "6", "--size", "5x5",
         "--jobs", jobs, "--chunk-size", "2", "-o", "r.csv", "--analysis", FAKE,
         "--no-progress"],
        cwd=tmp_path, env=forest_env(**{PAUSE_VARIABLE: "chunk"}), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even if ours ignores it
    )  # fmt: skip
    try:
        wait_for_pause(proc, "chunk")
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, err


def _resumed(tmp_path: Path, jobs: str) -> None:
    """The run of :func:`_stopped_at_the_first_chunk` resumed finishes the batch."""
    resumed = forest(
        "analyse", "--count", "6", "--size", "5x5", "--jobs", jobs, "--chunk-size", "2",
        "-o", "r.csv", "--analysis", FAKE, "--no-progress", "--resume", cwd=tmp_path,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert list(read_results(tmp_path / "r.csv")["source"]) == [f"seed:{s}" for s in range(6)]


def test_ctrl_c_says_in_one_line_what_is_kept_and_how_to_resume(tmp_path):
    """Ctrl-C (SIGINT) in a run with rows journaled: one line naming how many are kept and where,
    and to --resume (it printed that line and then "forest: interrupted", two lines); exit 130,
    128 + SIGINT, as shells report it. The resumed run then finishes the batch."""
    status, out, err = _stopped_at_the_first_chunk(tmp_path, "1", signal.SIGINT)
    assert status == 130, (status, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    journal = journal_path(Path("r.csv"))  # as -o named it
    assert err == (
        f"forest: interrupted: 2 of 6 forests are journaled in {journal}; run again with "
        "--resume to continue\n"
    )
    _resumed(tmp_path, "1")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_stops_as_ctrl_c_does(tmp_path, jobs):
    """SIGTERM (``timeout``, a CI runner, ``kill``) stops a run as Ctrl-C does: the worker pool
    shut down, the journal and the one line saying what is kept and how to resume, the lock
    released; exit 143 (128 + SIGTERM). Found by helper 91: it died at once, saying nothing
    with one job, and with two printed joblib's four-line warnings about leaked semaphores and
    /dev/shm folders; the lock file stayed behind."""
    if jobs != "1":
        pytest.importorskip("joblib")
    status, out, err = _stopped_at_the_first_chunk(tmp_path, jobs, signal.SIGTERM)
    assert status == 128 + signal.SIGTERM, (status, err)
    journal = journal_path(Path("r.csv"))
    assert out == "" and err == (
        f"forest: interrupted: 2 of 6 forests are journaled in {journal}; run again with "
        "--resume to continue\n"
    ), err
    assert sorted(p.name for p in tmp_path.iterdir()) == [journal.name]
    _resumed(tmp_path, jobs)


def test_an_error_already_worded_goes_through_as_it_is(monkeypatch) -> None:
    """An OutputError (a full stdout) is a SolverError and an OSError: analyse's file-system
    rewording ('cannot read or write: ...') must not wrap its words again (helper 96's read)."""
    import solver.analysis.cli_analyse as cli_analyse
    from solver.errors import OutputError

    said = OutputError("cannot write the output: No space left on device", reason="full")

    def full(_args: object) -> int:
        raise said

    monkeypatch.setattr(cli_analyse, "_run_analyse", full)
    with pytest.raises(OutputError) as caught:
        cli_analyse.run_analyse(None)  # type: ignore[arg-type]
    assert caught.value is said


@pytest.mark.parametrize("flag", ["report", "save_to"])
def test_a_folder_that_cannot_be_written_fails_before_the_batch(tmp_path, monkeypatch, flag):
    """Found by attack: a --report or --save-to folder the user may not write (mode 555) was
    refused only once the batch had run, when its files were placed ('cannot write:
    Permission denied' after minutes of analysis). Said before it now. Faked, as root writes
    anywhere: the folder says it is not writable."""
    import argparse

    from solver.analysis.cli_analyse import _check_report
    from solver.errors import OptionError

    if flag == "report":
        pytest.importorskip("matplotlib")
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: Path(p) != locked and real_access(p, mode, **kw)
    )
    said = {"report": None, "save_to": None, "overwrite": True, flag: str(locked)}
    with pytest.raises(OptionError) as caught:
        _check_report(argparse.Namespace(**said))
    name = "--" + flag.replace("_", "-")
    assert str(caught.value) == f"{name} {str(locked)!r}: cannot write: Permission denied"
    _check_report(argparse.Namespace(**{**said, flag: str(tmp_path)}))  # a writable one passes
