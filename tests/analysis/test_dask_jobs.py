"""``forest analyse --jobs J`` with Dask (``--dask-local W``, ``--scheduler``): J instances at
once in each Dask task, on threads; the rows are those of the same batch run without Dask.

Issue 4 writes ``[--jobs J] [--scheduler tcp://HOST:PORT | --dask-local WORKERS]`` as independent
options; the command refused the pair (exit 2, "--jobs is for local runs").
"""

from __future__ import annotations

import threading

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from solver.analysis.batch import Job, read_results, run_batch, without_timing  # noqa: E402
from solver.analysis.sources import Source  # noqa: E402
from solver.analysis.stand_ins import fake_analyse  # noqa: E402
from solver.analysis.worker import run_chunk  # noqa: E402
from solver.cli import main  # noqa: E402
from solver.errors import OptionError  # noqa: E402


def test_jobs_with_dask_local_gives_the_rows_of_the_batch_without_dask(tmp_path, capsys):
    pytest.importorskip("distributed")
    outs = {name: tmp_path / f"{name}.csv" for name in ("local", "dask")}
    batch = ["analyse", "--count", "6", "--size", "6x6", "--seed", "5", "--no-progress"]
    assert main([*batch, "--jobs", "1", "--out", str(outs["local"])]) == 0
    code = main([*batch, "--dask-local", "1", "--jobs", "3", "--out", str(outs["dask"])])
    assert code == 0, capsys.readouterr().err
    local, dask = (read_results(outs[name]) for name in ("local", "dask"))
    assert len(local) == 6 and local["error"].isna().all()
    pd.testing.assert_frame_equal(without_timing(local), without_timing(dask))


def test_a_chunk_on_threads_analyses_its_instances_at_once():
    """Two instances meet at a barrier that only two threads running together pass: one at a
    time, the first would wait out the barrier's timeout and its row would be an error."""
    barrier = threading.Barrier(2, timeout=30)

    def meet(source: Source) -> dict[str, object]:
        barrier.wait()
        return fake_analyse(source)

    chunk = [(i, source) for i, source in enumerate(Job.generated(2, size=(6, 6)).sources())]
    rows = run_chunk(meet, chunk, threads=2)
    assert [index for index, _ in rows] == [0, 1]  # the chunk's order
    assert all(row.get("error") is None for _, row in rows), rows
    expected = run_chunk(fake_analyse, chunk)
    strip = [(i, {k: v for k, v in r.items() if k != "seconds"}) for i, r in rows]
    assert strip == [(i, {k: v for k, v in r.items() if k != "seconds"}) for i, r in expected]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "dask", "dask_local": 1, "threads": 0}, "--jobs must be at least 1, not 0"),
        ({"backend": "dask", "dask_local": 1, "threads": 10**6}, "--jobs must be at most"),
        ({"threads": 2}, "is for Dask runs"),
    ],
)
def test_impossible_thread_counts_are_refused(tmp_path, options, message):
    with pytest.raises(OptionError, match=message):
        run_batch(Job.generated(2), fake_analyse, out=tmp_path / "r.csv", progress=False,
                  **options)  # fmt: skip
