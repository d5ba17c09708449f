"""Faults during a game, on two real daphne processes with PostgreSQL and Redis.

- Redis stops for a few seconds mid-game and starts again, empty.
- PostgreSQL stops for a few seconds mid-game and starts again.
- The CPU worker process computing a move is killed.

The service that fails is a private one of the test's own (tests/faultkit.py): the machine's shared
PostgreSQL and Redis, which other runs use, are never stopped. Nothing is faked: the servers, the
database, Redis, the sockets and the CPU worker processes are real, and so are the failures.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games.engine import Position
from tests.faultkit import (
    busy_worker,
    cpu_worker_pids,
    kill,
    private_postgres,
    private_redis,
    reconnect,
    until_cut_off,
    workers_settled,
)
from tests.livekit import Device, LiveServer, RoomSocket, postgres_database, running, server_env

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.faults, pytest.mark.slow]

RECORD = ["a1", "b1", "a2", "b2", "a3", "b3", "c1", "b4"]  # yellow (Bob, seat 2) completes row b at level 1
OUTAGE_SECONDS = 5.0
# Players keep their seats through an outage and the reconnects: no stand-in plays for them meanwhile.
GRACE = "300"


@contextlib.contextmanager
def two_servers(env: dict[str, str], log_dir: Path) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers, once the CPU workers they start are done starting (see ``workers_settled``)."""
    with running(env, 2, log_dir=log_dir) as (one, two):
        if int(env.get("CPU_WORKERS", "1")) > 0:  # the settings' default is one worker process
            workers_settled(one.proc.pid, two.proc.pid)
        yield one, two


def total(servers: tuple[LiveServer, ...], name: str, **labels: str) -> float:
    """A counter or gauge summed over the processes, as Prometheus would."""
    return sum(server.metric(name, **labels) for server in servers)


def at_ply(n: int) -> Callable[[dict[str, Any]], bool]:
    return lambda r: r["game"] is not None and r["game"]["ply"] == n


