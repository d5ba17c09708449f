"""The room websocket: parse a frame, call a service off the event loop, send what comes back.

Transport only. State changes go through the services; snapshots reach every connection through the
room's group once the change has committed.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from common import logcontext, metrics
from common.errors import Refused
from common.ratelimit import TokenBucket
from lobby import chat, events, play, protocol
from lobby import services as lobby_services
from lobby.selectors import room_snapshot
from players.identity import session_player
from players.models import Player

log = logging.getLogger(__name__)

FRAMES_PER_SECOND = 20
FRAME_BURST = 40
# Presence is refreshed at most this often by ordinary frames (pings always refresh it).
SEEN_EVERY_SECONDS = 5.0


class RoomConsumer(AsyncWebsocketConsumer):
    code: str
    player: Player | None
    last_version: int
    # What this connection may read of the chat (None before its first room frame), and the ids of
    # the messages in the last chat_history it was sent (a live copy of one of them is not sent again).
    chat_view: chat.ChatView | None = None
    chat_in_history: frozenset[int] = frozenset()

    async def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"]).upper()
        self.player = await database_sync_to_async(session_player)(self.scope.get("session"))
        logcontext.bind(room=self.code, player=self.player.id if self.player is not None else None)
        self.last_version = 0
        self.last_seen = 0.0
        self.bucket = TokenBucket(rate=FRAMES_PER_SECOND, burst=FRAME_BURST)
        self.joined = False
        await self.accept()
        try:
            await database_sync_to_async(lobby_services.connection_open)(
                code=self.code, channel_name=self.channel_name, player=self.player, now=timezone.now()
            )
        except Refused as exc:  # unknown room (4404), closed room (4410), banned player (4403)
            await self.room_refuse(await database_sync_to_async(events.refusal)(self.code, exc))
            return
        await self.channel_layer.group_add(events.room_group(self.code), self.channel_name)
        self.joined = True
        metrics.WEBSOCKETS_OPEN.inc()
        snapshot = await database_sync_to_async(room_snapshot)(self.code)
        if snapshot is not None:
            await self._send_snapshot(snapshot)

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "joined", False):
            return
        metrics.WEBSOCKETS_OPEN.dec()
        await self.channel_layer.group_discard(events.room_group(self.code), self.channel_name)
        await database_sync_to_async(lobby_services.connection_close)(
            channel_name=self.channel_name, now=timezone.now()
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.joined:
            return
        if not self.bucket.allow():
            await self._send_error("rate_limited", "Too many frames: slow down.")
            return
        try:
            command = protocol.parse_frame(text_data, bytes_data)
        except protocol.BadFrame as exc:
            await self._send_error(exc.code, exc.message)
            return
        await self._mark_seen(always=isinstance(command, protocol.Ping))
        if isinstance(command, protocol.Ping):
            await self._send(protocol.pong_frame())
            return
        try:
            await database_sync_to_async(self._apply)(command)
        except Refused as exc:
            await self._send_error(exc.code, exc.message)

    def _apply(self, command: protocol.Command) -> None:
        """Run the service for ``command`` (in the database thread)."""
        now = timezone.now()
        if self.player is None:
            raise Refused("no_player", "Choose a name first: this device has no player yet.")
        player, code = self.player, self.code
        match command:
            case protocol.Sit():
                lobby_services.room_sit(code=code, player=player, now=now)
            case protocol.Stand():
                lobby_services.room_stand(code=code, player=player, now=now)
            case protocol.SetRules(changes=changes):
                lobby_services.room_set_rules(code=code, player=player, changes=changes, now=now)
            case protocol.Start():
                play.game_start(code=code, player=player, now=now)
            case protocol.Drop(peg=peg, ply=ply):
                play.game_drop(code=code, player=player, peg=peg, ply=ply, now=now)
            case protocol.Resign():
                play.game_resign(code=code, player=player, now=now)
            case protocol.Again():
                play.game_again(code=code, player=player, now=now)
            case protocol.Say(chat=chat_name, text=text, phrase=phrase):
                chat.chat_say(code=code, player=player, chat=chat_name, text=text, phrase=phrase, now=now)

    async def _mark_seen(self, *, always: bool) -> None:
        loop_now = timezone.now().timestamp()
        if always or loop_now - self.last_seen >= SEEN_EVERY_SECONDS:
            self.last_seen = loop_now
            await database_sync_to_async(lobby_services.connection_seen)(
                code=self.code, channel_name=self.channel_name, player=self.player, now=timezone.now()
            )

    # --- events from the room's group ----------------------------------------------------------------
    async def room_snapshot(self, event: dict[str, Any]) -> None:
        await self._send_snapshot(event["snapshot"])

    async def room_notice(self, event: dict[str, Any]) -> None:
        await self._send(protocol.notice_frame(event["code"], event["seat"]))

    async def room_chat(self, event: dict[str, Any]) -> None:
        """A new chat message: sent on if this connection may read it now."""
        message = event["message"]
        view = self.chat_view
        if view is None or not view.delivers(chat=message["chat"], written_in_game=event["game"]):
            return
        if message["id"] in self.chat_in_history:
            return  # committed before the history was read, which already carried it
        await self._send(protocol.chat_frame(message))

    # --- chat ------------------------------------------------------------------------------------------
    async def _chat_follow(self, snapshot: dict[str, Any]) -> None:
        """After a room frame: what may this connection read now? When that grew (its first frame,
        the end of a seated player's game, the spectators' chat turned back on), send the history."""
        player_id = str(self.player.id) if self.player is not None else None
        view = chat.ChatView.from_snapshot(snapshot, player_id=player_id)
        before, self.chat_view = self.chat_view, view
        if before is not None and view.reads() <= before.reads():
            return
        messages = await database_sync_to_async(chat.chat_history)(code=self.code, reads=view.reads())
        self.chat_in_history = frozenset(message["id"] for message in messages)
        await self._send(protocol.chat_history_frame(messages))
    async def room_refuse(self, event: dict[str, Any]) -> None:
        """The server will not keep this socket: send what the event carries, then close with its code."""
        if event.get("snapshot") is not None:
            await self._send_snapshot(event["snapshot"])
        if event.get("error") is not None:
            await self._send(event["error"])
        await self.close(code=event["close"])

    # --- sending ---------------------------------------------------------------------------------------
    async def _send_snapshot(self, snapshot: dict[str, Any]) -> None:
        if snapshot["version"] <= self.last_version:
            return  # an older or repeated snapshot: the client already has newer
        self.last_version = snapshot["version"]
        player_id = str(self.player.id) if self.player is not None else None
        await self._send(protocol.room_frame(snapshot, player_id=player_id))
        await self._chat_follow(snapshot)

    async def _send_error(self, code: str, message: str) -> None:
        metrics.FRAMES_REFUSED.labels(code=code).inc()
        await self._send(protocol.error_frame(code, message))

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))
