"""Test kit for the lobby socket on the real ASGI application: send frames, wait for the wanted ones."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.testing import WebsocketCommunicator

from config.asgi import application


class LobbyClient:
    """A lobby websocket client; keeps every frame it received in ``log`` and the latest lists."""

    def __init__(self, session_key: str | None, *, origin: bytes = b"http://localhost") -> None:
        headers = [(b"origin", origin), (b"host", b"localhost")]
        if session_key is not None:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        self.log: list[dict[str, Any]] = []
        self.lists: dict[str, list[dict[str, Any]]] = {}

    async def connect(self) -> LobbyClient:
        connected, _ = await self.comm.connect(timeout=5)
        assert connected
        await self.wait("live_games")  # the lists come first: open rooms, then live games
        return self

    async def send(self, **frame: Any) -> None:
        await self.comm.send_to(text_data=json.dumps(frame))

    async def send_raw(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def next_frame(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await self.comm.receive_from(timeout=timeout))
        self.log.append(frame)
        if frame["type"] == "open_rooms":
            self.lists["open_rooms"] = frame["rooms"]
        elif frame["type"] == "live_games":
            self.lists["live_games"] = frame["games"]
        return frame

    async def wait(self, kind: str, predicate: Any = None, timeout: float = 15) -> dict[str, Any]:
        """The next frame of ``kind`` that satisfies ``predicate`` (frames before it stay in ``log``)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            frame = await self.next_frame(timeout=max(0.01, end - loop.time()))
            if frame["type"] == kind and (predicate is None or predicate(frame)):
                return frame

    async def wait_list(self, key: str, predicate: Any, timeout: float = 15) -> list[dict[str, Any]]:
        """The first version of list ``key`` (``open_rooms``/``live_games``) that satisfies ``predicate``."""
        if key in self.lists and predicate(self.lists[key]):
            return self.lists[key]
        field = "rooms" if key == "open_rooms" else "games"
        frame = await self.wait(key, lambda f: predicate(f[field]), timeout)
        return list(frame[field])

    async def error(self, timeout: float = 10) -> dict[str, Any]:
        return await self.wait("error", timeout=timeout)

    async def close(self) -> None:
        await self.comm.disconnect()