async def eventually(check: Callable[[], Any], what: str, timeout: float = 30) -> Any:
    """Poll ``check`` (a blocking call) until it returns something true; that value."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = await asyncio.to_thread(check)
        if value:
            return value
        assert loop.time() < end, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.2)


def health(server: LiveServer) -> dict[str, Any]:
    status, body = server.get("/api/health")
    assert status == (200 if body["status"] == "ok" else 503), (status, body)
    return dict(body)


async def play(clients: dict[str, RoomSocket], start: int, end: int) -> None:
    """Moves ``start`` to ``end - 1`` of RECORD (Ann red, Bob yellow), each once the mover saw the one
    before; then until every client (Eve too) saw them."""
    for ply in range(start, end):
        mover = clients["ann"] if ply % 2 == 0 else clients["bob"]
        await mover.wait_room(at_ply(ply))
        await mover.drop(RECORD[ply])
    for client in clients.values():
        await client.wait_room(lambda r: r["game"] is not None and r["game"]["ply"] >= end)


def a_legal_peg(moves: list[str]) -> str:
    return str(Position.from_record(" ".join(moves)).legal_pegs()[0])


@dataclass
class Scene:
    """Ann (on one) against Bob (on two) watched by Eve (on one) in room ``code``; Cy (on two) alone
    against a level-5 CPU seat in room ``solo_code``."""

    clients: dict[str, RoomSocket]  # ann, bob, eve
    cy: RoomSocket
    devices: dict[str, Device]  # ann, bob, eve, cy
    code: str
    solo_code: str

    @property
    def everyone(self) -> list[RoomSocket]:
        return [*self.clients.values(), self.cy]

    def room(self, code: str) -> dict[str, Any]:
        """The room as ``GET /api/rooms/{code}`` shows it (read from the database, not the sockets)."""
        status, room = self.devices["ann"].request("GET", f"/api/rooms/{code}")
        assert status == 200, room
        return dict(room)

    def room_at_ply(self, code: str, ply: int) -> dict[str, Any] | None:
        room = self.room(code)
        return room if room["game"]["ply"] == ply else None


async def open_rooms(one: LiveServer, two: LiveServer) -> Scene:
    """The scene, three moves into Ann's game (Bob to move) and one into Cy's: the CPU thinks."""
    devices = {"ann": Device(one.http), "bob": Device(two.http), "eve": Device(one.http), "cy": Device(two.http)}
    for name, device in devices.items():
        device.join(name.capitalize())
    status, room = devices["ann"].request("POST", "/api/rooms", {"ranked": False, "alternate_first": False})
    assert status == 201
    status, solo = devices["cy"].request("POST", "/api/rooms", {"ranked": False, "alternate_first": False,
                                                                 "cpu_level": 5})
    assert status == 201
    clients = {
        "ann": RoomSocket(one.ws, room["code"], devices["ann"], one.http),
        "bob": RoomSocket(two.ws, room["code"], devices["bob"], two.http),
        "eve": RoomSocket(one.ws, room["code"], devices["eve"], one.http),
    }
    for client in clients.values():
        await client.connect(ping_every=5)
    await clients["bob"].send(type="sit")
    await clients["ann"].wait_room(lambda r: r["seats"][1]["player"] is not None and r["spectators"] == 1)
    await clients["ann"].send(type="start")
    await play(clients, 0, 3)
    cy = await RoomSocket(two.ws, solo["code"], devices["cy"], two.http).connect(ping_every=5)
    await cy.send(type="start")
    await cy.wait_room(at_ply(0))
    await cy.drop("a1")
    await cy.wait_room(at_ply(1))
    return Scene(clients, cy, devices, room["code"], solo["code"])


async def finish(scene: Scene, servers: tuple[LiveServer, LiveServer]) -> None:
    """Bob has just sent move 3 again: play both games on and check their records (each move once)."""
    clients, cy = scene.clients, scene.cy
    await play(clients, 4, len(RECORD))
    for client in clients.values():
        final = await client.wait_room(lambda r: r["game"]["status"] == "won")
        assert final["game"]["winner_seat"] == 2 and final["game"]["moves"] == RECORD
    status, record = scene.devices["eve"].request("GET", f"/api/games/{final['game']['id']}")
    assert status == 200
    assert [(m["peg"], m["cpu"]) for m in record["moves"]] == [(peg, False) for peg in RECORD]

    # The CPU answers Cy again: its deadline fires once more, after the fault.
    await cy.drop(a_legal_peg(cy.room["game"]["moves"]))
    solo = await cy.wait_room(at_ply(4), timeout=40)
    status, record = scene.devices["cy"].request("GET", f"/api/games/{solo['game']['id']}")
    assert status == 200
    assert [(m["ply"], m["seat"], m["cpu"]) for m in record["moves"]] == [
        (0, 1, False), (1, 2, True), (2, 1, False), (3, 2, True)
    ]
    assert total(servers, "fourinarow_moves_total", kind="cpu") == 2
    assert total(servers, "fourinarow_moves_total", kind="person") == len(RECORD) + 2
    # Each CPU move was computed once: none thrown away and computed again after a lease ran out.
    assert total(servers, "fourinarow_cpu_think_seconds_count", level="5") == 2
    for client in scene.everyone:
        await client.close()


# --- Redis ------------------------------------------------------------------------------------------
async def test_redis_restarting_mid_game_cuts_sockets_off_and_they_resync(tmp_path):
    """Redis stops for 5 s and comes back empty (every group membership gone). Each socket is closed
    with 4503 at once, its seat shows disconnected, and the health check names the channel layer; the
    CPU's move falls due meanwhile and is played once; the pages reconnect, resync and play on."""
    with private_redis() as redis, postgres_database(os.environ["DATABASE_URL"]) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=redis.url, CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         DISCONNECT_GRACE_SECONDS=GRACE, CPU_TIME_SCALE="1")  # level 5 thinks about 2 s
        with two_servers(env, tmp_path) as servers:
            one, two = servers
            scene = await open_rooms(one, two)
            versions = [client.room["version"] for client in scene.everyone]

            loop = asyncio.get_running_loop()
            stopped = loop.time()
            redis.stop()  # while the CPU thinks for Cy
            for client in scene.everyone:
                assert await until_cut_off(client) == 4503

            for server in servers:
                body = health(server)
                assert body["database"] == "ok" and body["channel_layer"].startswith("error"), body
            # The cut-off players' seats show disconnected (so no timer runs against them); no socket
            # is counted open; a page trying to come back now is turned away and leaves nothing behind.
            probe = RoomSocket(one.ws, scene.code, scene.devices["ann"], one.http)
            await probe.open()
            assert await until_cut_off(probe) == 4503
            await eventually(lambda: [seat["connected"] for seat in scene.room(scene.code)["seats"]] == [False, False],
                             "the seats show disconnected", timeout=10)  # the sweep would take 30 s
            await eventually(lambda: total(servers, "fourinarow_websocket_connections_open") == 0,
                             "no socket is counted open", timeout=10)
            # The CPU's move fell due, and is played while Redis is down (its broadcast failing).
            solo = await eventually(lambda: scene.room_at_ply(scene.solo_code, 2), "the CPU's move during the outage")
            assert total(servers, "fourinarow_channel_layer_send_failures_total") >= 1
            await asyncio.sleep(max(0.0, stopped + OUTAGE_SECONDS - loop.time()))

            redis.start()
            for server in servers:
                await eventually(lambda server=server: health(server)["status"] == "ok", "health recovers")
            for client, version in zip(scene.everyone, versions, strict=True):
                await reconnect(client)
                assert client.room["version"] > version
            assert scene.cy.room["game"]["moves"] == solo["game"]["moves"]
            for client in scene.clients.values():
                assert client.room["game"]["moves"] == RECORD[:3]
            assert total(servers, "fourinarow_websocket_connections_open") == 4

            # Bob (on two) moves: Ann and Eve (on one) see it, so the new group memberships work.
            await scene.clients["bob"].drop(RECORD[3])
            await finish(scene, servers)


