"""What an open socket keeps, counted: on the Redis channel layer, one queue and no task of its own but
the application's (its frames and its channel's messages come through one queue, read by the socket's
own task), and none of its handshake's headers once its connect has been handled."""

from __future__ import annotations

import asyncio
import gc

import pytest

from lobby.realtime.room import RoomConsumer
from tests.roomkit import Client, make_player_async, make_room_async

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]

# What a receiving task of Channels' consumer loop runs (await_many_dispatch): a queue's get, a layer's
# receive through channels-redis' proxy.
RECEIVERS = {"Queue.get", "Inbox.get", "_async_proxy", "_LoopLayer.receive"}


def room_consumers(code: str) -> list[RoomConsumer]:
    """The room consumers of room ``code`` in this process (type(): no lazy object is asked)."""
    return [o for o in gc.get_objects() if type(o) is RoomConsumer and getattr(o, "code", None) == code]


async def next_of(client: Client, kind: str) -> dict[str, object]:
    """The next frame of type ``kind`` (a room frame of the spectators' count may come first)."""
    while (frame := await client.next_frame())["type"] != kind:
        pass
    return frame


async def test_an_open_room_socket_has_no_receiving_task_and_keeps_no_headers():
    host, key = await make_player_async("Host")
    code = await make_room_async(host)
    clients = [await Client(code, key).connect(), await Client(code, None).connect()]
    try:
        receivers = [t for t in asyncio.all_tasks() if t.get_coro().__qualname__ in RECEIVERS]
        assert receivers == []
        consumers = room_consumers(code)
        assert len(consumers) == 2
        assert [c.scope["headers"] for c in consumers] == [[], []]
        # Each still hears its room and answers its frames.
        await clients[1].send(type="ping")
        assert await next_of(clients[1], "pong")
        await clients[0].send(type="sync")
        assert (await next_of(clients[0], "room"))["you"]["player"] == str(host.id)
    finally:
        for client in clients:
            await client.close()
