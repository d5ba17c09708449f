"""Real server processes for integration tests: daphne on PostgreSQL + Redis, HTTP and websocket clients.

Nothing here is faked: each server is ``daphne config.asgi:application`` in its own process, talking
to the database and channel layer named in its environment.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import websockets

from lobby.protocol.room import apply_move

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def postgres_database(base_url: str) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database on the server of ``base_url``; dropped afterwards."""
    import psycopg

    name = f"live_{uuid.uuid4().hex[:10]}"
    admin_url = base_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = base_url.rsplit("/", 1)[0] + "/" + name
    try:
        migrate(server_env(DATABASE_URL=url))
        yield url
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(env: dict[str, str]) -> None:
    """Apply the migrations to the database that ``env`` names, as a deployment would."""
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=120)


def server_env(**overrides: str) -> dict[str, str]:
    """A server process's environment: this one's, without the services unless ``overrides`` name them."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"DEBUG": "1", "CPU_WORKERS": "1", "CPU_TIME_SCALE": "0.05", "PYTHONUNBUFFERED": "1"})
    env.update(overrides)
    return env


class LiveServer:
    """One daphne process on a free port."""

    def __init__(self, env: dict[str, str], *, log_dir: Path) -> None:
        self.env = env
        self.port = free_port()
        self.log_path = log_dir / f"daphne-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> LiveServer:
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.http + "/api/health", timeout=2) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"daphne did not become healthy: {self.log_path.read_text()[-2000:]}")

    def get(self, path: str) -> tuple[int, Any]:
        """GET ``path`` without cookies: the status and the JSON body."""
        try:
            with urllib.request.urlopen(self.http + path, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def metric(self, name: str, **labels: str) -> float:
        """A sample of this process's own ``GET /metrics``."""
        from prometheus_client.parser import text_string_to_metric_families

        with urllib.request.urlopen(self.http + "/metrics", timeout=10) as response:
            text = response.read().decode()
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == name and sample.labels == labels:
                    return float(sample.value)
        raise AssertionError(f"{name} {labels} is not in the metrics of port {self.port}")

    def kill(self) -> None:
        """kill -9: the process dies mid-whatever, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Device:
    """A browser-like HTTP client with its own cookies (its own session: its own player)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name and c.value is not None)

    def request(self, method: str, path: str, body: Any = None, *, base: str | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request((base or self.base) + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if method != "GET":
            req.add_header("X-CSRFToken", self.cookie("csrftoken"))
        try:
            with self.opener.open(req, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def join(self, name: str) -> dict[str, Any]:
        self.request("GET", "/api/session")
        status, body = self.request("POST", "/api/session", {"name": name})
        assert status in (200, 201), body
        return dict(body["player"])

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class WsClient:
    """A websocket client on a live server, keeping the latest room snapshot."""

    def __init__(self, server_ws: str, code: str, device: Device, origin: str) -> None:
        self.url = f"{server_ws}/ws/rooms/{code}/"
        self.headers = {"Cookie": device.cookie_header(), "Origin": origin}
        self.room: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.conn: Any = None
        self.pinger: asyncio.Task[None] | None = None

    async def connect(self, *, ping_every: float | None = None) -> WsClient:
        """Open the socket; with ``ping_every``, ping in the background as the browser does."""
        self.conn = await websockets.connect(self.url, additional_headers=self.headers, open_timeout=10)
        await self.wait_room(lambda room: True)
        if ping_every is not None:
            self.pinger = asyncio.get_running_loop().create_task(self._ping(ping_every))
        return self

    async def _ping(self, every: float) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.sleep(every)
                await self.send(type="ping")

    async def send(self, **frame: Any) -> None:
        await self.conn.send(json.dumps(frame))

    async def next_frame(self, timeout: float) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.conn.recv(), timeout))
        self.log.append(frame)
        if frame["type"] == "room" and (self.room is None or frame["version"] >= self.room["version"]):
            self.room = frame
        elif frame["type"] == "move" and self.room is not None and frame["version"] > self.room["version"]:
            applied = apply_move(self.room, frame)
            if applied is None:  # a gap (two processes' sends may cross): ask for the room, as the page does
                await self.send(type="sync")
            else:
                self.room = applied
        return frame

    async def wait(self, kind: str, predicate: Callable[[dict[str, Any]], bool] | None = None,
                   timeout: float = 20) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            frame = await self.next_frame(max(0.01, end - loop.time()))
            if frame["type"] == kind and (predicate is None or predicate(frame)):
                return frame

    async def wait_room(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        """The room (room frames with move frames applied) once it satisfies ``predicate``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.room is None or not predicate(self.room):
            await self.next_frame(max(0.01, end - loop.time()))
        return self.room

    async def drop(self, peg: str) -> None:
        assert self.room is not None and self.room["game"] is not None
        await self.send(type="drop", peg=peg, ply=self.room["game"]["ply"])

    async def close(self) -> None:
        if self.pinger is not None:
            self.pinger.cancel()
        if self.conn is not None:
            await self.conn.close()
