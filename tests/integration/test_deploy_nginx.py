"""The deployment in deploy/, run for real: Debian's nginx with the rendered site file in front of two
daphne processes started exactly as the rendered systemd unit says, on PostgreSQL and Redis.

Two players and a spectator play one game through nginx. The daphne process serving one player is
stopped mid-game; everyone on it reconnects through nginx to the other and play goes on. That process
is started again and the other one stopped, so this time both players and the spectator move over;
the game finishes. Nothing is faked: nginx, daphne, PostgreSQL and Redis are the real ones.

How the unit file is used: it is rendered by deploy/render.py, then read as systemd reads it
(``[Service]`` ``ExecStart=`` with ``%i`` the port, ``Environment=``, ``EnvironmentFile=``,
``WorkingDirectory=``) and each process is started with exactly that command, environment and
directory. ``User=``/``Group=`` and the sandboxing lines are systemd's to apply and are not emulated.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import websockets

from tests.conftest import NGINX
from tests.livekit import ROOT, Device, RoomSocket, free_port, postgres_database, read_metric, terminate, wait_healthy

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.nginx, pytest.mark.slow]

DEPLOY = ROOT / "deploy"
RECORD = ["a1", "b1", "a2", "b2", "a3", "b3", "c1", "b4"]  # yellow (Bob, seat 2) completes row b at level 1


# --- the rendered files -------------------------------------------------------------------------------
def render(*args: str) -> str:
    """Run deploy/render.py as a deployer would; its output."""
    done = subprocess.run([sys.executable, str(DEPLOY / "render.py"), *args], capture_output=True, text=True,
                          timeout=30, check=True)
    return done.stdout


def expand_specifiers(value: str, instance: str) -> str:
    """systemd's ``%i`` (the instance) and ``%%``; any other specifier is an error here, not a guess."""
    out, i = [], 0
    while i < len(value):
        if value[i] == "%":
            spec = value[i + 1:i + 2]
            if spec == "i":
                out.append(instance)
            elif spec == "%":
                out.append("%")
            else:
                raise AssertionError(f"the unit uses %{spec}, which this test does not expand")
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines, ``#`` comments, optional quotes: what EnvironmentFile= accepts here."""
    env = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        key, _, value = line.partition("=")
        env[key.strip()] = " ".join(shlex.split(value)) if value.strip() else ""
    return env


@dataclass
class Unit:
    """The [Service] lines of a systemd unit that say how to start a process."""

    exec_start: str = ""
    working_directory: str = ""
    environment: dict[str, str] = field(default_factory=dict)
    environment_files: list[Path] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str) -> Unit:
        unit, section = cls(), ""
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line
                continue
            key, _, value = line.partition("=")
            if section != "[Service]":
                continue
            if key == "ExecStart":
                unit.exec_start = value
            elif key == "WorkingDirectory":
                unit.working_directory = value
            elif key == "Environment":
                unit.environment.update(item.split("=", 1) for item in shlex.split(value))
            elif key == "EnvironmentFile":
                unit.environment_files.append(Path(value.lstrip("-")))
        assert unit.exec_start and unit.working_directory, "the unit says how to start and where"
        return unit

    def command(self, instance: str) -> list[str]:
        return shlex.split(expand_specifiers(self.exec_start, instance))

    def process_environment(self) -> dict[str, str]:
        # systemd starts services with a small environment of its own; EnvironmentFile= wins over Environment=.
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        env.update(self.environment)
        for path in self.environment_files:
            env.update(read_env_file(path))
        return env


# --- the processes ----------------------------------------------------------------------------------------
def http_get(url: str, *, timeout: float = 5) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


class UnitInstance:
    """``fourinarow@PORT``: one daphne process, started as the unit says, stopped as systemctl stops it."""

    def __init__(self, unit: Unit, port: int, log_dir: Path) -> None:
        self.unit, self.port = unit, port
        self.log = log_dir / f"fourinarow@{port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> UnitInstance:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.unit.command(str(self.port)), cwd=self.unit.working_directory,
                                         env=self.unit.process_environment(), stdout=out, stderr=subprocess.STDOUT)
        wait_healthy(f"http://127.0.0.1:{self.port}/api/health", self.proc, self.log)
        return self

    def stop(self) -> None:
        """KillSignal=SIGTERM, then SIGKILL after TimeoutStopSec, as systemd does."""
        terminate(self.proc)  # SIGTERM, SIGKILL after 15 s (the unit's TimeoutStopSec)

    def sockets_open(self) -> float:
        """This process's gauge of open room sockets, read from its own /metrics."""
        return self.metric("fourinarow_websocket_connections_open")

    def metric(self, name: str, **labels: str) -> float:
        return read_metric(f"http://127.0.0.1:{self.port}", name, **labels)


