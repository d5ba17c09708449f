"""The room websocket as the page holds it: it follows the room (room frames, move frames applied to the
last room, a ``sync`` on a gap) and pings as the page does.

A socket is read one way: by its caller (``next_frame``, ``wait``, ``wait_room``: what the tests do, each
frame in order), or, after ``connect(follow=True)``, by a background reader that keeps the newest room
and counts the frames (what the benchmark does with thousands of sockets).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from harness.device import Device

# The one import of the server's code: the wire format. (It moves with the protocol module; fix it here.)
from lobby.protocol.room import apply_move, apply_spectators

OPEN_TIMEOUT = 10.0  # seconds for the websocket handshake
WAIT_TIMEOUT = 20.0  # seconds for a frame or a room that a test waits for
# The room page sends no ping frame of its own (daphne's websocket pings prove a socket alive, and the
# websockets library answers them as a browser does); the lobby page still does (harness.lobby).

Room = dict[str, Any]


class SocketClosed(Exception):
    """The server closed a followed socket while its caller waited for a room; the message is the close code."""


def ws_base(http_base: str) -> str:
    """``ws://HOST:PORT`` for ``http://HOST:PORT``."""
    return http_base.replace("http", "ws", 1)


# The frames a client applies to its last room (a gap asks for the whole room).
_DELTAS: dict[str, Callable[[Room, dict[str, Any]], Room | None]] = {"move": apply_move, "spectators": apply_spectators}


def follow(room: Room | None, syncing: bool, frame: dict[str, Any]) -> tuple[Room | None, bool, bool]:
    """What the page makes of ``frame``: (the room now, whether a sync is pending, whether to send ``sync``).

    A room frame at least as new replaces the room and ends a pending sync; a newer move or spectators frame
    is applied to the room, unless a sync is pending; one that does not follow it (a gap, another game) asks
    for the whole room with ``sync``, once, and further ones wait for that room (docs/protocol.md).
    """
    if frame["type"] == "room" and (room is None or frame["version"] >= room["version"]):
        return frame, False, False
    if frame["type"] in _DELTAS and not syncing and room is not None and frame["version"] > room["version"]:
        applied = _DELTAS[frame["type"]](room, frame)
        if applied is None:
            return room, True, True
        return applied, False, False
    return room, syncing, False


