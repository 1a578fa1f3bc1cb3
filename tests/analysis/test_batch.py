"""Batch analysis: backends agree, resume after a kill, bad forests, files, options, the command.

The analysis here is the cheap deterministic fake of :mod:`solver.analysis.stand_ins`, so these
tests exercise the machinery only. Rows are compared without ``seconds`` (wall time).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from solver.analysis import stand_ins  # noqa: E402
from solver.analysis.batch import (  # noqa: E402
    Job,
    Source,
    analyse_one,
    journal_header,
    journal_path,
    read_results,
    run_batch,
    without_timing,
)
from solver.analysis.cli_analyse import analysis_function  # noqa: E402
from solver.analysis.journal import lock_path  # noqa: E402
from solver.analysis.results import column_types  # noqa: E402
from solver.analysis.sources import analysis_hooks  # noqa: E402
from solver.analysis.stand_ins import (  # noqa: E402
    failing_analyse,
    fake_analyse,
    not_a_dict_analyse,
    run_analyse,
)
from solver.cmdkit import MAX_WORKER_PROCESSES  # noqa: E402
from solver.errors import FormatError, InterruptedRun, OptionError, SolverError  # noqa: E402
from solver.games.dog.format import format_forest, load_forest  # noqa: E402
from solver.games.dog.generator import roll_forest  # noqa: E402

FAKE = "solver.analysis.stand_ins:fake_analyse"
BASE_COLUMNS = list(column_types(analysis_hooks("dog").columns))
JOB = Job.generated(200, size=(9, 9), seed=0)


def same_rows(a, b) -> None:
    pd.testing.assert_frame_equal(without_timing(a), without_timing(b))


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> pd.DataFrame:
    """The 200 forests analysed in this process, one chunk after the other."""
    out = tmp_path_factory.mktemp("reference") / "results.parquet"
    return read_results(run_batch(JOB, fake_analyse, out=out, jobs=1, progress=False))


def write_forests(directory: Path, seeds: range) -> list[Path]:
    paths = []
    for seed in seeds:
        path = directory / f"f{seed}.forest"
        path.write_text(format_forest(roll_forest(6, 5, seed=seed)), encoding="utf-8")
        paths.append(path)
    return paths


# -- backends ------------------------------------------------------------------------------------
def test_reference_rows_look_right(reference):
    assert list(reference.columns[: len(BASE_COLUMNS)]) == list(BASE_COLUMNS)
    assert list(reference["source"]) == [f"seed:{s}" for s in range(200)]
    assert (reference["width"] == 9).all() and (reference["height"] == 9).all()
    assert reference["error"].isna().all()
    assert (reference["seconds"] >= 0).all()
    assert set(reference["class"]) <= set(stand_ins.CLASSES)
    never = reference["class"] == "never"
    assert never.any() and reference.loc[never, "par"].isna().all()
    first = reference.iloc[0]
    assert json.loads(first["route"])[0] == [8, 4]  # the route starts at the dog's start


def test_two_processes_give_the_same_rows(reference, tmp_path):
    out = run_batch(
        JOB, fake_analyse, out=tmp_path / "r.parquet", jobs=2, chunk_size=7, progress=False
    )
    same_rows(read_results(out), reference)
    assert not journal_path(out).exists()


def test_dask_local_cluster_gives_the_same_rows(reference, tmp_path):
    pytest.importorskip("distributed")
    out = run_batch(
        JOB,
        fake_analyse,
        out=tmp_path / "r.parquet",
        backend="dask",
        dask_local=2,
        chunk_size=9,
        progress=False,
    )
    same_rows(read_results(out), reference)


def test_dask_scheduler_address_gives_the_same_rows(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        out = run_batch(
            JOB,
            fake_analyse,
            out=tmp_path / "r.csv",
            backend="dask",
            scheduler=cluster.scheduler_address,
            chunk_size=25,
            progress=False,
        )
    same_rows(read_results(out), reference)


def test_an_unreachable_scheduler_leaves_no_journal(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from solver.analysis import backends

    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", "1s")  # nothing listens on port 9
    out = tmp_path / "r.csv"
    with pytest.raises(SolverError, match="cannot reach the Dask scheduler"):
        run_batch(Job.generated(2), fake_analyse, out=out, backend="dask",
                  scheduler="tcp://127.0.0.1:9", progress=False)  # fmt: skip
    assert sorted(tmp_path.iterdir()) == []  # no journal, no lock, no output


@pytest.fixture
def not_dask() -> Iterator[str]:
    """The address of a server that is not a Dask scheduler: it answers every connection with
    an HTTP error, as a web server or a proxy on the scheduler's port would."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                with contextlib.suppress(OSError):
                    conn.recv(65536)
                    conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    server.close()


