"""Each event loop's arena loop: a service of its runtime (``live.runtime.LOOP_SERVICES``).

Every ``TICK_SECONDS`` it moves arenas on with the clock and scores ends no hook scored
(:func:`tournaments.services.arenas_sweep`), then runs each running arena's wave
(:class:`tournaments.waves.ArenaWave`) with the one wave runner, :func:`lobby.realtime.waves.pair_wave`,
as quick pairing's: for the arenas it wins it reads who waits, pairs them off the loop and writes the
pairs. It also owns the loop's :class:`StandingsFeed`. Database work goes through
:func:`live.offload.offload` (lane ``pairing``, as quick pairing's).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from datetime import datetime
from typing import TYPE_CHECKING

from live.offload import offload
from live.periodic import run_every
from lobby.realtime.waves import pair_wave
from tournaments.realtime.feed import StandingsFeed
from tournaments.services import arenas_sweep
from tournaments.waves import ArenaWave

if TYPE_CHECKING:
    from live.runtime import Runtime

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0


class ArenaLoop:
    """The arena loop and standings feed of one event loop (made by its runtime with the runtime)."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.feed = StandingsFeed(runtime.loop)
        self.task: asyncio.Task[None] | None = None
        self.wave_seconds: deque[float] = deque(maxlen=1000)  # the last waves this loop ran (benchmark)

    def start(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = asyncio.get_running_loop().create_task(run_every(TICK_SECONDS, self.tick, name="arena tick"),
                                                           name="arenas")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await self.feed.close()

    async def tick(self, *, now: datetime) -> int:
        """One round: the clock, then the waves this process wins; returns the pairs made."""
        running = await offload(arenas_sweep, lane="pairing")(now=now)
        made = 0
        for arena_id in running:
            made += await self.arena_wave(arena_id=arena_id, now=now)
        return made

    async def arena_wave(self, *, arena_id: int, now: datetime) -> int:
        """Run the arena's wave if this process wins it; returns the pairs made."""
        run = await pair_wave(ArenaWave(arena_id), now=now)
        if run is None or run.waiting < 2:
            return 0
        self.wave_seconds.append(run.seconds)
        # One line a wave (the benchmark reads them): how many waited, how many pairs, how long.
        log.info("arena %s wave: %d waiting, %d pairs in %.4f s", arena_id, run.waiting, run.made, run.seconds)
        return run.made
