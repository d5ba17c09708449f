"""The player socket as a page without a socket of its own holds it (a replay, a puzzle, a player page):
``/ws/player/``, which only listens for the player's notifications. The lobby socket's kit, on its path,
without the lobby's lists on connect and without pings (the page sends none)."""

from __future__ import annotations

import websockets

from harness.device import Device
from harness.lobby import OPEN_TIMEOUT, LobbySocket


class PlayerSocket(LobbySocket):
    """One player socket of ``device`` on the server at ``server_ws``; ``wait`` and ``log`` as the lobby's."""

    def __init__(self, server_ws: str, device: Device, origin: str) -> None:
        super().__init__(server_ws, device, origin)
        self.url = f"{server_ws}/ws/player/"

    async def connect(self) -> PlayerSocket:
        """Open the socket; return once it is in the player's group (its first pong: a frame is handled only
        after the server's connect, which joins the group, has returned)."""
        self.conn = await websockets.connect(self.url, additional_headers=self.headers, open_timeout=OPEN_TIMEOUT)
        await self.send(type="ping")
        await self.wait("pong")
        return self
