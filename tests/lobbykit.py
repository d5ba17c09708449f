"""Test kit for the lobby socket on the real ASGI application: send frames, wait for the wanted ones."""

from __future__ import annotations

from typing import Any

from tests.socketkit import SocketClient


class LobbyClient(SocketClient):
    """A lobby websocket client; keeps every frame it received in ``log`` and the latest lists."""

    wait_s = 15.0

    def __init__(self, session_key: str | None, *, origin: bytes = b"http://localhost") -> None:
        super().__init__("/ws/lobby/", session_key, origin=origin)
        self.lists: dict[str, list[dict[str, Any]]] = {}

    async def connect(self) -> LobbyClient:
        await super().connect()
        await self.wait("live_games")  # the lists come first: open rooms, then live games
        return self

    def kept(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "open_rooms":
            self.lists["open_rooms"] = frame["rooms"]
        elif frame["type"] == "live_games":
            self.lists["live_games"] = frame["games"]

    async def wait_list(self, key: str, predicate: Any, timeout: float = 15) -> list[dict[str, Any]]:
        """The first version of list ``key`` (``open_rooms``/``live_games``) that satisfies ``predicate``."""
        if key in self.lists and predicate(self.lists[key]):
            return self.lists[key]
        field = "rooms" if key == "open_rooms" else "games"
        frame = await self.wait(key, lambda f: predicate(f[field]), timeout)
        return list(frame[field])
