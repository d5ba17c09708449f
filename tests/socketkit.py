"""The one websocket client of the in-process tests, on the real ASGI application: sends frames, keeps every
frame it receives in ``log``, and waits for the frames it wants. The room's, the lobby's and an arena's
clients are this one, keeping what their page keeps (``roomkit``, ``lobbykit``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Self

from channels.testing import WebsocketCommunicator

from config.asgi import application

ORIGIN = (b"origin", b"http://localhost")


class SocketClient:
    """A websocket client of ``path`` with the device's session (None: a device without one)."""

    wait_s = 10.0
    """How long :meth:`wait` waits by default."""

    def __init__(self, path: str, session_key: str | None, *, origin: bytes = b"http://localhost") -> None:
        headers = [(b"origin", origin), (b"host", b"localhost")]
        if session_key is not None:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.session_key = session_key
        self.log: list[dict[str, Any]] = []

    async def connect(self) -> Self:
        """Connect, and assert the socket was accepted."""
        connected, _ = await self.comm.connect(timeout=5)
        assert connected
        return self

    async def send(self, **frame: Any) -> None:
        await self.comm.send_to(text_data=json.dumps(frame))

    async def send_raw(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    def kept(self, frame: dict[str, Any]) -> None:
        """What a client keeps of each frame it receives, beyond ``log`` (the page's state): nothing here."""

    async def next_frame(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await self.comm.receive_from(timeout=timeout))
        self.log.append(frame)
        self.kept(frame)
        return frame

    async def wait(self, kind: str, predicate: Any = None, timeout: float | None = None) -> dict[str, Any]:
        """The next frame of ``kind`` that satisfies ``predicate`` (frames before it stay in ``log``)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + (self.wait_s if timeout is None else timeout)
        while True:
            frame = await self.next_frame(timeout=max(0.01, end - loop.time()))
            if frame["type"] == kind and (predicate is None or predicate(frame)):
                return frame

    async def error(self, timeout: float = 10) -> dict[str, Any]:
        return await self.wait("error", timeout=timeout)

    async def close(self) -> None:
        # The consumer closes its connection in the database as it leaves: give it time on a busy
        # machine (the communicator's default second cancels it half-way).
        await self.comm.disconnect(timeout=10)
