"""Load the running server with concurrent games over the real protocol and time every move.

Run: ``.venv/bin/python scripts/bench_server.py --spawn --games 200 --rate 200 --seconds 30``
(``make bench-server`` runs the whole suite), or ``--url http://HOST:PORT`` to load a server already running
(start that one with the room quotas raised, e.g. ``ROOMS_PER_HOUR_PER_ADDRESS=1000000000``: every room
comes from this one address).

Each game is two devices doing what the page does: ``POST /api/session`` (a player cookie), the host
``POST /api/rooms``, both open ``/ws/rooms/{code}/``, the guest sends ``sit``, the host ``start``, then
the seat to move drops a random legal bead. A move's round trip runs from sending the ``drop`` to
seeing the ``room`` frame with the new ply on the mover's socket. A game that ends is started again.
Moves are offered at ``--rate`` per second in all, spread evenly over the games (each game moves every
``games / rate`` seconds); a game whose moves take longer than that simply moves less often, so
"moves done/s" below the offered rate means the server did not keep up.

The layers, so that a fuller benchmark can reuse them:
  * ``Device`` and ``Socket``: one HTTP client with its cookies, one room websocket.
  * ``run_load(LoadConfig, Stats)``: the load-generator core (set up games, play, stop).
  * ``SpawnedServer`` and ``log_errors``: a daphne process of our own, and errors in its log.
  * ``main``: the command line, progress line and result table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import json
import os
import platform
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from docblock import write_between_markers  # scripts/, beside this file

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PEGS = [f"{row}{column}" for row in "abcd" for column in "1234"]
LEVELS = 4
HTTP_TIMEOUT = 30.0
# The page sends {"type": "ping"} this often (frontend/static/frontend/net.js).
PING_EVERY = 15.0


# --- clients -------------------------------------------------------------------------------------------
class HttpError(Exception):
    """An HTTP call answered with an unexpected status."""


class Device:
    """One browser-like device: its own cookie jar, hence its own session and player.

    The calls are blocking (urllib); the async wrappers run them in a thread, which is plenty for the
    few calls a game needs before it starts.
    """

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def _cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name and c.value is not None), "")

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Send one JSON request; returns (status, decoded body). Writes carry the CSRF header."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if method != "GET":
            req.add_header("X-CSRFToken", self._cookie("csrftoken"))
        try:
            with self.opener.open(req, timeout=HTTP_TIMEOUT) as response:
                return response.status, _json_or_text(response.read())
        except urllib.error.HTTPError as err:
            return err.code, _json_or_text(err.read())

    def expect(self, method: str, path: str, body: Any = None, *, ok: tuple[int, ...] = (200, 201)) -> Any:
        status, answer = self.request(method, path, body)
        if status not in ok:
            raise HttpError(f"{method} {path}: {status} {str(answer)[:200]}")
        return answer

    async def join(self, name: str) -> str:
        """Become a player called ``name``; returns the player id."""
        await asyncio.to_thread(self.request, "GET", "/api/session")
        answer = await asyncio.to_thread(self.expect, "POST", "/api/session", {"name": name})
        return str(answer["player"]["id"])

    async def create_room(self, rules: dict[str, Any]) -> str:
        answer = await asyncio.to_thread(self.expect, "POST", "/api/rooms", rules, ok=(201,))
        return str(answer["code"])

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def _json_or_text(raw: bytes) -> Any:
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return raw[:200].decode("utf-8", "replace")


class SocketClosed(Exception):
    """The server closed the room websocket."""


class Socket:
    """One room websocket. A reader task keeps the newest ``room`` frame and collects ``error`` frames."""

    def __init__(self, device: Device, code: str) -> None:
        self.device = device
        self.url = device.base.replace("http", "ws", 1) + f"/ws/rooms/{code}/"
        self.room: dict[str, Any] | None = None
        self.syncing = False
        self.frames: Counter[str] = Counter()  # frames received, by type
        self.errors: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.changed = asyncio.Event()
        self.conn: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.pinger: asyncio.Task[None] | None = None

    async def open(self, timeout: float) -> Socket:
        headers = {"Cookie": self.device.cookie_header(), "Origin": self.device.base}
        # No keepalive pings of our own (a browser sends none): the server sees only the protocol's frames.
        self.conn = await websockets.connect(self.url, additional_headers=headers, open_timeout=timeout,
                                             max_queue=None, ping_interval=None)
        self.close_code = None
        self.reader = asyncio.get_running_loop().create_task(self._read())
        self.pinger = asyncio.get_running_loop().create_task(self._ping())
        await self.wait(lambda room: True, timeout)
        return self

    async def _ping(self) -> None:
        """Send the protocol's ping every PING_EVERY seconds, as the page does (the server counts a socket
        silent for PING_TIMEOUT_SECONDS as gone, and its seat disconnects)."""
        await asyncio.sleep(random.uniform(0, PING_EVERY))
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await self.conn.send('{"type":"ping"}')
                await asyncio.sleep(PING_EVERY)

    async def _read(self) -> None:
        try:
            async for raw in self.conn:
                frame = json.loads(raw)
                self.frames[frame["type"]] += 1
                if frame["type"] == "room" and (self.room is None or frame["version"] >= self.room["version"]):
                    self.room = frame
                    self.syncing = False
                elif frame["type"] == "move" and not self.syncing and self.room is not None:
                    applied = apply_move(self.room, frame)
                    if applied is not None:
                        self.room = applied
                    elif frame["version"] > self.room["version"]:  # a gap: ask for the room, as the page does
                        self.syncing = True
                        await self.conn.send(json.dumps({"type": "sync"}))
                elif frame["type"] == "error":
                    self.errors.append(frame)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = self.conn.close_code if self.conn.close_code is not None else 1006
            self.changed.set()

    async def send(self, **frame: Any) -> None:
        try:
            await self.conn.send(json.dumps(frame))
        except websockets.ConnectionClosed:
            raise SocketClosed(str(self.conn.close_code)) from None

    async def wait(self, predicate: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        """The newest room frame once it satisfies ``predicate``.

        Raises:
            TimeoutError: not within ``timeout`` seconds. SocketClosed: the socket closed meanwhile.
        """
        async with asyncio.timeout(timeout):
            while True:
                if self.room is not None and predicate(self.room):
                    return self.room
                if self.close_code is not None:
                    raise SocketClosed(str(self.close_code))
                self.changed.clear()
                await self.changed.wait()

    async def close(self) -> None:
        if self.pinger is not None:
            self.pinger.cancel()
        if self.conn is not None:
            await self.conn.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await self.reader


# --- the load-generator core ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LoadConfig:
    """What load to offer.

    Attributes:
        url: the server's base URL (``http://127.0.0.1:8000``).
        games: games played at the same time (two devices and two websockets each).
        rate: moves per second offered across all games.
        seconds: how long to play once every game is set up.
        setup_concurrency: games being set up at once (each is a few HTTP calls and two handshakes).
        move_timeout: seconds without the room frame of a move before it counts as lost.
        room_creators: extra devices creating rooms over HTTP in a loop while the games play.
        guest_url: where the second player of each game connects (another server process), if not ``url``.
        A ``rate`` of 0 or less plays closed-loop: each game moves again as soon as its last move is seen.
    """

    url: str
    games: int = 200
    rate: float = 200.0
    seconds: float = 30.0
    setup_concurrency: int = 20
    move_timeout: float = 10.0
    room_creators: int = 0
    guest_url: str | None = None


@dataclass(slots=True)
class Stats:
    """What happened, filled in while the load runs (one event loop: no locking needed)."""

    round_trips: list[tuple[float, float]] = field(default_factory=list)  # (loop time done, seconds)
    errors: Counter[str] = field(default_factory=Counter)
    games_set_up: int = 0
    games_restarted: int = 0
    rooms_created: int = 0
    started_at: float | None = None  # loop time when play began
    ended_at: float | None = None
    client_cpu: float = 0.0  # CPU seconds this process used while the games played
    server_cpu: float | None = None  # CPU seconds the spawned server used meanwhile (None: not known)

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def moves_between(self, start: float, end: float) -> list[float]:
        return [rtt for at, rtt in self.round_trips if start <= at < end]


MOVE_GAME_FIELDS = ("ply", "to_move_seat", "deadline", "status", "winner_seat", "line", "reason", "threats")


def apply_move(room: dict[str, Any], move: dict[str, Any]) -> dict[str, Any] | None:
    """The room a ``move`` frame makes of the last one, as every client applies it (docs/protocol.md);
    None when it does not follow (then the client asks for the room with ``sync``)."""
    game = room.get("game")
    if game is None or move["version"] != room["version"] + 1 or game["id"] != move["game"] \
            or move["ply"] != len(game["moves"]) + 1:
        return None
    new_game = {**game, "moves": [*game["moves"], move["peg"]], **{f: move[f] for f in MOVE_GAME_FIELDS}}
    return {**room, "version": move["version"], "game": new_game}


def legal_pegs(moves: list[str]) -> list[str]:
    """The pegs with room for another bead after ``moves``."""
    filled = Counter(moves)
    return [peg for peg in PEGS if filled[peg] < LEVELS]


def _game_of(room: dict[str, Any]) -> dict[str, Any] | None:
    game: dict[str, Any] | None = room.get("game")
    return game


async def paced(step: Callable[[], Awaitable[None]], until: float, interval: float, rng: random.Random) -> None:
    """Run ``step`` every ``interval`` seconds (0: back to back) from a random offset until loop time
    ``until``; a step that overruns its slot delays the next one rather than piling them up."""
    loop = asyncio.get_running_loop()
    next_at = loop.time() + rng.uniform(0, interval)
    while next_at < until:  # not one sleep past the window: the rate is counted over the window
        delay = next_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        await step()
        next_at = max(next_at + interval, loop.time())


class GameDriver:
    """Two devices in one room playing random legal moves, one every ``interval`` seconds."""

    def __init__(self, index: int, config: LoadConfig, stats: Stats) -> None:
        self.index = index
        self.config = config
        self.stats = stats
        self.rng = random.Random(index)
        self.host = Device(config.url)
        self.guest = Device(config.guest_url or config.url)
        self.code = ""
        self.sockets: dict[int, Socket] = {}  # by seat number

    async def set_up(self) -> None:
        """Players, room, both sockets open, both seated, first game started."""
        timeout = self.config.move_timeout
        await self.host.join(f"Host {self.index}")
        await self.guest.join(f"Guest {self.index}")
        self.code = await self.host.create_room({"ranked": False})
        host = await Socket(self.host, self.code).open(timeout)
        guest = await Socket(self.guest, self.code).open(timeout)
        await guest.send(type="sit")
        await host.wait(lambda r: r["seats"][1]["player"] is not None, timeout)
        self.sockets = {1: host, 2: guest}
        await self._start()

    async def _start(self, after_version: int = 0) -> None:
        """The host starts the next game; returns once its socket shows it (a room newer than ``after_version``)."""
        host = self.sockets[1]
        await host.send(type="start")
        await host.wait(lambda r: r["version"] > after_version and (g := _game_of(r)) is not None
                        and g["status"] == "playing", self.config.move_timeout)

    async def play(self, until: float, interval: float) -> None:
        """Move every ``interval`` seconds until loop time ``until``; failures are counted, play goes on."""
        await paced(self._move_counted, until, interval, self.rng)

    async def _move_counted(self) -> None:
        try:
            await self._move()
        except SocketClosed as exc:
            self.stats.error(f"socket closed {exc}")
            await self._reopen()
        except TimeoutError:
            self.stats.error("move lost (no room frame)")
            await self._reopen()
        except Exception as exc:  # keep loading; the table shows what went wrong
            self.stats.error(f"client {type(exc).__name__}")
            await self._reopen()

    def _newest_room(self) -> dict[str, Any] | None:
        """The newest room either player's socket has seen (the other may not have the last move yet)."""
        rooms = [sock.room for sock in self.sockets.values() if sock.room is not None]
        return max(rooms, key=lambda room: room["version"], default=None)

    async def _move(self) -> None:
        room = self._newest_room()
        game = _game_of(room) if room is not None else None
        if game is None or game["status"] != "playing":
            self.stats.games_restarted += 1
            await self._start(after_version=room["version"] if room is not None else 0)
            room = self._newest_room()
            game = _game_of(room) if room is not None else None
            assert game is not None
        mover = self.sockets[game["to_move_seat"]]
        game_id, ply = game["id"], game["ply"]
        if mover.room is None or mover.room["version"] < room["version"]:
            # The mover's own socket has not seen the last move yet: a person waits for it too.
            await mover.wait(lambda r: r["version"] >= room["version"], self.config.move_timeout)
        peg = self.rng.choice(legal_pegs(game["moves"]))
        errors_before = len(mover.errors)
        loop = asyncio.get_running_loop()
        sent = loop.time()
        await mover.send(type="drop", peg=peg, ply=ply)

        def applied(r: dict[str, Any]) -> bool:
            g = _game_of(r)
            return len(mover.errors) > errors_before or (g is not None and (g["id"] != game_id or g["ply"] > ply))

        await mover.wait(applied, self.config.move_timeout)
        if len(mover.errors) > errors_before:
            self.stats.error(f"error frame {mover.errors[-1]['code']}")
            return
        done = loop.time()
        self.stats.round_trips.append((done, done - sent))

    async def _reopen(self) -> None:
        """Reconnect closed sockets, as the page does, and carry on from the fresh snapshot."""
        for seat, sock in list(self.sockets.items()):
            if sock.close_code is not None:
                with contextlib.suppress(Exception):
                    self.sockets[seat] = await Socket(sock.device, self.code).open(self.config.move_timeout)

    async def close(self) -> None:
        for sock in self.sockets.values():
            with contextlib.suppress(Exception):
                await sock.close()


