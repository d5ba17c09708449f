"""The load-generator core: games played by pairs of devices over the real protocol, timed move by move.

Each game is two devices doing what the page does: ``POST /api/session`` (a player cookie), the host
``POST /api/rooms``, both open ``/ws/rooms/{code}/``, the guest sends ``sit``, the host ``start``, then
the seat to move drops a random legal bead. A move's round trip runs from sending the ``drop`` to seeing
the room with the new ply on the mover's socket. A game that ends is started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import websockets

from harness.bench.stats import CpuReader, CpuWindow, Stats, paced, report_every, set_up_all
from harness.device import Device, HttpError
from harness.room import Room, RoomSocket, SocketClosed

PEGS = [f"{row}{column}" for row in "abcd" for column in "1234"]
LEVELS = 4


@dataclass(frozen=True, slots=True)
class LoadConfig:
    """What load to offer.

    Attributes:
        url: the server's base URL (``http://127.0.0.1:8000``).
        games: games played at the same time (two devices and two websockets each).
        rate: moves per second offered across all games; 0 or less plays closed-loop (each game moves
            again as soon as its last move is seen).
        seconds: how long to play once every game is set up.
        setup_concurrency: games being set up at once (each is a few HTTP calls and two handshakes).
        move_timeout: seconds without the room frame of a move before it counts as lost.
        room_creators: extra devices creating rooms over HTTP in a loop while the games play.
        guest_url: where the second player of each game connects (another server process), if not ``url``.
    """

    url: str
    games: int = 200
    rate: float = 200.0
    seconds: float = 30.0
    setup_concurrency: int = 20
    move_timeout: float = 10.0
    room_creators: int = 0
    guest_url: str | None = None


def legal_pegs(moves: list[str]) -> list[str]:
    """The pegs with room for another bead after ``moves``."""
    filled = Counter(moves)
    return [peg for peg in PEGS if filled[peg] < LEVELS]


def game_of(room: Room | None) -> dict[str, Any] | None:
    """The room's current game, if any."""
    game: dict[str, Any] | None = room.get("game") if room is not None else None
    return game


async def join(device: Device, name: str) -> str:
    """``device`` becomes a player called ``name`` (off the event loop); the player id."""
    player = await asyncio.to_thread(device.join, name)
    return str(player["id"])


async def open_socket(device: Device, code: str, timeout: float) -> RoomSocket:
    """A followed room socket of ``device``, held as the page holds it (no ping frame: its library answers
    the server's websocket pings), keeping no log."""
    sock = RoomSocket.of(device, code, keep_log=False)
    return await sock.connect(open_timeout=timeout, room_timeout=timeout, follow=True)


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
        self.sockets: dict[int, RoomSocket] = {}  # by seat number

    async def set_up(self) -> None:
        """Players, room, both sockets open, both seated, first game started."""
        timeout = self.config.move_timeout
        await join(self.host, f"Host {self.index}")
        await join(self.guest, f"Guest {self.index}")
        self.code = await asyncio.to_thread(self.host.create_room, {"ranked": False})
        host = await open_socket(self.host, self.code, timeout)
        guest = await open_socket(self.guest, self.code, timeout)
        await guest.send(type="sit")
        await host.wait_room(lambda r: r["seats"][1]["player"] is not None, timeout)
        self.sockets = {1: host, 2: guest}
        await self._start()

    async def _start(self, after_version: int = 0) -> None:
        """The host starts the next game; returns once its socket shows it (a room newer than ``after_version``)."""
        host = self.sockets[1]
        await host.send(type="start")
        await host.wait_room(lambda r: r["version"] > after_version and (g := game_of(r)) is not None
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
        except websockets.ConnectionClosed as exc:
            self.stats.error(f"socket closed {exc.rcvd.code if exc.rcvd is not None else 1006}")
            await self._reopen()
        except TimeoutError:
            self.stats.error("move lost (no room frame)")
            await self._reopen()
        except Exception as exc:  # keep loading; the table shows what went wrong
            self.stats.error(f"client {type(exc).__name__}")
            await self._reopen()

    def _newest_room(self) -> Room | None:
        """The newest room either player's socket has seen (the other may not have the last move yet)."""
        rooms = [sock.room for sock in self.sockets.values() if sock.room is not None]
        return max(rooms, key=lambda room: room["version"], default=None)

    async def _move(self) -> None:
        room = self._newest_room()
        game = game_of(room)
        if game is None or game["status"] != "playing":
            self.stats.games_restarted += 1
            await self._start(after_version=room["version"] if room is not None else 0)
            room = self._newest_room()
            game = game_of(room)
            assert game is not None
        assert room is not None
        mover = self.sockets[game["to_move_seat"]]
        game_id, ply, version = game["id"], game["ply"], room["version"]
        if mover.room is None or mover.room["version"] < version:
            # The mover's own socket has not seen the last move yet: a person waits for it too.
            await mover.wait_room(lambda r: r["version"] >= version, self.config.move_timeout)
        peg = self.rng.choice(legal_pegs(game["moves"]))
        errors_before = len(mover.errors)
        loop = asyncio.get_running_loop()
        sent = loop.time()
        await mover.send(type="drop", peg=peg, ply=ply)

        def applied(r: Room) -> bool:
            g = game_of(r)
            return len(mover.errors) > errors_before or (g is not None and (g["id"] != game_id or g["ply"] > ply))

        await mover.wait_room(applied, self.config.move_timeout)
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
                    self.sockets[seat] = await open_socket(sock.device, self.code, self.config.move_timeout)

    async def close(self) -> None:
        for sock in self.sockets.values():
            with contextlib.suppress(Exception):
                await sock.close()


async def create_rooms_forever(index: int, config: LoadConfig, stats: Stats) -> None:
    """A device that creates rooms over HTTP in a loop until cancelled: other writers beside the games."""
    device = Device(config.url)
    await join(device, f"Creator {index}")
    while True:
        try:
            await asyncio.to_thread(device.create_room, {"ranked": False})
            stats.rooms_created += 1
        except HttpError as exc:
            stats.error(f"room create {str(exc).split(':')[1].split()[0]}")


async def run_load(config: LoadConfig, stats: Stats, progress: Callable[[Stats], Awaitable[None]] | None = None,
                   server_cpu: CpuReader = lambda: None) -> None:
    """Set up ``config.games`` games, play them for ``config.seconds``, close everything.

    ``progress`` (if given) is awaited about every two seconds while the games play; ``server_cpu``
    reads the server's CPU seconds so far, if known.
    """
    loop = asyncio.get_running_loop()
    drivers = [GameDriver(i, config, stats) for i in range(config.games)]
    ready = await set_up_all(drivers, config.setup_concurrency, stats, server_cpu)
    creators = [loop.create_task(create_rooms_forever(i, config, stats)) for i in range(config.room_creators)]
    stats.started_at = loop.time()
    window = CpuWindow(stats, server_cpu)
    until = stats.started_at + config.seconds
    # The offered rate holds even if some games failed to set up; closed-loop without a rate.
    interval = len(ready) / config.rate if config.rate > 0 else 0.0
    players = [loop.create_task(d.play(until, interval)) for d in ready]
    reporter = loop.create_task(report_every(2.0, stats, progress)) if progress is not None else None
    try:
        await asyncio.gather(*players)
    finally:
        window.close(loop.time())
        for task in [*creators, *([reporter] if reporter else [])]:
            task.cancel()
        await asyncio.gather(*creators, return_exceptions=True)
        await asyncio.gather(*(d.close() for d in ready))
