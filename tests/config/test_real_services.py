"""The real PostgreSQL database and the real Redis channel layer, as CI configures them."""

from __future__ import annotations

import asyncio
import logging
import os
import uuid

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from config.channel_layer import ChannelLayerLost, PubSubLayer
from config.inbox import Inbox
from harness.ports import free_port


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_migrations_apply_and_queries_run():
    assert connection.vendor == "postgresql"
    # Unapply and reapply one app's migrations for real, then check nothing is left to apply.
    call_command("migrate", "sessions", "zero", verbosity=0)
    call_command("migrate", verbosity=0)
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    key = uuid.uuid4().hex
    Session.objects.create(session_key=key, session_data="e30=", expire_date=timezone.now())
    assert Session.objects.filter(session_key=key).count() == 1


def _layer(prefix: str | None = None, *, host: str | None = None) -> PubSubLayer:
    """A channel layer as a server process makes it (``config.settings``), on the CI's Redis (or ``host``)."""
    return PubSubLayer(hosts=[host or os.environ["REDIS_URL"]], prefix=prefix or f"test-{uuid.uuid4().hex[:8]}")


async def _close(*layers: PubSubLayer) -> None:
    for layer in layers:
        await layer.flush()


@pytest.mark.redis
def test_with_redis_the_server_runs_the_layer_tested_here(settings):
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layer.PubSubLayer"


@pytest.mark.redis
async def test_redis_layer_sends_and_receives_between_two_layer_instances():
    sender = _layer()
    receiver = _layer(sender._kwargs["prefix"])  # two processes share one Redis prefix
    try:
        channel = await receiver.new_channel()
        await receiver.group_add("room-test", channel)
        await sender.group_send("room-test", {"type": "room.event", "n": 7})
        message = await asyncio.wait_for(receiver.receive(channel), 5)
        assert message == {"type": "room.event", "n": 7}
        await sender.send(channel, {"type": "socket.event"})  # to one socket of the other process
        assert await asyncio.wait_for(receiver.receive(channel), 5) == {"type": "socket.event"}
    finally:
        await _close(sender, receiver)


@pytest.mark.redis
async def test_a_busy_process_receives_every_broadcast_sent_before_it_reads():
    """Moves in 150 rooms of one process before it reads any: none is dropped (channels-redis' core layer
    dropped the last 50 at its default capacity)."""
    sender = _layer()
    receiver = _layer(sender._kwargs["prefix"])
    try:
        sockets = [await receiver.new_channel() for _ in range(150)]
        for n, channel in enumerate(sockets):
            await receiver.group_add(f"room-{n}", channel)
        for n in range(len(sockets)):
            await sender.group_send(f"room-{n}", {"type": "room.move", "n": n})
        received = [await asyncio.wait_for(receiver.receive(channel), 5) for channel in sockets]
        assert [message["n"] for message in received] == list(range(150))

        everyone = sockets[:3]
        for channel in everyone:
            await receiver.group_add("room-all", channel)
        await sender.group_send("room-all", {"type": "room.snapshot", "seats": [1, 2]})
        heard = [await asyncio.wait_for(receiver.receive(channel), 5) for channel in everyone]
        assert heard[0] == {"type": "room.snapshot", "seats": [1, 2]}
        assert all(message is heard[0] for message in heard)  # decoded once for the process's sockets
    finally:
        await _close(sender, receiver)


async def _cut_subscription(layer: PubSubLayer) -> None:
    """Have Redis close ``layer``'s subscription connection (as a restart would), and only that one."""
    connection = layer._get_layer()._shards[0]._pubsub.connection
    port = connection._writer.get_extra_info("sockname")[1]
    admin = Redis.from_url(os.environ["REDIS_URL"])
    try:
        assert await admin.execute_command("CLIENT", "KILL", "ADDR", f"127.0.0.1:{port}", "SKIPME", "yes") == 1
    finally:
        await admin.aclose()


@pytest.mark.redis
async def test_a_broken_subscription_fails_every_channel_of_the_process_and_a_new_one_works():
    """What was published while a process's subscription was down is lost: every socket of the process
    must hear so (its receive raises; the room socket then closes with 4503 and the page resyncs),
    whether it was waiting or not, instead of staying open and deaf as channels-redis' own pub/sub layer
    leaves it. A socket opened afterwards gets a new subscription and hears its group."""
    sender = _layer()
    receiver = _layer(sender._kwargs["prefix"])
    try:
        waiting_channel, quiet_channel = await receiver.new_channel(), await receiver.new_channel()
        await receiver.group_add("room", waiting_channel)
        await receiver.group_add("room", quiet_channel)
        waiting = asyncio.create_task(receiver.receive(waiting_channel))
        await asyncio.sleep(0.2)
        await _cut_subscription(receiver)
        with pytest.raises(ChannelLayerLost):
            await asyncio.wait_for(waiting, 5)
        await sender.group_send("room", {"type": "room.move", "n": 1})  # nobody of that process hears it
        with pytest.raises(ChannelLayerLost):
            await asyncio.wait_for(receiver.receive(quiet_channel), 5)

        fresh = await receiver.new_channel()
        await receiver.group_add("room", fresh)
        await sender.group_send("room", {"type": "room.move", "n": 2})
        assert await asyncio.wait_for(receiver.receive(fresh), 5) == {"type": "room.move", "n": 2}
        assert receiver._get_layer().lost == set()  # each failed channel was told once and forgotten
    finally:
        await _close(sender, receiver)


