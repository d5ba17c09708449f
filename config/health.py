"""``GET /api/health``: a real round trip to the database, to the cache and to the channel layer."""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass
from typing import ClassVar

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse

from live.messages import Message, encode, kind
from live.offload import offload

log = logging.getLogger(__name__)

CHANNEL_LAYER_TIMEOUT_SECONDS = 2.0


@kind
@dataclass(frozen=True, slots=True)
class HealthPing(Message):
    """The health check's message to itself, through Redis."""

    TYPE: ClassVar[str] = "health.ping"


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        row = cursor.fetchone()
    if row is None or row[0] != 1:
        raise RuntimeError("SELECT 1 did not answer 1")


def _check_cache() -> None:
    """A write and a read of the cache the rate limits count in (Redis with ``REDIS_URL``)."""
    key = f"health:{uuid.uuid4().hex}"
    cache.set(key, 1, timeout=10)
    if cache.get(key) != 1:
        raise RuntimeError("the cache did not return what was written")
    cache.delete(key)


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    # A channel of its own, sent to and received from through Redis, then dropped (the pub/sub layer
    # would keep listening on it otherwise).
    channel = await layer.new_channel()
    try:
        await layer.send(channel, encode(HealthPing()))
        message = await asyncio.wait_for(layer.receive(channel), CHANNEL_LAYER_TIMEOUT_SECONDS)
    finally:
        discard = getattr(layer, "discard_channel", None)
        if discard is not None:
            await discard(channel)
    if message.get("type") != HealthPing.TYPE:
        raise RuntimeError("the channel layer returned another message")


async def health(request: HttpRequest) -> JsonResponse:
    """Answer 200 when every part works, 503 naming the part that failed otherwise."""
    body = {"status": "ok", "database": "ok", "cache": "ok", "channel_layer": "ok"}
    checks = (("database", offload(_check_database, lane="request")),
              ("cache", sync_to_async(_check_cache, thread_sensitive=False)),
              ("channel_layer", _check_channel_layer))
    for part, check in checks:
        try:
            await check()
        except Exception as exc:
            log.warning("health: %s failed: %s", part.replace("_", " "), exc)
            body[part] = f"error: {exc.__class__.__name__}"
    healthy = all(body[part] == "ok" for part, _check in checks)
    if not healthy:
        body["status"] = "error"
    return JsonResponse(body, status=200 if healthy else 503)
