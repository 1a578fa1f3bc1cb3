"""Which way a run's output folder is written: exchanged whole, or its files placed one by one.

:mod:`solver.folder_swap` exchanges an existing ``--report``/``--save-to`` folder for its new
version in one step, which needs the folder to be movable and wholly the user's. A target that
is a mount point cannot be moved (Linux says EBUSY): its staging folder is made inside it, on its
filesystem, and its files placed one by one; so is an existing folder that is not wholly the
user's, on one filesystem (another user's shared folder, one holding another user's files, a
filesystem mounted beneath it: :func:`exchangeable`). A bind mount within one filesystem, which
``os.path.ismount`` misses, is found in the mount table (:func:`mount_points`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["exchangeable", "mount_points", "written_inside"]


def written_inside(target: Path) -> bool:
    """Whether ``target``'s new files are staged inside it and placed one by one: a mount point
    (``os.path.ismount``, or a bind mount only the mount table names), or an existing folder
    that may not be exchanged (:func:`exchangeable`)."""
    return (
        os.path.ismount(target)
        or target in mount_points()
        or (target.is_dir() and not exchangeable(target))
    )


def exchangeable(folder: Path) -> bool:
    """Whether ``folder`` may be exchanged for its new version: it and everything in it are this
    user's, on its one filesystem, with no mount point beneath it (:func:`mount_points`).

    The exchange puts a new folder of this user's in its place (owner and group the user's, not
    a shared folder's: its owner lost the right to write in it), copies what it cannot link
    (another user's file, under Linux's protected_hardlinks; a file on another filesystem) as
    the user's, and then removes the old folder: a filesystem mounted beneath it moved with the
    old folder and was emptied by that removal (a USB drive mounted at ``DIR/usb`` lost its
    files, its copy left in ``DIR``). In a sticky folder (``/tmp``) another user's folder cannot
    be renamed at all ('Operation not permitted'). A folder the user made read-only (mode 555)
    was written in all the same, by the exchange. Where any of these holds the files are placed
    one by one instead (so a read-only folder is refused, 'cannot write: Permission denied'),
    the folder and everything else in it kept as they are."""
    me, top = os.geteuid(), os.lstat(folder)
    if top.st_uid != me or any(_beneath(point, folder) for point in mount_points()):
        return False
    if not os.access(folder, os.W_OK | os.X_OK):  # made read-only: the exchange wrote in anyway
        return False

    def unreadable(exc: OSError) -> None:
        raise exc

    try:
        for root, folders, files in os.walk(folder, onerror=unreadable):
            for name in folders + files:
                entry = os.lstat(os.path.join(root, name))
                if entry.st_uid != me or entry.st_dev != top.st_dev:
                    return False
    except OSError:  # a folder inside it this user cannot read: not carried by links either
        return False
    return True


def _beneath(path: Path, folder: Path) -> bool:
    return folder in path.parents


def mount_points(table: str = "/proc/self/mountinfo") -> list[Path]:
    """The mount points this process sees (``table``; none where it cannot be read): a bind
    mount of a folder on the same filesystem shows nowhere else (same device)."""
    try:
        with open(table, "rb") as lines:
            fields = [line.split(b" ") for line in lines]
    except OSError:
        return []
    unescaped = (  # the kernel writes a space, a tab, a newline and a backslash as \ooo
        re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), f[4])
        for f in fields
        if len(f) > 4
    )
    return [Path(os.fsdecode(point)) for point in unescaped]
