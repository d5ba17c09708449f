"""Stopping a server as its service manager does (systemd signals every process of the unit's control group
at once, a terminal's Ctrl-C the whole foreground group): SIGTERM to daphne and its CPU workers together,
while a post-game analysis runs in one of them. The server stops at once, logs no error, and leaves no
worker behind; the analysis it leased is another process's once the lease runs out
(``tests/games/test_analysis_queue.py``)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from harness.server import STOP_TIMEOUT
from tests.faultkit import busy_worker, cpu_worker_pids
from tests.livekit import Device, LiveServer, RoomSocket, server_env, sqlite_database

pytestmark = [pytest.mark.slow]

RECORD = "a1 b1 a2 b2 a3 b3 c1 b4"  # yellow completes row b


async def finished_game(server: LiveServer) -> None:
    ann, bob = Device(server.http), Device(server.http)
    ann.join("Ann")
    bob.join("Bob")
    status, room = ann.request("POST", "/api/rooms", {"ranked": False})
    assert status == 201
    a = await RoomSocket(server.ws, room["code"], ann, server.http).connect()
    b = await RoomSocket(server.ws, room["code"], bob, server.http).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None)
    await a.send(type="start")
    for ply, peg in enumerate(RECORD.split()):
        mover = a if ply % 2 == 0 else b
        await mover.wait_room(lambda r, n=ply: r["game"] is not None and r["game"]["ply"] == n)
        await mover.drop(peg)
    await a.wait_room(lambda r: r["game"] is not None and r["game"]["status"] == "won")


def gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie waiting for its reaper has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


async def test_sigterm_to_the_server_and_its_workers_mid_analysis_logs_no_error(tmp_path):
    # The CPU at its full budget, the analysis too (unlike the other live tests'): it runs for seconds, and
    # starts at once however busy the server was setting the game up.
    env = server_env(SQLITE_PATH=sqlite_database(tmp_path), CPU_TIME_SCALE="1", ANALYSIS_CPU_BUDGET_S="60",
                     ANALYSIS_BUSY_SHARE="0")
    server = LiveServer(env, log_dir=tmp_path)
    server.start()
    try:
        await finished_game(server)
        assert server.proc is not None
        _, analysing = await asyncio.to_thread(busy_worker, server.proc.pid)
        workers = cpu_worker_pids(server.proc.pid)
        assert analysing in workers
        for pid in (server.proc.pid, *workers):
            os.kill(pid, signal.SIGTERM)
        # It ends by itself, well before the service manager's SIGKILL, and its workers with it.
        assert await asyncio.to_thread(server.proc.wait, STOP_TIMEOUT) == 0
        end = time.monotonic() + 5
        while not all(gone(pid) for pid in workers) and time.monotonic() < end:
            await asyncio.sleep(0.05)
        assert [pid for pid in workers if not gone(pid)] == []
    finally:
        server.stop()
    assert server.log_errors() == []
