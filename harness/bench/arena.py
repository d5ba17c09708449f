"""An arena of many players on one server process: its pairing waves, its standings frames, and every game
exactly once (``make bench-arena``, and the suite's ``arena`` part).

Every player is its own device (a guest): it joins over REST and keeps the arena's socket open, as its
page does. The arena is made to start an hour on; once everyone has joined, the benchmark moves its start
to now in the database (the arena loop starts it at its next tick), so that the first wave pairs them all
at once however long joining took. Paired, the player seated Red opens the room and resigns at once (the
game ends, and both are free for the next wave); so the arena pairs waves back to back. Measured:

- a pairing wave's time (claim to last pair written), from the server's log line per wave: the first
  (everyone waiting), p50, p99 and max, with how many waited and how many pairs were made;
- the standings frames (``tournament``) the sockets received: per second over all sockets, and the most
  any one socket received in one second (at most about 2 by design);
- every game exactly once, read from the database afterwards: each arena game a game of its own in a room
  of its own, nobody in two of the arena's games at once, and each game written before the window closed
  told to both of its players (their ``paired`` frames) by the time they stop listening, ``TOLD_WITHIN``
  seconds after it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import websockets

from harness.database import is_postgres
from harness.device import Device
from harness.room import RoomSocket, ws_base
from harness.server import LiveServer

WAVE_LINE = re.compile(r"arena \d+ wave: (\d+) waiting, (\d+) pairs in ([0-9.]+) s")
# seconds the players go on listening after the window (telling nobody of a new game's end): a game
# written before the window closed must reach both of its players by then
TOLD_WITHIN = 5.0


def interpolated(values: list[float], q: float) -> float:
    """The ``q`` percentile (0..100) of ``values``, interpolated between ranks."""
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


@dataclass
class Clock:
    """When every player is in (their socket open, joined), and the window measured from the start."""

    players: int
    seconds: float
    left: int = 0
    all_in: asyncio.Event = field(default_factory=asyncio.Event)
    began: float = float("inf")
    until: float = float("inf")
    times: dict[str, list[float]] = field(default_factory=dict)  # each socket's standings frames, when received
    told: list[tuple[str, str]] = field(default_factory=list)  # (player, game) of every paired frame
    gate: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(20))  # handshakes at once

    def __post_init__(self) -> None:
        self.left = self.players

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
    tasks = set()  # (reading from the start: what is sent while the others join is read, not counted)
    try:
        while time.monotonic() < clock.until + TOLD_WITHIN:
            try:
                frame = json.loads(await asyncio.wait_for(
                    ws.recv(), timeout=min(5.0, clock.until + TOLD_WITHIN - time.monotonic())))
            except TimeoutError:
                continue
            if time.monotonic() >= clock.until:  # only listening now: a game paired before the window closed
                if frame["type"] == "paired":
                    clock.told.append((device.me, frame["game"]))
                continue
            if time.monotonic() >= clock.began:
                second = int(time.monotonic())
                seen[frame["type"]] += 1
                if frame["type"] == "tournament":
                    counts[(device.me, second)] += 1
                    clock.times.setdefault(device.me, []).append(time.monotonic())
            if frame["type"] == "paired":
                clock.told.append((device.me, frame["game"]))
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


def _sql(env: dict[str, str], sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` on the server's database (``%s`` parameters, PostgreSQL's style, on SQLite too)."""
    url = env.get("DATABASE_URL", "")
    if is_postgres(url):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            cursor = conn.execute(sql, params)
            return list(cursor.fetchall()) if cursor.description is not None else []
    with sqlite3.connect(env["SQLITE_PATH"]) as conn:
        return list(conn.execute(sql.replace("%s", "?"), params).fetchall())


def _stored(env: dict[str, str], instant: datetime) -> Any:
    """``instant`` as the server's database stores it (SQLite: Django's text, in UTC)."""
    if is_postgres(env.get("DATABASE_URL", "")):
        return instant
    return instant.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")


def _instant(value: Any) -> datetime:
    """A stored instant read back (SQLite's text is UTC without its zone)."""
    found = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def start_now(env: dict[str, str], arena_id: int) -> None:
    """Move the arena's start to now (and its end as far on): its loop starts it at the next tick."""
    now = datetime.now(UTC)
    minutes = _sql(env, "SELECT minutes FROM tournaments_arena WHERE id = %s", (arena_id,))[0][0]
    _sql(env, "UPDATE tournaments_arena SET starts_at = %s, ends_at = %s WHERE id = %s",
         (_stored(env, now), _stored(env, now + timedelta(minutes=minutes)), arena_id))


@dataclass(frozen=True, slots=True)
class Once:
    """Every game exactly once, as the database has it after the run."""

    games: int  # the arena's games
    distinct: bool  # each a game of its own, in a room of its own
    overlaps: int  # pairs of the arena's games sharing a player and overlapping in time
    untold: int  # games written before the window closed that a player was not told of within TOLD_WITHIN
    told_twice: int  # (player, game) told more than once
    oldest_untold: float | None = None  # seconds before the window closed that the oldest untold was written

    @property
    def held(self) -> bool:
        return self.distinct and self.overlaps == 0 and self.untold == 0 and self.told_twice == 0