@pytest.mark.timeout(30)  # a hang guard, not a speed test: the half-made client's wait was 40 s
def test_a_server_that_is_not_a_dask_scheduler_is_a_clear_error(tmp_path, not_dask):
    """It was a MemoryError from inside ``distributed.Client`` (Dask read the HTTP reply as a
    frame length), then a 40 s wait at exit for the half-made client."""
    pytest.importorskip("distributed")
    with pytest.raises(SolverError, match=r"cannot reach the Dask scheduler at .*Dask's protocol"):
        run_batch(Job.generated(2), fake_analyse, out=tmp_path / "r.csv", backend="dask",
                  scheduler=not_dask, progress=False)  # fmt: skip
    assert sorted(tmp_path.iterdir()) == []


def test_csv_and_parquet_hold_the_same_rows(reference, tmp_path):
    out = run_batch(JOB, fake_analyse, out=tmp_path / "r.csv", chunk_size=64, progress=False)
    same_rows(read_results(out), reference)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",")[: len(BASE_COLUMNS)] == list(BASE_COLUMNS)
    never = next(line for line in lines if ",never," in line)
    assert ",never,," in never  # par is empty when there is none
    assert any(",true," in line for line in lines) and any(",false," in line for line in lines)


# -- resume --------------------------------------------------------------------------------------
_RUNNER = """
import sys
from solver.analysis.batch import Job, run_batch
from solver.analysis.stand_ins import fake_analyse

if __name__ == "__main__":
    run_batch(Job.generated(200, size=(9, 9), seed=0), fake_analyse, out=sys.argv[1],
              jobs=2, chunk_size=5, progress=False)
"""


