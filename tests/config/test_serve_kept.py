"""config.serve: what daphne keeps for an open websocket, cut to what the socket needs after its
handshake (autobahn's settings on the protocol's class, no handshake request or response, no deque, no
HTTP request it was upgraded from). Counted in a real daphne process, with real sockets."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import websockets

from tests.livekit import running, server_env

APPS = Path(__file__).parent / "apps"
SOCKETS = 5


@pytest.fixture
def server(tmp_path):
    env = server_env(PYTHONPATH=str(APPS))
    with running(env, 1, log_dir=tmp_path, app="kept_asgi:application", health="/") as (started,):
        yield started


async def test_an_open_websocket_keeps_nothing_of_its_handshake_and_no_copy_of_the_settings(server):
    sockets = [await websockets.connect(f"{server.ws}/ws/", additional_headers={"Cookie": "sessionid=x" * 20})
               for _ in range(SOCKETS)]
    try:
        status, kept = await asyncio.to_thread(server.get, "/kept")
        assert status == 200
        assert kept == {"sockets": SOCKETS, "config_per_socket": [], "handshake_bytes": 0, "handshake_headers": 0,
                        "deque_send_queues": 0, "producers": 0, "upgraded_requests": 0}
        for sock in sockets:  # and each still works: a ping answered, a frame echoed
            await asyncio.wait_for(await sock.ping(), 5)
            await sock.send("hello")
            assert await asyncio.wait_for(sock.recv(), 5) == "hello"
    finally:
        for sock in sockets:
            await sock.close()