# --- PostgreSQL -------------------------------------------------------------------------------------
async def test_postgres_restarting_mid_game_refuses_moves_clearly_and_play_goes_on(tmp_path):
    """PostgreSQL stops for 5 s mid-game. A move sent meanwhile is answered with error
    ``server_error`` (the socket stays open), the health check names the database, the CPU's move
    in flight waits; once it is back, the same servers play on, and every move is there once."""
    with private_postgres() as postgres, postgres_database(os.environ["DATABASE_URL"]) as migrated:
        url = postgres.create_database("fourinarow", copy_of=migrated)  # the run's migrated template's rows
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         DISCONNECT_GRACE_SECONDS=GRACE, CPU_TIME_SCALE="2")  # level 5 thinks about 4 s
        with two_servers(env, tmp_path) as servers:
            one, two = servers
            scene = await open_rooms(one, two)
            await asyncio.to_thread(busy_worker, one.proc.pid, two.proc.pid)

            loop = asyncio.get_running_loop()
            stopped = loop.time()
            postgres.stop()  # while the CPU thinks for Cy: its move cannot be stored until the database is back
            for server in servers:
                body = health(server)
                assert body["channel_layer"] == "ok" and body["database"].startswith("error"), body
            bob = scene.clients["bob"]
            await bob.drop(RECORD[3])
            error = await bob.wait("error")
            assert error["code"] == "server_error" and error["message"]
            await bob.send(type="ping")
            await bob.wait("pong")  # the socket is still open
            await asyncio.sleep(max(0.0, stopped + OUTAGE_SECONDS - loop.time()))

            postgres.start()
            for server in servers:
                await eventually(lambda server=server: health(server)["status"] == "ok", "health recovers")
            # Nothing was applied while it was down: Bob sends his move again, on the same socket.
            assert bob.room["game"]["ply"] == 3
            await bob.drop(RECORD[3])
            # The CPU's move, computed while the database was down, is played now that it is back (and
            # not computed again: finish() counts the thinking).
            await scene.cy.wait_room(at_ply(2), timeout=40)
            await finish(scene, servers)


# --- a CPU worker process -----------------------------------------------------------------------------
async def test_a_cpu_worker_killed_while_thinking_is_replaced_and_the_move_made_once(tmp_path):
    """The worker process computing the CPU's move is killed (kill -9). The process that owns it starts
    a new worker, which computes the move; it is played once, and the next one too."""
    with postgres_database(os.environ["DATABASE_URL"]) as url:
        env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"], CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}",
                         CPU_WORKERS="1", CPU_TIME_SCALE="1.5")  # level 5 thinks about 3 s
        with two_servers(env, tmp_path) as servers:
            one, two = servers
            ann, eve = Device(one.http), Device(two.http)
            ann.join("Ann")
            eve.join("Eve")
            status, room = ann.request("POST", "/api/rooms", {"ranked": False, "alternate_first": False,
                                                              "cpu_level": 5})
            assert status == 201
            a = await RoomSocket(one.ws, room["code"], ann, one.http).connect(ping_every=5)
            e = await RoomSocket(two.ws, room["code"], eve, two.http).connect(ping_every=5)
            await a.send(type="start")
            await a.wait_room(at_ply(0))
            await a.drop("a1")

            parent, worker = await asyncio.to_thread(busy_worker, one.proc.pid, two.proc.pid)
            kill(worker)
            loop = asyncio.get_running_loop()
            killed = loop.time()
            await a.wait_room(at_ply(2), timeout=30)
            print(f"the CPU's move came {loop.time() - killed:.1f} s after its worker was killed")
            owner = next(server for server in servers if server.proc.pid == parent)
            other = next(server for server in servers if server is not owner)
            # The process whose worker died made the move itself, in a new pool: no lease ran out.
            assert owner.metric("fourinarow_cpu_pool_replaced_total") == 1
            assert owner.metric("fourinarow_moves_total", kind="cpu") == 1
            assert other.metric("fourinarow_moves_total", kind="cpu") == 0
            assert worker not in cpu_worker_pids(parent) and cpu_worker_pids(parent)

            await a.drop(a_legal_peg(a.room["game"]["moves"]))
            final = await e.wait_room(at_ply(4), timeout=30)
            status, record = ann.request("GET", f"/api/games/{final['game']['id']}")
            assert status == 200
            assert [(m["ply"], m["cpu"]) for m in record["moves"]] == [(0, False), (1, True), (2, False), (3, True)]
            assert total(servers, "fourinarow_moves_total", kind="cpu") == 2
            assert total(servers, "fourinarow_cpu_pool_replaced_total") == 1
            await a.close()
            await e.close()
