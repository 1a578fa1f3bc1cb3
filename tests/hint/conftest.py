"""A real ``forest serve`` on 127.0.0.1 (a free port), per module, stopped with SIGTERM; a real
``forest hint --stdio`` (:class:`Engine`)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
START_TIMEOUT = 60.0
TIMEOUT = 60
UNREACHED = 3600.0
"""A search budget (seconds) no test lives to see run out: a test that stops a search (a
terminate request, a signal, the output closing) gives it this budget, so a stop that were
ignored would wait for it, and the test's time limit (pytest-timeout, 300 s: a hang guard) fails
it. No assertion reads the wall clock, which a loaded machine stretches."""


class Server:
    """One ``forest serve`` process: its base URL, its stderr (access logs), how to stop it."""

    def __init__(self, folder: Path, *extra: str) -> None:
        self.port_file = folder / f"port-{os.getpid()}-{time.monotonic_ns()}"
        self.log = (folder / f"{self.port_file.name}.log").open("w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "serve", "--host", "127.0.0.1", "--port", "0",
             "--port-file", str(self.port_file), *extra],
            stdout=subprocess.DEVNULL, stderr=self.log,
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while not self.port_file.exists() or not self.port_file.read_text().strip():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"forest serve did not start: {self.logs()}")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{int(self.port_file.read_text())}"
        while True:  # listening; wait for the pool to be warm
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/health", timeout=5).status_code == 200:
                    break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"forest serve did not answer /health: {self.logs()}")
            time.sleep(0.05)

    def logs(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self, timeout: float = 60.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=timeout)
            raise
        finally:
            self.log.close()


SERVE_OPTIONS = ("--workers", "2", "--queue", "8", "--max-seconds", "2",
                 "--max-iterations", "20000", "--max-body-bytes", "65536")  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve"), *SERVE_OPTIONS)
    yield running
    running.stop()


class Engine:
    """A running ``forest hint --stdio`` with line-by-line access (every read bounded in time)."""

    def __init__(self, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "hint", "--stdio", "--workers", "2", *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def send(self, message: Any) -> None:
        assert self.proc.stdin is not None
        line = message if isinstance(message, str) else json.dumps(message)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, (
            f"the engine closed its output: {self.proc.stderr.read() if self.proc.stderr else ''}"
        )
        return json.loads(line)

    def read_until(self, ident: str, final: bool = True, limit: int = 10_000) -> list[dict]:
        seen = []
        for _ in range(limit):
            message = self.read()
            seen.append(message)
            if message.get("id") == ident and (not final or not message.get("isDuringSearch")):
                return seen
        raise AssertionError(f"no answer to {ident}")

    def close(self) -> tuple[int, str]:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        rest = self.proc.stdout.read() if self.proc.stdout else ""
        return code, rest


@contextlib.asynccontextmanager
async def one_worker() -> AsyncIterator[Any]:
    """A started :class:`solver.hint.pool.WorkerPool` of one real worker process (jobs:
    stdlib functions, importable in any worker), closed on leaving."""
    from solver.hint.pool import WorkerPool

    pool = WorkerPool(1)
    await pool.start()
    try:
        yield pool
    finally:
        await pool.close()
