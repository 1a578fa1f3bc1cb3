"""A folder written whole beside its target, then put in place by one atomic step (Linux).

A writer of several files (``forest analyse --report DIR``) builds them in a staging folder beside
``DIR``; :func:`swap_in` then makes the staging folder *be* ``DIR``: a new ``DIR`` by one rename,
an existing one by exchanging the two folders in one ``renameat2(RENAME_EXCHANGE)``, after
hard-linking into the staging folder whatever ``DIR`` holds that the new files do not replace
(a user's other files stay). So a reader, or another run, sees the old folder or the new one
whole, never files of two runs mixed. Writers take an exclusive ``flock`` on the parent folder
while they place, so two runs place one after the other (the last one's files win, whole) and the
"never replace unasked" check cannot race. Where the filesystem cannot exchange, the old folder is
renamed aside and the new one renamed in (still under the lock: writers never mix). A target
that holds the current folder (``--report .``) is not moved (the shell in it would be left in a
removed folder): its files are replaced one by one under the lock, so writers still never mix.
So is an existing target in a parent folder the user may not write (no staging folder beside
it, no rename there), and one :mod:`solver.folder_kinds` says is written inside (a mount point,
which no rename can move or exchange; a folder not wholly the user's): :func:`write_folder_whole`
makes its staging folder inside it. A mount point both ``os.path.ismount`` and the mount table
miss is refused in one line saying so. What the new files are merged with is
:mod:`solver.folder_merge`'s.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from solver.errors import OptionError, SolverError, path_said
from solver.files import cannot_write, current_umask, removed_on_terminate, sigterm_held
from solver.folder_kinds import written_inside
from solver.folder_merge import carry, place_each, settle

__all__ = ["swap_in", "write_folder_whole"]

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``target``'s parent (which no swap moves); on ``target`` itself
    where this user may not read the parent (a folder ``/home/me/pub`` in a ``/home/me`` of mode
    711: no lock could be taken there, and the files are placed one by one in ``target``)."""
    try:
        fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
    except PermissionError:
        if not target.is_dir():
            raise
        fd = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _renameat2_exchange(first: Path, second: Path) -> int | None:
    """``renameat2(first, second, RENAME_EXCHANGE)``: 0, the error number, or None where the C
    library has no such call."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    done = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    return 0 if done == 0 else ctypes.get_errno()


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically; False where the C library or the filesystem cannot."""
    code = _renameat2_exchange(first, second)
    if code == 0:
        return True
    if code is None or code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    if code == errno.EBUSY:  # Linux's answer for a mount point
        raise _mount_point(second)
    raise OSError(code, os.strerror(code), os.fspath(second))


def _mount_point(target: Path) -> OptionError:
    return OptionError(
        f"{path_said(target)} is a mount point: it cannot be replaced; give a folder inside it"
    )


def _holds_cwd(folder: Path) -> bool:
    here = Path(os.getcwd())
    return here == folder or folder in here.parents


def swap_in(staging: Path, target: Path, *, overwrite: bool) -> list[Path]:
    """Make the folder ``staging`` (beside ``target``) be ``target``, keeping ``target``'s other
    files; return the files it would replace, placing nothing, when there are some and not
    ``overwrite``. Afterwards ``staging`` holds the old folder (or nothing): the caller removes
    it. ``target`` must not be a symbolic link (the caller resolves it)."""
    with _locked(target):
        if not os.path.lexists(target):
            os.rename(staging, target)
            return []
        if _holds_cwd(target) or staging.parent == target:  # the shell's folder, a mount point
            with sigterm_held():  # all of the run's files placed, or none
                return place_each(staging, target, overwrite=overwrite)
        ours = {p.relative_to(staging).as_posix() for p in staging.rglob("*")}
        taken = carry(target, staging, target)
        if taken and not overwrite:
            return taken
        os.chmod(staging, os.stat(target).st_mode & 0o7777)
        with sigterm_held():  # the exchange and what others changed meanwhile, whole
            return _put_in_place(staging, target, ours)


def _put_in_place(staging: Path, target: Path, ours: set[str]) -> list[Path]:
    """The exchange of ``staging`` (the new folder, ``target``'s other entries linked in) and
    ``target``, then :func:`~solver.folder_merge.settle`; where the filesystem cannot exchange,
    the old folder renamed aside and the new one in."""
    if _exchange(staging, target):
        settle(staging, target, ours)
        return []
    aside = staging.with_name(staging.name + ".old")
    try:
        os.rename(target, aside)
    except OSError as exc:
        if exc.errno == errno.EBUSY:
            raise _mount_point(target) from None
        raise
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(aside, target)
        raise
    settle(aside, target, ours)
    shutil.rmtree(aside, ignore_errors=True)
    return []


def write_folder_whole(
    target: Path, fill: Callable[[Path], object], *, overwrite: bool
) -> list[Path]:
    """``fill`` writes the new files into an empty staging folder beside ``target`` (an existing
    folder, resolved, or a new one; inside it where it must be: :func:`_staging_for`), which
    :func:`swap_in` then makes be ``target``; the staging folder is removed whatever happens,
    also on a SIGTERM. Returns the files it would replace, placing nothing, when there are some
    and not ``overwrite``. A file-system error (a folder that cannot be written, a full disk, a
    file that appeared meanwhile) is an :class:`~solver.errors.OptionError` naming the path."""
    with removed_on_terminate():
        try:
            staging = _staging_for(target)
        except OSError as exc:
            raise _worded(exc, target) from None
        try:
            os.chmod(staging, 0o777 & ~current_umask())
            fill(staging)
            return swap_in(staging, target, overwrite=overwrite)
        except SolverError:  # already worded (an OutputError is an OSError too)
            raise
        except OSError as exc:
            raise _worded(exc, target) from None
        finally:
            with contextlib.suppress(OSError):
                shutil.rmtree(staging)


def _worded(exc: OSError, target: Path) -> OptionError:
    if isinstance(exc, FileExistsError):
        where = exc.filename2 or exc.filename
        return OptionError(f"{path_said(where)}: already exists; it was not replaced")
    where = exc.filename or os.fspath(target)
    return cannot_write(where, exc)


def _staging_for(target: Path) -> Path:
    """A new empty folder on ``target``'s filesystem: beside it; inside it when it is a mount
    point or an existing folder that may not be exchanged
    (:func:`~solver.folder_kinds.written_inside`), or an existing folder whose parent this user
    may not write (a folder of one's own in a system folder): then :func:`swap_in` places the
    files one by one."""
    inside = written_inside(target)
    where = target if inside else target.parent
    prefix = f".{target.name or 'folder'}."
    try:
        where.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=prefix, dir=where))
    except OSError as exc:  # named as the folder asked for, not the staging one
        if not inside and exc.errno in (errno.EACCES, errno.EPERM) and target.is_dir():
            with contextlib.suppress(OSError):
                return Path(tempfile.mkdtemp(prefix=prefix, dir=target))
        raise OSError(exc.errno, exc.strerror, os.fspath(target)) from None
