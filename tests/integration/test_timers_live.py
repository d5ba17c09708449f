"""Timers and stand-ins across real processes on PostgreSQL + Redis: exactly once, and surviving kill -9."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from lobby.play.automatic import TIMEOUTS_BEFORE_AWAY
from tests.livekit import Device, LiveServer, RoomSocket, postgres_database, server_env

PEGS = [c + r for c in "abcd" for r in "1234"]
# The servers' turns run out after a fifth of their seconds (TURN_TIME_SCALE): a 30 s turn after 6 s.
TURN_TIME_SCALE = 0.2
TURN = timedelta(seconds=30 * TURN_TIME_SCALE)
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def live_env(tmp_path):
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        yield server_env(
            DATABASE_URL=url,
            REDIS_URL=os.environ["REDIS_URL"],
            CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
            DISCONNECT_GRACE_SECONDS="1",
            PING_TIMEOUT_SECONDS="3",
            TURN_TIME_SCALE=str(TURN_TIME_SCALE),
        )


@pytest.fixture
def servers(live_env, tmp_path):
    started: list[LiveServer] = []

    def start(env_overrides=None):
        server = LiveServer({**live_env, **(env_overrides or {})}, log_dir=tmp_path).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


async def keep_alive(clients, stop: asyncio.Event):
    """Ping like the browser does, so presence stays fresh while a test waits on a timer."""
    while not stop.is_set():
        for client in clients:
            await client.send(type="ping")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1)


async def drain(clients, stop: asyncio.Event):
    """Keep reading every client's frames (so snapshots stay current) until told to stop."""

    async def read(client):
        while not stop.is_set():
            try:
                await client.next_frame(0.5)
            except TimeoutError:
                continue

    await asyncio.gather(*(read(c) for c in clients))


async def test_twenty_timed_games_on_two_processes_each_expiry_one_cpu_move(servers):
    one, two = servers({"PING_TIMEOUT_SECONDS": "30"}), servers({"PING_TIMEOUT_SECONDS": "30"})

    async def timed_game(i: int) -> tuple[tuple[str, Device, Device], tuple[RoomSocket, RoomSocket]]:
        """Ann{i} (on one) and Bob{i} (on two) in a timed room, its game started: nobody moves in it."""
        ann, bob = Device(one.http), Device(two.http)
        await asyncio.to_thread(ann.join, f"Ann{i}")
        await asyncio.to_thread(bob.join, f"Bob{i}")
        code = await asyncio.to_thread(ann.create_room, {"turn_seconds": 30, "ranked": False})
        a = await RoomSocket(one.ws, code, ann, one.http).connect()
        b = await RoomSocket(two.ws, code, bob, two.http).connect()
        await b.send(type="sit")
        await a.wait_room(lambda r: r["seats"][1]["player"] is not None)
        await a.send(type="start")
        await a.wait_room(lambda r: r["game"] is not None)
        return (code, ann, bob), (a, b)

    # The games are set up side by side (their turns start within a few seconds of each other).
    games = await asyncio.gather(*(timed_game(i) for i in range(20)))
    pairs = [pair for pair, _ in games]
    clients = [sockets for _, sockets in games]
    everyone = [c for pair in clients for c in pair]
    stop = asyncio.Event()
    background = asyncio.gather(keep_alive(everyone, stop), drain(everyone, stop))
    try:
        # Nobody moves: each game's turn timer (30 s, scaled) runs out and the CPU plays Red's move for its seat.
        give_up = asyncio.get_running_loop().time() + 90
        for a, _ in clients:
            while a.room["game"]["ply"] < 1:
                await asyncio.sleep(0.2)
                assert asyncio.get_running_loop().time() < give_up, "a turn timer did not fire"
        await asyncio.sleep(1)  # room for a duplicate to show, if there were one (both processes fire at the deadline)
    finally:
        stop.set()
        await background
    lateness = []
    for (_, ann, _), (a, b) in zip(pairs, clients, strict=True):
        status, record = ann.request("GET", f"/api/games/{a.room['game']['id']}")
        assert status == 200
        # Under load the first games can reach Yellow's own deadline, and more, before the last ones reach
        # Red's: every move is then one that fell due once, a timeout a full turn after the move before it
        # until its seat has timed out TIMEOUTS_BEFORE_AWAY times in a row, then an away seat's, at once.
        moves = record["moves"]
        reasons = ["timeout" if ply // 2 < TIMEOUTS_BEFORE_AWAY else "away" for ply in range(len(moves))]
        assert [(m["ply"], m["cpu"], m["cpu_reason"], m["seat"]) for m in moves] == [
            (ply, True, reason, 1 + ply % 2) for ply, reason in enumerate(reasons)
        ]
        turn_start = datetime.fromisoformat(record["started_at"])
        for move, reason in zip(moves, reasons, strict=True):
            played = datetime.fromisoformat(move["at"])
            if reason == "timeout":
                assert played >= turn_start + TURN, "a timeout move came before its deadline"
                lateness.append((played - turn_start - TURN).total_seconds())
            else:
                assert played >= turn_start, "an away seat's move came before its turn"
            turn_start = played
        # The notices, read before the record was fetched: a timeout's each, and a seat's turning away.
        notices = [f["code"] for f in a.log if f["type"] == "notice"]
        assert 1 <= notices.count("timeout") <= reasons.count("timeout")
        turned_away = sum(reasons[seat::2].count("timeout") >= TIMEOUTS_BEFORE_AWAY for seat in (0, 1))
        assert notices.count("away") <= turned_away and set(notices) <= {"timeout", "away"}, notices
        if len(moves) == 1:
            await b.drop("d4")  # Yellow answers normally: the game goes on from exactly one move
            await a.wait_room(lambda r: r["game"]["ply"] == 2)
    lateness.sort()
    print(f"timeout moves after their deadline: median {statistics.median(lateness):.3f} s, max {lateness[-1]:.3f} s")
    assert all(0 <= late < 5 for late in lateness), lateness  # on time, with a generous margin for CI
    for c in everyone:
        await c.close()


async def test_a_process_killed_mid_game_its_deadlines_still_fire_and_the_game_finishes(servers):
    one, two = servers(), servers()
    ann, bob = Device(one.http), Device(one.http)
    ann.join("Ann")
    bob.join("Bob")
    status, room = ann.request("POST", "/api/rooms", {"ranked": False})
    code = room["code"]
    a = await RoomSocket(one.ws, code, ann, one.http).connect(ping_every=1)
    b = await RoomSocket(one.ws, code, bob, one.http).connect(ping_every=1)
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None)
    await a.send(type="start")
    await a.wait_room(lambda r: r["game"] is not None)
    await a.drop("a1")
    await b.wait_room(lambda r: r["game"] is not None and r["game"]["ply"] == 1)
    one.kill()  # kill -9 while it is Bob's turn: both players' connections die with it
    # Ann comes back through the other process; Bob does not, so his grace period runs out there.
    a = await RoomSocket(two.ws, code, ann, two.http).connect(ping_every=1)
    away = await a.wait("notice", lambda f: f["code"] == "away", timeout=30)
    assert away["seat"] == 2
    room = await a.wait_room(lambda r: r["game"]["ply"] == 2, timeout=30)
    # The killed process comes back; Bob reopens the room there and has his seat at once. It starts off
    # the loop, so that Ann's socket answers daphne's websocket pings meanwhile (their timeout is 1 s here).
    one_again = await asyncio.to_thread(servers)
    b = await RoomSocket(one_again.ws, code, bob, one_again.http).connect(ping_every=1)
    assert b.room["you"]["seat"] == 2
    await a.wait("notice", lambda f: f["code"] == "back", timeout=30)
    # They play on (seeded random legal moves) until the game ends.
    await a.wait_room(lambda r: r["seats"][1]["connected"] and not r["seats"][1]["away"])
    await play_to_the_end({1: a, 2: b}, random.Random(7))
    final = await b.wait_room(lambda r: r["game"]["status"] != "playing")
    assert final["game"]["status"] in {"won", "drawn"}
    status, record = ann.request("GET", f"/api/games/{final['game']['id']}", base=two.http)
    assert status == 200, (status, record)
    cpu_moves = [(m["ply"], m["cpu_reason"]) for m in record["moves"] if m["cpu"]]
    assert cpu_moves == [(1, "away")]
    await a.close()
    await b.close()


