"""The base of the pages' websocket consumers (room, lobby, arena, player): the platform's socket
(:class:`live.socket.Socket`) with its player.

Every socket of a page a player has open (room, lobby, arena, or the player socket of a page with none of
those) is also in its player's group (:func:`lobby.events.player_group`), so the page hears the player's
notifications on the socket it has anyway: an idle page costs one socket, whichever it is; and it holds
the player online (``lobby.realtime.online``) while it is open.

Every message a socket handles is handled in the socket's language (:func:`players.language.visitor_language`:
the cookies and ``Accept-Language`` of its handshake until :meth:`Consumer.identify` has read its player,
then the player's preference first).
"""

from __future__ import annotations

import json

from django.utils import translation

from live.socket import Socket
from lobby.events import player_group
from lobby.protocol import messages
from lobby.realtime.loop import lobby_loop
from notifications.kinds import KINDS
from players.identity import device_identity
from players.language import preferred_language, visitor_language, visitor_language_of
from players.models import Player


class Consumer(Socket):
    """A page's socket: its player, their group and their notifications."""

    # A move and a spectator count reach every socket of their room as their sender encoded them.
    untranslated = frozenset({messages.RoomMove.TYPE, messages.RoomSpectators.TYPE})
    hearing: str | None = None  # the player group this socket is in, if any
    online_as: str | None = None  # the player this socket shows online (lobby.realtime.online)

    def default_language(self) -> str:
        """The handshake's headers alone (the socket's first message, before its player is read)."""
        return visitor_language(self.scope, None)

    def identify(self) -> Player | None:
        """The player of the socket's device (None: none yet), read in the caller's database thread, and
        from it the socket's language, active from here on."""
        player, preferences = device_identity(self.scope.get("session_key"))  # one read of both
        self.language = visitor_language_of(self.scope, preference=preferred_language(preferences))
        translation.activate(self.language)  # the rest of this message's handling (asgiref brings it back)
        return player

    async def hear_player(self, player_id: object | None) -> None:
        """Join the player's group (nothing for a page without a player): the page hears its notifications."""
        if player_id is None or self.hearing is not None:
            return
        self.hearing = player_group(player_id)
        self.online_as = str(player_id)
        lobby_loop().online.hold(self.online_as)  # the player counts as online from now on
        await self.channel_layer.group_add(self.hearing, self.channel_name)

    async def stop_hearing_player(self) -> None:
        """Leave the player's group, if in it (on disconnect)."""
        group, self.hearing = self.hearing, None
        if self.online_as is not None:
            lobby_loop().online.release(self.online_as)
            self.online_as = None
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def player_end(self, end: messages.PlayerEnd) -> None:
        """The player was banned, their password reset or their account closed: say why, and close."""
        await self.send_frame(end.error)
        await self.close(code=end.close)

    async def player_notification(self, message: messages.PlayerNotification) -> None:
        """A notification of the socket's player: its frame, encoded once by the sender, in the player's
        language; a socket reading another (a guest who chose none: its browser's) writes the text again."""
        if message.language is None or message.language == self.language:
            await self.send(text_data=message.text)
            return
        frame = json.loads(message.text)
        shown = frame["notification"]
        text = KINDS.text(shown["kind"], shown["data"], stored=shown["text"])  # in this socket's language
        await self.send_frame({**frame, "notification": {**shown, "text": text}})