class RoomSocket:
    """One room websocket of ``device`` on the server at ``server_ws`` (``ws://HOST:PORT``).

    Attributes:
        room: the room as the page shows it (the last room frame with the moves since applied).
        log: every frame received, in order (when ``keep_log``).
        frames: how many frames of each type were received.
        errors: the ``error`` frames received.
        close_code: when followed, the close code once the server has closed the socket, else None.
    """

    def __init__(self, server_ws: str, code: str, device: Device, origin: str | None = None, *,
                 keep_log: bool = True) -> None:
        self.device = device
        self.url = f"{server_ws}/ws/rooms/{code}/"
        self.headers = {"Origin": origin or device.base}
        if cookies := device.cookie_header():  # an anonymous visitor sends none
            self.headers["Cookie"] = cookies
        self.keep_log = keep_log
        self.room: Room | None = None
        self.syncing = False
        self.log: list[dict[str, Any]] = []
        self.frames: Counter[str] = Counter()
        self.errors: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.changed = asyncio.Event()
        self.conn: ClientConnection | None = None
        self.pinger: asyncio.Task[None] | None = None
        self.reader: asyncio.Task[None] | None = None

    @classmethod
    def of(cls, device: Device, code: str, *, keep_log: bool = True) -> RoomSocket:
        """The socket of room ``code`` on ``device``'s own server, with its origin."""
        return cls(ws_base(device.base), code, device, device.base, keep_log=keep_log)

    async def open(self, open_timeout: float = OPEN_TIMEOUT) -> None:
        """Open the connection (again), as a browser does: no websocket-level pings of its own, every frame
        read. The room is kept; a pending sync is not (it went with the old connection).

        Raises:
            OSError, TimeoutError, websockets.InvalidStatus: the handshake failed.
        """
        self.conn = await websockets.connect(self.url, additional_headers=self.headers, open_timeout=open_timeout,
                                             max_queue=None, ping_interval=None)
        self.syncing = False
        self.close_code = None

    async def connect(self, *, ping_every: float | None = None, ping_offset: float | None = None,
                      open_timeout: float = OPEN_TIMEOUT, room_timeout: float = WAIT_TIMEOUT,
                      follow: bool = False) -> RoomSocket:
        """Open the socket and return once the room has arrived.

        With ``ping_every``, send the protocol's ping that often, the first after ``ping_offset`` seconds
        (default ``ping_every``), as the page does. With ``follow``, a background reader reads every frame
        from now on; only ``wait_room`` may then wait.
        """
        await self.open(open_timeout)
        loop = asyncio.get_running_loop()
        if follow:
            self.reader = loop.create_task(self._read())
        if ping_every is not None:
            first = ping_every if ping_offset is None else ping_offset
            self.pinger = loop.create_task(self._ping(first, ping_every))
        await self.wait_room(lambda room: True, room_timeout)
        return self

    async def _ping(self, first: float, every: float) -> None:
        await asyncio.sleep(first)
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await self.send(type="ping")
                await asyncio.sleep(every)

    async def _take(self, frame: dict[str, Any]) -> None:
        """Record ``frame`` and follow the room with it (asking for the room on a gap)."""
        self.frames[frame["type"]] += 1
        if self.keep_log:
            self.log.append(frame)
        if frame["type"] == "error":
            self.errors.append(frame)
        self.room, self.syncing, ask = follow(self.room, self.syncing, frame)
        if ask:
            await self.send(type="sync")

    def _connected(self) -> ClientConnection:
        if self.conn is None:
            raise RuntimeError("the room socket is not open: open() first")
        return self.conn

    async def _read(self) -> None:
        conn = self._connected()
        try:
            async for raw in conn:
                await self._take(json.loads(raw))
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = conn.close_code if conn.close_code is not None else 1006
            self.changed.set()

    async def send(self, **frame: Any) -> None:  # Any: a frame is JSON
        """Send ``frame`` as JSON. Raises ``websockets.ConnectionClosed`` if the socket is closed."""
        await self._connected().send(json.dumps(frame))

    async def next_frame(self, timeout: float) -> dict[str, Any]:
        """Read the next frame (not on a followed socket).

        Raises:
            TimeoutError: none within ``timeout`` seconds. websockets.ConnectionClosed: the socket closed.
        """
        assert self.reader is None, "a followed socket is read by its reader"
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self._connected().recv(), timeout))
        await self._take(frame)
        return frame

    async def wait(self, kind: str, predicate: Callable[[dict[str, Any]], bool] | None = None,
                   timeout: float = WAIT_TIMEOUT) -> dict[str, Any]:
        """Read frames until one of type ``kind`` satisfies ``predicate``; that frame (``next_frame``'s errors)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            frame = await self.next_frame(max(0.01, end - loop.time()))
            if frame["type"] == kind and (predicate is None or predicate(frame)):
                return frame

    async def wait_room(self, predicate: Callable[[Room], bool], timeout: float = WAIT_TIMEOUT) -> Room:
        """The room once it satisfies ``predicate`` (reading frames until then, unless followed).

        Raises:
            TimeoutError: not within ``timeout`` seconds. SocketClosed (followed) or
            websockets.ConnectionClosed: the socket closed meanwhile.
        """
        if self.reader is None:
            loop = asyncio.get_running_loop()
            end = loop.time() + timeout
            while self.room is None or not predicate(self.room):
                await self.next_frame(max(0.01, end - loop.time()))
            return self.room
        async with asyncio.timeout(timeout):
            while True:
                if self.room is not None and predicate(self.room):
                    return self.room
                if self.close_code is not None:
                    raise SocketClosed(str(self.close_code))
                self.changed.clear()
                await self.changed.wait()

    async def drop(self, peg: str) -> None:
        """Drop a bead on ``peg`` at the ply the room shows."""
        assert self.room is not None and self.room["game"] is not None
        await self.send(type="drop", peg=peg, ply=self.room["game"]["ply"])

    async def close(self) -> None:
        """Stop pinging, close the socket and wait for the reader to finish."""
        if self.pinger is not None:
            self.pinger.cancel()
        if self.conn is not None:
            await self.conn.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await self.reader