def journaled_rows(path: Path) -> int:
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def test_resume_after_a_kill_gives_the_same_file(reference, tmp_path, monkeypatch):
    out = tmp_path / "results.parquet"
    script = tmp_path / "runner.py"
    script.write_text(textwrap.dedent(_RUNNER), encoding="utf-8")
    env = dict(os.environ, FOREST_FAKE_DELAY="0.04")
    env.pop("FOREST_FAKE_LOG", None)
    proc = subprocess.Popen(
        [sys.executable, str(script), str(out)],
        env=env,
        start_new_session=True,  # its own process group: the kill takes the workers too
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    journal = journal_path(out)
    try:
        deadline = time.monotonic() + 90
        while journaled_rows(journal) < 40:
            if proc.poll() is not None:
                pytest.fail(f"the run ended early: {proc.stderr.read().decode()}")
            if time.monotonic() > deadline:
                pytest.fail("the run journaled nothing in 90 s")
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()
    assert not out.exists()
    with journal.open("ab") as handle:  # what a kill in the middle of a write leaves
        handle.write(b'{"i": 199, "row": {"source": "seed:1')
    done = journaled_rows(journal)
    assert 40 <= done < 200

    log = tmp_path / "calls.log"
    monkeypatch.setenv("FOREST_FAKE_LOG", str(log))
    notes: list[str] = []
    run_batch(JOB, fake_analyse, out=out, jobs=1, resume=True, progress=False, notify=notes.append)
    calls = [line.split()[0] for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(calls) == 200 - done  # the finished forests are not analysed again
    assert len(set(calls)) == len(calls)
    assert notes and f"{done} of 200" in notes[0]
    same_rows(read_results(out), reference)
    assert not journal.exists()


def test_resume_refuses_another_batch(tmp_path):
    out = tmp_path / "r.csv"
    journal = journal_path(out)
    journal.write_text(
        json.dumps({"journal": "forest analyse", "version": 2, "fingerprint": "0" * 64}) + "\n",
        encoding="utf-8",
    )
    with pytest.raises(OptionError, match="belongs to another batch"):
        run_batch(Job.generated(3), fake_analyse, out=out, resume=True, progress=False)


def test_resume_without_a_journal_starts_afresh(tmp_path):
    notes: list[str] = []
    out = run_batch(
        Job.generated(3), fake_analyse, out=tmp_path / "r.csv", resume=True, notify=notes.append
    )
    assert len(read_results(out)) == 3
    assert "starting afresh" in notes[0]


def test_resume_never_replaces_a_finished_output(tmp_path):
    # A user's pass: `--resume` beside a finished results file (no journal) started afresh and
    # replaced 60 rows with the 3 of another batch, without --overwrite.
    out = run_batch(Job.generated(4), fake_analyse, out=tmp_path / "r.csv", progress=False)
    before = out.read_bytes()
    with pytest.raises(OptionError, match=r"no run is left to resume .* --overwrite"):
        run_batch(Job.generated(3), fake_analyse, out=out, resume=True, overwrite=False,
                  progress=False)  # fmt: skip
    assert out.read_bytes() == before
    again = run_batch(Job.generated(3), fake_analyse, out=out, resume=True, progress=False)
    assert len(read_results(again)) == 3


def test_a_damaged_journal_is_refused(tmp_path):
    out, job = tmp_path / "r.csv", Job.generated(3)
    header = journal_header(job, fake_analyse)
    journal_path(out).write_text(json.dumps(header) + "\nnot json\n{}\n", encoding="utf-8")
    with pytest.raises(OptionError, match=r"damaged at line 2 .*--resume --repair"):
        run_batch(job, fake_analyse, out=out, resume=True, progress=False)


def test_a_second_run_on_the_same_output_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "r.csv"
    journal = journal_path(out)
    journal.write_text("the other run's rows\n", encoding="utf-8")
    with lock_path(out).open("a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(OptionError, match="another run is writing"):
            run_batch(Job.generated(3), fake_analyse, out=out, progress=False)
    assert journal.read_text(encoding="utf-8") == "the other run's rows\n"  # left alone


def test_a_run_without_resume_starts_afresh(tmp_path):
    out = tmp_path / "r.csv"
    journal_path(out).write_text("not a journal\n", encoding="utf-8")
    run_batch(Job.generated(4), fake_analyse, out=out, progress=False)
    assert len(read_results(out)) == 4


def test_a_run_without_resume_or_overwrite_leaves_an_interrupted_journal_alone(tmp_path):
    """Found by attack: ``forest analyse`` run again without --resume (the interrupted run said
    to add it) replaced the interrupted run's journal at its first chunk, silently: the rows
    of hours lost. Without --overwrite it is now refused, the journal untouched."""
    out = tmp_path / "r.csv"
    journal = journal_path(out)
    journal.write_text("the interrupted run's rows\n", encoding="utf-8")
    with pytest.raises(OptionError, match=r"interrupted run.*--resume.*--overwrite"):
        run_batch(Job.generated(4), fake_analyse, out=out, progress=False, overwrite=False)
    assert journal.read_text(encoding="utf-8") == "the interrupted run's rows\n"
    assert not out.exists()
    journal.write_text("", encoding="utf-8")  # an empty journal holds nothing to lose
    run_batch(Job.generated(4), fake_analyse, out=out, progress=False, overwrite=False)
    assert len(read_results(out)) == 4


# -- bad input -----------------------------------------------------------------------------------
def test_a_malformed_forest_is_reported_in_its_row(tmp_path):
    paths = write_forests(tmp_path, range(4))
    bad = tmp_path / "bad.forest"
    bad.write_text("grid:\n@ x H\n. T .\n", encoding="utf-8")
    files = [str(paths[0]), str(bad), str(paths[1]), str(tmp_path / "missing.forest")]
    files += [str(p) for p in paths[2:]]
    out = run_batch(Job.files(files), fake_analyse, out=tmp_path / "r.csv", jobs=2, progress=False)
    frame = read_results(out)
    assert list(frame["source"]) == files
    by_source = frame.set_index("source")
    row = by_source.loc[str(bad)]
    assert row["class"] == "error"
    with pytest.raises(FormatError) as expected:
        load_forest(bad)
    assert row["error"] == f"FormatError: {expected.value}"
    assert by_source.loc[str(tmp_path / "missing.forest"), "error"].startswith("OptionError")
    good = frame[frame["error"].isna()]
    assert len(good) == 4 and (good["width"] == 6).all() and (good["height"] == 5).all()
    assert pd.isna(row["width"])  # unknown for a file that could not be read


def test_exceptions_in_the_analysis_become_error_rows(tmp_path):
    frame = read_results(
        run_batch(Job.generated(15), failing_analyse, out=tmp_path / "r.parquet", progress=False)
    )
    failed = frame[frame["class"] == "error"]
    assert list(failed["source"]) == ["seed:0", "seed:7", "seed:14"]
    assert (
        failed["error"] == failed["source"].map(lambda s: f"RuntimeError: fake failure for {s}")
    ).all()
    assert (failed["width"] == 9).all()  # known up front for rolled forests
    assert frame.loc[frame["class"] != "error", "error"].isna().all()


def test_an_analysis_that_returns_no_dict_gives_error_rows(tmp_path):
    frame = read_results(
        run_batch(Job.generated(2), not_a_dict_analyse, out=tmp_path / "r.csv", progress=False)
    )
    assert list(frame["class"]) == ["error", "error"]
    assert frame["error"].str.contains("returned a list, not a dict").all()


def test_analyse_one_stores_containers_as_json_and_refuses_objects():
    np = pytest.importorskip("numpy")

    def rich(source):
        route = [[1, np.int32(2)]]
        return {"par": np.int64(7), "win_probability": np.float64(0.25), "route": route,
                "extra": {"a": 1}, "nan": float("nan")}  # fmt: skip

    row = analyse_one(rich, Source.generated(1, 4, 4))
    assert row["par"] == 7 and type(row["par"]) is int
    assert row["route"] == "[[1,2]]" and row["extra"] == '{"a":1}' and row["nan"] is None

    row = analyse_one(lambda source: {"thing": object()}, Source.generated(1, 4, 4))
    assert row["class"] == "error" and "column 'thing'" in row["error"]


# -- options -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jobs": 0}, "--jobs must be at least 1"),
        # found by attack: --jobs 100000 started a process per chunk (serve's --workers is capped)
        ({"jobs": MAX_WORKER_PROCESSES + 1}, f"--jobs must be at most {MAX_WORKER_PROCESSES}"),
        ({"jobs": 10**9}, "--jobs must be at most"),
        ({"backend": "dask", "dask_local": MAX_WORKER_PROCESSES + 1}, "--dask-local must be at"),
        ({"backend": "dask", "scheduler": "tcp://x:1", "dask_local": 2}, "not both"),
        ({"scheduler": "tcp://x:1"}, "need the Dask backend"),
        ({"backend": "dask", "scheduler": "localhost"}, "scheduler address"),
        ({"backend": "dask", "dask_local": 0}, "--dask-local must be at least 1"),
        ({"backend": "spark"}, "unknown backend"),
        ({"chunk_size": 0}, "--chunk-size must be at least 1"),
        ({"out": "results.xlsx"}, "cannot tell the format"),
    ],
)
def test_impossible_options_are_refused(tmp_path, options, message):
    options = {"out": tmp_path / "r.csv", **options}
    with pytest.raises(OptionError, match=message):
        run_batch(Job.generated(2), fake_analyse, progress=False, **options)
    assert not journal_path(options["out"]).exists()


def test_missing_dask_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import now fails
    with pytest.raises(OptionError, match=r"pip install 'forest-solver\[dask\]'"):
        run_batch(
            Job.generated(2), fake_analyse, out=tmp_path / "r.csv", backend="dask", dask_local=1
        )


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from solver.analysis import backends

    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", "1s")  # nothing listens on port 9
    with pytest.raises(
        SolverError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"
    ):
        run_batch(
            Job.generated(2), fake_analyse, out=tmp_path / "r.csv", backend="dask",
            scheduler="tcp://127.0.0.1:9", progress=False,
        )  # fmt: skip


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Job.generated(0), "--count must be at least 1"),
        (lambda: Job.generated(3, size=(1, 9)), "--size width must be from 2 to 16"),
        (lambda: Job.generated(3, seed=-1), "seed range"),
        (lambda: Job.generated(2, seed=2**64 - 1), "seed range"),
        (lambda: Job.files([]), "no forest files"),
    ],
)
def test_bad_jobs_are_refused(make, message):
    with pytest.raises(OptionError, match=message):
        make()


