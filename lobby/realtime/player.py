"""The player websocket (``/ws/player/``): what a page without a socket of its own (a replay, a puzzle, a
player page, the leaderboard, the challenges page) opens to hear its player's notifications.

Transport only, with the rules of the other sockets (the session cookie says who the player is, the
origin is checked by the ASGI router, frames are at most 4 KiB, a token bucket limits them). Out: every
``notification`` of the player (the base ``Consumer`` joins the player's group). In: ``ping`` only. A
device with no player yet is refused with 4404, after which the page does not reconnect (it opens the
socket once it has a player).
"""

from __future__ import annotations

from django.utils.translation import gettext

from live.frames import Ping, parse_ping_frame, pong_frame
from live.offload import offload
from lobby.protocol.frames import CLOSE_UNKNOWN_ROOM
from lobby.realtime.socket import Consumer


class PlayerConsumer(Consumer):
    async def connect(self) -> None:
        # Accept first, as the other sockets do: the handshake never waits on a database thread.
        await self.accept()
        player = await offload(self.identify)()
        if player is None:
            await self.refuse("no_player", gettext("This device has no player yet."))
            await self.close(code=CLOSE_UNKNOWN_ROOM)
            return
        await self.hear_player(player.pk)

    async def disconnect(self, code: int) -> None:
        await self.stop_hearing_player()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.hearing is None:
            return
        if isinstance(await self.command(parse_ping_frame, text_data, bytes_data), Ping):
            await self.send_frame(pong_frame())
