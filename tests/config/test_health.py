"""The health endpoint makes a real round trip to the database and the channel layer."""

from __future__ import annotations

import asyncio
import json
import os
import uuid

import pytest
from channels.layers import channel_layers, get_channel_layer
from django.test import override_settings
from redis.asyncio import Redis

from config import health


@pytest.mark.django_db
def test_health_reports_every_part_ok(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok", "channel_layer": "ok"}


@pytest.mark.django_db
def test_health_names_a_broken_channel_layer_with_503(client):
    broken = {"default": {"BACKEND": "config.channel_layer.PubSubLayer",
                          "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}}
    channel_layers.backends.clear()
    try:
        with override_settings(CHANNEL_LAYERS=broken):
            response = client.get("/api/health")
    finally:
        channel_layers.backends.clear()
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["status"] == "error"
    assert body["database"] == "ok"
    assert body["channel_layer"].startswith("error")


@pytest.mark.redis
async def test_the_channel_layer_check_answers_beside_an_idle_socket_and_leaves_no_subscription(settings):
    """A socket of this process waiting on the Redis layer (as every open, quiet socket does) must not
    hold up the health check's own round trip, and the check's channel is dropped afterwards (every
    check left a subscription behind otherwise)."""
    prefix = f"health-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.PubSubLayer", "CONFIG": {
        "hosts": [os.environ["REDIS_URL"]], "prefix": prefix}}}
    channel_layers.backends.clear()
    layer = get_channel_layer()
    idle_channel = await layer.new_channel()
    idle = asyncio.create_task(layer.receive(idle_channel))
    admin = Redis.from_url(os.environ["REDIS_URL"])
    try:
        await asyncio.sleep(0.3)  # it is waiting on Redis now
        for _ in range(3):
            await health._check_channel_layer()  # raises TimeoutError after 2 s if it waits behind the socket
        subscribed = await admin.execute_command("PUBSUB", "CHANNELS", f"{prefix}*")
        loop_layer = layer._get_layer()  # the process's one subscription, and no channel of the checks left
        assert {name.decode() for name in subscribed} == {loop_layer.process_channel, loop_layer.groups_channel}
        assert list(loop_layer.channels) == [idle_channel]
    finally:
        idle.cancel()
        await asyncio.gather(idle, return_exceptions=True)
        await layer.flush()
        await admin.aclose()
        channel_layers.backends.clear()
