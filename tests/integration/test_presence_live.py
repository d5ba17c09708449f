"""Presence on a real daphne (``config.serve``): a socket is alive while it answers daphne's websocket
pings, with no ping frame from the page; one that stops answering (a frozen or half-open connection)
counts as gone within ``PING_TIMEOUT_SECONDS``. On PostgreSQL + Redis when they are configured, else on
the embedded default. One server for the module (each test has devices and a room of its own)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import struct
import uuid
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection
from websockets.frames import Opcode

from harness.database import is_postgres, sqlite_database
from tests.livekit import Device, RoomSocket, postgres_database, running, server_env

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("presence_live")]  # one server: one worker

# The shortest config.serve takes: daphne pings a socket silent for 1 s (it looks every 2 s) and waits 1 s
# for the answer, so a silent socket is closed within 4 s of its last frame.
PING_TIMEOUT = 4
# How late daphne's close may come past PING_TIMEOUT: its timers' lateness on a loaded machine.
CLOSE_MARGIN = 3.0
PINGS_ANSWERED = 3  # each one a socket that did not answer would have been closed on
TCP_ESTABLISHED = 1  # the kernel's tcpi_state (linux/tcp.h)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("presence")
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


def pings_answered(conn: ClientConnection) -> list[float]:
    """The times (the loop's clock) of the websocket pings ``conn`` receives from now on: the websockets
    library has written each one's pong before its frame is processed (``data_received``)."""
    times: list[float] = []
    process = conn.process_event

    def process_event(event: Any) -> None:  # Any: a websockets Frame
        if event.opcode is Opcode.PING:
            times.append(conn.loop.time())
        process(event)

    conn.process_event = process_event  # type: ignore[method-assign]
    return times


def tcp_state(conn: ClientConnection) -> int:
    """The kernel's state of ``conn``'s TCP connection (``TCP_INFO``'s first byte): it leaves ESTABLISHED when
    the server closes it, whether or not this side reads."""
    sock = conn.transport.get_extra_info("socket")
    return int(struct.unpack("B", sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1))[0])


async def test_a_socket_that_only_answers_websocket_pings_stays_present(server):
    a, b = await seated_pair(server)
    loop = asyncio.get_running_loop()
    silent_since = loop.time()
    pinged = [pings_answered(a.conn), pings_answered(b.conn)]
    # Neither page says a word meanwhile: daphne pings both again and again, past its timeout.
    while min(map(len, pinged)) < PINGS_ANSWERED or loop.time() - silent_since < 1.5 * PING_TIMEOUT:
        assert loop.time() - silent_since < 60, f"daphne sent {[len(p) for p in pinged]} pings in 60 s"
        await asyncio.sleep(0.1)
    await a.send(type="sync")
    room = await a.wait("room", timeout=5)
    assert [seat["connected"] for seat in room["seats"]] == [True, True]
    assert tcp_state(a.conn) == tcp_state(b.conn) == TCP_ESTABLISHED
    await b.send(type="ping")  # the protocol's ping frame is still answered
    await b.wait("pong", timeout=5)
    await a.close()
    await b.close()


async def test_a_half_open_socket_counts_as_gone_within_the_ping_timeout(server):
    a, b = await seated_pair(server)
    loop = asyncio.get_running_loop()
    b.conn.transport.pause_reading()  # Bob's side neither reads nor answers a ping: half-open, as seen from the server
    stopped = loop.time()
    while tcp_state(b.conn) == TCP_ESTABLISHED:  # until daphne closes it
        assert loop.time() - stopped < 3 * PING_TIMEOUT, "daphne never closed the silent socket"
        await asyncio.sleep(0.05)
    closed_after = loop.time() - stopped
    # Closed within the timeout (daphne's timers, late by at most CLOSE_MARGIN on a loaded machine) ...
    assert closed_after < PING_TIMEOUT + CLOSE_MARGIN, closed_after
    # ... and so counted as gone: disconnected, still seated (the grace period runs).
    room = await a.wait_room(lambda r: not r["seats"][1]["connected"], timeout=30)
    assert room["seats"][1]["player"] is not None
    # Bob's page reconnects, as the page does after a close: connected again.
    b2 = await RoomSocket(server.ws, room["code"], b.device, server.http).connect()
    await a.wait_room(lambda r: r["seats"][1]["connected"], timeout=10)
    for sock in (a, b2):
        await sock.close()
    b.conn.transport.abort()