async def create_rooms_forever(index: int, config: LoadConfig, stats: Stats) -> None:
    """A device that creates rooms over HTTP in a loop: other writers beside the games."""
    device = Device(config.url)
    await device.join(f"Creator {index}")
    while True:
        try:
            await device.create_room({"ranked": False})
            stats.rooms_created += 1
        except HttpError as exc:
            stats.error(f"room create {str(exc).split(':')[1].split()[0]}")


async def run_load(config: LoadConfig, stats: Stats,
                   progress: Callable[[Stats], Awaitable[None]] | None = None,
                   server_cpu: Callable[[], float | None] = lambda: None) -> None:
    """Set up ``config.games`` games, play them for ``config.seconds``, close everything.

    ``progress`` (if given) is awaited about every two seconds while the games play; ``server_cpu``
    reads the server's CPU seconds so far, if known.
    """
    loop = asyncio.get_running_loop()
    drivers = [GameDriver(i, config, stats) for i in range(config.games)]
    gate = asyncio.Semaphore(config.setup_concurrency)

    async def set_up(driver: GameDriver) -> GameDriver | None:
        async with gate:
            try:
                await driver.set_up()
            except Exception as exc:
                stats.error(f"setup {type(exc).__name__}")
                await driver.close()
                return None
        stats.games_set_up += 1
        return driver

    ready = [d for d in await asyncio.gather(*(set_up(d) for d in drivers)) if d is not None]
    creators = [loop.create_task(create_rooms_forever(i, config, stats)) for i in range(config.room_creators)]
    stats.started_at = loop.time()
    cpu_before, server_before = time.process_time(), server_cpu()
    until = stats.started_at + config.seconds
    # The offered rate holds even if some games failed to set up; closed-loop without a rate.
    interval = len(ready) / config.rate if config.rate > 0 else 0.0
    players = [loop.create_task(d.play(until, interval)) for d in ready]
    reporter = loop.create_task(_report_every(2.0, stats, progress)) if progress is not None else None
    try:
        await asyncio.gather(*players)
    finally:
        stats.ended_at = loop.time()
        stats.client_cpu = time.process_time() - cpu_before
        server_after = server_cpu()
        if server_before is not None and server_after is not None:
            stats.server_cpu = server_after - server_before
        for task in [*creators, *([reporter] if reporter else [])]:
            task.cancel()
        await asyncio.gather(*creators, return_exceptions=True)
        await asyncio.gather(*(d.close() for d in ready))


