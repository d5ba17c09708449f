"""What a load run measured, and the loops every driver shares: pacing, setting up, reporting progress."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar


@dataclass(slots=True)
class Stats:
    """What happened, filled in while the load runs (one event loop: no locking needed)."""

    round_trips: list[tuple[float, float]] = field(default_factory=list)  # (loop time done, seconds)
    errors: Counter[str] = field(default_factory=Counter)
    games_set_up: int = 0
    games_restarted: int = 0
    rooms_created: int = 0
    started_at: float | None = None  # loop time when play began
    ended_at: float | None = None
    client_cpu: float = 0.0  # CPU seconds this process used while the games played
    server_cpu: float | None = None  # CPU seconds the spawned servers used meanwhile (None: not known)
    setup_seconds: float | None = None  # how long setting every game up took (the first phase only)
    setup_cpu: float | None = None  # the server's CPU seconds meanwhile, if known
    ready_after: list[float] = field(default_factory=list)  # seconds from the set-up's start to each game ready
    server_trips: float | None = None  # the servers' database round trips while the games played (None: not known)
    rest_trips_per_second: float | None = None  # the servers' round trips a second at rest, before play
    drops: dict[str, tuple[float, float]] | None = None  # by path: the drops landed and their round trips

    def setup_cpu_per_game(self) -> float | None:
        """The server's CPU seconds per game set up, if known."""
        return None if self.setup_cpu is None else self.setup_cpu / max(1, self.games_set_up)

    def setup_seconds_of(self, games: int) -> float | None:
        """Seconds from the set-up's start until ``games`` games were ready (None: fewer were)."""
        ready = sorted(self.ready_after)
        return ready[games - 1] if 0 < games <= len(ready) else None

    def trips_per_move(self) -> float | None:
        """The servers' database round trips per move while the games played, less their rate at rest (the
        ticker's and the presence loop's), if known."""
        moves = len(self.round_trips)
        if self.server_trips is None or not moves or self.started_at is None or self.ended_at is None:
            return None
        return (self.server_trips - (self.rest_trips_per_second or 0.0) * self.elapsed) / moves

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def moves_between(self, start: float, end: float) -> list[float]:
        """The round trips (seconds) of the moves done from loop time ``start`` to ``end``."""
        return [rtt for at, rtt in self.round_trips if start <= at < end]

    @property
    def elapsed(self) -> float:
        """Seconds of play; only once it has ended."""
        assert self.started_at is not None and self.ended_at is not None
        return self.ended_at - self.started_at


class Driver(Protocol):
    """What plays: a game's two devices, or an echo pair."""

    stats: Stats

    async def set_up(self) -> None: ...

    async def play(self, until: float, interval: float) -> None: ...

    async def close(self) -> None: ...


D = TypeVar("D", bound=Driver)

CpuReader = Callable[[], float | None]


def cpu_not_measured() -> float | None:
    """A server we did not start may be anywhere: its CPU time is not measured."""
    return None


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank); nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


async def paced(step: Callable[[], Awaitable[None]], until: float, interval: float, rng: random.Random) -> None:
    """Run ``step`` every ``interval`` seconds (0: back to back) from a random offset until loop time
    ``until``; a step that overruns its slot delays the next one rather than piling them up."""
    loop = asyncio.get_running_loop()
    next_at = loop.time() + rng.uniform(0, interval)
    while next_at < until:  # not one sleep past the window: the rate is counted over the window
        delay = next_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        await step()
        next_at = max(next_at + interval, loop.time())


async def set_up_all(drivers: Sequence[D], concurrency: int, stats: Stats,
                     server_cpu: CpuReader = cpu_not_measured) -> list[D]:
    """Set ``drivers`` up, ``concurrency`` at a time; those that failed are closed and counted in ``stats``,
    with how long it took and the server's CPU meanwhile (``server_cpu``). The drivers that are ready, in order."""
    gate = asyncio.Semaphore(concurrency)
    loop = asyncio.get_running_loop()
    started, cpu_before = loop.time(), server_cpu()

    async def one(driver: D) -> D | None:
        async with gate:
            try:
                await driver.set_up()
            except Exception as exc:
                stats.error(f"setup {type(exc).__name__}")
                await driver.close()
                return None
        stats.games_set_up += 1
        stats.ready_after.append(loop.time() - started)
        return driver

    ready = [d for d in await asyncio.gather(*(one(d) for d in drivers)) if d is not None]
    stats.ready_after = sorted(stats.ready_after)
    cpu_after = server_cpu()
    stats.setup_seconds = loop.time() - started
    stats.setup_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return ready


async def report_every(every: float, stats: Stats, progress: Callable[[Stats], Awaitable[None]]) -> None:
    """Await ``progress(stats)`` every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        await progress(stats)


# The servers' counters of a person's drops, by path: {path: (drops landed, their round trips)}; None if
# not known.
DropReader = Callable[[], "dict[str, tuple[float, float]] | None"]


def drops_not_counted() -> dict[str, tuple[float, float]] | None:
    return None


class CpuWindow:
    """The CPU this process and the servers use from its creation to ``close`` (and the servers' database
    round trips and drops, with a ``trips`` and a ``drops`` reader), written into ``stats``."""

    def __init__(self, stats: Stats, server_cpu: CpuReader, trips: CpuReader = cpu_not_measured,
                 drops: DropReader = drops_not_counted) -> None:
        self.stats = stats
        self.server_cpu = server_cpu
        self.trips = trips
        self.drops = drops
        self.client_before = time.process_time()
        self.server_before = server_cpu()
        self.trips_before = trips()
        self.drops_before = drops()

    def close(self, ended_at: float) -> None:
        """Play ended at loop time ``ended_at``: record it and the CPU seconds used since the start."""
        self.stats.ended_at = ended_at
        self.stats.client_cpu = time.process_time() - self.client_before
        server_after, trips_after = self.server_cpu(), self.trips()
        if self.server_before is not None and server_after is not None:
            self.stats.server_cpu = server_after - self.server_before
        if self.trips_before is not None and trips_after is not None:
            self.stats.server_trips = trips_after - self.trips_before
        drops_after, before = self.drops(), self.drops_before
        if before is not None and drops_after is not None:
            self.stats.drops = {path: (count - before[path][0], trips - before[path][1])
                                for path, (count, trips) in drops_after.items() if path in before}


async def rest_rate(reader: CpuReader, seconds: float) -> float | None:
    """How fast ``reader``'s count grows at rest (per second over ``seconds``); None if it is not known."""
    before = reader()
    await asyncio.sleep(seconds)
    after = reader()
    return None if before is None or after is None else (after - before) / seconds
