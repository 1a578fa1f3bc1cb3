"""``--report DIR`` and ``--save-to DIR`` where DIR is a mount point.

No rename can move or exchange a mount point: Linux answers ``renameat2(RENAME_EXCHANGE)`` with
EBUSY, which the command reported as "DIR: cannot write: Device or resource busy" (with or
without ``--overwrite``), a reason the user could not act on. Now a mount point that
``os.path.ismount`` sees gets its staging folder inside it and its files placed one by one (as
``--report .`` does); one it misses (a bind mount within one filesystem) is refused in one line
naming the reason. The mount point is faked: ``ismount`` says so, the exchange answers EBUSY.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")

from solver import folder_swap  # noqa: E402
from solver.analysis import report, report_files  # noqa: E402
from solver.analysis.curate import save_selected  # noqa: E402
from solver.errors import OptionError  # noqa: E402
from solver.games.dog.format import format_forest  # noqa: E402
from solver.games.dog.generator import roll_forest  # noqa: E402

TABLE = {"source": ["seed:1", "seed:3"], "width": [5, 5], "height": [4, 4]}


def _fake_report(frame: pd.DataFrame, directory: Path, **_: object) -> Path:
    for name in ("a.png", "report.md"):
        (Path(directory) / name).write_text(f"new {name}\n", encoding="utf-8")
    return Path(directory) / "report.md"


@pytest.fixture
def mount(tmp_path, monkeypatch) -> Path:
    """``tmp_path/mnt``, a folder the exchange (and a rename) cannot move, as a mount point."""
    point = tmp_path / "mnt"
    point.mkdir()
    (point / "mine.txt").write_text("mine\n", encoding="utf-8")
    real_exchange, real_rename = folder_swap._renameat2_exchange, os.rename

    def exchange(first: Path, second: Path) -> int | None:
        return errno.EBUSY if Path(second) == point else real_exchange(first, second)

    def rename(source, target, **kwargs) -> None:
        if point in (Path(source), Path(target)):
            raise OSError(errno.EBUSY, os.strerror(errno.EBUSY), os.fspath(source))
        real_rename(source, target, **kwargs)

    monkeypatch.setattr(folder_swap, "_renameat2_exchange", exchange)
    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr(report, "write_report", _fake_report)
    return point


def _left(tmp_path: Path, point: Path) -> tuple[list[str], list[str]]:
    """What is beside the mount point and in it (a staging folder left would show)."""
    return sorted(p.name for p in tmp_path.iterdir()), sorted(p.name for p in point.iterdir())


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_mount_point_gets_the_report_and_the_saved_files_in_place(
    tmp_path, mount, monkeypatch, overwrite
):
    seen = os.path.ismount
    monkeypatch.setattr(os.path, "ismount", lambda p: Path(p) == mount or seen(p))
    if overwrite:
        (mount / "report.md").write_text("old\n", encoding="utf-8")
    said = report_files.write_report_whole(
        pd.DataFrame({"x": [1]}), mount, game="dog", command=None, overwrite=overwrite
    )
    assert said == mount / "report.md"
    assert (mount / "report.md").read_text(encoding="utf-8") == "new report.md\n"
    written = save_selected(pd.DataFrame(TABLE), mount, overwrite=overwrite)
    assert written[1].read_text(encoding="utf-8") == format_forest(roll_forest(5, 4, seed=3))
    names = ["a.png", "mine.txt", "report.md", "rolled-5x4-seed1.forest", "rolled-5x4-seed3.forest"]
    assert _left(tmp_path, mount) == (["mnt"], names)
    with pytest.raises(OptionError, match=r"a\.png and 1 more: already exists; the report was not"):
        report_files.write_report_whole(pd.DataFrame({"x": [1]}), mount, game="dog", command=None)


def test_a_mount_point_the_check_misses_is_refused_naming_the_reason(tmp_path, mount):
    for write in (
        lambda: report_files.write_report_whole(
            pd.DataFrame({"x": [1]}), mount, game="dog", command=None, overwrite=True
        ),
        lambda: save_selected(pd.DataFrame(TABLE), mount, overwrite=True),
    ):
        with pytest.raises(OptionError) as caught:
            write()
        assert str(caught.value) == (
            f"{mount} is a mount point: it cannot be replaced; give a folder inside it"
        )
        assert _left(tmp_path, mount) == (["mnt"], ["mine.txt"])  # nothing placed, none left


def test_a_folder_whose_parent_cannot_be_written_gets_its_files_in_place(tmp_path, monkeypatch):
    """A ``--save-to`` (or ``--report``) folder of one's own inside a folder one may not write
    (``/srv/me`` in a root-owned ``/srv``): the staging folder beside it cannot be made, which
    failed as "cannot write: Permission denied" though the folder itself is writable (and
    ``--save-to`` wrote there before its files were placed whole). The staging folder is made
    inside it instead. Faked, as root writes anywhere: making a folder in the parent fails."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("notes\n", encoding="utf-8")
    real_mkdtemp = folder_swap.tempfile.mkdtemp

    def mkdtemp(*args, dir=None, **kwargs):
        if dir is not None and Path(dir) == tmp_path:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(dir))
        return real_mkdtemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(folder_swap.tempfile, "mkdtemp", mkdtemp)
    monkeypatch.setattr(report, "write_report", _fake_report)
    written = save_selected(pd.DataFrame(TABLE), mine)
    assert written[0].read_text(encoding="utf-8") == format_forest(roll_forest(5, 4, seed=1))
    report_files.write_report_whole(pd.DataFrame({"x": [1]}), mine, game="dog", command=None)
    names = [
        "a.png",
        "notes.txt",
        "report.md",
        "rolled-5x4-seed1.forest",
        "rolled-5x4-seed3.forest",
    ]
    assert _left(tmp_path, mine) == (["mine"], names)
    with pytest.raises(OptionError, match=r"new: cannot write: Permission denied"):
        save_selected(pd.DataFrame(TABLE), tmp_path / "new")  # a new folder there: no way
