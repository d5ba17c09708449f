"""The real PostgreSQL database and the real Redis channel layer, as CI configures them."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from channels_redis.core import RedisChannelLayer
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone


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


def _layer() -> RedisChannelLayer:
    return RedisChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"test-{uuid.uuid4().hex[:8]}")


@pytest.mark.redis
async def test_redis_layer_sends_and_receives_between_two_layer_instances():
    sender, receiver = _layer(), _layer()
    receiver.prefix = sender.prefix  # two processes share one Redis prefix
    try:
        channel = await receiver.new_channel()
        await receiver.group_add("room-test", channel)
        await sender.group_send("room-test", {"type": "room.event", "n": 7})
        message = await asyncio.wait_for(receiver.receive(channel), 5)
        assert message == {"type": "room.event", "n": 7}
    finally:
        await sender.flush()
        await sender.close_pools()
        await receiver.close_pools()


@pytest.mark.redis
async def test_a_busy_process_receives_every_broadcast_sent_before_it_reads(settings):
    """channels-redis counts its capacity over a whole process's inbox (one entry per message sent to any
    of its sockets), not per socket: with its default (100), moves in 150 rooms of one process that were
    not read yet made it drop the last 50."""
    config = {**settings.CHANNEL_LAYERS["default"]["CONFIG"], "hosts": [os.environ["REDIS_URL"]],
              "prefix": f"test-{uuid.uuid4().hex[:8]}"}
    sender, receiver = RedisChannelLayer(**config), RedisChannelLayer(**config)
    try:
        sockets = [await receiver.new_channel() for _ in range(150)]
        for n, channel in enumerate(sockets):
            await receiver.group_add(f"room-{n}", channel)
        for n in range(len(sockets)):  # a move in every room before the process reads any
            await sender.group_send(f"room-{n}", {"type": "room.move", "n": n})
        received = [await asyncio.wait_for(receiver.receive(channel), 5) for channel in sockets]
        assert [message["n"] for message in received] == list(range(150))
    finally:
        await sender.flush()
        await sender.close_pools()
        await receiver.close_pools()
