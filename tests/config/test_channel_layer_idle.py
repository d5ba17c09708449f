"""The Redis channel layer's receiver at rest: it reads nothing while nothing comes (no poll), and it still
notices a subscription whose connection died without a word (a PING after ``health_seconds`` of silence,
unanswered as long again). On the CI's Redis; the silent death through a TCP relay that stops relaying."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest

from config.channel_layer import HEALTH_SECONDS, ChannelLayerLost, PubSubLayer

pytestmark = pytest.mark.redis


def _layer(prefix: str, *, url: str | None = None, health_seconds: float = HEALTH_SECONDS) -> PubSubLayer:
    return PubSubLayer(hosts=[url or os.environ["REDIS_URL"]], prefix=prefix, health_seconds=health_seconds)


class Relay:
    """A TCP relay to the CI's Redis whose connections can go silent: still open, nothing relayed either
    way (a peer gone without closing, a network that drops everything)."""

    def __init__(self) -> None:
        self.silent = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        """The Redis URL through the relay."""
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return urlunsplit(urlsplit(os.environ["REDIS_URL"])._replace(netloc=f"127.0.0.1:{port}"))

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        target = urlsplit(os.environ["REDIS_URL"])
        up_reader, up_writer = await asyncio.open_connection(target.hostname, target.port or 6379)
        self.writers += [writer, up_writer]
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.get_running_loop().create_task(self._pipe(source, sink))
            self.tasks.add(task)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await source.read(65536):
                if not self.silent:
                    sink.write(data)
                    await sink.drain()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for writer in self.writers:
            writer.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def test_a_subscription_at_rest_reads_nothing_and_a_new_channel_is_read_at_once():
    """channels-redis' receiver reads every 0.1 s, ten wakes a second for an idle process; this one reads
    only what Redis sends (and a PING's answer after ``health_seconds`` of silence: 15 s here). The process
    stays subscribed when its last channel goes (its one subscription is for good), and a new channel is
    heard on the same subscription."""
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    sender, receiver = _layer(prefix), _layer(prefix)
    try:
        channel = await receiver.new_channel()
        await sender.send(channel, {"type": "socket.event", "n": 1})
        assert await asyncio.wait_for(receiver.receive(channel), 5) == {"type": "socket.event", "n": 1}
        shard = receiver._get_layer()._shards[0]
        pubsub = shard._pubsub
        at_rest = shard.reads
        await asyncio.sleep(1.0)
        assert shard.reads == at_rest  # subscribed, silent: not one read in a second

        await receiver.discard_channel(channel)
        await sender.send(channel, {"type": "socket.event", "n": 2})  # read, and dropped: nobody's channel
        while shard.reads == at_rest:
            await asyncio.sleep(0.01)
        at_rest = shard.reads
        await asyncio.sleep(1.0)
        assert shard.reads == at_rest  # no channel at all: still not one read in a second

        fresh = await receiver.new_channel()
        started = time.monotonic()
        await sender.send(fresh, {"type": "socket.event", "n": 3})
        assert await asyncio.wait_for(receiver.receive(fresh), 5) == {"type": "socket.event", "n": 3}
        assert time.monotonic() - started < 5
        assert shard._pubsub is pubsub and pubsub.subscribed  # the same subscription all along
    finally:
        await sender.flush()
        await receiver.flush()


async def test_a_silent_subscription_is_pinged_and_kept_while_redis_answers():
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    # A PING unanswered for health_seconds loses the subscription: 0.2 s was once too short for a loaded
    # machine's loop to read Redis's answer (the flake seen in CI); a second is ample, and still pings thrice.
    sender, receiver = _layer(prefix), _layer(prefix, health_seconds=1.0)
    try:
        channel = await receiver.new_channel()
        await receiver.group_add("room", channel)
        shard = receiver._get_layer()._shards[0]
        pubsub = shard._pubsub
        await asyncio.sleep(3.5)  # silent: pinged every second or so, each answered
        assert shard.reads >= 3  # the subscription's answer, then at least a silence and its PING's answer
        await sender.group_send("room", {"type": "room.move", "n": 1})
        assert await asyncio.wait_for(receiver.receive(channel), 5) == {"type": "room.move", "n": 1}
        assert shard._pubsub is pubsub and receiver._get_layer().lost == set()
    finally:
        await sender.flush()
        await receiver.flush()


async def test_a_subscription_whose_connection_goes_silent_fails_every_channel_of_the_process(caplog):
    """No read ever ends on a connection whose peer vanished without closing it: the process would stay
    subscribed and deaf for good. Its PING goes unanswered, and every channel hears of the loss."""
    relay = Relay()
    url = await relay.start()
    health = 0.5
    receiver = _layer(f"test-{uuid.uuid4().hex[:8]}", url=url, health_seconds=health)
    try:
        waiting_channel, quiet_channel = await receiver.new_channel(), await receiver.new_channel()
        await receiver.group_add("room", quiet_channel)
        waiting = asyncio.create_task(receiver.receive(waiting_channel))
        await asyncio.sleep(0.1)
        relay.silent = True
        went_silent = time.monotonic()
        with pytest.raises(ChannelLayerLost):
            await asyncio.wait_for(waiting, 30)
        assert time.monotonic() - went_silent >= health  # the silence noticed, not some other failure
        with pytest.raises(ChannelLayerLost):
            await asyncio.wait_for(receiver.receive(quiet_channel), 5)
        assert "answered no PING" in caplog.text
    finally:
        with contextlib.suppress(Exception):
            await receiver.flush()
        await relay.close()
