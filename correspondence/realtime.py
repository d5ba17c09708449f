"""Each event loop's correspondence loop (a service of its runtime, ``live.runtime.LOOP_SERVICES``):
every few seconds it tells the players whose time runs out (:func:`correspondence.services.warnings_send`)
and runs the correspondence seeks' pairing wave if this process wins it (the one wave runner,
:func:`lobby.realtime.waves.pair_wave`). A game's deadline itself is the ticker's, as every turn timer."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING

from correspondence.selectors import seeks_waiting
from correspondence.services import CORRESPONDENCE_WAVE, warnings_send
from live.offload import offload
from live.periodic import run_every
from lobby.realtime.waves import pair_wave

if TYPE_CHECKING:
    from live.runtime import Runtime

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0


class CorrespondenceLoop:
    """The correspondence loop of one event loop (made by its runtime with the runtime)."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = asyncio.get_running_loop().create_task(
            run_every(TICK_SECONDS, self.tick, name="correspondence tick"), name="correspondence")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def tick(self, *, now: datetime) -> int:
        """One round: the warnings due, then the seeks' wave if this process wins it (claimed only while two
        seeks wait: a claim is a write, and SQLite has one writer); returns the pairs made."""
        await offload(warnings_send, lane="pairing")(now=now)
        if await offload(seeks_waiting, lane="pairing")(now=now) < 2:
            return 0
        run = await pair_wave(CORRESPONDENCE_WAVE, now=now)
        return 0 if run is None else run.made
