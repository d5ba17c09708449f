"""The suite's scenarios: phases of paced and saturated play (games or echoes), idle sockets, a storm of
spectators joining one room."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from harness.bench.echo import EchoPair
from harness.bench.game import GameDriver, LoadConfig, join, open_socket
from harness.bench.stats import (
    CpuReader,
    CpuWindow,
    Driver,
    DropReader,
    Stats,
    cpu_not_measured,
    drops_not_counted,
    percentile,
    report_every,
    rest_rate,
    set_up_all,
)
from harness.device import Device
from harness.room import RoomSocket
from harness.server import LiveServer

Phase = tuple[float, float]  # (moves per second offered, 0 to saturate; seconds)


async def play_phases(drivers: Sequence[Driver], phases: list[Phase], server_cpu: CpuReader,
                      label: str, trips: CpuReader = cpu_not_measured,
                      drops: DropReader = drops_not_counted) -> list[Stats]:
    """Play the set-up ``drivers`` through each (rate, seconds) phase in turn; the Stats of each (with the
    servers' database round trips and drops, read by ``trips`` and ``drops``)."""
    loop = asyncio.get_running_loop()
    results = []
    for rate, seconds in phases:
        stats = Stats(games_set_up=len(drivers))
        for driver in drivers:
            driver.stats = stats
        stats.started_at = loop.time()
        window = CpuWindow(stats, server_cpu, trips, drops)
        interval = len(drivers) / rate if rate > 0 else 0.0
        reporter = loop.create_task(report_every(5.0, stats, _phase_progress(label, rate)))
        await asyncio.gather(*(d.play(stats.started_at + seconds, interval) for d in drivers))
        reporter.cancel()
        window.close(loop.time())
        results.append(stats)
    return results


def _phase_progress(label: str, rate: float) -> Callable[[Stats], Awaitable[None]]:
    async def show(stats: Stats) -> None:
        now = asyncio.get_running_loop().time()
        assert stats.started_at is not None
        window = stats.moves_between(now - 5.0, now)
        offered = "saturate" if rate <= 0 else f"{rate:g}/s"
        print(f"  {label} {offered}: {now - stats.started_at:5.1f} s  {len(window) / 5.0:7.1f} moves/s  "
              f"p50 {percentile(window, 0.5) * 1000:6.1f} ms  p99 {percentile(window, 0.99) * 1000:6.1f} ms  "
              f"errors {sum(stats.errors.values())}", flush=True)

    return show


async def echo_phases(urls: tuple[str, str], pairs: int, phases: list[Phase], server_cpu: CpuReader,
                      label: str) -> list[Stats]:
    """``pairs`` echo pairs (one socket on each of ``urls``) through ``phases``."""
    setup_stats = Stats()
    drivers = [EchoPair(i, urls[0], urls[1], setup_stats, 10.0) for i in range(pairs)]
    ready = await set_up_all(drivers, 50, setup_stats)
    try:
        return await play_phases(ready, phases, server_cpu, label)
    finally:
        await asyncio.gather(*(d.close() for d in ready))


REST_SECONDS = 5.0  # the servers' round trips at rest are measured this long before play


async def game_phases(url: str, guest_url: str | None, games: int, phases: list[Phase], server_cpu: CpuReader,
                      label: str, trips: CpuReader = cpu_not_measured,
                      drops: DropReader = drops_not_counted) -> list[Stats]:
    """``games`` games (hosts on ``url``, guests on ``guest_url`` or ``url``) through ``phases``; with a
    ``trips`` reader, the servers' database round trips at rest are measured first (every game set up)."""
    setup_stats = Stats()
    config = LoadConfig(url=url, games=games, guest_url=guest_url, setup_concurrency=20)
    drivers = [GameDriver(i, config, setup_stats) for i in range(games)]
    ready = await set_up_all(drivers, config.setup_concurrency, setup_stats, server_cpu)
    print(f"  {label}: {len(ready)} games set up in {setup_stats.setup_seconds:.0f} s "
          f"({sum(setup_stats.errors.values())} failed)", flush=True)
    try:
        at_rest = await rest_rate(trips, REST_SECONDS) if trips() is not None else None
        results = await play_phases(ready, phases, server_cpu, label, trips, drops)
        for stats in results:
            stats.rest_trips_per_second = at_rest
        first = results[0]
        first.setup_seconds, first.setup_cpu, first.games_set_up, first.ready_after = (
            setup_stats.setup_seconds, setup_stats.setup_cpu, setup_stats.games_set_up, setup_stats.ready_after)
        return results
    finally:
        await asyncio.gather(*(d.close() for d in ready))


def _cpu(server: LiveServer) -> float:
    return server.cpu_seconds() or 0.0


@dataclass(frozen=True, slots=True)
class IdleCost:
    """What idle sockets cost: RSS (bytes) and CPU (share of a core) per 1,000, and how many of them were
    still open ``held`` seconds after the last one opened."""

    sockets: int
    rss_per_1000: float
    cpu_per_1000: float
    still_open: int
    held: float
    at_rest: float = 0.0  # the process's own CPU (share of a core) with no socket open


async def idle_cost(server: LiveServer, sockets: int, settle: float, measure: float, *,
                    players: bool = False) -> IdleCost:
    """RSS and CPU per 1,000 idle sockets held as the page holds them (answering the server's websocket
    pings), above what the process uses at rest without them, and how many are still open once held for
    ``settle + measure`` seconds. With ``players``, each socket's device is a player of its own (its socket
    is also in its player's group, for notifications), made before the process's rest is measured; else
    each is an anonymous visitor."""
    device = Device(server.http)
    await join(device, "Idle host")
    codes = [await asyncio.to_thread(device.create_room, {"ranked": False}) for _ in range(max(1, sockets // 20))]
    visitors = [Device(server.http) for _ in range(sockets)]
    if players:
        joining = asyncio.Semaphore(20)

        async def join_one(i: int) -> None:
            async with joining:
                await asyncio.to_thread(visitors[i].join, f"Idle {i}")

        await asyncio.gather(*(join_one(i) for i in range(sockets)))
    await asyncio.sleep(2)
    rss_before = server.rss_bytes() or 0
    cpu_start = _cpu(server)
    await asyncio.sleep(measure)  # the process's own cost at rest (its ticker ticks), to subtract
    baseline = (_cpu(server) - cpu_start) / measure
    gate = asyncio.Semaphore(50)
    socks: list[RoomSocket] = []

    async def open_one(i: int) -> None:
        # A visitor (anonymous unless players); it returns once the server has sent the room. A handshake
        # that fails (a loaded machine) is tried again, as the page reconnects.
        async with gate:
            for attempt in range(3):
                try:
                    socks.append(await open_socket(visitors[i], codes[i % len(codes)], 30))
                    return
                except Exception:
                    if attempt == 2:
                        raise
                    await asyncio.sleep(1)

    await asyncio.gather(*(open_one(i) for i in range(sockets)))
    await asyncio.sleep(settle)
    cpu_before, rss_after = _cpu(server), server.rss_bytes() or 0
    await asyncio.sleep(measure)
    cpu_share = (_cpu(server) - cpu_before) / measure - baseline
    still_open = sum(1 for s in socks if s.close_code is None)
    await asyncio.gather(*(s.close() for s in socks), return_exceptions=True)
    per = 1000 / sockets
    return IdleCost(sockets, (rss_after - rss_before) * per, cpu_share * per, still_open, settle + measure, baseline)


async def spectator_storm(url: str, joins: int, spread: float, server_cpu: CpuReader) -> dict[str, Any]:
    """Two players move every half second while ``joins`` anonymous sockets join their room within
    ``spread`` seconds; the players' round trips meanwhile, the frames the room's sockets received, and
    the server's CPU seconds from the first join until every socket has joined and the play stopped."""
    stats = Stats()
    driver = GameDriver(0, LoadConfig(url=url, games=1), stats)
    await driver.set_up()
    loop = asyncio.get_running_loop()
    watchers: list[RoomSocket] = []
    failed = 0

    async def watch(i: int) -> None:
        nonlocal failed
        await asyncio.sleep(spread * i / joins)
        try:
            watchers.append(await open_socket(Device(url), driver.code, 30))
        except Exception:
            failed += 1

    stats.started_at = loop.time()
    cpu_before = server_cpu()
    storm = asyncio.gather(*(watch(i) for i in range(joins)))
    await driver.play(loop.time() + spread + 5, 0.5)
    await storm
    stats.ended_at = loop.time()
    cpu_after = server_cpu()
    await asyncio.sleep(2)  # the last coalesced refresh
    sockets = [*watchers, *driver.sockets.values()]
    rtts = [rtt for _, rtt in stats.round_trips]
    result = {"joins": joins, "joined": len(watchers), "failed": failed, "moves": len(rtts),
              "p50": percentile(rtts, 0.5), "p99": percentile(rtts, 0.99),
              "frames": sum(sum(s.frames.values()) for s in sockets),
              "room_frames": sum(w.frames["room"] for w in watchers), "errors": sum(stats.errors.values()),
              "cpu": None if cpu_before is None or cpu_after is None else cpu_after - cpu_before}
    with contextlib.suppress(Exception):
        await asyncio.gather(*(w.close() for w in watchers), return_exceptions=True)
    await driver.close()
    return result
