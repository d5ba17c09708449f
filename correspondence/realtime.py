"""Each event loop's correspondence loop (a service of its runtime, ``live.runtime.LOOP_SERVICES``): it
tells the players whose time runs out (:func:`correspondence.services.warnings_send`) when the next is due
(:func:`correspondence.selectors.warnings_next_at`), and runs the correspondence seeks' pairing wave if this
process wins it (the one wave runner, :func:`lobby.realtime.waves.pair_wave`) every ``TICK_SECONDS`` while
two seeks wait, and when a seek is made here (:class:`correspondence.services.SeekMade`); at the latest it
looks every ``LOOK_SECONDS`` (a seek made on another process). A game's deadline itself is the ticker's, as
every turn timer."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from correspondence.selectors import seeks_waiting, warnings_next_at
from correspondence.services import CORRESPONDENCE_WAVE, SeekMade, warnings_send
from live.offload import offload
from live.periodic import WakerService
from lobby.realtime.waves import pair_wave

if TYPE_CHECKING:

    from live.runtime import Runtime

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0
LOOK_SECONDS = 30.0


class CorrespondenceLoop(WakerService):
    """The correspondence loop of one event loop (made by its runtime with the runtime)."""

    hears = (SeekMade,)
    name = "correspondence"
    longest = LOOK_SECONDS
    first_after = TICK_SECONDS

    def __init__(self, runtime: Runtime) -> None:
        super().__init__()
        self.runtime = runtime

    async def step(self, *, now: datetime) -> datetime | None:
        """One round (:meth:`tick`); returns when the next is due."""
        if await self.tick(now=now) is not None:
            return now + timedelta(seconds=TICK_SECONDS)
        return await offload(warnings_next_at, lane="pairing")()

    async def tick(self, *, now: datetime) -> int | None:
        """One round: the warnings due, then the seeks' wave if this process wins it (claimed only while two
        seeks wait: a claim is a write, and SQLite has one writer); returns the pairs made, None if fewer
        than two seeks wait."""
        await offload(warnings_send, lane="pairing")(now=now)
        if await offload(seeks_waiting, lane="pairing")(now=now) < 2:
            return None
        run = await pair_wave(CORRESPONDENCE_WAVE, now=now)
        return 0 if run is None else run.made
