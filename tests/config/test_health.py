"""The health endpoint makes a real round trip to the database and the channel layer."""

from __future__ import annotations

import json

import pytest
from channels.layers import channel_layers
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_health_reports_every_part_ok(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


def test_health_names_a_broken_channel_layer_with_503(client):
    broken = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
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