class Nginx:
    """Debian's nginx, unprivileged, in its own prefix, with the rendered site file included."""

    def __init__(self, site: str, prefix: Path, port: int) -> None:
        self.prefix, self.port = prefix, port
        (prefix / "fourinarow.conf").write_text(site)
        mime = Path("/etc/nginx/mime.types")
        types = f"include {mime};" if mime.exists() else "types { text/css css; application/javascript js; }"
        temp = "\n".join(f"    {kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                                   "uwsgi", "scgi"))
        # One process as this user (no master switching to another user): only the site file is the deploy's.
        (prefix / "nginx.conf").write_text(f"""
daemon off;
master_process off;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    {types}
    access_log {prefix / "access.log"};
{temp}
    include {prefix / "fourinarow.conf"};
}}
""")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Nginx:
        assert NGINX is not None
        args = [NGINX, "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf"),
                "-e", str(self.prefix / "error.log")]
        check = subprocess.run([*args, "-t"], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, check.stderr
        with (self.prefix / "nginx.out").open("ab") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
        wait_healthy(self.http + "/api/health", self.proc, self.prefix / "error.log")
        return self

    def stop(self) -> None:
        terminate(self.proc, signal.SIGQUIT)  # nginx's graceful shutdown


@dataclass
class Deployment:
    nginx: Nginx
    processes: list[UnitInstance]
    static_root: Path
    unit_text: str


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        static_root = tmp_path / "static"
        env_file = tmp_path / "fourinarow.env"
        env_file.write_text("\n".join([
            "# as /etc/fourinarow/env would hold it (deploy/env.example)",
            f"DATABASE_URL={url}",
            f"REDIS_URL={os.environ['REDIS_URL']}",
            f"CHANNEL_PREFIX=t{uuid.uuid4().hex[:8]}",
            "SECRET_KEY=deploy-test-secret-not-for-production",
            "ALLOWED_HOSTS=127.0.0.1,localhost",
            f"STATIC_ROOT={static_root}",
            "LOG_FORMAT=json",
            "CPU_WORKERS=0",
            "CPU_TIME_SCALE=0.05",
            # Reconnecting takes a moment; no stand-in should play for a player who is on the way back.
            "DISCONNECT_GRACE_SECONDS=300",
            "METRICS_ALLOWED_ADDRESSES=127.0.0.1",
        ]) + "\n")
        unit_text = render("systemd", "--app-dir", str(ROOT), "--venv", str(Path(sys.executable).parent.parent),
                           "--user", "nobody", "--env-file", str(env_file))
        unit = Unit.parse(unit_text)
        # Each release: collectstatic once (the migrations ran already), with the processes' own settings.
        subprocess.run([str(Path(sys.executable).parent / "python"), "manage.py", "collectstatic", "--noinput", "-v0"],
                       cwd=unit.working_directory, env=unit.process_environment(), check=True, timeout=300)
        processes = [UnitInstance(unit, free_port(), tmp_path) for _ in range(2)]
        nginx_prefix = tmp_path / "nginx"
        nginx_prefix.mkdir()
        site = render("nginx", *(arg for p in processes for arg in ("--upstream", f"127.0.0.1:{p.port}")),
                      "--listen", f"127.0.0.1:{free_port()}", "--server-name", "localhost",
                      "--static-root", str(static_root))
        nginx = Nginx(site, nginx_prefix, int(site.split("listen 127.0.0.1:")[1].split(";")[0]))
        try:
            for process in processes:
                process.start()
            nginx.start()
            yield Deployment(nginx, processes, static_root, unit_text)
        finally:
            nginx.stop()
            for process in processes:
                process.stop()


# --- the players ------------------------------------------------------------------------------------------
async def connect_through_nginx(d: Deployment, code: str, device: Device) -> tuple[RoomSocket, UnitInstance]:
    """A socket opened through nginx, and the process nginx gave it to (the one whose gauge grew).

    Retried like the page's reconnect: just after a process stopped, nginx may answer 502 for a moment.
    """
    loop = asyncio.get_running_loop()
    end = loop.time() + 45
    while True:
        live = [p for p in d.processes if p.running]
        before = {p.port: p.sockets_open() for p in live}
        try:
            client = await RoomSocket(d.nginx.ws, code, device, d.nginx.http).connect(ping_every=10)
        except (OSError, websockets.InvalidStatus, websockets.ConnectionClosed, TimeoutError):
            if loop.time() > end:
                raise
            await asyncio.sleep(0.5)
            continue
        grown = [p for p in live if p.sockets_open() > before[p.port]]
        assert len(grown) == 1, "one process holds the new socket"
        return client, grown[0]


async def until_closed(client: RoomSocket) -> None:
    """Read until the socket is closed under it (its process stopped)."""
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await client.next_frame(30)


def at_ply(n: int):
    return lambda r: r["game"] is not None and r["game"]["ply"] == n


async def play(clients: dict[str, RoomSocket], start: int, end: int) -> None:
    """Moves ``start`` to ``end - 1`` of RECORD, each by its player once their page shows the move before."""
    for ply in range(start, end):
        mover = clients["ann"] if ply % 2 == 0 else clients["bob"]
        await mover.wait_room(at_ply(ply))
        await mover.drop(RECORD[ply])
    for client in clients.values():
        await client.wait_room(lambda r: r["game"] is not None and r["game"]["ply"] >= end)


async def move_everyone_off(d: Deployment, code: str, clients: dict[str, RoomSocket], where: dict[str, UnitInstance],
                            devices: dict[str, Device], stopping: UnitInstance) -> list[str]:
    """Stop ``stopping``; each socket it served closes and reconnects through nginx. Returns who moved."""
    moved = [name for name in clients if where[name] is stopping]
    stopping.stop()
    for name in moved:
        await until_closed(clients[name])
        clients[name], where[name] = await connect_through_nginx(d, code, devices[name])
        assert where[name] is not stopping and where[name].running
    return moved


async def test_a_game_through_nginx_goes_on_while_its_daphne_processes_stop_in_turn(deployment: Deployment):
    d = deployment
    site = d.nginx.http
    status, body = http_get(site + "/api/health")
    assert status == 200 and b'"status": "ok"' in body
    assert http_get(site + "/metrics")[0] == 404  # metrics are scraped per process, never on the public side
    css = http_get(site + "/static/frontend/app.css")
    assert css == (200, (d.static_root / "frontend" / "app.css").read_bytes())

    devices = {name: Device(site) for name in ("ann", "bob", "eve")}
    for name, device in devices.items():
        device.join(name.capitalize())
    status, room = devices["ann"].request("POST", "/api/rooms", {"ranked": True, "alternate_first": False})
    assert status == 201
    code = room["code"]
    clients: dict[str, RoomSocket] = {}
    where: dict[str, UnitInstance] = {}
    for name, device in devices.items():
        clients[name], where[name] = await connect_through_nginx(d, code, device)
    # least_conn gives each new socket to the process with fewer open: the players sit on different ones.
    assert where["ann"] is not where["bob"]
    await clients["bob"].send(type="sit")
    for client in clients.values():
        await client.wait_room(lambda r: r["seats"][1]["player"] is not None and r["spectators"] == 1)
    await clients["ann"].send(type="start")
    await play(clients, 0, 3)

    # 1. The process serving Ann stops mid-game: she reconnects through nginx to the other; Bob plays on.
    first = where["ann"]
    second = next(p for p in d.processes if p is not first)
    moved = await move_everyone_off(d, code, clients, where, devices, first)
    assert "ann" in moved and "bob" not in moved
    assert clients["ann"].room["game"]["moves"] == RECORD[:3] and clients["ann"].room["you"]["seat"] == 1
    await play(clients, 3, 6)

    # 2. It comes back (systemd's Restart=), and the other one stops: both players and the spectator move.
    first.start()
    moved = await move_everyone_off(d, code, clients, where, devices, second)
    assert sorted(moved) == ["ann", "bob", "eve"]
    assert second.proc is not None and second.proc.poll() is not None
    await play(clients, 6, len(RECORD))
    for client in clients.values():
        final = await client.wait_room(lambda r: r["game"]["status"] == "won")
        assert final["game"]["winner_seat"] == 2 and final["game"]["moves"] == RECORD
    assert clients["eve"].room["you"]["seat"] is None

    # The record, through nginx: every move a person's. The restarted process counted the last two.
    status, record = devices["eve"].request("GET", f"/api/games/{final['game']['id']}")
    assert status == 200 and [m["peg"] for m in record["moves"]] == RECORD
    assert not any(m["cpu"] for m in record["moves"])
    assert first.metric("fourinarow_moves_total", kind="person") == 2
    assert first.sockets_open() == 3
    for client in clients.values():
        await client.close()

    # With no daphne left, nginx still serves the static files itself; the health check says 502.
    first.stop()
    assert http_get(site + "/static/frontend/app.css")[0] == 200
    assert http_get(site + "/api/health")[0] == 502

    # LOG_FORMAT=json from the environment file: each process wrote one JSON object per line.
    for process in d.processes:
        entries = [json.loads(line) for line in process.log.read_text().splitlines() if line.strip()]
        assert entries and all({"time", "level", "logger", "message"} <= entry.keys() for entry in entries)
