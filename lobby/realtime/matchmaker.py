"""The per-process task of quick pairing, part of its loop's runtime (started and stopped with it).

Every ``HEARTBEAT`` it
1. keeps this process's waiting seeks alive in the shared pool, in one query for all of its lobby
   sockets whose page is still speaking, and tells each socket what became of its seek (paired, ended,
   waiting with a wider range, waited too long);
2. tries to claim the pairing wave that is due; the one process that wins reads the live seekers,
   pairs them with the pure :func:`lobby.pairing.matching.pair_wave` off the database thread (the blossom
   algorithm is CPU work), and writes each pair with :func:`lobby.pairing.seeks.pair_write`, which re-checks
   both seekers under row locks. Waves never overlap: the next starts once this one is written.
A process that dies stops refreshing its seeks, so they expire within ``SEEK_EXPIRY`` and are never
paired; the other processes go on pairing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol

from django.db import connection
from django.utils import timezone

from lobby.pairing.matching import DEFAULT_POLICY, Seeker, pair_wave
from lobby.pairing.seeks import HEARTBEAT, SeekStatus, seeks_keep_alive, wave_begin, wave_end, wave_pair
from lobby.realtime.offload import offload

log = logging.getLogger(__name__)

# How many pairs of one wave are written at once (PostgreSQL).
PAIR_WRITERS = 3


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
        self.tasks: list[asyncio.Task[None]] = []

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The first loop (None before start)."""
        return self.tasks[0] if self.tasks else None

    def watch(self, socket: SeekingSocket) -> None:
        self.sockets[socket.channel_name] = socket

    def unwatch(self, socket: SeekingSocket) -> None:
        if self.sockets.get(socket.channel_name) is socket:
            del self.sockets[socket.channel_name]

    def start(self) -> None:
        """Start both loops in the running loop (replacing any from an earlier start)."""
        for task in self.tasks:
            task.cancel()
        loop = asyncio.get_running_loop()
        self.tasks = [
            loop.create_task(self._every_heartbeat(self.keep_alive), name="lobby-keep-alive"),
            loop.create_task(self._every_heartbeat(self.wave), name="lobby-waves"),
        ]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _every_heartbeat(self, step: Callable[..., Awaitable[object]]) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT.total_seconds())
            try:
                await step(now=timezone.now())
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup must not stop pairing for good
                log.exception("matchmaker step %s failed", getattr(step, "__name__", step))

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

    async def wave(self, *, now: datetime) -> int:
        """Run the wave due now if this process wins it; returns the number of pairs made."""
        seekers = await offload(wave_begin, lane="pairing")(now=now)
        if seekers is None:
            return 0
        try:
            return await self._pair(seekers, now=now)
        finally:
            await offload(wave_end, lane="pairing")()

    async def _pair(self, seekers: list[Seeker], *, now: datetime) -> int:
        if len(seekers) < 2:
            return 0
        pairs = await asyncio.to_thread(pair_wave, seekers, now=now, policy=DEFAULT_POLICY)
        if not pairs:
            return 0
        # The pairs (which share no seeker) are dealt to a few writers that work at once on PostgreSQL,
        # each writing its share pair by pair on one connection; every pair is its own transaction, and
        # its two sockets are told as soon as it commits. SQLite allows one writer at a time.
        writers = PAIR_WRITERS if connection.vendor == "postgresql" else 1
        shares = [pairs[i::writers] for i in range(writers) if pairs[i::writers]]
        write = offload(wave_pair, lane="pairing")
        written = await asyncio.gather(*(write(pairs=share, now=timezone.now()) for share in shares))
        return sum(len(made) for made in written)
