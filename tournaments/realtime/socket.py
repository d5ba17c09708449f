"""The arena websocket (``/ws/tournaments/{id}/``): the arena live, "paired", and berserk.

Transport only, with the rules of the other sockets: the session cookie says who the player is, the
origin is checked by the ASGI router, frames are at most 4 KiB and a token bucket limits them. Out: the
arena (``tournament``: the GET body with the reader's own row) on connect and whenever it changes, at
most about twice a second (this loop's :class:`tournaments.realtime.feed.StandingsFeed`); ``paired`` to
a player whose new game starts. In: ``ping``, ``berserk``.
"""

from __future__ import annotations

import json
from typing import Any

from autobahn.exception import Disconnected
from django.utils import timezone

from common.errors import Refused
from common.ratelimit import TokenBucket
from lobby.protocol.frames import CLOSE_UNKNOWN_ROOM, BadFrame, Ping, error_frame, pong_frame
from lobby.realtime import runtime
from lobby.realtime.offload import offload
from lobby.realtime.room import FRAME_BURST, FRAMES_PER_SECOND
from lobby.realtime.socket import Consumer
from players.identity import session_player
from players.models import Player
from tournaments import events, protocol
from tournaments.realtime.loop import ArenaLoop
from tournaments.selectors import ArenaView, arena_view
from tournaments.services import arena_berserk


class TournamentConsumer(Consumer):
    player: Player | None
    arena_id: int
    joined: bool = False

    async def connect(self) -> None:
        self.bucket = TokenBucket(rate=FRAMES_PER_SECOND, burst=FRAME_BURST)
        self.last_version = -1
        await self.accept()
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        self.player = await offload(session_player)(self.scope.get("session"))
        view = await offload(arena_view)(self.arena_id)
        if view is None:
            await self._send(error_frame("not_found", "There is no such arena."))
            await self.close(code=CLOSE_UNKNOWN_ROOM)
            return
        self.feed = runtime.ensure_running().service(ArenaLoop).feed
        self.groups_joined = [events.arena_group(self.arena_id)]
        if self.player is not None:
            self.groups_joined.append(events.player_group(self.arena_id, self.player.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.feed.subscribe(self.arena_id, self)
        self.joined = True
        await self.arena_updated(view)

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            return
        self.joined = False
        self.feed.unsubscribe(self.arena_id, self)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.joined:
            return
        if not self.bucket.allow():
            await self._send(error_frame("rate_limited", "Too many frames: slow down."))
            return
        try:
            command = protocol.parse_tournament_frame(text_data, bytes_data)
        except BadFrame as exc:
            await self._send(error_frame(exc.code, exc.message))
            return
        match command:
            case Ping():
                await self._send(pong_frame())
            case protocol.Berserk(game=game):
                await self._berserk(game)

    async def _berserk(self, game: str) -> None:
        if self.player is None:
            await self._send(error_frame("not_joined", "You have not joined this arena."))
            return
        try:
            await offload(arena_berserk)(arena_id=self.arena_id, player=self.player, game_id=game,
                                         now=timezone.now())
        except Refused as exc:
            await self._send(error_frame(exc.code, exc.message))
            return
        await self._send(protocol.berserked_frame(game))

    # --- from the channel layer and the feed ---------------------------------------------------------------
    async def tournament_changed(self, event: dict[str, Any]) -> None:
        self.feed.refresh_soon(self.arena_id)

    async def tournament_paired(self, event: dict[str, Any]) -> None:
        await self._send(protocol.paired_frame(code=str(event["code"]), game=str(event["game"])))

    async def arena_updated(self, view: ArenaView) -> None:
        """Send the arena as this reader sees it, unless it is older than the last one sent."""
        if view.body["version"] < self.last_version:
            return
        self.last_version = view.body["version"]
        await self._send(protocol.tournament_frame(view.for_player(str(self.player.pk) if self.player else None)))

    async def _send(self, frame: dict[str, Any]) -> None:
        try:
            await self.send(text_data=json.dumps(frame, separators=(",", ":")))
        except Disconnected:  # the page closed as the arena was sent: its disconnect is on its way
            if self.joined:
                self.feed.unsubscribe(self.arena_id, self)