def test_sources_round_trip_through_rows(tmp_path):
    job = Job.files([tmp_path / "a.forest"])
    source = job.source_at(0)
    assert source.kind == "file" and source.path == str(tmp_path / "a.forest")
    assert Source.from_row({"source": source.source}) == source
    rolled = Source.generated(12, 7, 5)
    assert Source.from_row({"source": "seed:12", "width": 7.0, "height": 5}) == rolled
    assert rolled.load() == roll_forest(7, 5, seed=12)


# -- the command ---------------------------------------------------------------------------------
def test_the_command_analyses_reports_and_curates(tmp_path, capsys):
    out, report, chosen = tmp_path / "r.parquet", tmp_path / "report", tmp_path / "chosen"
    code = run_analyse(
        "--count", "12", "--size", "6x6", "--seed", "3", "--jobs", "1", "--out", str(out),
        "--analysis", FAKE, "--no-progress", "--report", str(report),
        "--select", "class == 'uncertain' and par > 0", "--save-to", str(chosen),
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    frame = read_results(out)
    assert list(frame["source"]) == [f"seed:{s}" for s in range(3, 15)]
    assert f"analysed 12 forests -> {out}" in printed
    assert (report / "report.md").exists()
    expected = frame[(frame["class"] == "uncertain") & (frame["par"] > 0)]
    assert sorted(p.name for p in chosen.iterdir()) == sorted(
        f"rolled-6x6-{s.replace(':', '')}.forest" for s in expected["source"]
    )

    # Without forests to analyse, --out is read: select and print.
    assert run_analyse("--out", str(out), "--select", "class == 'never'") == 0
    printed = capsys.readouterr().out
    assert f"{(frame['class'] == 'never').sum()} of 12 forests selected" in printed


def test_the_command_without_out_prints_a_table(tmp_path, capsys):
    paths = write_forests(tmp_path, range(2))
    assert run_analyse(*map(str, paths), "--analysis", FAKE, "--jobs", "1", "--no-progress") == 0
    printed = capsys.readouterr().out
    assert "analysed 2 forests:" in printed and str(paths[1]) in printed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--count", "2", "a.forest"], "not both"),
        ([], "nothing to analyse"),
        (["--out", "r.csv"], "say what to do"),
        (["--count", "2", "--resume"], "--resume needs the --output"),
        (["--count", "2", "--dask-local", "2", "--jobs", "0"], "--jobs must be at least 1"),
        (["--count", "2", "--select", "len(source) > 2"], "function calls are not allowed"),
        (["--count", "2", "--out", "r.txt"], "cannot tell the format"),
        (["--count", "2", "--analysis", "solver.nothing_here:f"], "cannot import"),
    ],
)
def test_the_command_refuses_bad_options(tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    argv = [*argv, "--no-progress"] + ([] if "--analysis" in argv else ["--analysis", FAKE])
    with pytest.raises(OptionError, match=message):
        run_analyse(*argv)


def test_the_dog_analysis_is_the_one_its_hooks_name():
    import solver.games.dog.analysis.classify as classify

    assert analysis_function(analysis_hooks("dog").analyse) is classify.analyse_source


def test_the_forest_command_has_analyse_when_wired(tmp_path, capsys):
    from solver.cli import build_parser

    try:
        build_parser().parse_args(["analyse", "--count", "1"])
    except SystemExit:
        pytest.skip("`forest analyse` is not wired into solver.cli yet")
    from solver.cli import main

    code = main(["analyse", "--count", "2", "--jobs", "0", "--analysis", FAKE, "--out", "x.csv"])
    assert code == 2
    assert capsys.readouterr().err.strip() == "forest: error: --jobs must be at least 1, not 0"


def test_the_progress_bar_is_redrawn_while_a_long_chunk_runs(monkeypatch):
    """The bar moved only when a chunk finished: one 16x16 guardians position took 72 s with the
    bar standing still. Its clock is now redrawn every second by a thread of its own."""
    from solver.analysis import batch

    class Bar:
        def __init__(self, **kwargs):
            self.refreshed = self.updated = 0
            self.closed = False

        def refresh(self):
            self.refreshed += 1

        def update(self, count):
            self.updated += count

        def close(self):
            self.closed = True

    class Terminal:
        def isatty(self):
            return True

    fake = type(sys)("tqdm")
    fake.tqdm = Bar  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.setattr(batch, "TICK_SECONDS", 0.01)
    shown = batch._progress_bar(5, 0, True)
    deadline = time.monotonic() + 10
    while shown.bar.refreshed < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    shown.update(2)
    shown.close()
    assert shown.bar.refreshed >= 3 and shown.bar.updated == 2 and shown.bar.closed
    assert not shown._thread.is_alive()
    assert batch._progress_bar(5, 0, False) is None


def test_an_output_finished_by_another_run_before_the_lock_is_refused_and_leaves_no_journal(
    tmp_path, monkeypatch
):
    """Found by attack: three ``forest analyse -o a.csv`` at once: the first wrote a.csv, the
    third took the lock after it, analysed its whole batch, was refused at its final write
    ('a.csv: already exists') and left its journal, which the next plain run then called 'the
    rows of an interrupted run'. The output is looked at again once the lock is held."""
    from solver.analysis import batch

    out = tmp_path / "r.csv"
    acquire = batch.OutputLock.acquire

    def finished_meanwhile(lock):
        out.write_text("the other run's table\n", encoding="utf-8")  # it ended as we waited
        acquire(lock)

    monkeypatch.setattr(batch.OutputLock, "acquire", finished_meanwhile)
    with pytest.raises(OptionError, match="already exists"):
        run_batch(Job.generated(3), fake_analyse, out=out, progress=False, overwrite=False)
    assert not journal_path(out).exists()
    assert out.read_text(encoding="utf-8") == "the other run's table\n"


def test_a_bad_cell_is_quoted_cut_in_the_error(tmp_path):
    # the error quoted the whole cell: 5,000 digits made a 5,000-character line
    path = tmp_path / "r.csv"
    path.write_text("source,class,width\nseed:1,never," + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as refused:
        read_results(path)
    message = str(refused.value)
    assert "expected a whole number in column 'width'" in message
    assert message.endswith(f"found '{'9' * 59}...")


def test_an_interrupted_run_says_what_is_journaled_and_only_what_is(tmp_path):
    # interrupted before its first chunk, a run said "0 of 3 forests are journaled in" a
    # journal it had never written, and to --resume (which then found nothing to resume)
    calls = []

    def interrupted_at(call: int):
        def analyse(source, *args, **kwargs):
            calls.append(source)
            if len(calls) == call:
                raise KeyboardInterrupt
            return stand_ins.fake_analyse(source, *args, **kwargs)

        return analyse

    cases = [(1, "interrupted before any forest was analysed: nothing to resume, run again"),
             (2, "interrupted: 1 of 3 forests are journaled in ")]  # fmt: skip
    for call, said in cases:
        calls.clear()
        out = tmp_path / f"{call}.csv"
        with pytest.raises(KeyboardInterrupt) as caught:  # an InterruptedRun, saying it
            run_batch(Job.generated(3, size=(5, 5), seed=1), interrupted_at(call), out=out,
                      jobs=1, chunk_size=1, progress=False)  # fmt: skip
        assert isinstance(caught.value, InterruptedRun) and str(caught.value).startswith(said)
        assert journal_path(out).exists() == (call == 2)
