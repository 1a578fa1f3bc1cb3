"""``--report DIR`` and ``--save-to DIR`` where DIR is not wholly the user's, or sits in a
folder the user may not read.

The files were placed by exchanging DIR with a new staging folder of the user's, which (found by
attack, checked by hand as a second user) made a shared folder the writer's own: ``shared``
(owner 1234, group 2000, mode 2775) came back owned by the writer and the writer's group, so its
owner could no longer write in it, and its owner's ``theirs.txt`` was copied as the writer's
(Linux's protected_hardlinks forbids the link). In a sticky folder (``/tmp``) another user's
folder cannot be renamed at all: "shared: cannot write: Operation not permitted", though the
folder is writable by all (``--save-to`` wrote there before its files were placed whole). And a
folder whose parent the user may only enter (``/home/me/pub`` in a ``/home/me`` of mode 711)
was refused "cannot write: Permission denied" for the lock taken on the parent.

Now such a folder gets its files placed one by one (its staging folder inside it), keeping the
folder (same inode, owner) and its other files as they were. The other user is faked (this user
is told it is someone else); the unreadable parent too (root reads anything).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")

from solver import folder_kinds, folder_swap  # noqa: E402
from solver.analysis import report, report_files  # noqa: E402
from solver.analysis.curate import save_selected  # noqa: E402
from solver.games.dog.format import format_forest  # noqa: E402
from solver.games.dog.generator import roll_forest  # noqa: E402

TABLE = {"source": ["seed:1", "seed:3"], "width": [5, 5], "height": [4, 4]}
SAVED = ["rolled-5x4-seed1.forest", "rolled-5x4-seed3.forest"]


def _fake_report(frame: pd.DataFrame, directory: Path, **_: object) -> Path:
    for name in ("a.png", "report.md"):
        (Path(directory) / name).write_text(f"new {name}\n", encoding="utf-8")
    return Path(directory) / "report.md"


def _held(folder: Path) -> int:
    """A descriptor of ``folder`` as it is now (held open: its inode cannot be reused)."""
    return os.open(folder, os.O_RDONLY | os.O_DIRECTORY)


def _same(fd: int, folder: Path) -> bool:
    """Whether ``folder`` is still the folder held by ``fd`` (not a new one put in its place)."""
    try:
        return os.fstat(fd).st_ino == folder.stat().st_ino and os.fstat(fd).st_nlink > 0
    finally:
        os.close(fd)


def _write_all(folder: Path, overwrite: bool) -> None:
    save_selected(pd.DataFrame(TABLE), folder, overwrite=overwrite)
    report_files.write_report_whole(
        pd.DataFrame({"x": [1]}), folder, game="dog", command=None, overwrite=overwrite
    )


@pytest.mark.parametrize("overwrite", [False, True])
def test_another_user_s_folder_keeps_its_inode_and_files(tmp_path, monkeypatch, overwrite):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "theirs.txt").write_text("theirs\n", encoding="utf-8")
    held, theirs = _held(shared), (shared / "theirs.txt").stat().st_ino
    monkeypatch.setattr(report, "write_report", _fake_report)
    monkeypatch.setattr(os, "geteuid", lambda: shared.stat().st_uid + 1)  # someone else
    _write_all(shared, overwrite)
    _write_all(shared, True)  # again, over its own files
    assert _same(held, shared) and (shared / "theirs.txt").stat().st_ino == theirs
    assert sorted(os.listdir(shared)) == sorted(["theirs.txt", "a.png", "report.md", *SAVED])
    assert (shared / SAVED[1]).read_text(encoding="utf-8") == format_forest(
        roll_forest(5, 4, seed=3)
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared"]  # no staging folder left


@pytest.mark.skipif(os.geteuid() != 0, reason="gives a file to another user (root only)")
def test_a_folder_holding_another_user_s_file_keeps_it_as_it_was(tmp_path, monkeypatch):
    mine = tmp_path / "mine"
    (mine / "deep").mkdir(parents=True)
    theirs = mine / "deep" / "theirs.txt"
    theirs.write_text("theirs\n", encoding="utf-8")
    os.chown(theirs, 1234, 1234)
    held, inode = _held(mine), theirs.stat().st_ino
    monkeypatch.setattr(report, "write_report", _fake_report)
    _write_all(mine, False)
    assert _same(held, mine) and theirs.stat().st_ino == inode and theirs.stat().st_uid == 1234


def test_a_folder_in_a_parent_that_cannot_be_read_gets_its_files(tmp_path, monkeypatch):
    pub = tmp_path / "pub"
    pub.mkdir()
    real_open, real_mkdtemp = os.open, folder_swap.tempfile.mkdtemp

    def refused(path: object, *args: object, **kwargs: object) -> int:
        if Path(os.fsdecode(path)) == tmp_path:  # type: ignore[arg-type]
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(tmp_path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    def mkdtemp(*args, dir=None, **kwargs):
        if dir is not None and Path(dir) == tmp_path:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(dir))
        return real_mkdtemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(os, "open", refused)
    monkeypatch.setattr(folder_swap.tempfile, "mkdtemp", mkdtemp)
    monkeypatch.setattr(report, "write_report", _fake_report)
    _write_all(pub, False)
    assert sorted(p.name for p in pub.iterdir()) == sorted(["a.png", "report.md", *SAVED])


def test_a_filesystem_mounted_beneath_the_folder_is_left_in_place(tmp_path, monkeypatch):
    """Found by attack (checked by hand on a real tmpfs): ``--save-to DIR`` with a filesystem
    mounted at ``DIR/usb`` exchanged DIR, so the mount moved with the old folder and the
    removal of that folder deleted the mounted filesystem's files; ``DIR/usb`` was left a copy,
    the mount under a hidden ``.DIR.xxxxxxxx`` beside it. Faked here: the mount points read
    name ``DIR/usb``."""
    target = tmp_path / "target"
    usb = target / "usb"
    usb.mkdir(parents=True)
    (usb / "precious.txt").write_text("precious\n", encoding="utf-8")
    monkeypatch.setattr(folder_kinds, "mount_points", lambda: [Path("/proc"), usb])
    monkeypatch.setattr(report, "write_report", _fake_report)
    held = _held(usb)
    _write_all(target, False)
    _write_all(target, True)
    assert _same(held, usb) and (usb / "precious.txt").read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]


def test_the_mount_table_is_read_with_its_escapes(tmp_path):
    """The kernel writes a space in a mount point as ``\\040``, a backslash as ``\\134``."""
    table = tmp_path / "mountinfo"
    table.write_bytes(
        b"22 27 0:21 / /proc rw - proc proc rw\n"
        b"40 27 0:50 / /media/my\\040drive\\134x rw,relatime - vfat /dev/sdb1 rw\n"
    )
    assert folder_kinds.mount_points(os.fspath(table)) == [
        Path("/proc"),
        Path("/media/my drive\\x"),
    ]
    assert folder_kinds.mount_points(os.fspath(tmp_path / "none")) == []


def test_a_read_only_folder_is_not_written_in_by_the_exchange(tmp_path, monkeypatch):
    """Found by attack (checked by hand as a second user): ``--save-to locked`` where the user
    had made ``locked`` read-only (mode 555) saved its 20 files there all the same, by
    exchanging the folder for a new one of the same mode. Such a folder gets its files placed
    one by one now, which a user who may not write there is refused ("locked: cannot write:
    Permission denied"). Faked, as root writes anywhere: the folder says it is not writable,
    and the files are then placed in it (root may), the folder kept."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: Path(p) != locked and real_access(p, mode, **kw)
    )
    monkeypatch.setattr(report, "write_report", _fake_report)
    held = _held(locked)
    _write_all(locked, False)
    assert _same(held, locked) and sorted(os.listdir(locked)) == ["a.png", "report.md", *SAVED]


