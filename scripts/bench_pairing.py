"""Benchmark quick pairing: time to pair for seekers arriving at a steady rate, on real server processes.

Run: ``make bench-pairing`` or ``.venv/bin/python scripts/bench_pairing.py [--seekers 200 --rate 20]``.

With ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` set it starts ``--processes`` daphne processes
(default 2) on a fresh database of that server; without them, one process on a fresh SQLite file.
Every seeker is its own device (player) with a rating drawn from N(1500, ``--spread``); its lobby
socket is opened beforehand (as a visitor on the home page), and it sends ``seek`` at its arrival
instant: seeker i arrives at i / rate seconds, alternating between the processes. The wait is from
sending ``seek`` to receiving ``paired``. At the end the database is read back: every seeker must sit
in exactly one room, with the seeker who was told the same code ("no lost seekers").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench.suite import configured_env, services
from harness.device import Device
from harness.lobby import LobbySocket
from harness.server import LiveServer

WAIT_AT_MOST = 120.0


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between the nearest ranks."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@contextlib.contextmanager
def database(processes: int, workdir: Path) -> Iterator[tuple[dict[str, str], str]]:
    """The servers' environment and its database's URL (``sqlite:///path`` for the embedded one): a
    throwaway PostgreSQL database and Redis with DATABASE_URL and REDIS_URL, else a SQLite file."""
    if processes != 1 and services() is None:
        raise SystemExit("several processes need DATABASE_URL (PostgreSQL) and REDIS_URL")
    with configured_env(workdir, embedded=services() is None) as env:
        yield env, env.get("DATABASE_URL") or f"sqlite:///{env['SQLITE_PATH']}"


def execute(url: str, sql: str, rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Run ``sql`` once per row (or once without rows) on the benchmark's database; returns what it read."""
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            if rows:
                conn.executemany(sql.replace("%s", "?"), rows)
                return []
            return list(conn.execute(sql))
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        if rows:
            with conn.cursor() as cursor:
                cursor.executemany(sql, rows)
            return []
        return list(conn.execute(sql).fetchall())


async def seek_once(lobby: LobbySocket, at: float) -> tuple[float, str] | None:
    """Send ``seek`` at loop time ``at``; the seconds until ``paired`` and the code (None: never paired)."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, at - loop.time()))
    sent = await lobby.send(type="seek", turn_seconds=None, ranked=True)
    try:
        frame = await lobby.wait("paired", timeout=WAIT_AT_MOST)
    except TimeoutError:
        return None
    return lobby.log[-1][0] - sent, str(frame["code"])


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    load_before = Path("/proc/loadavg").read_text().strip()
    with tempfile.TemporaryDirectory() as workdir, database(args.processes, Path(workdir)) as (env, url):
        servers = [LiveServer(env, log_dir=Path(workdir)).start() for _ in range(args.processes)]
        try:
            devices = [Device(servers[i % len(servers)].http) for i in range(args.seekers)]
            ids = [device.join(f"B{i:03d}")["id"] for i, device in enumerate(devices)]
            ratings = [round(rng.gauss(1500, args.spread), 1) for _ in ids]
            # SQLite stores a UUID as 32 hex digits, PostgreSQL as a uuid.
            keys = [pid.replace("-", "") if url.startswith("sqlite") else pid for pid in ids]
            execute(
                url,
                "INSERT INTO ratings_playerrating (player_id, rating, rd, volatility, games, wins, draws, losses)"
                " VALUES (%s, %s, 60, 0.06, 10, 5, 0, 5)",
                list(zip(keys, ratings, strict=True)),
            )
            lobbies = []
            for i, device in enumerate(devices):
                server = servers[i % len(servers)]
                lobbies.append(await LobbySocket(server.ws, device, server.http).connect())
            loop = asyncio.get_running_loop()
            start = loop.time() + 1.0
            started = time.time()
            results = await asyncio.gather(
                *(seek_once(lobby, start + i / args.rate) for i, lobby in enumerate(lobbies))
            )
            elapsed = time.time() - started
            for lobby in lobbies:
                await lobby.close()
            seats = execute(
                url,
                "SELECT s.player_id, r.code FROM lobby_seat s JOIN lobby_room r ON r.id = s.room_id"
                " WHERE s.player_id IS NOT NULL",
                [],
            )
        finally:
            for server in servers:
                server.stop()
    load_after = Path("/proc/loadavg").read_text().strip()
    return report(args, ids, ratings, results, seats, elapsed, load_before, load_after)


def report(args, ids, ratings, results, seats, elapsed, load_before, load_after) -> int:  # type: ignore[no-untyped-def]
    waits = [r[0] for r in results if r is not None]
    told = {ids[i]: r[1] for i, r in enumerate(results) if r is not None}
    seated: dict[str, list[str]] = {}
    for player_id, code in seats:
        seated.setdefault(str(uuid.UUID(str(player_id))), []).append(str(code))
    lost = [pid for pid in ids if pid not in told]
    wrong = [pid for pid in told if seated.get(pid) != [told[pid]]]
    rooms: dict[str, list[int]] = {}
    for i, pid in enumerate(ids):
        if pid in told:
            rooms.setdefault(told[pid], []).append(i)
    gaps = [abs(ratings[a] - ratings[b]) for a, b in (pair for pair in rooms.values() if len(pair) == 2)]
    odd_rooms = [code for code, pair in rooms.items() if len(pair) != 2]
    print(f"date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()},"
          f" Python {platform.python_version()}")
    print(f"/proc/loadavg before: {load_before}   after: {load_after}")
    print(f"command: {' '.join(sys.argv)}   ({args.processes} process(es),"
          f" {'PostgreSQL + Redis' if os.environ.get('DATABASE_URL') else 'SQLite, in-memory layer'})")
    print(f"{args.seekers} seekers at {args.rate}/s, ratings N(1500, {args.spread});"
          f" first seek to last answer: {elapsed:.1f} s")
    if waits:
        print(f"time to pair: p50 {percentile(waits, 50):.2f} s, p90 {percentile(waits, 90):.2f} s,"
              f" p99 {percentile(waits, 99):.2f} s, max {max(waits):.2f} s, mean {statistics.fmean(waits):.2f} s")
    if gaps:
        print(f"rating gap of a pair: median {statistics.median(gaps):.0f}, max {max(gaps):.0f};"
              f" within ±100: {sum(g <= 100 for g in gaps)} of {len(gaps)}")
    print(f"paired: {len(told)} of {args.seekers}; lost: {len(lost)}; seated wrongly: {len(wrong)};"
          f" rooms not of two: {len(odd_rooms)}")
    return 0 if not lost and not wrong and not odd_rooms else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seekers", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0, help="arrivals per second")
    parser.add_argument("--processes", type=int, default=None, help="daphne processes (2 with PostgreSQL)")
    parser.add_argument("--spread", type=float, default=150.0, help="standard deviation of the ratings")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.processes is None:
        args.processes = 2 if os.environ.get("DATABASE_URL", "").startswith("postgres") else 1
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
