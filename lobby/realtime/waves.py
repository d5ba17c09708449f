"""The one runner of pairing waves, which quick pairing and every arena configure (a :class:`Wave` each).

A wave is: claim it across processes (:func:`lobby.pairing.waves.wave_claim`, so one process runs each),
read who waits, pair them off the loop (the pairing is pure CPU work: a thread), write the pairs, end it.
The pairs of a wave share nobody, so they are dealt to ``PAIR_WRITERS`` writers that work at once on
PostgreSQL, each writing its share pair by pair on one connection; every pair is its own transaction
that re-checks both under row locks, and its two players are told as soon as it commits. SQLite allows
one writer at a time. The database work goes through :func:`live.offload.offload`, lane
``pairing`` (whose short transactions never queue behind the sockets' work).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypeVar

from django.db import connection
from django.utils import timezone

from live.offload import offload
from lobby.pairing.waves import WaveLease, wave_claim, wave_end

log = logging.getLogger(__name__)

# How many pairs of one wave are written at once (PostgreSQL; SQLite has one writer).
PAIR_WRITERS = 3

W = TypeVar("W")  # one who waits
P = TypeVar("P")  # one pair of them


class Wave(Protocol[W, P]):
    """One kind of pairing wave (quick pairing's pool, one arena): where it is claimed and how it reads,
    pairs and writes. ``read`` and ``write`` run in a database thread, ``pair`` in a thread of its own."""

    def lease(self, *, now: datetime) -> WaveLease:
        """The row whose lease this wave claims (and what else makes it due ``now``)."""
        ...

    def read(self, *, now: datetime) -> Sequence[W]:
        """Who waits to be paired now (in the wave's claim)."""
        ...

    def pair(self, waiting: Sequence[W], *, now: datetime) -> Sequence[P]:
        """The pairs of the wave, nobody in two (pure: no database)."""
        ...

    def write(self, pairs: Sequence[P], *, now: datetime) -> Sequence[object]:
        """Write the pairs one after the other, each in its own transaction, dropping any that is no longer
        possible; returns what was made, one a pair written."""
        ...


@dataclass(frozen=True, slots=True)
class WaveRun:
    """A wave this process ran: how many waited, how many pairs it wrote, and how long it took from its
    claim to its last pair written (seconds)."""

    waiting: int
    made: int
    seconds: float


async def pair_wave(wave: Wave[W, P], *, now: datetime) -> WaveRun | None:
    """Run the wave due ``now`` if this process wins it (see the module docstring); None if it does not."""
    lease = wave.lease(now=now)
    if not await offload(wave_claim, lane="pairing")(lease, now=now):
        return None
    began = time.perf_counter()
    try:
        waiting = await offload(wave.read, lane="pairing")(now=now)
        made = 0
        if len(waiting) >= 2:
            pairs = await asyncio.to_thread(wave.pair, waiting, now=now)
            if pairs:
                made = await _write(wave, pairs)
        return WaveRun(waiting=len(waiting), made=made, seconds=time.perf_counter() - began)
    finally:
        await offload(wave_end, lane="pairing")(lease)


async def _write(wave: Wave[W, P], pairs: Sequence[P]) -> int:
    writers = PAIR_WRITERS if connection.vendor == "postgresql" else 1
    shares = [pairs[i::writers] for i in range(writers) if pairs[i::writers]]
    write = offload(wave.write, lane="pairing")
    written = await asyncio.gather(*(write(share, now=timezone.now()) for share in shares))
    return sum(len(made) for made in written)
