"""The per-process task of quick pairing, a sibling of the game scheduler (started and stopped with it).

Every ``HEARTBEAT`` it
1. keeps this process's waiting seeks alive in the shared pool, in one query for all of its lobby
   sockets whose page is still speaking, and tells each socket what became of its seek (paired, ended,
   waiting with a wider range, waited too long);
2. tries to claim the pairing wave that is due; the one process that wins reads the live seekers,
   pairs them with the pure :func:`lobby.pairing.pair_wave` off the database thread (the blossom
   algorithm is CPU work), and writes the pairs with :func:`lobby.seeks.wave_pair`, which re-checks
   every seeker under row locks.
A process that dies stops refreshing its seeks, so they expire within ``SEEK_EXPIRY`` and are never
paired; the other processes go on pairing.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Protocol

from channels.db import database_sync_to_async
from django.utils import timezone

from lobby.pairing import DEFAULT_POLICY, pair_wave
from lobby.seeks import HEARTBEAT, SeekStatus, seeks_keep_alive, wave_begin, wave_pair

log = logging.getLogger(__name__)


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
    """Keeps this process's seeks alive and runs the pairing waves this process wins."""

    def __init__(self) -> None:
        self.sockets: dict[str, SeekingSocket] = {}
        self.task: asyncio.Task[None] | None = None

    def watch(self, socket: SeekingSocket) -> None:
        self.sockets[socket.channel_name] = socket

    def unwatch(self, socket: SeekingSocket) -> None:
        if self.sockets.get(socket.channel_name) is socket:
            del self.sockets[socket.channel_name]

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name="lobby-matchmaker")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT.total_seconds())
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup must not stop pairing for good
                log.exception("matchmaker tick failed")

    async def tick(self) -> None:
        await self.keep_alive(now=timezone.now())
        await self.wave(now=timezone.now())

    async def keep_alive(self, *, now: datetime) -> None:
        sockets = list(self.sockets.values())
        if not sockets:
            return
        alive = [socket.channel_name for socket in sockets if socket.client_alive()]
        # Its own thread: a backlog on the shared database thread must not let live seeks expire.
        statuses = await database_sync_to_async(seeks_keep_alive, thread_sensitive=False)(
            alive=alive, watched=[socket.channel_name for socket in sockets], now=now
        )
        for socket in sockets:
            try:
                await socket.seek_status(statuses.get(socket.channel_name), now=now)
            except Exception:  # one broken socket must not keep the others from hearing
                log.exception("could not update a seeking socket")

    async def wave(self, *, now: datetime) -> int:
        """Run the wave due now if this process wins it; returns the number of pairs made."""
        seekers = await database_sync_to_async(wave_begin)(now=now)
        if not seekers or len(seekers) < 2:
            return 0
        pairs = await asyncio.to_thread(pair_wave, seekers, now=now, policy=DEFAULT_POLICY)
        if not pairs:
            return 0
        made = await database_sync_to_async(wave_pair)(pairs=pairs, now=timezone.now())
        return len(made)
