"""Load the running server with concurrent games over the real protocol and time every move.

Run: ``.venv/bin/python scripts/bench_server.py --spawn --games 200 --rate 200 --seconds 30``
(``make bench-server`` does that), or ``--url http://HOST:PORT`` to load a server already running
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
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PEGS = [f"{row}{column}" for row in "abcd" for column in "1234"]
LEVELS = 4
HTTP_TIMEOUT = 30.0


# --- clients -------------------------------------------------------------------------------------------
class HttpError(Exception):
    """An HTTP call answered with an unexpected ``status``."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


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
            raise HttpError(f"{method} {path}: {status} {str(answer)[:200]}", status=status)
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
        self.errors: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.changed = asyncio.Event()
        self.conn: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def open(self, timeout: float) -> Socket:
        headers = {"Cookie": self.device.cookie_header(), "Origin": self.device.base}
        # No keepalive pings of our own (a browser sends none): the server sees only the protocol's frames.
        self.conn = await websockets.connect(self.url, additional_headers=headers, open_timeout=timeout,
                                             max_queue=None, ping_interval=None)
        self.close_code = None
        self.reader = asyncio.get_running_loop().create_task(self._read())
        await self.wait(lambda room: True, timeout)
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.conn:
                frame = json.loads(raw)
                if frame["type"] == "room" and (self.room is None or frame["version"] > self.room["version"]):
                    self.room = frame
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
        move_timeout: seconds without the room frame of a move before it counts as an error.
        room_creators: extra devices creating rooms over HTTP in a loop while the games play.
    """

    url: str
    games: int = 200
    rate: float = 200.0
    seconds: float = 30.0
    setup_concurrency: int = 20
    move_timeout: float = 10.0
    room_creators: int = 0


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


def legal_pegs(moves: list[str]) -> list[str]:
    """The pegs with room for another bead after ``moves``."""
    filled = Counter(moves)
    return [peg for peg in PEGS if filled[peg] < LEVELS]


def _game_of(room: dict[str, Any]) -> dict[str, Any] | None:
    game: dict[str, Any] | None = room.get("game")
    return game


class GameDriver:
    """Two devices in one room playing random legal moves, one every ``interval`` seconds."""

    def __init__(self, index: int, config: LoadConfig, stats: Stats) -> None:
        self.index = index
        self.config = config
        self.stats = stats
        self.rng = random.Random(index)
        self.host = Device(config.url)
        self.guest = Device(config.url)
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

    async def _start(self) -> None:
        host = self.sockets[1]
        await host.send(type="start")
        await host.wait(lambda r: (g := _game_of(r)) is not None and g["status"] == "playing", self.config.move_timeout)

    async def play(self, until: float, interval: float) -> None:
        """Move every ``interval`` seconds until loop time ``until``; failures are counted, play goes on."""
        loop = asyncio.get_running_loop()
        next_at = loop.time() + self.rng.uniform(0, interval)
        while True:
            delay = min(next_at, until) - loop.time()  # never idle past the end: it would dilute moves/s
            if delay > 0:
                await asyncio.sleep(delay)
            if loop.time() >= until:
                return
            try:
                await self._move()
            except SocketClosed as exc:
                self.stats.error(f"socket closed {exc}")
                await self._reopen()
            except TimeoutError:
                self.stats.error(f"no room frame within {self.config.move_timeout:g} s")
                await self._reopen()
            except Exception as exc:  # keep loading; the table shows what went wrong
                self.stats.error(f"client {type(exc).__name__}")
                await self._reopen()
            next_at = max(next_at + interval, loop.time())

    async def _move(self) -> None:
        host = self.sockets[1]
        room = host.room
        game = _game_of(room) if room is not None else None
        if game is None or game["status"] != "playing":
            self.stats.games_restarted += 1
            await self._start()
            room = host.room
            game = _game_of(room) if room is not None else None
            assert game is not None
        mover = self.sockets[game["to_move_seat"]]
        game_id, ply = game["id"], game["ply"]
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
            stats.error(f"room create HTTP {exc.status}")
        except OSError as exc:  # refused, reset, timed out: count it and carry on
            stats.error(f"room create {type(exc).__name__}")


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
    interval = len(ready) / config.rate  # the offered rate holds even if some games failed to set up
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
# What marks trouble in a server log: tracebacks, daphne's "Exception inside application", SQLite's
# lock errors, lines logged at ERROR or CRITICAL (text or JSON format), and the lines in which this
# project reports a failure it recovered from (a frame, a clean-up: they say "failed").
LOG_ERROR = re.compile(r"Traceback|Exception inside application|database is locked|\b(ERROR|CRITICAL)\b|failed")
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

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.log_path = workdir / "daphne.log"
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")
        for quota in ROOM_QUOTAS:  # every game's room comes from this one address
            self.env.setdefault(quota, str(10**9))
        if not self.env.get("DATABASE_URL"):
            self.env["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float | None:
        """CPU seconds (user + system) the daphne process has used, from /proc; None elsewhere."""
        if self.proc is None:
            return None
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def describe(self) -> str:
        database = "PostgreSQL" if self.env.get("DATABASE_URL") else "SQLite file"
        layer = "Redis" if self.env.get("REDIS_URL") else "in-memory layer"
        return f"daphne on {database}, {layer}, {self.url}"

    def start(self, timeout: float = 60.0) -> None:
        subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=self.env,
                       check=True, timeout=300)
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited:\n{self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as response:
                    if response.status == 200:
                        return
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
    where.add_argument("--url", help="base URL of a running server, e.g. http://127.0.0.1:8000")
    where.add_argument("--spawn", action="store_true",
                       help="start daphne here: a fresh SQLite file, or DATABASE_URL/REDIS_URL if set")
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--rate", type=float, default=200.0, help="moves per second offered in all (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play after setup (default 30)")
    parser.add_argument("--move-timeout", type=float, default=10.0,
                        help="seconds to wait for a move's room frame before counting it as an error (default 10)")
    parser.add_argument("--room-creators", type=int, default=0,
                        help="devices creating rooms in a loop beside the games (default 0)")
    parser.add_argument("--server-log", type=Path, help="with --url: the server's log file, to count its errors")
    parser.add_argument("--keep-log", type=Path, help="with --spawn: copy the server log here afterwards")
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
    with contextlib.ExitStack() as stack:
        if args.spawn:
            server = stack.enter_context(spawned_server(args.keep_log))
            url, log_path, where = server.url, server.log_path, server.describe()
            server_cpu: Callable[[], float | None] = server.cpu_seconds
        else:
            url, log_path, where = args.url, args.server_log, args.url
            server_cpu = cpu_not_measured
        config = LoadConfig(url=url, games=args.games, rate=args.rate, seconds=args.seconds,
                            move_timeout=args.move_timeout, room_creators=args.room_creators)
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
