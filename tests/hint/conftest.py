"""A real ``forest serve`` on 127.0.0.1 (a free port), per module, stopped with SIGTERM."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
START_TIMEOUT = 60.0


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(
        tmp_path_factory.mktemp("serve"), "--workers", "2", "--queue", "8",
        "--max-seconds", "2", "--max-iterations", "20000", "--max-body-bytes", "65536",
    )  # fmt: skip
    yield running
    running.stop()
