"""The room websocket: parse a frame, call a service off the event loop, send what comes back.

Transport only. State changes go through the services; snapshots reach every connection through the
room's group once the change has committed.

Failures of the services underneath never end a socket silently. A frame whose handling fails (the
database is down) is answered with an ``error`` frame coded ``server_error``; nothing changed, and the
socket stays open for the player to try again. A socket whose own loop fails (the channel layer lost
Redis, so this socket would hear nothing more; the database failed while opening it) is closed with
4503, so that the page reconnects and resyncs from the snapshot it gets then, and its connection is
recorded as closed like any other. Recording a close is retried; if it still fails, the sweep closes
the record once the socket has been silent for PING_TIMEOUT_SECONDS.
"""

from __future__ import annotations

import asyncio
import contextlib
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
# Pauses before each new attempt to record a closed socket (a database blip must not leave the seat
# showing connected); all of them well within daphne's 10 s for a closed socket's clean-up.
RECORD_CLOSE_RETRY_DELAYS = (0.5, 2.0)


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
        # Recorded from here on: whatever fails next, _leave() must record the close.
        self.joined = True
        metrics.WEBSOCKETS_OPEN.inc()
        await self.channel_layer.group_add(events.room_group(self.code), self.channel_name)
        snapshot = await database_sync_to_async(room_snapshot)(self.code)
        if snapshot is not None:
            await self._send_snapshot(snapshot)

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """Undo the join, once: the socket gauge, the room's group, and the connection's record (a seat
        whose player has no other connection shows disconnected). A no-op if the socket never joined.
        Never raises: what cannot be undone is logged, and left to expire (the group membership) or to
        the sweep (the record).
        """
        if not getattr(self, "joined", False):
            return
        self.joined = False
        metrics.WEBSOCKETS_OPEN.dec()
        try:
            await self.channel_layer.group_discard(events.room_group(self.code), self.channel_name)
        except Exception as exc:  # Redis is gone: the membership went with it, or expires there
            log.warning("could not leave the room's group: %s", _one_line(exc))
        await self._record_close()

    async def _record_close(self) -> None:
        """Record that this socket closed, retrying after RECORD_CLOSE_RETRY_DELAYS: until it is recorded the
        seat shows connected, and a disconnected player's grace period has not begun. If every attempt
        fails, the sweep closes the record PING_TIMEOUT_SECONDS after the socket's last sign of life."""
        attempts = len(RECORD_CLOSE_RETRY_DELAYS) + 1
        for attempt, delay in enumerate((*RECORD_CLOSE_RETRY_DELAYS, None), start=1):
            try:
                await database_sync_to_async(lobby_services.connection_close)(
                    channel_name=self.channel_name, now=timezone.now()
                )
                return
            except Exception as exc:
                then = "the sweep will" if delay is None else f"retrying in {delay:g} s"
                log.warning("could not record the closed socket (attempt %d of %d; %s): %s", attempt, attempts,
                            then, _one_line(exc), exc_info=exc if log.isEnabledFor(logging.DEBUG) else None)
                if delay is None:
                    return
                await asyncio.sleep(delay)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Serve the socket until it closes. If its loop fails instead (the channel layer's receive
        raised: Redis went away; a database error while opening the socket or handling a room event),
        close it with 4503 so the page reconnects and resyncs, and record the close.

        When Redis goes, every socket of the process meets the failure itself: channels-redis has them
        take turns waiting on Redis, and each turn fails at once while it is down."""
        try:
            await super().__call__(scope, receive, send)
        except Exception as exc:
            log.warning("closing the room socket (%s) after a failure: %s", protocol.CLOSE_RETRY,
                        _one_line(exc), exc_info=exc if log.isEnabledFor(logging.DEBUG) else None)
            with contextlib.suppress(Exception):  # the socket may be closed already
                await self.close(code=protocol.CLOSE_RETRY)
            await self._leave()

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
        if isinstance(command, protocol.Ping):
            # A ping is answered even when presence cannot be recorded (the database is down): the
            # socket itself is fine, and the page has nothing to retry.
            try:
                await self._mark_seen(always=True)
            except Exception as exc:
                log.debug("presence not recorded: %s", _one_line(exc))
            await self._send(protocol.pong_frame())
            return
        try:
            await self._mark_seen(always=False)
            await database_sync_to_async(self._apply)(command)
        except Refused as exc:
            await self._send_error(exc.code, exc.message)
        except Exception as exc:  # the database is down, say: its transaction rolled back
            log.warning("a %s frame failed: %s", protocol.frame_type(command), _one_line(exc),
                        exc_info=exc if log.isEnabledFor(logging.DEBUG) else None)
            await self._send_error("server_error", protocol.SERVER_ERROR_MESSAGE)
            await self._resync()

    async def _resync(self) -> None:
        """After a failed frame, send the room if it moved on meanwhile: a commit whose answer was lost
        is not broadcast, and the client would otherwise not see it until the next change."""
        try:
            snapshot = await database_sync_to_async(room_snapshot)(self.code)
        except Exception as exc:  # still down: the client keeps its view until the next change
            log.debug("no resync: %s", _one_line(exc))
            return
        if snapshot is not None:
            await self._send_snapshot(snapshot)

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


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any websocket path without a route (``/ws/``, a room code without its trailing slash): refused
    like an unknown room, with close code 4404, so that nothing raises and the page stops retrying."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=protocol.CLOSE_UNKNOWN_ROOM)


def _one_line(exc: BaseException) -> str:
    """``Type: message`` on one line, even for a multi-line database error."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
