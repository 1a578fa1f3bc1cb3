"""How long a slowloris client holds ``forest serve``'s connections: ``python bench/slowloris.py``.

Starts a real ``forest serve`` at its default connection deadlines (nothing passed but the port),
opens N sockets of each kind a slowloris client opens (silent; a request head trickled a byte
every second; a whole head with a stalled body; a kept-alive connection gone idle after one
answer), and records for each socket the seconds from its opening until the server closed it
(the read sees the end of the stream; for the kept-alive kind the answer's own latency under
this load is included), or that it was still open after ``--watch`` seconds. Meanwhile
``/health`` is asked once a second on a fresh connection; its statuses and worst latency are
reported. Prints a markdown table (per kind: sockets, closed, min / median / max seconds) with
the load, and writes it to
``bench/results/slowloris.md``.

    python bench/slowloris.py --count 250     # 4 x 250 = 1,000 connections
"""

from __future__ import annotations

import argparse
import os
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEAD = b"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
STALLED = HEAD + b'Content-Length: 1000\r\n\r\n{"id": '
KINDS = ("silent", "trickled head", "stalled body", "idle keep-alive")


def _start(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    port_file = folder / "port"
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "serve", "--host", "127.0.0.1", "--port", "0",
         "--port-file", str(port_file), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not port_file.exists() or not port_file.read_text().strip():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("forest serve did not start")
        time.sleep(0.05)
    port = int(port_file.read_text())
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5).read()
            return proc, port
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("forest serve did not answer /health") from None
            time.sleep(0.1)


def _open(port: int, kind: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if kind == "stalled body":
        sock.sendall(STALLED)
    elif kind == "idle keep-alive":
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    sock.setblocking(False)
    return sock


def measure(
    port: int, count: int, watch: float
) -> tuple[dict[str, list[float | None]], float, dict[int, int]]:
    """Seconds from opening to the server's close, per socket (None: still open at the end)."""
    selector = selectors.DefaultSelector()
    opened: dict[socket.socket, tuple[str, float, int]] = {}
    for kind in KINDS:
        for _ in range(count):
            sock = _open(port, kind)
            opened[sock] = (kind, time.monotonic(), 0)
            selector.register(sock, selectors.EVENT_READ)
    closed: dict[str, list[float | None]] = {kind: [] for kind in KINDS}
    started = time.monotonic()
    next_tick = started
    worst_health = 0.0
    health: dict[int, int] = {}
    while opened and time.monotonic() - started < watch:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except (ConnectionResetError, BrokenPipeError):
                data = b""
            except BlockingIOError:
                continue
            if data:  # the kept-alive kind's answer (its idle time starts when it is sent)
                continue
            if not data:
                kind, since, _ = opened.pop(sock)
                closed[kind].append(time.monotonic() - since)
                selector.unregister(sock)
                sock.close()
        now = time.monotonic()
        if now >= next_tick:  # a byte more of each trickled head, a health check
            next_tick = now + 1.0
            for sock, (kind, since, sent) in list(opened.items()):
                if kind == "trickled head" and sent < len(HEAD):
                    try:
                        sock.send(HEAD[sent : sent + 1])
                        opened[sock] = (kind, since, sent + 1)
                    except OSError:
                        pass
            asked = time.monotonic()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30).read()
                health[200] = health.get(200, 0) + 1
            except urllib.error.HTTPError as exc:  # 503 past --max-connections
                health[exc.code] = health.get(exc.code, 0) + 1
            worst_health = max(worst_health, time.monotonic() - asked)
    for sock, (kind, _since, _sent) in opened.items():
        closed[kind].append(None)
        sock.close()
    return closed, worst_health, health


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=250, help="sockets of each kind")
    parser.add_argument("--watch", type=float, default=60.0, help="seconds to watch them")
    args = parser.parse_args()
    before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        proc, port = _start(Path(folder))
        try:
            closed, worst_health, health = measure(port, args.count, args.watch)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
    after = os.getloadavg()
    lines = ["| kind | sockets | closed by the server | seconds from opening to the close: "
             "min / median / max |",
             "|---|---|---|---|"]  # fmt: skip
    for kind, times in closed.items():
        done = [t for t in times if t is not None]
        spread = (f"{min(done):.1f} / {statistics.median(done):.1f} / {max(done):.1f}"
                  if done else "-")  # fmt: skip
        lines.append(f"| {kind} | {len(times)} | {len(done)} | {spread} |")
    text = (
        "# Slowloris: how long stalled connections are held\n\n"
        f"`python bench/slowloris.py --count {args.count}`: a `forest serve` at its default "
        "deadlines (head 10 s from the connection's opening or the last answer, body 30 s from "
        "the head, idle keep-alive 5 s), "
        f"{args.count * len(KINDS)} connections opened at once, watched for {args.watch:g} s. "
        f"`/health` asked once a second on a new connection: answers by status "
        f"{dict(sorted(health.items()))}, worst latency {worst_health:.2f} s.\n\n"
        + "\n".join(lines)
        + f"\n\nLoad average before: {before[0]:.2f}, after: {after[0]:.2f} (2 cores shared).\n"
    )
    out = HERE / "results" / "slowloris.md"
    out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
