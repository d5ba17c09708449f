"""live.socket: a socket is accepted first, before its channel's SUBSCRIBE waits its turn behind every other
socket's (a connect storm): its handshake is answered whatever the queue, and its consumer's ``connect``
runs once the channel is there."""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

import pytest
from channels.exceptions import StopConsumer
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

from config.channel_layer import PubSubLayer
from config.inbox import Inbox
from live.socket import Socket

pytestmark = pytest.mark.redis


class Plain(Socket):
    connected: asyncio.Event

    async def connect(self) -> None:
        await self.accept()  # as every consumer does: a second accept sends nothing
        self.connected.set()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        raise StopConsumer  # (Channels' own would close the database connections: this test has none)


async def test_a_socket_is_accepted_before_its_channel_is_subscribed():
    layer = PubSubLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"test-{uuid.uuid4().hex[:8]}")
    channel_layers.backends[DEFAULT_CHANNEL_LAYER] = layer
    shard = layer._get_layer()._shards[0]
    sent: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    inbox: Inbox[object] = Inbox()
    inbox.put_nowait({"type": "websocket.connect"})
    consumer = Plain()
    consumer.connected = asyncio.Event()
    scope = {"type": "websocket", "path": "/ws/test/", "headers": [], "url_route": {"args": (), "kwargs": {}}}
    try:
        async with shard._lock:  # every other socket's SUBSCRIBE ahead of this one's
            task = asyncio.create_task(consumer(scope, inbox.get, sent.put))
            assert (await asyncio.wait_for(sent.get(), 10))["type"] == "websocket.accept"
            await asyncio.sleep(0.1)
            assert not consumer.connected.is_set()  # its connect waits for its channel
        await asyncio.wait_for(consumer.connected.wait(), 10)
        assert consumer.channel_name in shard._subscribed_to
        assert sent.empty()  # accepted once
        inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 10)
    finally:
        await layer.flush()
