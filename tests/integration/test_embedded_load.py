"""The embedded default under load: one daphne process on a SQLite file, as ``make run`` serves.

Games drop beads while other devices create rooms over HTTP in a loop: every writer must queue for
SQLite's lock, none may fail, and every move must be stored exactly once. Nothing is faked.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from pathlib import Path

import pytest
import websockets

from tests.livekit import ROOM_QUOTAS, Device, LiveServer, RoomSocket, server_env, sqlite_database
from tests.records import DRAWN_RECORD

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("embedded_load")]  # one server: one worker

GAMES = 6
MOVES = DRAWN_RECORD.split()[:24]  # a prefix of a drawn game: no line of four, so no game ends early
ROOM_CREATORS = 3


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    """daphne on a fresh, migrated SQLite file, with none of the external services."""
    workdir = tmp_path_factory.mktemp("embedded")
    # The quotas against scripts (README) are lifted: here scripts are what the test is about.
    env = server_env(SQLITE_PATH=sqlite_database(workdir), DEBUG="0", SECRET_KEY="embedded-load-test",
                     **dict.fromkeys(ROOM_QUOTAS, str(10**9)))
    server = LiveServer(env, log_dir=workdir).start()
    try:
        yield server
    finally:
        server.stop()


def at_ply(n):
    return lambda r: r["game"] is not None and r["game"]["ply"] == n


async def play_a_game(server: LiveServer, index: int) -> tuple[str, list[dict]]:
    """Two devices set up a room and play ``MOVES``; returns the game id and any error frames."""
    host, guest = Device(server.http), Device(server.http)
    await asyncio.to_thread(host.join, f"Host {index}")
    await asyncio.to_thread(guest.join, f"Guest {index}")
    status, room = await asyncio.to_thread(host.request, "POST", "/api/rooms", {"ranked": False})
    assert status == 201, room
    a = await RoomSocket(server.ws, room["code"], host, server.http).connect()
    b = await RoomSocket(server.ws, room["code"], guest, server.http).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None, timeout=60)
    await a.send(type="start")
    for ply, peg in enumerate(MOVES):
        mover = a if ply % 2 == 0 else b  # the host sits in seat 1, Red in the first game
        await mover.wait_room(at_ply(ply), timeout=60)
        await mover.drop(peg)
    final = await a.wait_room(at_ply(len(MOVES)), timeout=60)
    await a.close()
    await b.close()
    return final["game"]["id"], [frame for client in (a, b) for frame in client.log if frame["type"] == "error"]


def create_rooms_until(stop: threading.Event, server: LiveServer, name: str, statuses: list[int]) -> None:
    device = Device(server.http)
    device.join(name)
    while not stop.is_set():
        status, _ = device.request("POST", "/api/rooms", {"ranked": False})
        statuses.append(status)


async def test_games_and_room_creators_write_at_once_and_no_move_is_lost(embedded):
    stop = threading.Event()
    statuses: list[int] = []
    creators = [
        threading.Thread(target=create_rooms_until, args=(stop, embedded, f"Creator {i}", statuses), daemon=True)
        for i in range(ROOM_CREATORS)
    ]
    for thread in creators:
        thread.start()
    try:
        results = await asyncio.gather(*(play_a_game(embedded, i) for i in range(GAMES)))
    finally:
        stop.set()
        for thread in creators:
            thread.join(30)
    reader = Device(embedded.http)
    for game_id, errors in results:
        assert errors == []
        status, record = await asyncio.to_thread(reader.request, "GET", f"/api/games/{game_id}")
        assert status == 200
        # Every move stored exactly once, in order.
        assert [(m["ply"], m["peg"]) for m in record["moves"]] == list(enumerate(MOVES))
    assert len(statuses) >= ROOM_CREATORS and set(statuses) == {201}
    assert embedded.log_errors() == []


@pytest.mark.parametrize("path", ["/ws/rooms/ABCDEF", "/ws/", "/ws/nope"])
async def test_a_websocket_path_without_a_route_is_closed_with_4404(embedded, path):
    conn = await websockets.connect(embedded.ws + path, additional_headers={"Origin": embedded.http},
                                    open_timeout=10)
    with pytest.raises(websockets.ConnectionClosed):
        await asyncio.wait_for(conn.recv(), 10)
    assert conn.close_code == 4404
    assert embedded.log_errors() == []


def sqlite_descriptors(server: LiveServer) -> int:
    """How many files of the server's SQLite database (the file, its WAL and index) it holds open."""
    assert server.proc is not None
    fd_dir = Path(f"/proc/{server.proc.pid}/fd")
    database = server.env["SQLITE_PATH"]
    count = 0
    for fd in fd_dir.iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(fd).startswith(database)
    return count


def settled_descriptors(server: LiveServer, *, rounds: float = 4.0) -> int:
    """The server's SQLite files once the count has not changed for ``rounds`` seconds (longer than the
    slowest loop's round), at most 30 s."""
    give_up = time.monotonic() + 30
    count, since = sqlite_descriptors(server), time.monotonic()
    while time.monotonic() - since < rounds and time.monotonic() < give_up:
        time.sleep(0.5)
        now = sqlite_descriptors(server)
        if now != count:
            count, since = now, time.monotonic()
    return count


async def open_kept_connection(server: LiveServer, device: Device) -> None:
    """Make sure the server's database thread holds its kept connection: a room socket's state is read
    there (the thread's connection stays open for as long as the server runs)."""
    status, room = await asyncio.to_thread(device.request, "POST", "/api/rooms", {"ranked": False})
    assert status == 201, room
    socket = await RoomSocket(server.ws, room["code"], device, server.http).connect()
    await socket.close()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc to count open files")
def test_http_requests_do_not_leave_database_connections_open(embedded):
    device = Device(embedded.http)
    device.join("Counter")
    # The count starts with the connection the server keeps: on a server this test is the first to use, the
    # database thread opens it as the first request's runtime needs it, which on a busy machine was during
    # the requests below (its 3 files then counted as theirs).
    asyncio.run(open_kept_connection(embedded, device))
    # The loops of the server (the ticker, the pairing waves, the challenge sweep, the mail and correspondence
    # loops) open the connections they keep on their first round: counted once they have all run one.
    before = settled_descriptors(embedded)
    for _ in range(150):
        status, _ = device.request("GET", "/api/session")
        assert status == 200
    # Each request's connection is closed as it ends (the last one's may still be closing); had they stayed
    # open, the four kept HTTP threads' would be, each with its database file and its WAL.
    assert sqlite_descriptors(embedded) <= before + 3
