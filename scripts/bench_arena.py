"""Benchmark an arena: 500 players in one arena on one server process.

Run: ``make bench-arena`` or ``.venv/bin/python scripts/bench_arena.py [--players 500 --seconds 90]``.

One daphne process (PostgreSQL + Redis with ``DATABASE_URL`` and ``REDIS_URL``, else the embedded SQLite
file and in-memory layer). Every player is its own device (a guest), joins over REST and keeps the
arena's socket open, as its page does. Paired, the player seated Red opens the room and resigns at once
(the game ends, and both are free for the next wave); so the arena pairs waves of up to 250 games back to
back. Measured:

- a pairing wave's time (claim to last pair written), from the server's log line per wave: p50, p99, max,
  with how many waited and how many pairs were made;
- the standings frames (``tournament``) the sockets received: per second over all sockets, and the most
  any one socket received in one second (at most about 2 by design).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import re
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets

from harness.bench.suite import configured_env, describe, servers
from harness.device import Device
from harness.room import RoomSocket, ws_base
from harness.server import migrate

WAVE_LINE = re.compile(r"arena \d+ wave: (\d+) waiting, (\d+) pairs in ([0-9.]+) s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


async def resign_in(device: Device, code: str) -> None:
    room = RoomSocket.of(device, code, keep_log=False)
    try:
        await room.connect(room_timeout=60)
        await room.send(type="resign")
        await room.wait_room(lambda r: r["game"] is not None and r["game"]["status"] != "playing", timeout=60)
    except Exception:  # a slow moment: the turn timer ends the game anyway (the CPU plays it out)
        pass
    finally:
        await room.close()


class Seeker(Device):
    """A device that knows its player's id (``me``)."""

    me = ""


class Clock:
    """When every player is in (their socket open, joined): the measured window starts then."""

    def __init__(self, players: int, seconds: float) -> None:
        self.left = players
        self.seconds = seconds
        self.all_in = asyncio.Event()
        self.began = float("inf")
        self.all_in_at = float("inf")
        self.until = float("inf")
        self.times: dict[str, list[float]] = {}  # each socket's standings frames, when received
        self.gate = asyncio.Semaphore(20)  # handshakes at once: a page load, not a thundering herd

    def joined(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.all_in.set()

    def starts(self, at: float) -> None:
        """The arena starts (its first wave) at monotonic ``at``: the window is from then on."""
        self.began = at
        self.until = at + self.seconds


async def player(device: Seeker, arena_id: int, clock: Clock, counts: Counter[tuple[str, int]],
                 seen: Counter[str]) -> None:
    url = f"{ws_base(device.base)}/ws/tournaments/{arena_id}/"
    headers = {"Origin": device.base, "Cookie": device.cookie_header()}
    async with clock.gate:
        ws = await websockets.connect(url, additional_headers=headers, ping_interval=None, max_queue=None,
                                      open_timeout=120)
        await asyncio.to_thread(device.expect, "POST", f"/api/tournaments/{arena_id}/join")
    clock.joined()
    if clock.left == 0:
        clock.all_in_at = time.monotonic()
    tasks = set()
    try:
        while time.monotonic() < clock.until:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=min(5.0, clock.until - time.monotonic())))
            except TimeoutError:
                continue
            if time.monotonic() >= clock.began:
                second = int(time.monotonic())
                seen[frame["type"]] += 1
                if frame["type"] == "tournament":
                    counts[(device.me, second)] += 1
                    clock.times.setdefault(device.me, []).append(time.monotonic())
            if frame["type"] == "paired":
                task = asyncio.create_task(maybe_resign(device, frame["code"], frame["game"]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
    finally:
        for task in tasks:
            task.cancel()
        await ws.close()


async def maybe_resign(device: Seeker, code: str, game: str) -> None:
    """Red resigns (the room says who is Red); Yellow just waits to be free again."""
    status, body = await asyncio.to_thread(device.request, "GET", f"/api/games/{game}")
    if status == 200 and body["players"]["red"]["player"] and body["players"]["red"]["player"]["id"] == device.me:
        await resign_in(device, code)


async def run(players: int, seconds: float, join_seconds: float, workdir: Path) -> dict[str, object]:
    with configured_env(workdir) as env:
        env = {**env, "ARENA_WAVE_SECONDS": "2", "LOG_LEVEL": "INFO", "ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS": "100000"}
        migrate(env)
        with servers(workdir, env, 1) as (server,):
            organiser = Device(server.http)
            organiser.request("GET", "/api/session")
            organiser.expect("POST", "/api/accounts/register",
                             {"username": "bench", "password": "correct horse battery"})
            # Everyone joins before the start, so the first wave pairs all of them at once.
            starts = time.time() + join_seconds
            arena = organiser.expect("POST", "/api/tournaments", {
                "name": "Bench", "starts_at": datetime.fromtimestamp(starts, UTC).isoformat(), "minutes": 60,
                "turn_seconds": 30, "ranked": True, "berserk": False})
            devices = []
            for i in range(players):
                device = Seeker(server.http)
                device.me = (await asyncio.to_thread(device.join, f"B{i:03d}"))["id"]
                devices.append(device)
            counts: Counter[tuple[str, int]] = Counter()
            seen: Counter[str] = Counter()
            clock = Clock(players, seconds)
            clock.starts(time.monotonic() + (starts - time.time()))
            await asyncio.gather(*(player(d, arena["id"], clock, counts, seen) for d in devices))
            elapsed = time.monotonic() - clock.began
            waves = [m.groups() for m in WAVE_LINE.finditer(server.log_path.read_text(errors="replace"))]
            errors = server.log_errors()
    all_in_before_start = clock.all_in_at <= clock.began
    times = [float(t) for _, _, t in waves]
    gaps = [b - a for each in clock.times.values() for a, b in itertools.pairwise(each)]
    per_socket = max(counts.values()) if counts else 0
    return {
        "setup": describe(env),
        "players": players,
        "seconds": round(elapsed, 1),
        "all_joined_before_the_start": all_in_before_start,
        "waves": len(waves),
        "pairs": sum(int(p) for _, p, _ in waves),
        "largest_wave": max((int(w) for w, _, _ in waves), default=0),
        "largest_wave_pairs": max((int(p) for _, p, _ in waves), default=0),
        "largest_wave_seconds": max(((int(w), float(t)) for w, _, t in waves), default=(0, 0.0))[1],
        "wave_p50": percentile(times, 50) if times else None,
        "wave_p99": percentile(times, 99) if times else None,
        "wave_max": max(times) if times else None,
        "frames": seen["tournament"],
        "frames_per_second": seen["tournament"] / elapsed,
        "per_socket_max_in_a_second": per_socket,
        "per_socket_per_second": seen["tournament"] / players / elapsed,
        "per_socket_gap_p1": percentile(gaps, 1) if gaps else None,
        "paired_frames": seen["paired"],
        "server_errors": len(errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--join-seconds", type=float, default=240.0, help="from creating the arena to its start")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-arena-") as tmp:
        result = asyncio.run(run(args.players, args.seconds, args.join_seconds, Path(tmp)))
    load = os.getloadavg()
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} on {platform.node()} ({os.cpu_count()} cores), "
          f"load average before/after: see uptime; now {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
