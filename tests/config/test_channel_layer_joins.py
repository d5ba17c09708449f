"""A socket's channel, its joins and its leaves cost no Redis command once its process is subscribed (one
subscription a process, groups routed in memory: ``config.channel_layer``), and what they route still
arrives: a group send reaches the process's members only, a direct send its one channel. Counted on the
CI's Redis with ``MONITOR`` (every command Redis runs, the layer's named by their key prefix) and with
``CLIENT LIST`` (how many channels the process's subscription connection holds)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from redis.asyncio import Redis

from config.channel_layer import PubSubLayer
from config.inbox import Inbox

pytestmark = pytest.mark.redis

SOCKETS = 50


def _layer(prefix: str) -> PubSubLayer:
    return PubSubLayer(hosts=[os.environ["REDIS_URL"]], prefix=prefix)


class Monitor:
    """Redis' ``MONITOR``: the commands it runs whose line names ``prefix``, until a marker comes back."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.admin = Redis.from_url(os.environ["REDIS_URL"])
        self.lines: list[str] = []

    async def __aenter__(self) -> Monitor:
        self.monitor = self.admin.monitor()
        await self.monitor.__aenter__()
        return self

    async def seen(self) -> list[str]:
        """The layer's commands since the start: a marker is sent last and read back, so every command run
        before it has been read."""
        marker = f"marker-{uuid.uuid4().hex}"
        await self.admin.echo(marker)
        async for event in self.monitor.listen():
            command = str(event["command"])
            if marker in command:
                return self.lines
            if self.prefix in command:
                self.lines.append(command)
        raise AssertionError("the monitor ended")

    async def __aexit__(self, *exc: object) -> None:
        await self.monitor.__aexit__(*exc)
        await self.admin.aclose()


async def _subscriptions(layer: PubSubLayer) -> int:
    """How many channels the layer's subscription connection is subscribed to, as Redis counts them."""
    port = layer._get_layer()._shards[0]._pubsub.connection._writer.get_extra_info("sockname")[1]
    admin = Redis.from_url(os.environ["REDIS_URL"])
    try:
        clients = await admin.client_list()
    finally:
        await admin.aclose()
    [client] = [c for c in clients if c["addr"] == f"127.0.0.1:{port}"]
    return int(client["sub"])


async def test_sockets_joins_and_leaves_cost_no_redis_command_and_the_process_holds_one_subscription():
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    sender, receiver = _layer(prefix), _layer(prefix)
    try:
        first = await receiver.new_channel_into(Inbox())  # the process subscribes, once
        inboxes: list[Inbox[object]] = [Inbox() for _ in range(SOCKETS)]
        async with Monitor(prefix) as monitor:
            channels = [await receiver.new_channel_into(inbox) for inbox in inboxes]
            for n, channel in enumerate(channels):  # each socket joins its room and its player's group
                await receiver.group_add(f"room-{n // 2}", channel)
                await receiver.group_add(f"player-{n}", channel)
            for channel in channels[SOCKETS // 2:]:  # half of them leave, and close
                await receiver.group_discard(f"room-{channels.index(channel) // 2}", channel)
                await receiver.group_discard(f"player-{channels.index(channel)}", channel)
                receiver.release_channel(channel)
            receiver.release_channel(first)
            assert await monitor.seen() == []  # not one SUBSCRIBE, UNSUBSCRIBE, or anything else
        assert await _subscriptions(receiver) == 2  # its process channel and the groups channel

        async with Monitor(prefix) as monitor:
            await sender.group_send("room-0", {"type": "room.move", "n": 1})
            await sender.send(channels[1], {"type": "socket.event", "n": 2})
            commands = await monitor.seen()
        assert [c.split()[0].strip('"').upper() for c in commands] == ["PUBLISH", "PUBLISH"]  # one each
        assert [receiver.deserialize(await asyncio.wait_for(inboxes[n].get(), 5)) for n in (0, 1, 1)] == [
            {"type": "room.move", "n": 1}, {"type": "room.move", "n": 1}, {"type": "socket.event", "n": 2}]

        await sender.group_send(f"room-{SOCKETS // 2 // 2 + 1}", {"type": "room.move", "n": 3})  # left: nobody
        await sender.group_send("player-2", {"type": "room.move", "n": 4})
        assert receiver.deserialize(await asyncio.wait_for(inboxes[2].get(), 5)) == {"type": "room.move", "n": 4}
        assert [len(inbox._items) for inbox in inboxes] == [0] * SOCKETS  # the others heard nothing
    finally:
        await sender.flush()
        await receiver.flush()


async def test_a_connect_storm_makes_its_channels_while_every_redis_command_of_the_process_waits():
    """Every page of a restarted process reconnecting at once: each socket's channel and joins are made
    while the process's Redis connection is busy (here held: Redis slow to answer), none waiting for it.
    Before, each waited for a SUBSCRIBE of its own, one at a time per process, and the last handshakes
    waited past daphne's 5 s."""
    layer = _layer(f"test-{uuid.uuid4().hex[:8]}")
    try:
        await layer.new_channel_into(Inbox())  # the process subscribes, once
        shard = layer._get_layer()._shards[0]
        async with shard._lock:  # every Redis command of the process waits here
            made = await asyncio.wait_for(asyncio.gather(*(layer.new_channel_into(Inbox()) for _ in range(500))), 5)
            for n, channel in enumerate(made):
                await asyncio.wait_for(layer.group_add(f"room-{n // 2}", channel), 5)
                await asyncio.wait_for(layer.group_discard(f"room-{n // 2}", channel), 5)
        assert len(set(made)) == 500 and set(made) <= set(layer._get_layer().channels)
    finally:
        await layer.flush()