def exactly_once(env: dict[str, str], arena_id: int, told: list[tuple[str, str]], closed: datetime) -> Once:
    """Check every game of the arena against the database and the ``paired`` frames received."""
    rows = _sql(env, "SELECT a.game_id, g.room_id, a.red_id, a.yellow_id, a.paired_at, g.finished_at "
                     "FROM tournaments_arenagame a JOIN games_game g ON g.id = a.game_id WHERE a.arena_id = %s",
                (arena_id,))
    games = [(str(game), room, str(red), str(yellow), _instant(paired), None if done is None else _instant(done))
             for game, room, red, yellow, paired, done in rows]
    per_room = Counter(room for _, room, *_ in games)
    distinct = len({g[0] for g in games}) == len(games) and all(count == 1 for count in per_room.values())
    by_player: dict[str, list[tuple[datetime, datetime]]] = {}
    far = datetime.max.replace(tzinfo=UTC)
    for _, _, red, yellow, paired, done in games:
        for who in (red, yellow):
            by_player.setdefault(who, []).append((paired, done or far))
    overlaps = 0
    for spans in by_player.values():
        spans.sort()
        overlaps += sum(1 for a, b in itertools.pairwise(spans) if b[0] < a[1])
    heard = Counter(told)
    ages = [(closed - paired).total_seconds() for game, _, red, yellow, paired, _ in games
            if paired < closed for who in (red, yellow) if heard[(who, game)] == 0]
    return Once(games=len(games), distinct=distinct, overlaps=overlaps, untold=len(ages),
                told_twice=sum(1 for count in heard.values() if count > 1), oldest_untold=max(ages, default=None))


# The server of an arena run: waves every 2 s, each logged (INFO), room lookups from one address unlimited.
ARENA_ENV = {"ARENA_WAVE_SECONDS": "2", "LOG_LEVEL": "INFO", "ROOM_LOOKUPS_PER_MINUTE_PER_ADDRESS": "100000"}


async def run_arena(server: LiveServer, env: dict[str, str], players: int, seconds: float) -> dict[str, Any]:
    """One arena of ``players`` on ``server`` (started with ``env`` and ``ARENA_ENV``); the figures (see the
    module's text)."""
    organiser = Device(server.http)
    organiser.request("GET", "/api/session")
    organiser.expect("POST", "/api/accounts/register", {"username": "bench", "password": "correct horse battery"})
    arena = organiser.expect("POST", "/api/tournaments", {
        "name": "Bench", "starts_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(), "minutes": 60,
        "turn_seconds": 30, "ranked": True, "berserk": False})
    devices = []
    for i in range(players):
        device = Seeker(server.http)
        device.me = (await asyncio.to_thread(device.join, f"B{i:03d}"))["id"]
        devices.append(device)
    counts: Counter[tuple[str, int]] = Counter()
    seen: Counter[str] = Counter()
    clock = Clock(players, seconds)
    playing = asyncio.gather(*(player(d, arena["id"], clock, counts, seen) for d in devices))
    joined = time.monotonic()
    try:
        await clock.all_in.wait()
        join_seconds = time.monotonic() - joined
        start_now(env, arena["id"])
        clock.starts(time.monotonic())
    finally:
        clock.until = min(clock.until, time.monotonic() + seconds)  # the players stop, whatever happened here
        await asyncio.gather(playing, return_exceptions=True)
    await playing
    # The window closed at clock.until (the players listened on for TOLD_WITHIN seconds after it).
    closed = datetime.now(UTC) - timedelta(seconds=max(0.0, time.monotonic() - clock.until))
    elapsed = clock.until - clock.began
    waves = [m.groups() for m in WAVE_LINE.finditer(server.log_path.read_text(errors="replace"))]
    errors = server.log_errors()
    once = exactly_once(env, arena["id"], clock.told, closed)
    times = [float(t) for _, _, t in waves]
    gaps = [b - a for each in clock.times.values() for a, b in itertools.pairwise(each)]
    first = next(((int(w), int(p), float(t)) for w, p, t in waves), (0, 0, float("nan")))
    return {
        "players": players,
        "join_seconds": round(join_seconds, 1),
        "seconds": round(elapsed, 1),
        "waves": len(waves),
        "pairs": sum(int(p) for _, p, _ in waves),
        "first_wave_waiting": first[0],
        "first_wave_pairs": first[1],
        "first_wave_seconds": first[2],
        "wave_p50": interpolated(times, 50) if times else None,
        "wave_p99": interpolated(times, 99) if times else None,
        "wave_max": max(times) if times else None,
        "frames": seen["tournament"],
        "frames_per_second": seen["tournament"] / elapsed,
        "per_socket_max_in_a_second": max(counts.values()) if counts else 0,
        "per_socket_per_second": seen["tournament"] / players / elapsed,
        "per_socket_gap_p1": interpolated(gaps, 1) if gaps else None,
        "paired_frames": seen["paired"],
        "games": once.games,
        "every_game_once": once.held,
        "once": {"distinct": once.distinct, "overlaps": once.overlaps, "untold": once.untold,
                 "told_twice": once.told_twice, "oldest_untold": once.oldest_untold},
        "server_errors": len(errors),
    }