async def _report_every(every: float, stats: Stats, progress: Callable[[Stats], Awaitable[None]]) -> None:
    while True:
        await asyncio.sleep(every)
        await progress(stats)


# --- a server of our own -------------------------------------------------------------------------------
# What marks trouble in a server log: tracebacks, daphne's "Exception inside application", Django's
# 500 lines, SQLite lock errors, lines logged at ERROR or CRITICAL (text or JSON format), and the lines in
# which this project reports a failure it recovered from (a frame, a clean-up: they say "failed").
LOG_ERROR = re.compile(
    r"Traceback|Exception inside application|Internal Server Error|database is locked|\b(ERROR|CRITICAL)\b|failed"
)
# The server's quotas against scripts (README); a load generator is one address creating every room.
ROOM_QUOTAS = ("ROOMS_PER_HOUR_PER_DEVICE", "ROOMS_PER_HOUR_PER_ADDRESS", "ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS")


def log_errors(path: Path) -> list[str]:
    """The lines of the server log at ``path`` that report an error."""
    if not path.exists():
        return []
    return [line for line in path.read_text(errors="replace").splitlines() if LOG_ERROR.search(line)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SpawnedServer:
    """``daphne config.asgi:application`` as ``make run`` starts it, on a free port.

    With no ``DATABASE_URL`` in the environment it gets a fresh SQLite file in a temporary directory
    (the embedded default); otherwise it uses ``DATABASE_URL`` and ``REDIS_URL`` as they are. The room
    quotas are lifted (unless the environment sets them): all the load comes from one address.
    """

    def __init__(self, workdir: Path, *, env: dict[str, str] | None = None, app: str = "config.asgi:application",
                 health: str = "/api/health", name: str = "daphne") -> None:
        self.port = free_port()
        self.log_path = workdir / f"{name}-{self.port}.log"
        self.env = dict(os.environ if env is None else env, PYTHONUNBUFFERED="1")
        for quota in ROOM_QUOTAS:  # every game's room comes from this one address
            self.env.setdefault(quota, str(10**9))
        if not self.env.get("DATABASE_URL"):
            self.env["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
        self.app = app
        self.health = health
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float | None:
        """CPU seconds (user + system) the daphne process has used, from /proc; None elsewhere."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (AttributeError, OSError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_bytes(self) -> int | None:
        """The daphne process's resident memory, from /proc; None elsewhere."""
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except (AttributeError, OSError):
            return None
        return next(int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:"))

    def describe(self) -> str:
        database = "PostgreSQL" if self.env.get("DATABASE_URL") else "SQLite file"
        layer = "Redis" if self.env.get("REDIS_URL") else "in-memory layer"
        return f"daphne on {database}, {layer}, {self.url}"

    def start(self, timeout: float = 60.0, *, migrate: bool = True) -> SpawnedServer:
        if migrate:
            subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                           env=self.env, check=True, timeout=300)
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port), self.app],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited:\n{self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + self.health, timeout=2) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        raise RuntimeError(f"daphne did not become healthy:\n{self.log_path.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)


@contextlib.contextmanager
def spawned_server(keep_log: Path | None) -> Iterator[SpawnedServer]:
    """A started ``SpawnedServer`` in a temporary directory; its log is copied to ``keep_log`` if given."""
    with tempfile.TemporaryDirectory(prefix="bench-server-") as workdir:
        server = SpawnedServer(Path(workdir))
        try:
            server.start()
            yield server
        finally:
            server.stop()
            if keep_log is not None and server.log_path.exists():
                keep_log.write_bytes(server.log_path.read_bytes())


# --- the suite: the echo baseline, three configurations, idle sockets, a spectator storm -----------------
@dataclass(slots=True)
class Row:
    """One line of the suite's table."""

    config: str
    scenario: str
    offered: str
    done: float  # moves (or echoes) per second
    p50: float  # seconds
    p99: float
    errors: int
    note: str = ""


def _row(config: str, scenario: str, offered: float, stats: Stats, note: str = "") -> Row:
    assert stats.started_at is not None and stats.ended_at is not None
    rtts = [rtt for _, rtt in stats.round_trips]
    cpu = "" if stats.server_cpu is None else f"server {stats.server_cpu / (stats.ended_at - stats.started_at):.0%}"
    kinds = "; ".join(f"{kind} x{count}" for kind, count in stats.errors.most_common(2))
    extra = ", ".join(x for x in (cpu, f"client {stats.client_cpu / (stats.ended_at - stats.started_at):.0%}",
                                  note, kinds) if x)
    return Row(config, scenario, "saturate" if offered <= 0 else f"{offered:g}/s",
               len(rtts) / (stats.ended_at - stats.started_at), percentile(rtts, 0.5), percentile(rtts, 0.99),
               sum(stats.errors.values()), extra)


class EchoPair:
    """Two sockets of one echo pair; the mover alternates, as the seats of a game do."""

    def __init__(self, index: int, url: str, other_url: str, stats: Stats, timeout: float) -> None:
        self.index = index
        self.urls = (url, other_url)
        self.stats = stats
        self.timeout = timeout
        self.rng = random.Random(index)
        self.conns: list[Any] = []
        self.seen: list[asyncio.Queue[str]] = []
        self.readers: list[asyncio.Task[None]] = []
        self.count = 0

    async def set_up(self) -> None:
        for url in self.urls:
            conn = await websockets.connect(url.replace("http", "ws", 1) + f"/ws/echo/{self.index}/",
                                            open_timeout=self.timeout, max_queue=None)
            queue: asyncio.Queue[str] = asyncio.Queue()
            self.conns.append(conn)
            self.seen.append(queue)
            self.readers.append(asyncio.get_running_loop().create_task(self._read(conn, queue)))

    @staticmethod
    async def _read(conn: Any, queue: asyncio.Queue[str]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in conn:
                queue.put_nowait(json.loads(raw)["n"])

    async def play(self, until: float, interval: float) -> None:
        await paced(self._echo, until, interval, self.rng)

    async def _echo(self) -> None:
        loop = asyncio.get_running_loop()
        mover = self.count % 2
        self.count += 1
        tag = f"{self.index}:{self.count}"
        sent = loop.time()
        try:
            await self.conns[mover].send(json.dumps({"type": "drop", "peg": "a1", "n": tag}))
            async with asyncio.timeout(self.timeout):
                while await self.seen[mover].get() != tag:
                    pass
            done = loop.time()
            self.stats.round_trips.append((done, done - sent))
        except Exception as exc:
            self.stats.error(f"echo {type(exc).__name__}")

    async def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(Exception):
                await conn.close()
        for reader in self.readers:
            reader.cancel()


async def _set_up_all(drivers: list[Any], concurrency: int, stats: Stats) -> list[Any]:
    gate = asyncio.Semaphore(concurrency)

    async def one(driver: Any) -> Any:
        async with gate:
            try:
                await driver.set_up()
                return driver
            except Exception as exc:
                stats.error(f"setup {type(exc).__name__}")
                await driver.close()
                return None

    return [d for d in await asyncio.gather(*(one(d) for d in drivers)) if d is not None]


async def play_phases(drivers: list[Any], phases: list[tuple[float, float]], server_cpu: Callable[[], float | None],
                      label: str) -> list[Stats]:
    """Play the set-up ``drivers`` through each (rate, seconds) phase in turn; the Stats of each."""
    loop = asyncio.get_running_loop()
    results = []
    for rate, seconds in phases:
        stats = Stats(games_set_up=len(drivers))
        for driver in drivers:
            driver.stats = stats
        stats.started_at = loop.time()
        cpu_before, server_before = time.process_time(), server_cpu()
        interval = len(drivers) / rate if rate > 0 else 0.0
        reporter = loop.create_task(_report_every(5.0, stats, _phase_progress(label, rate)))
        await asyncio.gather(*(d.play(stats.started_at + seconds, interval) for d in drivers))
        reporter.cancel()
        stats.ended_at = loop.time()
        stats.client_cpu = time.process_time() - cpu_before
        server_after = server_cpu()
        if server_before is not None and server_after is not None:
            stats.server_cpu = server_after - server_before
        results.append(stats)
    return results


def _phase_progress(label: str, rate: float) -> Callable[[Stats], Awaitable[None]]:
    async def show(stats: Stats) -> None:
        now = asyncio.get_running_loop().time()
        assert stats.started_at is not None
        window = stats.moves_between(now - 5.0, now)
        offered = "saturate" if rate <= 0 else f"{rate:g}/s"
        print(f"  {label} {offered}: {now - stats.started_at:5.1f} s  {len(window) / 5.0:7.1f} moves/s  "
              f"p50 {percentile(window, 0.5) * 1000:6.1f} ms  p99 {percentile(window, 0.99) * 1000:6.1f} ms  "
              f"errors {sum(stats.errors.values())}", flush=True)

    return show


async def echo_phases(urls: tuple[str, str], pairs: int, phases: list[tuple[float, float]],
                      server_cpu: Callable[[], float | None], label: str) -> list[Stats]:
    setup_stats = Stats()
    drivers = [EchoPair(i, urls[0], urls[1], setup_stats, 10.0) for i in range(pairs)]
    ready = await _set_up_all(drivers, 50, setup_stats)
    try:
        return await play_phases(ready, phases, server_cpu, label)
    finally:
        await asyncio.gather(*(d.close() for d in ready))


async def game_phases(url: str, guest_url: str | None, games: int, phases: list[tuple[float, float]],
                      server_cpu: Callable[[], float | None], label: str) -> list[Stats]:
    setup_stats = Stats()
    config = LoadConfig(url=url, games=games, guest_url=guest_url, setup_concurrency=20)
    drivers = [GameDriver(i, config, setup_stats) for i in range(games)]
    started = time.monotonic()
    ready = await _set_up_all(drivers, config.setup_concurrency, setup_stats)
    print(f"  {label}: {len(ready)} games set up in {time.monotonic() - started:.0f} s "
          f"({sum(setup_stats.errors.values())} failed)", flush=True)
    try:
        return await play_phases(ready, phases, server_cpu, label)
    finally:
        await asyncio.gather(*(d.close() for d in ready))


async def idle_cost(server: SpawnedServer, sockets: int, settle: float, measure: float) -> tuple[float, float]:
    """RSS (bytes) and CPU (share of a core) per 1,000 idle sockets that ping every 15 s, as the page does,
    above what the process uses at rest without them."""
    device = Device(server.url)
    await device.join("Idle host")
    codes = [await device.create_room({"ranked": False}) for _ in range(max(1, sockets // 20))]
    await asyncio.sleep(2)
    rss_before = server.rss_bytes() or 0
    cpu_start = server.cpu_seconds() or 0.0
    await asyncio.sleep(measure)  # the process's own cost at rest (its scheduler ticks), to subtract
    baseline = ((server.cpu_seconds() or 0.0) - cpu_start) / measure
    conns: list[Any] = []

    async def ping_forever(conn: Any, offset: float) -> None:
        await asyncio.sleep(offset)
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await conn.send('{"type":"ping"}')
                await asyncio.sleep(15)

    async def drain(conn: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for _ in conn:
                pass

    async def open_one(i: int) -> None:
        url = server.url.replace("http", "ws", 1) + f"/ws/rooms/{codes[i % len(codes)]}/"
        # As a browser: no websocket-level keepalive of the client's own, the protocol's ping from the start
        # (a socket silent for PING_TIMEOUT_SECONDS while the others open would count as gone, and reopen).
        conn = await websockets.connect(url, additional_headers={"Origin": server.url}, open_timeout=30,
                                        ping_interval=None)
        await asyncio.wait_for(conn.recv(), 30)  # the room: the server has recorded the socket
        conns.append(conn)
        tasks.append(asyncio.get_running_loop().create_task(ping_forever(conn, random.uniform(0, 15))))
        tasks.append(asyncio.get_running_loop().create_task(drain(conn)))

    gate = asyncio.Semaphore(50)
    tasks: list[asyncio.Task[None]] = []

    async def gated(i: int) -> None:
        async with gate:
            await open_one(i)

    await asyncio.gather(*(gated(i) for i in range(sockets)))

    await asyncio.sleep(settle)
    cpu_before, rss_after = server.cpu_seconds() or 0.0, server.rss_bytes() or 0
    await asyncio.sleep(measure)
    cpu_share = ((server.cpu_seconds() or 0.0) - cpu_before) / measure - baseline
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)
    per = 1000 / sockets
    return (rss_after - rss_before) * per, cpu_share * per


async def spectator_storm(url: str, joins: int, spread: float) -> dict[str, float]:
    """Two players move every half second while ``joins`` anonymous sockets join their room within
    ``spread`` seconds; the players' round trips meanwhile, and the frames the room's sockets received."""
    stats = Stats()
    driver = GameDriver(0, LoadConfig(url=url, games=1), stats)
    await driver.set_up()
    loop = asyncio.get_running_loop()
    watchers: list[Socket] = []
    failed = 0

    async def join(i: int) -> None:
        nonlocal failed
        await asyncio.sleep(spread * i / joins)
        try:
            watchers.append(await Socket(Device(url), driver.code).open(30))
        except Exception:
            failed += 1

    stats.started_at = loop.time()
    storm = asyncio.gather(*(join(i) for i in range(joins)))
    await driver.play(loop.time() + spread + 5, 0.5)
    await storm
    stats.ended_at = loop.time()
    await asyncio.sleep(2)  # the last coalesced refresh
    sockets = [*watchers, *driver.sockets.values()]
    frames = sum(sum(sock.frames.values()) for sock in sockets)
    room_frames = sum(w.frames["room"] for w in watchers)
    rtts = [rtt for _, rtt in stats.round_trips]
    result = {"joined": len(watchers), "failed": failed, "moves": len(rtts), "p50": percentile(rtts, 0.5),
              "p99": percentile(rtts, 0.99), "frames": frames, "room_frames": room_frames,
              "errors": sum(stats.errors.values())}
    await asyncio.gather(*(w.close() for w in watchers), return_exceptions=True)
    await driver.close()
    return result


@contextlib.contextmanager
def bench_database(base_url: str) -> Iterator[str]:
    """A fresh PostgreSQL database beside ``base_url``'s (dropped afterwards), so runs never share rows."""
    import psycopg

    name = f"bench_{uuid.uuid4().hex[:8]}"
    admin = base_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CHANNEL_PREFIX"}}
    env.update({"CPU_WORKERS": "1", "LOG_LEVEL": "WARNING"})
    env.update(overrides)
    return env


@dataclass(frozen=True, slots=True)
class SuiteSize:
    games: int = 1000  # the paced run of target 1
    paced_rate: float = 100.0
    saturate_games: int = 200
    seconds: float = 20.0
    embedded_games: int = 200
    embedded_rate: float = 200.0
    idle_sockets: int = 2000
    storm_joins: int = 300


QUICK = SuiteSize(games=100, saturate_games=50, seconds=8.0, embedded_games=50, embedded_rate=50.0,
                  idle_sockets=200, storm_joins=60)


PARTS = ("embedded", "pg1", "pg2", "storm", "idle")


def run_suite(size: SuiteSize, workdir: Path, parts: tuple[str, ...] = PARTS) -> tuple[list[Row], dict[str, Any]]:
    """Every configuration in turn (or those in ``parts``); returns the table rows and the other figures."""
    rows: list[Row] = []
    extra: dict[str, Any] = {}
    pg, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")

    # 1. The embedded default: one process, a SQLite file, the in-memory layer.
    env = _env()
    if "embedded" in parts:
        _embedded(size, workdir, env, rows)
    if not (pg.startswith(("postgres://", "postgresql://")) and redis):
        print("DATABASE_URL (PostgreSQL) and REDIS_URL are not set: the other configurations are skipped")
        return rows, extra
    _postgres(size, workdir, pg, redis, parts, rows, extra)
    return rows, extra


def _embedded(s: SuiteSize, workdir: Path, env: dict[str, str], rows: list[Row]) -> None:
    print("== embedded default (SQLite, in-memory layer), one process", flush=True)
    with _servers(workdir / "embedded", env, 1) as (game,), _servers(workdir / "embedded-echo", env, 1, echo=True) \
            as (echo,):
        [e] = asyncio.run(echo_phases((echo.url, echo.url), s.embedded_games,
                                      [(s.embedded_rate, s.seconds)], echo.cpu_seconds, "echo"))
        rows.append(_row("embedded, 1 process", f"echo, {s.embedded_games} pairs", s.embedded_rate, e))
        [g] = asyncio.run(game_phases(game.url, None, s.embedded_games, [(s.embedded_rate, s.seconds)],
                                      game.cpu_seconds, "game"))
        rows.append(_row("embedded, 1 process", f"game, {s.embedded_games} games", s.embedded_rate, g,
                         f"server-log errors {len(log_errors(game.log_path))}"))


def _postgres(s: SuiteSize, workdir: Path, pg: str, redis: str, parts: tuple[str, ...], rows: list[Row],
              extra: dict[str, Any]) -> None:
    for processes in (1, 2):
        if f"pg{processes}" not in parts and not (processes == 1 and "storm" in parts):
            continue
        label = f"PostgreSQL + Redis, {processes} process{'es' if processes > 1 else ''}"
        print(f"== {label}", flush=True)
        with bench_database(pg) as url:
            env = _env(DATABASE_URL=url, REDIS_URL=redis, CHANNEL_PREFIX=f"bench{uuid.uuid4().hex[:6]}")
            with _servers(workdir / f"pg{processes}", env, processes) as games, \
                    _servers(workdir / f"pg{processes}-echo", env, processes, echo=True) as echoes:
                other = games[-1].url if processes > 1 else None
                echo_urls = (echoes[0].url, echoes[-1].url)
                cpu = _sum_cpu(games)
                echo_cpu = _sum_cpu(echoes)
                if processes == 1 and "storm" in parts:
                    print("== spectator storm", flush=True)
                    extra["storm"] = asyncio.run(spectator_storm(games[0].url, s.storm_joins, 3.0))
                if f"pg{processes}" not in parts:
                    continue
                if processes == 1:
                    [e] = asyncio.run(echo_phases(echo_urls, s.games, [(s.paced_rate, s.seconds)], echo_cpu, "echo"))
                    rows.append(_row(label, f"echo, {s.games} pairs", s.paced_rate, e))
                    [g] = asyncio.run(game_phases(games[0].url, other, s.games, [(s.paced_rate, s.seconds)], cpu,
                                                  "game"))
                    rows.append(_row(label, f"game, {s.games} games", s.paced_rate, g))
                e_paced, e_sat = asyncio.run(echo_phases(
                    echo_urls, s.saturate_games, [(s.paced_rate, s.seconds), (0, s.seconds)], echo_cpu, "echo"))
                rows.append(_row(label, f"echo, {s.saturate_games} pairs", s.paced_rate, e_paced))
                rows.append(_row(label, f"echo, {s.saturate_games} pairs", 0, e_sat))
                g_paced, g_sat = asyncio.run(game_phases(
                    games[0].url, other, s.saturate_games, [(s.paced_rate, s.seconds), (0, s.seconds)], cpu, "game"))
                rows.append(_row(label, f"game, {s.saturate_games} games", s.paced_rate, g_paced))
                rows.append(_row(label, f"game, {s.saturate_games} games", 0, g_sat,
                                 f"server-log errors {sum(len(log_errors(x.log_path)) for x in games)}"))
    if "idle" in parts:
        print("== idle sockets", flush=True)
        with bench_database(pg) as url:
            env = _env(DATABASE_URL=url, REDIS_URL=redis, CHANNEL_PREFIX=f"bench{uuid.uuid4().hex[:6]}")
            with _servers(workdir / "idle", env, 1) as (server,):
                rss, cpu_share = asyncio.run(idle_cost(server, s.idle_sockets, settle=20, measure=30))
                extra["idle"] = {"sockets": s.idle_sockets, "rss_per_1000": rss, "cpu_per_1000": cpu_share}


def _sum_cpu(servers: list[SpawnedServer]) -> Callable[[], float | None]:
    def total() -> float | None:
        values = [x.cpu_seconds() for x in servers]
        return None if any(v is None for v in values) else sum(v for v in values if v is not None)

    return total


@contextlib.contextmanager
def _servers(workdir: Path, env: dict[str, str], count: int, *, echo: bool = False) -> Iterator[list[SpawnedServer]]:
    workdir.mkdir(parents=True, exist_ok=True)
    app, health = ("scripts.echo_asgi:application", "/") if echo else ("config.asgi:application", "/api/health")
    servers = [SpawnedServer(workdir, env=env, app=app, health=health, name="echo" if echo else "daphne")
               for _ in range(count)]
    try:
        for i, server in enumerate(servers):
            server.start(migrate=(i == 0 and not echo))
        yield servers
    finally:
        for server in servers:
            server.stop()


def suite_report(rows: list[Row], extra: dict[str, Any], size: SuiteSize, command: str) -> str:
    """The suite's figures as Markdown: when and where, the table, and the targets side by side."""
    load = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "unknown"
    lines = [
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {platform.node()} "
        f"({os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}), "
        f"`cat /proc/loadavg` at the end: `{load}`. Command: `{command}`.",
        "",
        "| configuration | load | offered | done/s | p50 ms | p99 ms | errors | CPU, notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r.config} | {r.scenario} | {r.offered} | {r.done:.1f} | {r.p50 * 1000:.1f} | "
                     f"{r.p99 * 1000:.1f} | {r.errors} | {r.note} |")
    storm, idle = extra.get("storm"), extra.get("idle")
    if storm:
        joined = storm["joined"]
        lines += ["", f"Spectator storm: {joined} of {size.storm_joins} sockets joined one room within 3 s "
                  f"({storm['failed']} failed) while its two players moved every 0.5 s: {storm['moves']} moves, "
                  f"p50 {storm['p50'] * 1000:.1f} ms, p99 {storm['p99'] * 1000:.1f} ms. The room's sockets received "
                  f"{storm['frames']} frames in all, {storm['room_frames']} of them whole rooms: "
                  f"{storm['room_frames'] / max(1, joined):.1f} room frames per join "
                  f"(one whole room per join to everyone would be {joined * (joined + 1) // 2})."]
    if idle:
        lines += ["", f"Idle sockets: {idle['sockets']} sockets pinging every 15 s cost "
                  f"{idle['rss_per_1000'] / 1024:.0f} KiB of RSS and {idle['cpu_per_1000']:.1%} of a core per 1,000."]
    lines += ["", *target_lines(rows, extra)]
    return "\n".join(lines)


def _find(rows: list[Row], config: str, scenario: str, offered: str) -> Row | None:
    return next((r for r in rows if r.config.startswith(config) and r.scenario.startswith(scenario)
                 and r.offered == offered), None)


def target_lines(rows: list[Row], extra: dict[str, Any]) -> list[str]:
    """Each target of the issue, met or missed, and by how much."""
    out = ["| target | figure | met |", "|---|---|---|"]

    def add(name: str, figure: str, met: bool | None) -> None:
        out.append(f"| {name} | {figure} | {'n/a' if met is None else ('yes' if met else 'NO')} |")

    one, two = "PostgreSQL + Redis, 1 process", "PostgreSQL + Redis, 2 processes"
    echo100 = next((r for r in rows if r.config == one and r.scenario.startswith("echo") and r.offered == "100/s"
                    and "1000" in r.scenario), None) or _find(rows, one, "echo", "100/s")
    game100 = next((r for r in rows if r.config == one and r.scenario.startswith("game") and r.offered == "100/s"
                    and "1000" in r.scenario), None) or _find(rows, one, "game", "100/s")
    if echo100 and game100:
        add("1 process, paced: p50 ≤ 2x echo p50", f"{game100.p50 * 1000:.1f} ms vs echo {echo100.p50 * 1000:.1f} ms "
            f"({game100.p50 / echo100.p50:.1f}x)", game100.p50 <= 2 * echo100.p50)
        add("1 process, paced: p99 ≤ 50 ms", f"{game100.p99 * 1000:.1f} ms", game100.p99 <= 0.050)
    e1, g1 = _find(rows, one, "echo", "saturate"), _find(rows, one, "game", "saturate")
    if e1 and g1:
        add("1 process saturated ≥ 40% of echo", f"{g1.done:.0f} vs {e1.done:.0f} moves/s ({g1.done / e1.done:.0%})",
            g1.done >= 0.4 * e1.done)
    g2 = _find(rows, two, "game", "saturate")
    if g1 and g2:
        add("2 processes ≥ 1.6x 1 process", f"{g2.done:.0f} vs {g1.done:.0f} moves/s ({g2.done / g1.done:.2f}x)",
            g2.done >= 1.6 * g1.done)
    p2 = _find(rows, two, "game", "100/s")
    p1 = next((r for r in rows if p2 and r.config == one and r.scenario == p2.scenario and r.offered == "100/s"), None)
    if p1 and p2:
        penalty = (p2.p50 - p1.p50) * 1000
        add("cross-process p50 penalty ≤ 1 ms", f"{penalty:+.1f} ms ({p2.p50 * 1000:.1f} vs {p1.p50 * 1000:.1f})",
            penalty <= 1.0)
    idle = extra.get("idle")
    if idle:
        # Read as 64 KiB per connection: 64 KiB for a thousand (64 bytes each) is below what any websocket
        # server keeps per socket (the kernel's buffers alone are more); both readings are printed.
        per_socket = idle["rss_per_1000"] / 1000
        add("idle: ≤ 64 KiB RSS per connection", f"{per_socket / 1024:.1f} KiB per connection "
            f"({idle['rss_per_1000'] / 1024:.0f} KiB per 1,000)", per_socket <= 64 * 1024)
        add("idle: ≤ 5% of a core per 1,000", f"{idle['cpu_per_1000']:.1%}", idle["cpu_per_1000"] <= 0.05)
    storm = extra.get("storm")
    if storm:
        add("storm: all join", f"{storm['joined']} joined, {storm['failed']} failed", storm["failed"] == 0)
        add("storm: players' p99 ≤ 100 ms", f"{storm['p99'] * 1000:.1f} ms", storm["p99"] <= 0.100)
        per_join = storm["room_frames"] / max(1, storm["joined"])
        add("storm: frames linear in joins", f"{per_join:.1f} room frames per join", per_join <= 4)
    emb = _find(rows, "embedded", "game", next((r.offered for r in rows if r.config.startswith("embedded")
                                                 and r.scenario.startswith("game")), ""))
    if emb:
        offered = float(emb.offered.rstrip("/s")) if emb.offered.endswith("/s") else 0.0
        add("embedded: 200 games at 200/s, no error", f"{emb.done:.0f}/s done of {emb.offered}, {emb.errors} errors, "
            f"{emb.note}", emb.errors == 0 and "server-log errors 0" in emb.note and emb.done >= 0.95 * offered)
    return out


BEGIN_MARK = "<!-- bench-server: begin -->"
END_MARK = "<!-- bench-server: end -->"


def write_docs(report: str, path: Path) -> None:
    """Put ``report`` between the markers in ``path`` (appended with them if they are missing)."""
    write_between_markers(report, path, begin=BEGIN_MARK, end=END_MARK)


# --- command line ----------------------------------------------------------------------------------------
def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank); nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def progress_printer(log_path: Path | None) -> Callable[[Stats], Awaitable[None]]:
    loop_state = {"last": 0.0, "count": 0}

    async def show(stats: Stats) -> None:
        now = asyncio.get_running_loop().time()
        assert stats.started_at is not None
        since = max(loop_state["last"], stats.started_at)
        window = stats.moves_between(since, now)
        rate = len(window) / max(1e-9, now - since)
        p50 = percentile(window, 0.5) * 1000
        server = len(log_errors(log_path)) if log_path is not None else "?"
        print(f"  {now - stats.started_at:5.1f} s  moves {len(stats.round_trips):6d}  {rate:6.1f}/s  "
              f"p50 {p50:6.1f} ms  errors {sum(stats.errors.values())}  server-log errors {server}", flush=True)
        loop_state["last"] = now

    return show


def result_table(config: LoadConfig, stats: Stats, server_errors: list[str] | None) -> str:
    assert stats.started_at is not None and stats.ended_at is not None
    elapsed = stats.ended_at - stats.started_at
    rtts = [rtt for _, rtt in stats.round_trips]
    rows = [
        ("games set up", f"{stats.games_set_up} / {config.games}"),
        ("moves offered/s", f"{config.rate:.0f}"),
        ("moves done/s", f"{len(rtts) / elapsed:.1f}  ({len(rtts)} in {elapsed:.1f} s)"),
        ("round trip p50", f"{percentile(rtts, 0.5) * 1000:.1f} ms"),
        ("round trip p99", f"{percentile(rtts, 0.99) * 1000:.1f} ms"),
        ("round trip max", f"{max(rtts, default=float('nan')) * 1000:.1f} ms"),
        ("games restarted", str(stats.games_restarted)),
        ("rooms created beside", str(stats.rooms_created)),
        ("server CPU", "not known" if stats.server_cpu is None else f"{stats.server_cpu / elapsed:.0%} of a core"),
        ("load generator CPU", f"{stats.client_cpu / elapsed:.0%} of a core"),
        ("client errors", str(sum(stats.errors.values()))),
    ]
    rows += [(f"  {kind}", str(count)) for kind, count in stats.errors.most_common()]
    rows.append(("server-log errors", "not watched" if server_errors is None else str(len(server_errors))))
    width = max(len(name) for name, _ in rows)
    lines = [f"| {'what'.ljust(width)} | value |", f"|{'-' * (width + 2)}|---|"]
    lines += [f"| {name.ljust(width)} | {value} |" for name, value in rows]
    return "\n".join(lines)


def cpu_not_measured() -> float | None:
    """A server we did not start may be anywhere: its CPU time is not measured."""
    return None


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--suite", action="store_true",
                       help="everything: the echo baseline and three configurations, idle sockets, a spectator "
                            "storm (PostgreSQL + Redis from DATABASE_URL and REDIS_URL)")
    where.add_argument("--url", help="base URL of a running server, e.g. http://127.0.0.1:8000")
    where.add_argument("--spawn", action="store_true",
                       help="start daphne here: a fresh SQLite file, or DATABASE_URL/REDIS_URL if set")
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--rate", type=float, default=200.0, help="moves per second offered in all (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play after setup (default 30)")
    parser.add_argument("--room-creators", type=int, default=0,
                        help="devices creating rooms in a loop beside the games (default 0)")
    parser.add_argument("--server-log", type=Path, help="with --url: the server's log file, to count its errors")
    parser.add_argument("--keep-log", type=Path, help="with --spawn: copy the server log here afterwards")
    parser.add_argument("--quick", action="store_true", help="with --suite: small numbers, to try it out")
    parser.add_argument("--only", default=",".join(PARTS),
                        help=f"with --suite: the parts to run, comma-separated (default {','.join(PARTS)})")
    parser.add_argument("--write-docs", type=Path, help="with --suite: write the figures into this Markdown file")
    return parser.parse_args(argv)


async def bench(config: LoadConfig, log_path: Path | None,
                server_cpu: Callable[[], float | None]) -> tuple[Stats, list[str] | None]:
    stats = Stats()
    errors_before = len(log_errors(log_path)) if log_path is not None else 0
    await run_load(config, stats, progress_printer(log_path), server_cpu)
    server_errors = log_errors(log_path)[errors_before:] if log_path is not None else None
    return stats, server_errors


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.suite:
        size = QUICK if args.quick else SuiteSize()
        with tempfile.TemporaryDirectory(prefix="bench-suite-") as workdir:
            rows, extra = run_suite(size, Path(workdir), tuple(args.only.split(",")))
        command = "scripts/bench_server.py " + " ".join(sys.argv[1:] if argv is None else argv)
        report = suite_report(rows, extra, size, command)
        print(report)
        if args.write_docs:
            write_docs(report, args.write_docs)
        return 0
    with contextlib.ExitStack() as stack:
        if args.spawn:
            server = stack.enter_context(spawned_server(args.keep_log))
            url, log_path, where = server.url, server.log_path, server.describe()
            server_cpu: Callable[[], float | None] = server.cpu_seconds
        else:
            url, log_path, where = args.url, args.server_log, args.url
            server_cpu = cpu_not_measured
        config = LoadConfig(url=url, games=args.games, rate=args.rate, seconds=args.seconds,
                            room_creators=args.room_creators)
        print(f"{config.games} games, {config.rate:g} moves/s offered, {config.seconds:g} s, against {where}",
              flush=True)
        stats, server_errors = asyncio.run(bench(config, log_path, server_cpu))
        print(result_table(config, stats, server_errors))
        for line in (server_errors or [])[:5]:
            print(f"  server log: {line[:160]}")
    failed = sum(stats.errors.values()) + len(server_errors or [])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
