"""A server of our own: ``daphne`` on a free port, its environment, its migrations, its log and metrics.

Every process the tests and the benchmarks start goes through here, so there is one start-up timeout,
one way to wait for health and one reading of a log's errors.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from harness import procfs
from harness.ports import HOST, free_port

# A JSON body, sent or decoded: json gives and takes Any (docs/protocol.md has each one's fields).
Json = Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
APP = "config.asgi:application"
HEALTH = "/api/health"
# How long a process may take to answer its health check: a healthy one answers within a few seconds,
# this bounds only a failure, on a loaded two-core machine.
STARTUP_TIMEOUT = 60.0
MIGRATE_TIMEOUT = 300.0
STOP_TIMEOUT = 15.0  # SIGTERM, then SIGKILL after this many seconds, as systemd's TimeoutStopSec
HTTP_TIMEOUT = 30.0
# The services a server uses only when told to: never inherited from the environment of the caller.
SERVICES = ("DATABASE_URL", "REDIS_URL", "CHANNEL_PREFIX")
# What every spawned server gets unless overridden: one CPU worker, unbuffered logs.
DEFAULTS = {"CPU_WORKERS": "1", "PYTHONUNBUFFERED": "1"}
# The server's quotas against scripts (README); a load generator is one address creating every room.
# (Registrations, guests and arena joins too: a live test or benchmark makes all of its from one address.)
ROOM_QUOTAS = ("ROOMS_PER_HOUR_PER_DEVICE", "ROOMS_PER_HOUR_PER_ADDRESS", "ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS",
               "REGISTRATIONS_PER_MINUTE_PER_ADDRESS", "REGISTRATIONS_PER_DAY_PER_ADDRESS",
               "GUESTS_PER_HOUR_PER_ADDRESS", "ARENA_ACTIONS_PER_MINUTE_PER_ADDRESS")
# What marks trouble in a server log: tracebacks, daphne's "Exception inside application", Django's
# 500 lines, SQLite lock errors, lines logged at ERROR or CRITICAL (text or JSON format), and the lines in
# which this project reports a failure it recovered from (a frame, a clean-up: they say "failed").
LOG_ERROR = re.compile(
    r"Traceback|Exception inside application|Internal Server Error|database is locked|\b(ERROR|CRITICAL)\b|failed"
)


def server_env(**overrides: str) -> dict[str, str]:
    """A server process's environment: this one's without ``SERVICES``, then ``DEFAULTS``, then ``overrides``.

    A server uses PostgreSQL, Redis or a channel prefix only when ``overrides`` name them (else the
    embedded default: the SQLite file of ``SQLITE_PATH`` and the in-memory layer).
    """
    env = {k: v for k, v in os.environ.items() if k not in SERVICES}
    env.update(DEFAULTS)
    env.update(overrides)
    return env


def lifted_quotas() -> dict[str, str]:
    """The room quotas raised out of reach (unless this environment sets them): for load from one address."""
    return {quota: os.environ.get(quota) or str(10**9) for quota in ROOM_QUOTAS}


def migrate(env: dict[str, str]) -> None:
    """Apply the migrations to the database that ``env`` names, as a deployment would.

    Raises:
        subprocess.CalledProcessError: the migration failed.
    """
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=MIGRATE_TIMEOUT)


def log_errors(path: Path) -> list[str]:
    """The lines of the log at ``path`` that report an error (``LOG_ERROR``); none if there is no log."""
    if not path.exists():
        return []
    return [line for line in path.read_text(errors="replace").splitlines() if LOG_ERROR.search(line)]


def wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = STARTUP_TIMEOUT) -> None:
    """Return once ``GET url`` answers 200.

    Raises:
        RuntimeError: ``proc`` exited first, or ``timeout`` seconds passed; with the end of ``log``.
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited:\n{_tail(log)}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not become healthy within {timeout:g} s:\n{_tail(log)}")


def _tail(log: Path) -> str:
    return log.read_text(errors="replace")[-3000:] if log.exists() else "(no log)"


def read_metric(base: str, name: str, **labels: str) -> float:
    """A sample of the ``GET /metrics`` of the process at ``base`` (``http://HOST:PORT``).

    Raises:
        AssertionError: no sample of that name has exactly those labels.
    """
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(base + "/metrics", timeout=HTTP_TIMEOUT) as response:
        text = response.read().decode()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    raise AssertionError(f"{name} {labels} is not in the metrics of {base}")


