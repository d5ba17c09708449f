"""The arena websocket (``/ws/tournaments/{id}/``): the arena live, "paired", and berserk.

Transport only, with the rules of the other sockets: the session cookie says who the player is, the
origin is checked by the ASGI router, frames are at most 4 KiB and a token bucket limits them. Out: the
arena (``tournament``: the GET body with the reader's own row) on connect and whenever it changes, at
most about twice a second (this loop's :class:`tournaments.realtime.feed.StandingsFeed`); ``paired`` to
a player whose new game starts. In: ``ping``, ``berserk``.
"""

from __future__ import annotations

from typing import Any

from autobahn.exception import Disconnected
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import Refused
from live import runtime
from live.frames import Ping, pong_frame
from live.offload import offload
from lobby.protocol.frames import CLOSE_UNKNOWN_ROOM
from lobby.realtime.socket import Consumer
from players.models import Player
from tournaments import events, messages, protocol
from tournaments.realtime.loop import ArenaLoop
from tournaments.selectors import ArenaView, arena_view
from tournaments.services import arena_berserk


class TournamentConsumer(Consumer):
    player: Player | None
    arena_id: int
    joined: bool = False

    async def connect(self) -> None:
        self.last_version = -1
        await self.accept()
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        self.player = await offload(self.identify)()
        view = await offload(arena_view)(self.arena_id)
        if view is None:
            await self.refuse("not_found", gettext("There is no such arena."))
            await self.close(code=CLOSE_UNKNOWN_ROOM)
            return
        self.feed = runtime.ensure_running().service(ArenaLoop).feed
        self.groups_joined = [events.arena_group(self.arena_id)]
        if self.player is not None:
            self.groups_joined.append(events.player_group(self.arena_id, self.player.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.hear_player(self.player.pk if self.player is not None else None)
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
        await self.stop_hearing_player()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.joined:
            return
        match await self.command(protocol.parse_tournament_frame, text_data, bytes_data):
            case Ping():
                await self.send_frame(pong_frame())
            case protocol.Berserk(game=game):
                await self._berserk(game)

    async def _berserk(self, game: str) -> None:
        if self.player is None:
            await self.refuse("not_joined", gettext("You have not joined this arena."))
            return
        try:
            await offload(arena_berserk)(arena_id=self.arena_id, player=self.player, game_id=game,
                                         now=timezone.now())
        except Refused as exc:
            await self.refuse(exc.code, exc.message)
            return
        await self.send_frame(protocol.berserked_frame(game))

    # --- from the channel layer and the feed ---------------------------------------------------------------
    async def tournament_changed(self, changed: messages.TournamentChanged) -> None:
        self.feed.refresh_soon(self.arena_id)

    async def tournament_paired(self, paired: messages.TournamentPaired) -> None:
        await self.send_frame(protocol.paired_frame(code=paired.code, game=paired.game))

    async def arena_updated(self, view: ArenaView) -> None:
        """Send the arena as this reader sees it, unless it is older than the last one sent."""
        if view.body["version"] < self.last_version:
            return
        self.last_version = view.body["version"]
        await self.send_frame(protocol.tournament_frame(view.for_player(str(self.player.pk) if self.player else None)))

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """As every socket's, but the standings are pushed from the feed: a page that closed as they were
        sent leaves the feed at once (its disconnect is on its way)."""
        try:
            await super().send_frame(frame)
        except Disconnected:
            if self.joined:
                self.feed.unsubscribe(self.arena_id, self)
