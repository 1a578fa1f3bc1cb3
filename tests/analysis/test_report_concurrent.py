"""Two ``--report DIR --overwrite`` runs at once leave one run's report whole in ``DIR``.

Before, an existing ``DIR`` received the report's files one ``os.replace`` at a time, so a run
that paused between two of them let another run's files land in between: ``report.md`` of one
run beside the plots of the other. The interleaving here is forced, not timed: run A stops after
its first placing step until run B has finished or is waiting for its turn.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pandas as pd

from solver import folder_swap
from solver.analysis import report, report_files
from solver.folder_swap import swap_in

NAMES = ("a.png", "b.png", "report.md")


def _fake_report(frame: pd.DataFrame, directory: Path, **_: object) -> Path:
    """Every file stamped with the run's id (the frame's one cell)."""
    run = str(frame.iloc[0, 0])
    for name in NAMES:
        (Path(directory) / name).write_text(f"{run} {name}\n", encoding="utf-8")
    return Path(directory) / "report.md"


class _Paused:
    """``os`` as the report module sees it, whose placing calls (and the folder exchange) stop
    run A once, after the call, until run B is done or blocked on the placing lock."""

    def __init__(self, real: object, gate: threading.Event, runner: dict[str, str]) -> None:
        self._real, self._gate, self._runner = real, gate, runner

    def __getattr__(self, name: str) -> object:
        value = getattr(self._real, name)
        if name not in ("replace", "rename", "link"):
            return value
        return _pause_first(value, self._gate, self._runner)


def _pause_first(call, gate: threading.Event, runner: dict[str, str]):
    def paused(*args, **kwargs):
        result = call(*args, **kwargs)
        if threading.current_thread().name == "A" and not runner.get("paused"):
            runner["paused"] = "yes"
            assert gate.wait(60), "run B neither finished nor waited for its turn"
        return result

    return paused


def test_two_overwriting_runs_leave_one_run_s_report_whole(tmp_path, monkeypatch):
    folder = tmp_path / "rep"
    folder.mkdir()
    for name in NAMES:
        (folder / name).write_text(f"old {name}\n", encoding="utf-8")
    (folder / "mine.txt").write_text("mine\n", encoding="utf-8")
    gate, runner = threading.Event(), {}
    monkeypatch.setattr(report, "write_report", _fake_report)
    for module in (report_files, folder_swap):
        monkeypatch.setattr(module, "os", _Paused(os, gate, runner))
    exchange = _pause_first(folder_swap._exchange, gate, runner)
    monkeypatch.setattr(folder_swap, "_exchange", exchange)
    real_flock = folder_swap.fcntl.flock

    class _Fcntl:
        LOCK_EX = folder_swap.fcntl.LOCK_EX

        @staticmethod
        def flock(fd: int, op: int) -> None:
            if threading.current_thread().name == "B":
                gate.set()  # B waits for its turn: A may go on
            real_flock(fd, op)

    monkeypatch.setattr(folder_swap, "fcntl", _Fcntl)
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            report_files.write_report_whole(
                pd.DataFrame({"run": [name]}), folder, game="dog", command=None, overwrite=True
            )
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            if name == "B":
                gate.set()

    a = threading.Thread(target=run, args=("A",), name="A")
    b = threading.Thread(target=run, args=("B",), name="B")
    a.start()
    while not runner.get("paused") and a.is_alive():
        threading.Event().wait(0.01)
    b.start()
    a.join()
    b.join()
    assert not errors, errors
    runs = {(folder / name).read_text(encoding="utf-8").split()[0] for name in NAMES}
    assert len(runs) == 1 and runs <= {"A", "B"}, runs  # one run's files, not the old nor a mix
    assert (folder / "mine.txt").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]  # no staging left


def test_a_swap_keeps_the_folder_s_other_files_and_refuses_to_replace_unasked(tmp_path):
    target, staging = tmp_path / "rep", tmp_path / ".rep.new"
    (target / "sub").mkdir(parents=True)
    (target / "sub" / "kept.txt").write_text("kept\n", encoding="utf-8")
    (target / "report.md").write_text("old\n", encoding="utf-8")
    (staging / "sub").mkdir(parents=True)
    (staging / "sub" / "new.png").write_text("new\n", encoding="utf-8")
    (staging / "report.md").write_text("new\n", encoding="utf-8")
    assert swap_in(staging, target, overwrite=False) == [target / "report.md"]
    assert (target / "report.md").read_text(encoding="utf-8") == "old\n"
    assert not (target / "sub" / "new.png").exists()
    assert swap_in(staging, target, overwrite=True) == []
    assert {
        str(p.relative_to(target)): p.read_text(encoding="utf-8") for p in target.rglob("*.*")
    } == {
        "report.md": "new\n",
        "sub/kept.txt": "kept\n",
        "sub/new.png": "new\n",
    }
