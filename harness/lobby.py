"""The lobby websocket as the home page holds it: the device's cookies, an ``Origin`` header, a ping every
few seconds while it waits (a silent page's seek is dropped), every frame kept with the instant it arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from harness.device import Device

PING_EVERY = 5.0
OPEN_TIMEOUT = 20.0
WAIT_TIMEOUT = 30.0


class LobbySocket:
    """One lobby socket of ``device`` on the server at ``server_ws``; ``log`` holds ``(time.time(), frame)``
    for every frame received."""

    def __init__(self, server_ws: str, device: Device, origin: str) -> None:
        self.url = f"{server_ws}/ws/lobby/"
        self.headers = {"Cookie": device.cookie_header(), "Origin": origin}
        self.log: list[tuple[float, dict[str, Any]]] = []
        self.conn: ClientConnection | None = None
        self.pinger: asyncio.Task[None] | None = None

    async def connect(self) -> LobbySocket:
        """Open the socket; return once the lists have arrived (then it is ready), pinging from then on."""
        self.conn = await websockets.connect(self.url, additional_headers=self.headers, open_timeout=OPEN_TIMEOUT)
        await self.wait("live_games")
        self.pinger = asyncio.get_running_loop().create_task(self._ping())
        return self

    def _connected(self) -> ClientConnection:
        if self.conn is None:
            raise RuntimeError("the lobby socket is not open: connect() first")
        return self.conn

    async def _ping(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.sleep(PING_EVERY)
                await self.send(type="ping")

    async def send(self, **frame: Any) -> float:  # Any: a frame is JSON
        """Send a frame; the instant it was sent (``time.time()``)."""
        await self._connected().send(json.dumps(frame))
        return time.time()

    async def wait(self, *kinds: str, timeout: float = WAIT_TIMEOUT) -> dict[str, Any]:
        """The next frame whose type is one of ``kinds`` (every frame before it is kept in ``log``).

        Raises:
            TimeoutError: none within ``timeout`` seconds. websockets.ConnectionClosed: the socket closed.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            raw = await asyncio.wait_for(self._connected().recv(), max(0.01, end - loop.time()))
            frame: dict[str, Any] = json.loads(raw)
            self.log.append((time.time(), frame))
            if frame["type"] in kinds:
                return frame

    def frames(self, kind: str) -> list[dict[str, Any]]:
        """The frames of type ``kind`` received so far, in order."""
        return [frame for _, frame in self.log if frame["type"] == kind]

    async def close(self) -> float:
        """Close the socket (as closing the page does); the instant the close began."""
        started = time.time()
        if self.pinger is not None:
            self.pinger.cancel()
        if self.conn is not None:
            await self.conn.close()
        return started
