"""The hint engine's transports against the in-process search: hints per second and latency.

One hint (MCTS, a fixed budget of ``ITERATIONS`` simulations, the strong configuration) on the
rolled 9x9 forest of seed 7 after a roll of 2 steps, asked: in-process through
``solver.best_move`` (the baseline) and through ``solver.hint.engine.answer``; through ``forest
hint --stdio`` (a subprocess, ``CLIENTS`` requests kept in flight) and through ``forest serve``
(a real uvicorn on 127.0.0.1, ``CLIENTS`` client threads), at 1, 4 and 16 concurrent clients.
Each line: hints/s, p50 and p99 latency, and the p50 latency over the baseline's (the transport's
overhead as a ratio). The results go to ``bench/results/hint.md``. Run with ``make bench``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import solver

httpx = pytest.importorskip("httpx")

PUZZLE = "dog/rolled-9x9-seed7"
ROLL_2 = 11
ITERATIONS = 2000
CONCURRENCY = (1, 4, 16)
REQUESTS = 64
WORKERS = max(2, os.cpu_count() or 1)
RESULTS = Path(__file__).resolve().parent / "results" / "hint.md"
REQUEST = {"game": "dog", "options": {"forest": PUZZLE}, "actions": [ROLL_2],
           "limit": {"iterations": ITERATIONS}, "top_k": 3}  # fmt: skip
pytestmark = pytest.mark.usefixtures("require_kernels")
_ROWS: list[str] = []


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _row(name: str, clients: int, latencies: list[float], wall: float, base: float) -> str:
    p50 = statistics.median(latencies)
    line = (f"| {name} | {clients} | {len(latencies) / wall:8.1f} | {1000 * p50:8.2f} | "
            f"{1000 * _quantile(latencies, 0.99):8.2f} | {p50 / base:6.2f} |")  # fmt: skip
    _ROWS.append(line)
    print(line)
    return line


@pytest.fixture(scope="module")
def baseline() -> float:
    game = solver.load_game("dog", forest=PUZZLE)
    state = game.new_initial_state()
    state.apply_action(ROLL_2)
    times = []
    for _ in range(16):
        t = time.perf_counter()
        solver.best_move(state, iterations=ITERATIONS, seed=0)
        times.append(time.perf_counter() - t)
    base = statistics.median(times)
    _ROWS.clear()
    _row("solver.best_move (baseline)", 1, times, sum(times), base)
    return base


def test_in_process_engine(baseline: float) -> None:
    from solver.hint.engine import answer

    times = []
    for n in range(16):
        t = time.perf_counter()
        reply = answer({**REQUEST, "id": f"b{n}"})
        times.append(time.perf_counter() - t)
        assert reply["rootInfo"]["visits"] == ITERATIONS
    _row("hint.engine.answer, in-process", 1, times, sum(times), baseline)


@pytest.mark.parametrize("clients", CONCURRENCY)
def test_stdio(baseline: float, clients: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "hint", "--stdio", "--workers", str(WORKERS)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    sent: dict[str, float] = {}
    latencies: list[float] = []
    started = time.perf_counter()
    try:
        next_id = 0

        def send() -> None:
            nonlocal next_id
            ident = f"s{next_id}"
            next_id += 1
            sent[ident] = time.perf_counter()
            proc.stdin.write(json.dumps({**REQUEST, "id": ident}) + "\n")
            proc.stdin.flush()

        for _ in range(min(clients, REQUESTS)):
            send()
        while len(latencies) < REQUESTS:
            reply = json.loads(proc.stdout.readline())
            latencies.append(time.perf_counter() - sent.pop(reply["id"]))
            assert "error" not in reply
            if next_id < REQUESTS:
                send()
        wall = time.perf_counter() - started
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    _row("forest hint --stdio", clients, latencies, wall, baseline)


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from hint.conftest import Server

    server = Server(tmp_path_factory.mktemp("bench"), "--workers", str(WORKERS), "--queue", "64",
                    "--quiet")  # fmt: skip
    yield server
    server.stop()


@pytest.mark.parametrize("clients", CONCURRENCY)
def test_http(baseline: float, http_server, clients: int) -> None:
    latencies: list[float] = []
    lock = threading.Lock()
    counter = iter(range(REQUESTS))

    def client() -> None:
        with httpx.Client(timeout=60) as session:
            for n in counter:
                t = time.perf_counter()
                response = session.post(
                    f"{http_server.url}/v1/hint", json={**REQUEST, "id": f"h{n}"}
                )
                elapsed = time.perf_counter() - t
                assert response.status_code == 200, response.text
                with lock:
                    latencies.append(elapsed)

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        for future in [pool.submit(client) for _ in range(clients)]:
            future.result()
    wall = time.perf_counter() - started
    _row("forest serve, POST /v1/hint", clients, latencies, wall, baseline)


def test_write_results() -> None:
    if len(_ROWS) < 2:
        pytest.skip("run the whole module to write the results")
    header = [
        "# Hint engine: transports against the in-process search",
        "",
        f"One MCTS hint of {ITERATIONS} simulations on {PUZZLE} after a roll of 2 steps; "
        f"{REQUESTS} requests per line; {WORKERS} workers; this machine: {os.cpu_count()} CPUs.",
        "Latency ratio: the line's p50 over the baseline's (`solver.best_move` in-process).",
        "",
        "| transport | clients | hints/s | p50 ms | p99 ms | p50 / baseline |",
        "|---|---|---|---|---|---|",
    ]
    RESULTS.write_text("\n".join(header + _ROWS) + "\n", encoding="utf-8")
