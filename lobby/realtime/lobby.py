"""The lobby websocket (``/ws/lobby/``): quick pairing, and the live lists of open rooms and live games.

Transport only, like the room socket, with the same rules: the session cookie says who the player is,
the origin is checked by the ASGI router, frames are at most 4 KiB, and a token bucket limits them.
The pool lives in the database (:mod:`lobby.pairing.seeks`); this process's
:class:`lobby.realtime.matchmaker.Matchmaker` keeps the socket's seek alive and reports what became of
it; the lists come from the process's :class:`lobby.realtime.feed.LobbyFeed` whenever the group
``lobby`` hears of a change.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from common.errors import Refused
from live import runtime
from live.frames import Ping, pong_frame
from live.offload import offload
from lobby.events import LOBBY_GROUP
from lobby.pairing.matching import DEFAULT_POLICY, Pool, RatingRange, Seeker, rating_range, waited_seconds
from lobby.pairing.seeks import (
    CancelOutcome,
    SeekStatus,
    max_wait,
    seek_cancel,
    seek_enter,
    seek_leave,
    seek_replaced,
)
from lobby.protocol import lobby as lobby_protocol
from lobby.protocol import messages
from lobby.realtime.loop import LobbyLoop
from lobby.realtime.socket import Consumer
from lobby.rooms.listings import LobbyLists, lobby_lists
from players.models import Player

# A seeking page pings every 5 s; one silent this long no longer has its seek kept alive.
SEEK_SILENCE_SECONDS = 15.0


class LobbyConsumer(Consumer):
    player: Player | None
    seeker: Seeker | None

    async def connect(self) -> None:
        self.seeker = None
        self.shown_range: RatingRange | None = None
        self.had_seek = False
        self.last_heard = time.monotonic()
        self.sent: dict[str, Any] = {}
        self.joined = False
        # Accept before any database work: a busy database thread must not run the handshake past
        # the server's connect timeout. Frames wait until connect() returns.
        await self.accept()
        self.player = await offload(self.identify)()
        running = runtime.ensure_running().service(LobbyLoop)
        self.matchmaker = running.matchmaker
        self.feed = running.feed
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.hear_player(self.player.pk if self.player is not None else None)
        self.feed.subscribe(LOBBY_GROUP, self)
        self.joined = True
        await self.lists_updated(await offload(lobby_lists)(now=timezone.now()))

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "joined", False):
            return
        self.feed.unsubscribe(LOBBY_GROUP, self)
        self.matchmaker.unwatch(self)
        self.seeker = None
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        await self.stop_hearing_player()
        if self.had_seek:
            # Not queued behind other work (see pool_call): a wave must not pair a page that left.
            await offload(seek_leave, lane="pairing")(channel_name=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.joined:
            return
        self.last_heard = time.monotonic()
        match await self.command(lobby_protocol.parse_lobby_frame, text_data, bytes_data):
            case Ping():
                await self.send_frame(pong_frame())
            case lobby_protocol.SeekRequest(turn_seconds=seconds, ranked=ranked):
                await self._seek(Pool(turn_seconds=seconds, ranked=ranked))
            case lobby_protocol.CancelSeek():
                await self._cancel()

    # --- seeking -------------------------------------------------------------------------------------
    async def _seek(self, pool: Pool) -> None:
        if self.player is None:
            await self.refuse("no_player", gettext("Choose a name first: this device has no player yet."))
            return
        if self.seeker is not None:
            await self.refuse("already_seeking", gettext("You are already looking for an opponent."))
            return
        now = timezone.now()
        try:
            self.seeker = await offload(seek_enter, lane="pairing")(
                player=self.player, channel_name=self.channel_name, pool=pool, now=now
            )
        except Refused as exc:  # a bot account
            await self.refuse(exc.code, exc.message)
            return
        self.had_seek = True
        self.shown_range = None
        self.matchmaker.watch(self)
        await self._show_range(now)

    async def _cancel(self) -> None:
        if self.seeker is None:
            await self.send_frame(lobby_protocol.cancelled_frame("cancel"))  # nothing waits: cancelling is idempotent
            return
        await self._stop_seek(self.seeker.seek_id, reason="cancel")

    async def _stop_seek(self, seek_id: int, *, reason: str) -> None:
        """End the waiting seek ``seek_id`` unless a wave paired it first (then say where)."""
        result = await offload(seek_cancel, lane="pairing")(seek_id=seek_id)
        if result.outcome is CancelOutcome.PAIRED and result.room_code is not None:
            await self._paired(seek_id, result.room_code)
        else:
            await self._ended(seek_id, reason)

    async def _show_range(self, now: datetime) -> None:
        """Send ``seeking`` when the range in force differs from the one last shown (it widens with time)."""
        if self.seeker is None:
            return
        accepted = rating_range(self.seeker, now=now, policy=DEFAULT_POLICY)
        if accepted != self.shown_range:
            self.shown_range = accepted
            low, high = accepted.rounded()
            await self.send_frame(lobby_protocol.seeking_frame(since=self.seeker.since, low=low, high=high))

    async def _paired(self, seek_id: int, code: str) -> None:
        if self.seeker is None or self.seeker.seek_id != seek_id:
            return  # already told, or about an older seek of this socket
        self.seeker = None
        self.matchmaker.unwatch(self)
        await self.send_frame(lobby_protocol.paired_frame(code))

    async def _ended(self, seek_id: int, reason: str) -> None:
        if self.seeker is None or self.seeker.seek_id != seek_id:
            return
        self.seeker = None
        self.matchmaker.unwatch(self)
        await self.send_frame(lobby_protocol.cancelled_frame(reason))

    # --- from the matchmaker (this process's heartbeat) ----------------------------------------------
    def client_alive(self) -> bool:
        return time.monotonic() - self.last_heard <= SEEK_SILENCE_SECONDS

    async def seek_status(self, status: SeekStatus | None, *, now: datetime) -> None:
        seeker = self.seeker
        if seeker is None:
            return
        if status is not None and status.seek_id == seeker.seek_id:
            if status.room_code is not None:
                await self._paired(seeker.seek_id, status.room_code)  # the channel message was lost or is late
            elif waited_seconds(seeker, now) >= max_wait().total_seconds():
                await self._stop_seek(seeker.seek_id, reason="timeout")
            else:
                await self._show_range(now)
            return
        # The row is gone and no message said why (yet): another tab took over, it waited past the maximum
        # (the sweep's message may come after this round), or it expired.
        assert self.player is not None
        replaced = await offload(seek_replaced)(seek_id=seeker.seek_id, player=self.player)
        timed_out = waited_seconds(seeker, now) >= max_wait().total_seconds()
        await self._ended(seeker.seek_id, "replaced" if replaced else "timeout" if timed_out else "expired")

    # --- from the channel layer ----------------------------------------------------------------------
    async def lobby_changed(self, changed: messages.LobbyChanged) -> None:
        self.feed.refresh_soon(LOBBY_GROUP)

    async def lobby_paired(self, paired: messages.LobbyPaired) -> None:
        await self._paired(paired.seek, paired.code)

    async def lobby_ended(self, ended: messages.LobbyEnded) -> None:
        await self._ended(ended.seek, ended.reason)

    # --- sending -------------------------------------------------------------------------------------
    async def lists_updated(self, lists: LobbyLists) -> None:
        """Send each list that differs from the one this socket last sent (whole lists, never diffs)."""
        for key, frame in (
            ("open_rooms", lobby_protocol.open_rooms_frame(lists.open_rooms)),
            ("live_games", lobby_protocol.live_games_frame(lists.live_games)),
        ):
            if self.sent.get(key) != frame:
                self.sent[key] = frame
                await self.send_frame(frame)
