"""A run's new files merged with what its existing output folder holds (:mod:`solver.folder_swap`).

Before the exchange, :func:`carry` links into the new folder every entry of the old one that the
run does not replace (a user's other files stay); after it, :func:`settle` moves over what
another process changed in the old folder meanwhile. Where the folder cannot be exchanged
(:mod:`solver.folder_kinds`), :func:`place_each` moves the new files in one by one instead.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

__all__ = ["carry", "place_each", "settle"]


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:  # another device, a filesystem without links, a file of another user
        shutil.copy2(source, target, follow_symlinks=False)


def carry(old: Path, new: Path, where: Path) -> list[Path]:
    """Link into ``new`` every entry of ``old`` that ``new`` lacks (within folders both have);
    return the paths (under ``where``) of the files ``new`` would replace."""
    taken: list[Path] = []
    for entry in sorted(os.scandir(old), key=lambda e: e.name):
        source, target = old / entry.name, new / entry.name
        if os.path.lexists(target):
            if entry.is_dir(follow_symlinks=False) and target.is_dir() and not target.is_symlink():
                taken += carry(source, target, where / entry.name)
            else:
                taken.append(where / entry.name)
        elif entry.is_dir(follow_symlinks=False):
            shutil.copytree(source, target, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(os.fspath(source), os.fspath(target))
    return taken


def place_each(staging: Path, target: Path, *, overwrite: bool) -> list[Path]:
    """The new files moved into ``target`` one by one (each atomically), none replaced unless
    ``overwrite``: the files it would replace returned, placing nothing, when there are some."""
    files = sorted(p.relative_to(staging) for p in staging.rglob("*") if not p.is_dir())
    taken = [target / name for name in files if os.path.lexists(target / name)]
    if taken and not overwrite:
        return taken
    for name in files:
        source, into = staging / name, target / name
        into.parent.mkdir(parents=True, exist_ok=True)
        if overwrite:
            os.replace(source, into)
        else:
            os.link(source, into, follow_symlinks=False)  # never replaces one that appeared
    return []


def settle(old: Path, new: Path, ours: set[str], where: str = "") -> None:
    """After the exchange, what another process changed in the ``old`` folder while its entries
    were being linked into the ``new`` one is moved into ``new``, in any of its folders: a file
    made there, or replaced by a rename (another run's ``-o DIR/results.csv`` written whole),
    was left in the old folder and removed with it. The entries of this run (``ours``: their
    paths under the folder) stay; what cannot be moved stays where it is (best effort)."""
    for entry in os.scandir(old):
        name = where + entry.name
        source, into = old / entry.name, new / entry.name
        with contextlib.suppress(OSError):
            if not os.path.lexists(into):
                os.rename(source, into)
            elif entry.is_dir(follow_symlinks=False) and into.is_dir() and not into.is_symlink():
                settle(source, into, ours, name + "/")
            elif name not in ours and entry.inode() != os.lstat(into).st_ino:
                os.replace(source, into)