async def test_a_channel_made_while_redis_is_down_is_lost_from_its_first_receive():
    """A socket opening during an outage gets its channel all the same (so it is accepted and then closed
    with 4503 like the others, as with channels-redis' core layer), and its first receive says so. No
    Redis is needed: the layer's Redis is a port nothing listens on."""
    down = _layer(host=f"redis://127.0.0.1:{free_port()}/0")
    try:
        channel = await down.new_channel()
        with pytest.raises(ChannelLayerLost):
            await asyncio.wait_for(down.receive(channel), 5)
        with pytest.raises(RedisConnectionError):
            await down.send(channel, {"type": "socket.event"})
    finally:
        await down.flush()


@pytest.mark.redis
async def test_a_receive_cancelled_twice_while_its_channel_unsubscribes_logs_nothing(caplog):
    """A starved process closing channels subscribed to on their own: a consumer's receive is cancelled,
    then cancelled again while the channel's cleanup waits on Redis (daphne giving up on the application).
    channels-redis awaited the UNSUBSCRIBE inside the cancelled receive and logged a CancelledError
    traceback for each such channel; the channel is unsubscribed all the same, apart from the receive,
    and nothing is logged."""
    layer = _layer()
    try:
        # Channels named by their receiver (no "!": not a channel the layer made), each its own SUBSCRIBE.
        channels = [f"{layer._kwargs['prefix']}general-{n}" for n in range(20)]
        shard = layer._get_layer()._shards[0]
        receives = [asyncio.create_task(layer.receive(channel)) for channel in channels]
        while not set(channels) <= shard._subscribed_to:
            await asyncio.sleep(0.01)
        async with shard._lock:  # Redis is slow to answer: every cleanup waits here
            for task in receives:
                task.cancel()
            await asyncio.sleep(0.05)
            for task in receives:
                task.cancel()
        results = await asyncio.gather(*receives, return_exceptions=True)
        assert all(isinstance(r, asyncio.CancelledError) for r in results)
        await asyncio.gather(*layer._get_layer()._unsubscribing)
        assert not set(channels) & shard._subscribed_to
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    finally:
        await _close(layer)


@pytest.mark.redis
async def test_a_channel_into_a_sockets_inbox_gets_its_messages_beside_the_frames_and_the_loss_too():
    """A socket's consumer reads its frames and its channel's messages from one inbox (one task): the
    messages arrive there in order after the frames put before them, decoded on reading; a broken
    subscription arrives as the loss; a channel released is forgotten, with no Redis command."""
    sender = _layer()
    receiver = _layer(sender._kwargs["prefix"])
    try:
        inbox: Inbox[object] = Inbox()
        inbox.put_nowait({"type": "websocket.connect"})
        channel = await receiver.new_channel_into(inbox)
        await receiver.group_add("room", channel)
        await sender.group_send("room", {"type": "room.move", "n": 1})
        assert await asyncio.wait_for(inbox.get(), 5) == {"type": "websocket.connect"}
        assert receiver.deserialize(await asyncio.wait_for(inbox.get(), 5)) == {"type": "room.move", "n": 1}
        await _cut_subscription(receiver)
        with pytest.raises(ChannelLayerLost):
            receiver.deserialize(await asyncio.wait_for(inbox.get(), 5))
        fresh_inbox: Inbox[object] = Inbox()
        fresh = await receiver.new_channel_into(fresh_inbox)
        receiver.release_channel(channel)
        receiver.release_channel(fresh)
        loop_layer = receiver._get_layer()
        assert not loop_layer._unsubscribing  # released in memory: no UNSUBSCRIBE
        assert loop_layer.lost == set() and not {channel, fresh} & set(loop_layer.channels)
        assert loop_layer._shards[0]._subscribed_to == {loop_layer.process_channel, loop_layer.groups_channel}
    finally:
        await _close(sender, receiver)


async def test_a_channel_into_an_inbox_made_while_redis_is_down_puts_the_loss_there():
    down = _layer(host=f"redis://127.0.0.1:{free_port()}/0")
    try:
        inbox: Inbox[object] = Inbox()
        inbox.put_nowait({"type": "websocket.connect"})
        await down.new_channel_into(inbox)
        assert await asyncio.wait_for(inbox.get(), 5) == {"type": "websocket.connect"}
        with pytest.raises(ChannelLayerLost):
            down.deserialize(await asyncio.wait_for(inbox.get(), 5))
    finally:
        await down.flush()
