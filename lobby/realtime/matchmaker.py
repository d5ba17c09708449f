"""The per-process task of quick pairing, part of its loop's lobby service (started and stopped with it).

While this process has a seeking socket, every ``HEARTBEAT`` it
1. keeps this process's waiting seeks alive in the shared pool, in one query for all of its lobby
   sockets whose page is still speaking, and tells each socket what became of its seek (paired, ended,
   waiting with a wider range, waited too long);
2. runs quick pairing's wave (:data:`lobby.pairing.seeks.SEEK_WAVE`) with the one wave runner,
   :func:`lobby.realtime.waves.pair_wave`: the one process that claims it reads the live seekers, pairs
   them with the pure :func:`lobby.pairing.matching.pair_seekers` off the database thread (the blossom
   algorithm is CPU work), and writes each pair with :func:`lobby.pairing.seeks.seek_pair_write`, which
   re-checks both seekers under row locks. Waves never overlap: the next starts once this one is written.
A process that dies stops refreshing its seeks, so they expire within ``SEEK_EXPIRY`` and are never
paired; the other processes go on pairing. A process with no seeking socket runs neither (each process
with a seeker runs the waves, which pair the whole pool): its loops sleep until a socket seeks.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Protocol

from django.utils import timezone

from live.offload import offload
from live.periodic import Waker
from lobby.pairing.seeks import HEARTBEAT, SEEK_WAVE, SeekStatus, seeks_keep_alive
from lobby.realtime.waves import pair_wave

log = logging.getLogger(__name__)

# The longest an idle matchmaker sleeps (a socket that seeks wakes it at once).
IDLE_SECONDS = 3600.0


class SeekingSocket(Protocol):
    """What the matchmaker needs of a lobby socket that is seeking."""

    channel_name: str

    def client_alive(self) -> bool:
        """Whether the page spoke recently enough for its seek to be kept alive."""
        ...

    async def seek_status(self, status: SeekStatus | None, *, now: datetime) -> None:
        """What the pool holds for this socket now (None: no seek any more)."""
        ...


class Matchmaker:
    """Keeps this process's seeks alive and runs the pairing waves this process wins.

    Two loops, so a slow wave (a big one, or a busy database) never delays the heartbeats that keep
    live seeks from expiring.
    """

    def __init__(self) -> None:
        self.sockets: dict[str, SeekingSocket] = {}
        # Idle (no seeking socket here): asleep until a socket seeks (IDLE_SECONDS is only a bound).
        self.loops = (Waker(self._keep_alive, name="lobby-keep-alive", longest=IDLE_SECONDS),
                      Waker(self._seek_wave, name="lobby-waves", longest=IDLE_SECONDS))

    @property
    def tasks(self) -> list[asyncio.Task[None]]:
        return [waker.task for waker in self.loops if waker.task is not None]

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The first loop (None before start)."""
        return self.loops[0].task

    def watch(self, socket: SeekingSocket) -> None:
        self.sockets[socket.channel_name] = socket
        at = timezone.now() + HEARTBEAT  # as when a seeker was already here: its first step a heartbeat away
        for waker in self.loops:
            waker.wake(at)

    def unwatch(self, socket: SeekingSocket) -> None:
        if self.sockets.get(socket.channel_name) is socket:
            del self.sockets[socket.channel_name]

    def start(self) -> None:
        """Start both loops in the running loop (replacing any from an earlier start): each looks once a
        heartbeat later, then sleeps until a socket seeks."""
        for waker in self.loops:
            waker.start(after=HEARTBEAT.total_seconds())

    async def stop(self) -> None:
        for waker in self.loops:
            await waker.stop()

    def _next(self, now: datetime) -> datetime | None:
        """When to step again: a heartbeat away while a socket seeks here, else not until one does."""
        return now + HEARTBEAT if self.sockets else None

    async def _keep_alive(self, *, now: datetime) -> datetime | None:
        await self.keep_alive(now=now)
        return self._next(now)

    async def _seek_wave(self, *, now: datetime) -> datetime | None:
        if self.sockets:
            await self.seek_wave(now=now)
        return self._next(now)

    async def keep_alive(self, *, now: datetime) -> None:
        sockets = list(self.sockets.values())
        if not sockets:
            return
        alive = [socket.channel_name for socket in sockets if socket.client_alive()]
        statuses = await offload(seeks_keep_alive, lane="pairing")(
            alive=alive, watched=[socket.channel_name for socket in sockets], now=now
        )
        for socket in sockets:
            try:
                await socket.seek_status(statuses.get(socket.channel_name), now=now)
            except Exception:  # one broken socket must not keep the others from hearing
                log.exception("could not update a seeking socket")

    async def seek_wave(self, *, now: datetime) -> int:
        """Run the wave due now if this process wins it; returns the number of pairs made."""
        run = await pair_wave(SEEK_WAVE, now=now)
        return 0 if run is None else run.made