def terminate(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    """Send ``sig`` to a running ``proc``; SIGKILL if it is still there after ``STOP_TIMEOUT`` seconds.

    Then its processes that outlive it (a killed daphne's CPU workers) are killed, as a service manager
    does with the rest of a stopped unit's control group: none is left running, orphaned, after a test.
    """
    if proc is None or proc.poll() is not None:
        return
    try:
        below = procfs.descendants(proc.pid)
    except OSError:  # no /proc: nothing to clean after it
        below = []
    proc.send_signal(sig)
    try:
        proc.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(STOP_TIMEOUT)
    for pid, started in below:
        procfs.kill_if_same(pid, started, signal.SIGKILL)


def command(runner: str, app: str, port: int) -> list[str]:
    """The command line that serves ``app`` on ``HOST:port`` with ``runner``: ``daphne`` (what the project
    runs on), ``uvicorn`` (a reference line of the benchmark) or ``python`` (``app`` is a script serving
    itself, given the host and port)."""
    if runner == "daphne":  # as deployed: config.serve is daphne with its websocket pings set, no access log
        return [str(BIN / "python"), "-m", "config.serve", "--access-log", os.devnull, "-b", HOST, "-p", str(port),
                app]
    if runner == "uvicorn":
        return [str(BIN / "uvicorn"), "--host", HOST, "--port", str(port), "--lifespan", "off",
                "--log-level", "warning", "--no-access-log", app]
    if runner == "python":
        return [str(BIN / "python"), app, HOST, str(port)]
    raise ValueError(f"unknown runner {runner!r}: daphne, uvicorn or python")


class LiveServer:
    """One server process (``runner``: daphne unless told) serving ``app`` on a free port of 127.0.0.1,
    logging to ``log_dir``.

    The caller migrates the database first (``migrate``) and stops the server in a ``finally``.
    """

    def __init__(self, env: dict[str, str], *, log_dir: Path, app: str = APP, health: str = HEALTH,
                 name: str = "daphne", runner: str = "daphne") -> None:
        self.env = env
        self.app = app
        self.runner = runner
        self.health = health
        self.port = free_port()
        self.log_path = log_dir / f"{name}-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://{HOST}:{self.port}"

    def start(self, timeout: float = STARTUP_TIMEOUT) -> LiveServer:
        """Start the process and return once its health check answers 200.

        Raises:
            RuntimeError: it exited or did not become healthy within ``timeout`` seconds (then it is stopped:
                a server that never answered is not left running behind the failed test).
        """
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                command(self.runner, self.app, self.port), cwd=ROOT, env=self.env, stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_healthy(self.http + self.health, self.proc, self.log_path, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """SIGTERM, as ``systemctl stop`` does (SIGKILL if it lingers); nothing if it is not running."""
        terminate(self.proc)

    def kill(self) -> None:
        """kill -9: the process dies mid-whatever, as in a crash."""
        terminate(self.proc, signal.SIGKILL)

    def get(self, path: str) -> tuple[int, Json]:
        """GET ``path`` without cookies: the status and the JSON body."""
        try:
            with urllib.request.urlopen(self.http + path, timeout=HTTP_TIMEOUT) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def metric(self, name: str, **labels: str) -> float:
        """A sample of this process's own ``GET /metrics`` (``read_metric``)."""
        return read_metric(self.http, name, **labels)

    def log_errors(self) -> list[str]:
        """The lines of this server's log that report an error (``LOG_ERROR``)."""
        return log_errors(self.log_path)

    def cpu_seconds(self) -> float | None:
        """CPU seconds (user + system) the process and its workers (the CPU pool's lanes) have used; None if it
        is not running or /proc is missing."""
        try:
            return procfs.tree_cpu_seconds(self.proc.pid) if self.proc is not None else None
        except OSError:
            return None

    def threads(self) -> int:
        """How many threads the process runs right now.

        Raises:
            OSError: it is not running, or there is no /proc.
        """
        if self.proc is None:
            raise OSError("the server is not running")
        return procfs.thread_count(self.proc.pid)

    def thread_names(self) -> Counter[str]:
        """The process's threads right now by the name the kernel knows each by (``procfs.thread_names``).

        Raises:
            OSError: it is not running, or there is no /proc.
        """
        if self.proc is None:
            raise OSError("the server is not running")
        return procfs.thread_names(self.proc.pid)

    def rss_bytes(self) -> int | None:
        """The process's resident memory; None if it is not running or /proc is missing."""
        try:
            return procfs.rss_bytes(self.proc.pid) if self.proc is not None else None
        except OSError:
            return None


@contextlib.contextmanager
def running(env: dict[str, str], count: int, *, log_dir: Path, app: str = APP, health: str = HEALTH,
            name: str = "daphne", runner: str = "daphne") -> Iterator[tuple[LiveServer, ...]]:
    """``count`` servers of ``env`` started one after the other (``LiveServer``), all stopped afterwards,
    also when one fails to start. The caller has migrated the database."""
    servers = tuple(LiveServer(env, log_dir=log_dir, app=app, health=health, name=name, runner=runner)
                    for _ in range(count))
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