def test_a_change_made_in_the_folder_during_the_exchange_is_kept(tmp_path, monkeypatch):
    """Found by attack: while a run linked the folder's entries into its new version, another
    process could write into the old one (another run's ``-o DIR/results.csv`` written whole,
    a file made in a sub-folder); only a new top-level name was moved over after the exchange,
    so the replaced ``results.csv`` reverted to its old text and ``sub/late.txt`` was removed
    with the old folder. Faked: the other process writes just before the exchange."""
    target = tmp_path / "out"
    (target / "sub").mkdir(parents=True)
    (target / "results.csv").write_text("old\n", encoding="utf-8")
    real = folder_swap._renameat2_exchange

    def exchange(first: Path, second: Path) -> int | None:
        fresh = target / ".results.csv.tmp"
        fresh.write_text("new\n", encoding="utf-8")
        os.replace(fresh, target / "results.csv")  # written whole, meanwhile
        (target / "sub" / "late.txt").write_text("late\n", encoding="utf-8")
        (target / "top.txt").write_text("top\n", encoding="utf-8")
        monkeypatch.setattr(folder_swap, "_renameat2_exchange", real)
        return real(first, second)

    monkeypatch.setattr(folder_swap, "_renameat2_exchange", exchange)
    save_selected(pd.DataFrame(TABLE), target)
    assert (target / "results.csv").read_text(encoding="utf-8") == "new\n"
    assert (target / "sub" / "late.txt").read_text(encoding="utf-8") == "late\n"
    assert sorted(os.listdir(target)) == sorted(["results.csv", "sub", "top.txt", *SAVED])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_bind_mount_the_mount_table_names_gets_its_files_in_place(tmp_path, monkeypatch):
    """A bind mount within one filesystem, which ``os.path.ismount`` misses, was exchanged
    (Linux refuses: "DIR is a mount point: it cannot be replaced"); the mount table names it,
    so its files are placed in it. Faked: the table names the folder."""
    bound = tmp_path / "bound"
    bound.mkdir()
    monkeypatch.setattr(folder_kinds, "mount_points", lambda: [bound])
    monkeypatch.setattr(report, "write_report", _fake_report)
    held = _held(bound)
    _write_all(bound, False)
    assert _same(held, bound) and sorted(os.listdir(bound)) == ["a.png", "report.md", *SAVED]
