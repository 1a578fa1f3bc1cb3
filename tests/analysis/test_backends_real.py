"""The real analysis (not the fake) gives identical rows on every backend.

``seconds`` is wall time and differs between runs; everything else must be equal.
"""

from __future__ import annotations

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from solver.analysis.batch import Job, read_results, run_batch, without_timing  # noqa: E402
from solver.cli import main  # noqa: E402
from solver.games.dog.analysis.classify import analyse_source  # noqa: E402


def run_cli(*argv: str) -> int:
    return main(["analyse", *argv])


def _backends(job: Job, tmp_path) -> list[pd.DataFrame]:
    frames = [
        read_results(run_batch(job, analyse_source, out=tmp_path / "one.parquet", jobs=1,
                               progress=False)),
        read_results(run_batch(job, analyse_source, out=tmp_path / "two.parquet", jobs=2,
                               chunk_size=5, progress=False)),
    ]  # fmt: skip
    if pytest.importorskip("distributed"):
        frames.append(
            read_results(run_batch(job, analyse_source, out=tmp_path / "dask.parquet",
                                   backend="dask", dask_local=2, chunk_size=7, progress=False))
        )  # fmt: skip
    return frames


def _check(job: Job, tmp_path) -> pd.DataFrame:
    frames = _backends(job, tmp_path)
    for other in frames[1:]:
        pd.testing.assert_frame_equal(without_timing(frames[0]), without_timing(other))
    return frames[0]


def test_real_analysis_rows_agree_across_backends(tmp_path):
    rows = _check(Job.generated(30, size=(6, 6), seed=0), tmp_path)
    assert len(rows) == 30
    assert set(rows["class"]) <= {"unreachable", "hopeless", "guaranteed", "uncertain"}
    assert rows["error"].isna().all() or (rows["error"] == "").all()


@pytest.mark.slow
def test_real_analysis_of_200_forests_agrees_across_backends(tmp_path):
    rows = _check(Job.generated(200, size=(9, 9), seed=0), tmp_path)
    assert len(rows) == 200


def test_turns_shorten_the_rolled_forests_and_change_the_batch(tmp_path):
    from solver.analysis.batch import journal_header

    short = Job.generated(6, size=(6, 6), seed=3, turns=4)
    assert {s.load().turns for s in short.sources()} == {4}
    assert journal_header(short, analyse_source) != journal_header(
        Job.generated(6, size=(6, 6), seed=3), analyse_source
    )
    rows = read_results(run_batch(short, analyse_source, out=tmp_path / "r.csv", progress=False))
    assert (rows["turns"] == 4).all()
    with pytest.raises(Exception, match="--turns must be from 1 to 255"):
        Job.generated(2, turns=0)


@pytest.mark.slow
def test_larger_batches_agree_across_worker_counts(tmp_path):
    for game, size in (("guardians", "9x8"), ("trial", "4x2")):
        frames = []
        for jobs in ("1", "2"):
            out = tmp_path / f"{game}-{jobs}.csv"
            assert run_cli("--game", game, "--count", "12", "--size", size, "--seed", "100",
                           "--jobs", jobs, "--out", str(out), "--no-progress") == 0  # fmt: skip
            frames.append(read_results(out, game).drop(columns=["seconds"]))
        pd.testing.assert_frame_equal(frames[0], frames[1])
        assert frames[0]["error"].isna().all()


@pytest.mark.slow
def test_the_dask_backend_gives_the_same_rows(tmp_path):
    pytest.importorskip("distributed")
    for game, size in (("guardians", "7x6"), ("trial", "3x1")):
        frames = []
        for backend in (["--jobs", "1"], ["--dask-local", "1"]):
            out = tmp_path / f"{game}-{backend[0]}.csv"
            assert run_cli("--game", game, "--count", "3", "--size", size, *backend,
                           "--out", str(out), "--no-progress") == 0  # fmt: skip
            frames.append(read_results(out, game).drop(columns=["seconds"]))
        pd.testing.assert_frame_equal(frames[0], frames[1])
