"""The CPU's worker pool outlives a worker process killed while it thinks: a fresh pool takes the job; and a
worker does not outlive its server."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from games import cpu_pool
from games.engine import Position
from harness.server import ROOT
from tests.faultkit import busy_worker, cpu_worker_pids, kill

RECORD = "a1 b1 a2"


@pytest.fixture
def process_pool(settings, monkeypatch):
    """A real pool of one spawned worker, of this test's own; level 5 thinks about 3 s in it."""
    settings.CPU_WORKERS = 1
    settings.CPU_TIME_SCALE = 1.5
    monkeypatch.setattr(cpu_pool._moves, "executor", None)
    yield
    if cpu_pool._moves.executor is not None:
        cpu_pool._moves.executor.shutdown(wait=True, cancel_futures=True)


def replaced() -> float:
    return REGISTRY.get_sample_value("fourinarow_cpu_pool_replaced_total") or 0.0


async def test_a_worker_killed_while_thinking_is_replaced_and_the_move_still_comes(process_pool):
    await cpu_pool.warm_up()
    before = replaced()
    thinking = asyncio.create_task(cpu_pool.compute_move(RECORD, 5))
    _, worker = await asyncio.to_thread(busy_worker, os.getpid())
    kill(worker)
    peg = await asyncio.wait_for(thinking, 60)
    assert peg in {str(p) for p in Position.from_record(RECORD).legal_pegs()}
    assert replaced() == before + 1
    # The new pool has a worker of its own, and keeps answering.
    assert worker not in cpu_worker_pids(os.getpid())
    assert await cpu_pool.compute_move(RECORD, 1) in {str(p) for p in Position.from_record(RECORD).legal_pegs()}
    assert replaced() == before + 1


# A server process that starts its analysis lane, prints its worker's pid, and waits to be killed.
SERVER = """
import os, sys, time, django
django.setup()
from games import cpu_pool
executor = cpu_pool._analyses.get()
executor.submit(int).result()
print(*executor._processes, flush=True)
time.sleep(120)
"""


def test_a_worker_ends_with_its_server_when_the_server_is_killed():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "CPU_WORKERS": "1"}
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env, stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None
        (worker,) = map(int, server.stdout.readline().split())
        kill(server.pid)
        server.wait(10)
        end = time.monotonic() + 10
        while _alive(worker):
            assert time.monotonic() < end, "the worker outlived its server"
            time.sleep(0.05)
    finally:
        server.kill()
        server.wait()


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
