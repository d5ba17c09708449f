"""Each event loop's arena loop: a service of its runtime (``lobby.realtime.runtime.LOOP_SERVICES``).

Every ``TICK_SECONDS`` it moves arenas on with the clock and scores ends no hook scored
(:func:`tournaments.services.arenas_sweep`), then tries to claim each running arena's wave; for the
arenas it wins it reads who waits, pairs them off the loop (:func:`tournaments.pairing.pair_wave`) and
writes the pairs (:mod:`tournaments.waves`). It also owns the loop's :class:`StandingsFeed`.
Database work goes through :func:`lobby.realtime.offload.offload` (lane ``pairing``, as quick pairing's).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from lobby.realtime.offload import offload
from tournaments.pairing import pair_wave
from tournaments.realtime.feed import StandingsFeed
from tournaments.services import arenas_sweep
from tournaments.waves import wave_claim, wave_end, wave_waiting, wave_write

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
# How many pairs of one wave are written at once (PostgreSQL; SQLite has one writer).
PAIR_WRITERS = 3


class ArenaLoop:
    """The arena loop and standings feed of one event loop (made by its runtime with the runtime)."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.feed = StandingsFeed(runtime.loop)
        self.task: asyncio.Task[None] | None = None
        self.wave_seconds: deque[float] = deque(maxlen=1000)  # the last waves this loop ran (benchmark)

    def start(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = asyncio.get_running_loop().create_task(self._run(), name="arenas")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await self.feed.close()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.tick(now=timezone.now())
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup must not stop the arenas for good
                log.exception("arena tick failed")

    async def tick(self, *, now: datetime) -> int:
        """One round: the clock, then the waves this process wins; returns the pairs made."""
        running = await offload(arenas_sweep, lane="pairing")(now=now)
        made = 0
        for arena_id in running:
            made += await self.wave(arena_id=arena_id, now=now)
        return made

    async def wave(self, *, arena_id: int, now: datetime) -> int:
        """Run the arena's wave if this process wins it; returns the pairs made."""
        if not await offload(wave_claim, lane="pairing")(arena_id=arena_id, now=now):
            return 0
        began = time.perf_counter()
        try:
            waiting = await offload(wave_waiting, lane="pairing")(arena_id=arena_id, now=now)
            if len(waiting) < 2:
                return 0
            pairs = await asyncio.to_thread(pair_wave, waiting)
            writers = PAIR_WRITERS if connection.vendor == "postgresql" else 1
            shares = [pairs[i::writers] for i in range(writers) if pairs[i::writers]]
            write = offload(wave_write, lane="pairing")
            written = await asyncio.gather(*(write(arena_id=arena_id, pairs=s, now=timezone.now()) for s in shares))
            took = time.perf_counter() - began
            self.wave_seconds.append(took)
            made = sum(len(codes) for codes in written)
            # One line a wave (the benchmark reads them): how many waited, how many pairs, how long.
            log.info("arena %s wave: %d waiting, %d pairs in %.4f s", arena_id, len(waiting), made, took)
            return made
        finally:
            await offload(wave_end, lane="pairing")(arena_id=arena_id)
