"""Presence on a real daphne (``config.serve``): a socket is alive while it answers daphne's websocket
pings, with no ping frame from the page; one that stops answering (a frozen or half-open connection)
counts as gone within ``PING_TIMEOUT_SECONDS``. On PostgreSQL + Redis when they are configured, else on
the embedded default."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid

import pytest

from harness.database import is_postgres, sqlite_database
from tests.livekit import Device, RoomSocket, postgres_database, running, server_env

pytestmark = [pytest.mark.slow]

PING_TIMEOUT = 6  # daphne pings after 2 s of silence and waits 2 s for the answer (config.serve)


@pytest.fixture
def server(tmp_path):
    settings = {"PING_TIMEOUT_SECONDS": str(PING_TIMEOUT)}
    with contextlib.ExitStack() as stack:
        if is_postgres(os.environ.get("DATABASE_URL", "")) and os.environ.get("REDIS_URL"):
            url = stack.enter_context(postgres_database(os.environ["DATABASE_URL"]))
            env = server_env(DATABASE_URL=url, REDIS_URL=os.environ["REDIS_URL"],
                             CHANNEL_PREFIX=f"t{uuid.uuid4().hex[:8]}", **settings)
        else:
            env = server_env(SQLITE_PATH=sqlite_database(tmp_path), **settings)
        [started] = stack.enter_context(running(env, 1, log_dir=tmp_path))
        yield started


async def seated_pair(server) -> tuple[RoomSocket, RoomSocket]:
    """Ann (host) and Bob seated in a new room, each with a socket that sends no ping frame."""
    ann, bob = Device(server.http), Device(server.http)
    await asyncio.to_thread(ann.join, "Ann")
    await asyncio.to_thread(bob.join, "Bob")
    code = await asyncio.to_thread(ann.create_room, {"ranked": False})
    a = await RoomSocket(server.ws, code, ann, server.http).connect()
    b = await RoomSocket(server.ws, code, bob, server.http).connect()
    await b.send(type="sit")
    await a.wait_room(lambda r: r["seats"][1]["player"] is not None and r["seats"][1]["connected"])
    return a, b


async def test_a_socket_that_only_answers_websocket_pings_stays_present(server):
    a, b = await seated_pair(server)
    await asyncio.sleep(2.5 * PING_TIMEOUT)  # neither page says a word meanwhile
    await a.send(type="sync")
    room = await a.wait("room", timeout=5)
    assert [seat["connected"] for seat in room["seats"]] == [True, True]
    await b.send(type="ping")  # the protocol's ping frame is still answered
    await b.wait("pong", timeout=5)
    await a.close()
    await b.close()


async def test_a_half_open_socket_counts_as_gone_within_the_ping_timeout(server):
    a, b = await seated_pair(server)
    loop = asyncio.get_running_loop()
    b.conn.transport.pause_reading()  # Bob's side neither reads nor answers a ping: half-open, as seen from the server
    stopped = loop.time()
    room = await a.wait_room(lambda r: not r["seats"][1]["connected"], timeout=3 * PING_TIMEOUT)
    gone_after = loop.time() - stopped
    assert room["seats"][1]["player"] is not None  # disconnected, still seated (the grace period runs)
    # Detected within the timeout; the rest is recording the close and broadcasting the room.
    assert gone_after < PING_TIMEOUT + 2, gone_after
    # Bob's page reconnects, as the page does after a close: connected again.
    b2 = await RoomSocket(server.ws, room["code"], b.device, server.http).connect()
    await a.wait_room(lambda r: r["seats"][1]["connected"], timeout=10)
    for sock in (a, b2):
        await sock.close()
    b.conn.transport.abort()