async def play_to_the_end(players: dict[int, RoomSocket], rng: random.Random) -> dict:
    """Both seats play until the game ends, each mostly stacking a peg of its own (seeded random legal moves
    once it is full): a short game; returns the final snapshot."""
    favourites = dict(zip(players, rng.sample(PEGS, len(players)), strict=True))
    watcher = players[1]
    while True:
        room = await watcher.wait_room(lambda r: True)
        if room["game"]["status"] != "playing":
            return room
        mover = players[room["game"]["to_move_seat"]]
        n = room["game"]["ply"]
        room = await mover.wait_room(lambda r, n=n: r["game"]["ply"] >= n)
        if room["game"]["status"] == "playing" and room["game"]["ply"] == n:
            moves = room["game"]["moves"]
            favourite = favourites[room["game"]["to_move_seat"]]
            open_pegs = [p for p in PEGS if moves.count(p) < 4]
            await mover.drop(favourite if favourite in open_pegs else rng.choice(open_pegs))
        await watcher.wait_room(lambda r, n=n: r["game"]["ply"] > n or r["game"]["status"] != "playing")


async def test_a_timed_game_whose_only_process_was_killed_fires_its_deadline_on_restart(servers):
    no_grace = {"DISCONNECT_GRACE_SECONDS": "600"}
    server = servers(no_grace)
    ann, bob = Device(server.http), Device(server.http)
    ann.join("Ann")
    bob.join("Bob")
    status, room = ann.request("POST", "/api/rooms", {"ranked": False, "turn_seconds": 30})
    code = room["code"]
    a = await RoomSocket(server.ws, code, ann, server.http).connect(ping_every=1)
    b = await RoomSocket(server.ws, code, bob, server.http).connect(ping_every=1)
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None)
    await a.send(type="start")
    room = await a.wait_room(lambda r: r["game"] is not None)
    deadline = datetime.fromisoformat(room["game"]["deadline"])
    server.kill()  # kill -9 with Red's turn running; nothing is left to fire the timer
    await a.close()
    await b.close()
    await asyncio.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 0.5)
    again = servers(no_grace)  # the same database, a new process: the deadline passed while it was down
    a = await RoomSocket(again.ws, code, ann, again.http).connect(ping_every=1)
    b = await RoomSocket(again.ws, code, bob, again.http).connect(ping_every=1)
    notice = await a.wait("notice", lambda f: f["code"] == "timeout", timeout=20)
    assert notice["seat"] == 1
    final = await play_to_the_end({1: a, 2: b}, random.Random(3))
    assert final["game"]["status"] in {"won", "drawn"}
    status, record = ann.request("GET", f"/api/games/{final['game']['id']}", base=again.http)
    assert status == 200, (status, record)  # once, under load, this was not JSON: say what it was
    first = record["moves"][0]
    assert (first["cpu"], first["cpu_reason"], first["seat"]) == (True, "timeout", 1)
    assert datetime.fromisoformat(first["at"]) >= deadline
    assert [m["cpu_reason"] for m in record["moves"][1:]].count("timeout") == 0
    await a.close()
    await b.close()
