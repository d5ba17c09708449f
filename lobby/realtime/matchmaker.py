"""The per-process task of quick pairing, part of its loop's lobby service (started and stopped with it).

Every ``HEARTBEAT`` it
1. keeps this process's waiting seeks alive in the shared pool, in one query for all of its lobby
   sockets whose page is still speaking, and tells each socket what became of its seek (paired, ended,
   waiting with a wider range, waited too long);
2. runs quick pairing's wave (:data:`lobby.pairing.seeks.SEEK_WAVE`) with the one wave runner,
   :func:`lobby.realtime.waves.pair_wave`: the one process that claims it reads the live seekers, pairs
   them with the pure :func:`lobby.pairing.matching.pair_seekers` off the database thread (the blossom
   algorithm is CPU work), and writes each pair with :func:`lobby.pairing.seeks.seek_pair_write`, which
   re-checks both seekers under row locks. Waves never overlap: the next starts once this one is written.
A process that dies stops refreshing its seeks, so they expire within ``SEEK_EXPIRY`` and are never
paired; the other processes go on pairing.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Protocol

from live.offload import offload
from live.periodic import run_every
from lobby.pairing.seeks import HEARTBEAT, SEEK_WAVE, SeekStatus, seeks_keep_alive
from lobby.realtime.waves import pair_wave

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
        every = HEARTBEAT.total_seconds()
        self.tasks = [
            loop.create_task(run_every(every, self.keep_alive, name="matchmaker step keep_alive"),
                             name="lobby-keep-alive"),
            loop.create_task(run_every(every, self.seek_wave, name="matchmaker step seek_wave"), name="lobby-waves"),
        ]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

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
