"""The journal of a batch, and the lock that keeps two runs off one output.

**The lock.** A run takes an exclusive, non-blocking ``flock`` on ``<output>.lock`` before it reads
or writes anything of that output, and holds it until the output file is final and the journal is
gone. A second run on the same output in that time is refused ("another run is writing ..."). The
lock file is removed by its holder just before it lets go; a run that opened the old file in that
instant notices (the file it locked is no longer the one at the path) and takes the lock afresh.

**The journal** (``<output>.journal.jsonl``) is append-only JSON lines: a header naming the batch
(a fingerprint of the instances and the analysis), then one line ``{"i": index, "row": {...}}``
per instance, flushed and synced chunk by chunk. It is created with the first finished chunk, so a
run that fails before any result (an unreachable scheduler) leaves no journal behind and does not
wipe an older one. On resume it is read line by line: a torn last line (a kill in mid-write) is
dropped; a damaged line elsewhere (bad JSON, an index out of range, a row of another instance, a
value of the wrong type in a declared column) is refused with its line number, unless ``repair``
is asked for, which keeps every good row and rewrites the journal without the damaged lines.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from solver.analysis.results import value_fits
from solver.errors import OptionError
from solver.fields import JSONValue

__all__ = ["Journal", "OutputLock", "fingerprint", "journal_path", "lock_path"]

_JOURNAL_SUFFIX = ".journal.jsonl"
_LOCK_SUFFIX = ".lock"
VERSION = 2
"""The journal format (2: the game and the declared column types are part of the batch)."""

Notify = Callable[[str], None]


def journal_path(out: str | os.PathLike[str]) -> Path:
    """Where the rows for ``out`` are journaled.

    >>> journal_path("runs/results.parquet").as_posix()
    'runs/results.parquet.journal.jsonl'
    """
    out = Path(out)
    return out.with_name(out.name + _JOURNAL_SUFFIX)


def lock_path(out: str | os.PathLike[str]) -> Path:
    """The lock file of ``out``.

    >>> lock_path("runs/results.csv").as_posix()
    'runs/results.csv.lock'
    """
    out = Path(out)
    return out.with_name(out.name + _LOCK_SUFFIX)


def fingerprint(batch: Iterable[object], analysis: str) -> str:
    """A digest of what defines a batch (JSON-able parts, in order) and the analysis's name."""
    digest = hashlib.sha256(analysis.encode("utf-8"))
    for part in batch:
        digest.update(json.dumps(part, sort_keys=True).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


class OutputLock:
    """The exclusive lock of one output (see the module docstring); a context manager."""

    def __init__(self, out: Path):
        self.out = out
        self.path = lock_path(out)
        self.fd: int | None = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX: no lock
            return
        for _ in range(5):
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise OptionError(
                    f"another run is writing {os.fspath(self.out)!r} (its lock "
                    f"{os.fspath(self.path)!r} is held); wait for it or use another --output"
                ) from None
            try:
                current = os.stat(self.path).st_ino
            except FileNotFoundError:
                current = None
            if current == os.fstat(fd).st_ino:
                self.fd = fd
                return
            os.close(fd)  # the holder removed this file as it finished: lock the new one
        raise OptionError(f"cannot take the lock {os.fspath(self.path)!r}: it keeps changing")

    def release(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        os.close(self.fd)
        self.fd = None


class Journal:
    """The journal of one batch (see the module docstring)."""

    def __init__(self, path: Path, header: Mapping[str, Any]):
        self.path = path
        self.header = {"journal": "forest analyse", "version": VERSION, **header}
        self.file: Any = None
        self.appended = 0

    def start(
        self,
        resume: bool,
        repair: bool,
        count: int,
        source_at: Callable[[int], str],
        types: Mapping[str, str],
        notify: Notify,
    ) -> dict[int, dict[str, Any]]:
        """The rows journaled already (with ``resume``), ready to append the others.

        Without ``resume`` nothing is read and nothing is written yet: the first :meth:`append`
        replaces whatever journal was there.
        """
        if not resume:
            return {}
        if not self.path.exists() or self.path.stat().st_size == 0:
            notify(f"nothing to resume: no journal at {self.path}; starting afresh")
            return {}
        rows = self._read(count, source_at, types, repair, notify)
        self.file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        notify(f"resuming {self.path}: {len(rows)} of {count} instances already analysed")
        return rows

    def _read(
        self,
        count: int,
        source_at: Callable[[int], str],
        types: Mapping[str, str],
        repair: bool,
        notify: Notify,
    ) -> dict[int, dict[str, Any]]:
        rows: dict[int, dict[str, Any]] = {}
        good: list[bytes] = []
        damaged: list[int] = []
        torn = False
        with open(self.path, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                if not raw.endswith(b"\n"):  # the unfinished last line of a killed run
                    torn = True
                    break
                record = _parse(raw)
                if number == 1:
                    self._check_header(record)
                    good.append(raw)
                    continue
                row = _row_of(record, count, source_at, types)
                if row is None:
                    if not repair:
                        raise OptionError(
                            f"the journal {self.path} is damaged at line {number} "
                            f"({len(rows)} good rows before it); run again with --resume "
                            "--repair to keep every good row and analyse the rest again, or "
                            "delete the journal"
                        )
                    damaged.append(number)
                    continue
                rows[row[0]] = row[1]
                good.append(raw)
        if not good:
            raise OptionError(
                f"the journal {self.path} has no header line; delete it and run without --resume"
            )
        if damaged or torn:
            self._rewrite(good)
        if damaged:
            shown = ", ".join(map(str, damaged[:10])) + (" ..." if len(damaged) > 10 else "")
            notify(f"repaired {self.path}: dropped {len(damaged)} damaged lines (line {shown})")
        return rows

    def _rewrite(self, lines: list[bytes]) -> None:
        """Replace the journal by ``lines`` (atomically: a temporary file renamed into place)."""
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as handle:
                handle.writelines(lines)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()

    def _check_header(self, record: JSONValue) -> None:
        if not isinstance(record, dict) or record.get("journal") != "forest analyse":
            raise OptionError(f"{self.path} is not a journal of `forest analyse`")
        if record.get("version") != VERSION:
            raise OptionError(
                f"the journal {self.path} has version {record.get('version')!r}, expected "
                f"{VERSION}; run without --resume"
            )
        if record.get("fingerprint") != self.header["fingerprint"]:
            raise OptionError(
                f"the journal {self.path} belongs to another batch (other instances or another "
                f"analysis: {record.get('analysis')}); run without --resume to start afresh"
            )

    def append(self, rows: Iterable[tuple[int, Mapping[str, Any]]]) -> None:
        """Journal finished rows (synced to disk before returning)."""
        rows = list(rows)
        if self.file is None:
            self.file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115
            self.file.write(json.dumps(self.header) + "\n")
        text = "".join(
            json.dumps({"i": index, "row": row}, ensure_ascii=False) + "\n" for index, row in rows
        )
        self.file.write(text)
        self.file.flush()
        os.fsync(self.file.fileno())
        self.appended += len(rows)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None

    def remove(self) -> None:
        """Delete the journal (the output is final)."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def _parse(raw: bytes) -> JSONValue:
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return None


def _row_of(
    record: JSONValue, count: int, source_at: Callable[[int], str], types: Mapping[str, str]
) -> tuple[int, dict[str, Any]] | None:
    """``(index, row)`` of a journal line, or None when the line is damaged."""
    if not isinstance(record, dict):
        return None
    index, row = record.get("i"), record.get("row")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
        return None
    if not isinstance(row, dict) or row.get("source") != source_at(index):
        return None
    for name, value in row.items():
        if not (value is None or isinstance(value, (bool, int, float, str))):
            return None  # the runner journals scalars only
        if name in types and not value_fits(types[name], value):
            return None
    return index, row
