"""Services of a test's own, to break on purpose: a private Redis and a private PostgreSQL cluster.

Other test runs share the machine's PostgreSQL (5432) and Redis (6379), so a fault test never stops
those: it starts its own server on a free port in a temporary directory, points the daphne processes
under test at it, then stops and starts it. Each is torn down in ``finally`` by its context manager.
Also here: finding a daphne process's CPU worker processes (to kill one), and reconnecting a test
client the way the page does. Ports, /proc and the clients come from the harness (``harness/``); these
servers stay with the tests: only a test breaks a service on purpose.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import websockets

from harness.ports import free_port, wait_for_port
from harness.procfs import child_pids, command_line, cpu_seconds
from harness.room import RoomSocket
from harness.server import terminate
from tests.conftest import POSTGRES_BINDIR, REDIS_SERVER, RUNUSER


# --- Redis ------------------------------------------------------------------------------------------
class PrivateRedis:
    """``redis-server`` on a free port, without persistence: a restart comes back empty, as a cache
    Redis does (channels-redis's group memberships are gone with it)."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> PrivateRedis:
        assert REDIS_SERVER is not None and not self.running
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )
        end = time.monotonic() + 30
        while not self._pong():
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"redis-server did not start: {(self.dir / 'redis.log').read_text()[-2000:]}")
            time.sleep(0.05)
        return self

    def _pong(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM, as ``systemctl stop`` does: the clients' connections are closed under them."""
        terminate(self.proc)
        wait_for_port(self.port, ready=False, timeout=10)


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    directory = Path(tempfile.mkdtemp(prefix="faultkit-redis-"))
    redis = PrivateRedis(directory)
    try:
        yield redis.start()
    finally:
        redis.stop()
        shutil.rmtree(directory, ignore_errors=True)


# --- PostgreSQL -------------------------------------------------------------------------------------
class PrivatePostgres:
    """A PostgreSQL cluster of its own (``initdb`` in a temporary directory), on a free port.

    PostgreSQL refuses to run as root: as root, its programs run as the ``postgres`` user
    (``runuser``), in a directory that user owns.
    """

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.data = directory / "data"
        self.port = free_port()
        self.running = False

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *args: str, timeout: float = 120) -> None:
        assert POSTGRES_BINDIR is not None
        command = [str(POSTGRES_BINDIR / program), *args]
        if os.geteuid() == 0:
            assert RUNUSER is not None
            command = [RUNUSER, "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stdout[-1500:]}{done.stderr[-1500:]}")

    def init(self) -> PrivatePostgres:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync",
                  "-E", "UTF8", "--locale=C")
        return self

    def start(self) -> PrivatePostgres:
        # No fsync: a test cluster, stopped cleanly; it only has to behave like a server going away.
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "postgres.log"), "-w", "-t", "60",
                  "-o", options, "start")
        self.running = True
        return self

    def stop(self) -> None:
        """``pg_ctl stop -m fast``, as a restart does: open sessions are ended, transactions rolled back."""
        if self.running:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")
            self.running = False
        wait_for_port(self.port, ready=False, timeout=10)

    def create_database(self, name: str, *, copy_of: str | None = None) -> str:
        """A new database ``name``; with ``copy_of`` (a database's URL, of any server), its schema and rows
        (``pg_dump`` and ``pg_restore``: a migrated database's copy, without running the migrations)."""
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        if copy_of is not None:
            assert POSTGRES_BINDIR is not None
            dump = subprocess.run([str(POSTGRES_BINDIR / "pg_dump"), "--format=custom", "--no-owner",
                                   "--no-privileges", copy_of], capture_output=True, timeout=120, check=True).stdout
            subprocess.run([str(POSTGRES_BINDIR / "pg_restore"), "--no-owner", "--no-privileges",
                            "--single-transaction", "--exit-on-error", "-d", self.url(name)], input=dump,
                           capture_output=True, timeout=120, check=True)
        return self.url(name)


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    directory = Path(tempfile.mkdtemp(prefix="faultkit-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    cluster = PrivatePostgres(directory)
    try:
        yield cluster.init().start()
    finally:
        with contextlib.suppress(Exception):
            cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)


# --- CPU workers ------------------------------------------------------------------------------------
def cpu_worker_pids(parent: int) -> list[int]:
    """The CPU worker processes (``multiprocessing`` spawned) of process ``parent``."""
    workers = []
    for pid in child_pids(parent):
        with contextlib.suppress(OSError):
            if b"spawn_main" in command_line(pid):
                workers.append(pid)
    return workers


# CPU time a worker must use, once seen, to count as computing (10 ms clock ticks: 5 of them).
BUSY_CPU_SECONDS = 0.05


def busy_worker(*parents: int, timeout: float = 20) -> tuple[int, int]:
    """The CPU worker computing now among those of ``parents``: (its parent, its pid).

    The first whose CPU time has grown by ``BUSY_CPU_SECONDS`` since it was first seen here: an idle
    worker (blocked reading its pipe) uses none, while a busy one gets there however loaded the machine
    is (a parallel run, other runs beside it), since what counts is CPU time used, not a rate.
    """
    end = time.monotonic() + timeout
    first_seen: dict[tuple[int, int], float] = {}
    while time.monotonic() < end:
        for parent in parents:
            for pid in cpu_worker_pids(parent):
                with contextlib.suppress(OSError):
                    used = cpu_seconds(pid)
                    if used - first_seen.setdefault((parent, pid), used) >= BUSY_CPU_SECONDS:
                        return parent, pid
        time.sleep(0.05)
    raise TimeoutError(f"no CPU worker of {parents} was busy")


def workers_settled(*parents: int, quiet: float = 0.5, timeout: float = 30) -> None:
    """Wait until each of ``parents`` has a CPU worker and none of their workers has used CPU for
    ``quiet`` seconds: a worker just spawned (the pool's warm-up as a server starts) is busy importing
    for a while, and :func:`busy_worker` would take it for the one computing a move.

    Raises:
        TimeoutError: not settled within ``timeout`` seconds.
    """
    end = time.monotonic() + timeout
    last: dict[int, float] = {}
    still_since = time.monotonic()
    while time.monotonic() < end:
        workers = {parent: cpu_worker_pids(parent) for parent in parents}
        used: dict[int, float] = {}
        for pid in (pid for pids in workers.values() for pid in pids):
            with contextlib.suppress(OSError):
                used[pid] = cpu_seconds(pid)
        if used != last or not all(workers.values()):
            last, still_since = used, time.monotonic()
        elif time.monotonic() - still_since >= quiet:
            return
        time.sleep(0.05)
    raise TimeoutError(f"the CPU workers of {parents} did not settle")


def kill(pid: int) -> None:
    """kill -9, as the kernel's out-of-memory killer would."""
    os.kill(pid, signal.SIGKILL)


# --- clients ----------------------------------------------------------------------------------------
async def until_cut_off(client: RoomSocket, timeout: float = 30) -> int:
    """Read until the server closes the socket; its close code."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    try:
        while True:
            await client.next_frame(max(0.01, end - loop.time()))
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else 1006


async def reconnect(client: RoomSocket, timeout: float = 60) -> dict:
    """Open ``client``'s socket again as the page does (backoff from 0.25 s, at most 2 s here) until the
    server accepts it and sends the room; that snapshot, which the client keeps if it is newer."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    delay = 0.25
    with contextlib.suppress(Exception):
        await client.conn.close()
    while True:
        try:
            await client.open(open_timeout=10)
            return await client.wait("room", timeout=10)
        except (OSError, TimeoutError, websockets.InvalidStatus, websockets.ConnectionClosed):
            if loop.time() + delay > end:
                raise
        await asyncio.sleep(delay)
        delay = min(2.0, delay * 2)
