"""Quick pairing and the lobby's lists across two real daphne processes on PostgreSQL + Redis.

50 seekers arrive at random over about 10 s, each on either process; some cancel, some close the
page. Every remaining seeker is paired exactly once, nobody who cancelled or left unpaired is in a
room, both seats of every room are the two seekers told its code, and every pair respects the range
both seekers had when they were told.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
import pytest

from lobby.pairing.matching import DEFAULT_POLICY
from tests.livekit import Device, LiveServer, LobbySocket, RoomSocket
from tests.pairkit import SHARED

# The shared pair of servers (tests/pairkit.py, its seeks never expire): the lists' test first (its room is
# full, so no longer listed, when the seekers come; they are seated in rooms of their own, never listed).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, SHARED]

SEEKERS = 50
ARRIVALS_OVER = 10.0
# How long a seeker may have to wait at most: ranges open to anyone after 45 s, then a wave or two.
PAIRED_WITHIN = 120.0
# The close of a socket reaches the server a moment after the client begins it (loopback, one frame).
CLOSE_MARGIN = 0.5


@pytest.fixture
def two_servers(shared_pair):
    return shared_pair.url, shared_pair.servers


@dataclass
class Seeker:
    name: str
    role: str  # "stay", "cancel" or "close"
    rating: float
    arrival: float
    patience: float  # seconds before a canceller cancels or a closer closes
    device: Device | None = None
    player_id: str = ""
    since: datetime | None = None
    outcome: str = ""  # "paired", "cancelled", "closed"
    code: str | None = None
    paired_at: float | None = None
    closed_at: float | None = None
    reseeks: int = 0
    lobby: LobbySocket | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)


def set_ratings(url: str, ratings: dict[str, float]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for player_id, rating in ratings.items():
            conn.execute(
                "INSERT INTO ratings_playerrating (player_id, rating, rd, volatility, games, wins, draws, losses)"
                " VALUES (%s, %s, 60, 0.06, 10, 5, 0, 5)",
                (player_id, rating),
            )


def rooms_by_player(url: str) -> dict[str, list[tuple[str, datetime]]]:
    """Every room each player sits in: ``{player_id: [(code, created_at), ...]}``."""
    found: dict[str, list[tuple[str, datetime]]] = {}
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT s.player_id::text, r.code, r.created_at FROM lobby_seat s JOIN lobby_room r ON r.id = s.room_id"
            " WHERE s.player_id IS NOT NULL"
        ).fetchall()
    for player_id, code, created_at in rows:
        found.setdefault(player_id, []).append((code, created_at))
    return found


async def run_seeker(seeker: Seeker, server: LiveServer, start: float) -> None:
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, start + seeker.arrival - loop.time()))
    assert seeker.device is not None
    lobby = seeker.lobby = await LobbySocket(server.ws, seeker.device, server.http).connect()
    await lobby.send(type="seek", turn_seconds=None, ranked=True)
    seeking = await lobby.wait("seeking")
    seeker.since = datetime.fromisoformat(seeking["since"].replace("Z", "+00:00"))
    if seeker.role == "stay":
        while (await lobby.wait("paired", "cancelled", timeout=PAIRED_WITHIN))["type"] == "cancelled":
            # Only "expired" may end a seek that nobody cancelled; the page then seeks again, and so do we.
            assert lobby.log[-1][1]["reason"] == "expired"
            seeker.reseeks += 1
            await lobby.send(type="seek", turn_seconds=None, ranked=True)
            seeking = await lobby.wait("seeking")
            seeker.since = datetime.fromisoformat(seeking["since"].replace("Z", "+00:00"))
    elif seeker.role == "cancel":
        await asyncio.sleep(seeker.patience)
        await lobby.send(type="cancel")
        await lobby.wait("paired", "cancelled", timeout=PAIRED_WITHIN)
    else:
        try:
            await lobby.wait("paired", timeout=seeker.patience)
        except TimeoutError:
            seeker.closed_at = await lobby.close()
            seeker.outcome = "closed"
            return
    last = lobby.log[-1]
    seeker.outcome = last[1]["type"]
    if seeker.outcome == "paired":
        seeker.code, seeker.paired_at = last[1]["code"], last[0]


def half_width_when(seeker: Seeker) -> float:
    """The seeker's half-width when it was told of its pairing (or closed in the instant it was paired):
    at least the one in force when the wave paired it, since ranges only widen."""
    told = seeker.paired_at if seeker.paired_at is not None else (seeker.closed_at or 0) + CLOSE_MARGIN
    assert seeker.since is not None
    return DEFAULT_POLICY.half_width(told - seeker.since.timestamp())


async def test_lists_reach_lobby_sockets_on_the_other_process(two_servers):
    """A room opened on one process shows on a lobby socket of the other, and leaves once its seat is taken."""
    _, (one, two) = two_servers
    hana, gus, visitor = Device(one.http), Device(two.http), Device(two.http)
    hana.join("Hana")
    gus.join("Gus")
    status, room = hana.request("POST", "/api/rooms", {"ranked": False})
    assert status == 201
    code = room["code"]
    host = await RoomSocket(one.ws, code, hana, one.http).connect(ping_every=5)
    lobby = await LobbySocket(two.ws, visitor, two.http).connect()
    await host.send(type="rules", open=True)
    frame = await lobby.wait("open_rooms", timeout=20)
    while [r["code"] for r in frame["rooms"]] != [code]:
        frame = await lobby.wait("open_rooms", timeout=20)
    assert frame["rooms"][0]["host"]["name"] == "Hana"
    status, _ = gus.request("POST", f"/api/rooms/{code}/seat", base=two.http)
    assert status == 200
    frame = await lobby.wait("open_rooms", timeout=20)
    while frame["rooms"]:
        frame = await lobby.wait("open_rooms", timeout=20)
    await lobby.close()
    await host.close()


async def test_fifty_seekers_on_two_processes_are_each_paired_at_most_once(two_servers):
    url, servers = two_servers
    rng = random.Random(20261201)
    roles = ["cancel"] * 10 + ["close"] * 5 + ["stay"] * (SEEKERS - 15)
    rng.shuffle(roles)
    seekers = [
        Seeker(
            name=f"S{i:02d}",
            role=role,
            rating=round(min(1950.0, max(1050.0, rng.gauss(1500, 170))), 1),
            arrival=rng.uniform(0, ARRIVALS_OVER),
            patience=rng.uniform(0.05, 1.2),
        )
        for i, role in enumerate(roles)
    ]
    for i, seeker in enumerate(seekers):
        seeker.device = Device(servers[i % 2].http)
        seeker.player_id = seeker.device.join(seeker.name)["id"]
    set_ratings(url, {s.player_id: s.rating for s in seekers})

    loop = asyncio.get_running_loop()
    start = loop.time()
    tasks = {s.name: loop.create_task(run_seeker(s, servers[rng.randrange(2)], start)) for s in seekers}
    # Once every canceller and closer is done, an odd number of seekers left to pair could not all be
    # paired: then one more seeker joins (as a newcomer to the site would).
    await asyncio.gather(*(tasks[s.name] for s in seekers if s.role != "stay"))
    # A closer may be paired in the instant it closes (its frame then never arrives): the rooms say.
    seated = rooms_by_player(url)
    to_pair = [s for s in seekers if s.role == "stay" or s.player_id in seated]
    if len(to_pair) % 2:
        extra = Seeker(name="Extra", role="stay", rating=1500.0, arrival=0.0, patience=0.0)
        extra.device = Device(servers[0].http)
        extra.player_id = extra.device.join(extra.name)["id"]
        set_ratings(url, {extra.player_id: extra.rating})
        seekers.append(extra)
        tasks[extra.name] = loop.create_task(run_seeker(extra, servers[1], loop.time()))
    await asyncio.gather(*tasks.values())

    outcomes = sorted({(s.role, s.outcome) for s in seekers})
    print({pair: sum((s.role, s.outcome) == pair for s in seekers) for pair in outcomes})
    print("seeks that expired under load and were made again:", sum(s.reseeks for s in seekers))
    try:
        assert_outcomes(url, seekers)
    finally:
        for seeker in seekers:
            if seeker.lobby is not None and seeker.outcome != "closed":
                await seeker.lobby.close()


def assert_outcomes(url: str, seekers: list[Seeker]) -> None:
    rooms = rooms_by_player(url)
    in_room: dict[str, list[Seeker]] = {}
    for seeker in seekers:
        assert seeker.lobby is not None
        seated = rooms.get(seeker.player_id, [])
        assert len(seated) <= 1, f"{seeker.name} was paired twice: {seated}"
        if seeker.outcome == "paired":
            assert len(seeker.lobby.frames("paired")) == 1, f"{seeker.name} was told twice"
            assert [code for code, _ in seated] == [seeker.code], f"{seeker.name} sits in {seated}"
        elif seeker.outcome == "cancelled":
            assert seated == [], f"{seeker.name} cancelled but sits in {seated}"
        else:
            assert seeker.outcome == "closed" and seeker.closed_at is not None
            # Paired only if the pairing was written before the socket's close reached the server.
            late = [code for code, created in seated if created.timestamp() > seeker.closed_at + CLOSE_MARGIN]
            assert late == [], f"{seeker.name} left at {seeker.closed_at} but was paired into {late}"
        for code, _ in seated:
            in_room.setdefault(code, []).append(seeker)
    assert all(s.outcome == "paired" for s in seekers if s.role == "stay")
    for code, pair in in_room.items():
        assert len(pair) == 2, f"room {code} seats {[s.name for s in pair]}"
        a, b = pair
        gap = abs(a.rating - b.rating)
        assert gap <= min(half_width_when(a), half_width_when(b)) + 0.01, f"{a.name}-{b.name} gap {gap}"
