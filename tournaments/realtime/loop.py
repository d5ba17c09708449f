"""Each event loop's arena loop: a service of its runtime (``live.runtime.LOOP_SERVICES``).

Every ``TICK_SECONDS`` while an arena runs, else when the next one is due to start or to have its players
told (:func:`tournaments.selectors.arenas_next_due`), when one is added here
(:class:`tournaments.events.ArenaAdded`) and at the latest every ``LOOK_SECONDS`` (one added on another
process, or an arena game whose process died before scoring it), it moves arenas on with the clock and
scores ends no hook scored (:func:`tournaments.services.arenas_sweep`), then runs each running arena's wave
(:class:`tournaments.waves.ArenaWave`) with the one wave runner, :func:`lobby.realtime.waves.pair_wave`,
as quick pairing's: for the arenas it wins it reads who waits, pairs them off the loop and writes the
pairs. It also owns the loop's :class:`StandingsFeed`. Database work goes through
:func:`live.offload.offload` (lane ``pairing``, as quick pairing's).
"""

from __future__ import annotations

import logging
from collections import deque
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from live.offload import offload
from live.periodic import WakerService
from lobby.realtime.waves import pair_wave
from tournaments.events import ArenaAdded
from tournaments.realtime.feed import StandingsFeed
from tournaments.selectors import arenas_next_due
from tournaments.services import arenas_sweep
from tournaments.waves import ArenaWave

if TYPE_CHECKING:
    from live.runtime import Runtime

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
LOOK_SECONDS = 30.0


class ArenaLoop(WakerService):
    """The arena loop and standings feed of one event loop (made by its runtime with the runtime)."""

    hears = (ArenaAdded,)
    name = "arenas"
    longest = LOOK_SECONDS
    first_after = TICK_SECONDS

    def __init__(self, runtime: Runtime) -> None:
        super().__init__()
        self.runtime = runtime
        self.feed = StandingsFeed(runtime.loop)
        self.wave_seconds: deque[float] = deque(maxlen=1000)  # the last waves this loop ran (benchmark)

    async def stop(self) -> None:
        await super().stop()
        await self.feed.close()

    async def step(self, *, now: datetime) -> datetime | None:
        """One round (:meth:`tick`); returns when the next is due: a second away while an arena runs."""
        running = await self.tick(now=now)
        if running:
            return now + timedelta(seconds=TICK_SECONDS)
        return await offload(arenas_next_due, lane="pairing")(now=now)

    async def tick(self, *, now: datetime) -> list[int]:
        """One round: the clock, then the waves this process wins; returns the arenas running."""
        running = await offload(arenas_sweep, lane="pairing")(now=now)
        for arena_id in running:
            await self.arena_wave(arena_id=arena_id, now=now)
        return running

    async def arena_wave(self, *, arena_id: int, now: datetime) -> int:
        """Run the arena's wave if this process wins it; returns the pairs made."""
        run = await pair_wave(ArenaWave(arena_id), now=now)
        if run is None or run.waiting < 2:
            return 0
        self.wave_seconds.append(run.seconds)
        # One line a wave (the benchmark reads them): how many waited, how many pairs, how long.
        log.info("arena %s wave: %d waiting, %d pairs in %.4f s", arena_id, run.waiting, run.made, run.seconds)
        return run.made
