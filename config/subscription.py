"""The one subscription of a process to a Redis host, for :mod:`config.channel_layer` (whose text says what it
keeps): channels-redis' shard connection, read by a receiver that waits for work, and lost for good (every
channel of the process failed) at the first sign that it broke."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any, Protocol

from channels_redis.pubsub import RedisSingleShardConnection
from channels_redis.utils import create_pool
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

log = logging.getLogger("config.channel_layer")


class Routes(Protocol):
    """What a subscription tells its process's layer (``config.channel_layer._LoopLayer``)."""

    def route(self, name: bytes, data: bytes) -> None: ...

    def fail_every_channel(self) -> int: ...

# Seconds of silence on the subscription after which the receiver pings it, and then waits as long again for
# anything at all before it takes the connection for dead (the layer's ``health_seconds`` setting).
HEALTH_SECONDS = 15.0


class ChannelLayerLost(ConnectionError):
    """The process's subscription to Redis broke: messages to this channel may have been lost."""

    def __init__(self, message: str = "the channel layer lost Redis: messages to this channel may be lost") -> None:
        super().__init__(message)


LOST = object()  # queued to every channel of a process when its subscription breaks


class _PubSub(PubSub):
    """A subscription that marks itself broken when its connection is made again, instead of quietly
    subscribing again (the connection is registered after its first connect, so every call here is a
    reconnection)."""

    broken = False

    async def on_connect(self, connection: Connection) -> None:
        self.broken = True


class Shard(RedisSingleShardConnection):  # type: ignore[misc]  # channels-redis is untyped: its classes are Any
    """One Redis server's connections: a pool for publishing, one subscription for receiving."""

    # What this class uses of channels-redis' shard (set there), typed.
    host: dict[str, Any]  # the connection's keyword arguments, as the settings give them
    channel_layer: Routes
    _redis: aioredis.Redis | None
    _pubsub: _PubSub | None
    _subscribed_to: set[str]
    _receive_task: asyncio.Task[None] | None
    _lock: asyncio.Lock

    def __init__(self, host: dict[str, Any], channel_layer: Routes, *, health_seconds: float) -> None:
        super().__init__(host, channel_layer)
        self.health_seconds = health_seconds
        self._wake = asyncio.Event()  # set by a subscription: the receiver, waiting for one, reads at once
        self.reads = 0  # reads ended, with something or silent for health_seconds (tests, the benchmark)

    def _ensure_redis(self) -> None:
        if self._redis is None:
            pool = create_pool({**self.host, "retry": Retry(NoBackoff(), 0)})
            self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = _PubSub(pool)

    async def subscribe(self, *channels: str) -> None:
        """``SUBSCRIBE`` those of ``channels`` not subscribed yet, in one command."""
        await self._or_lose(self._subscribe(channels))
        self._wake.set()

    async def _subscribe(self, channels: tuple[str, ...]) -> None:
        async with self._lock:
            needed = [channel for channel in channels if channel not in self._subscribed_to]
            if needed:
                self._ensure_redis()
                self._ensure_receiver()
                assert self._pubsub is not None  # made by _ensure_redis
                await self._pubsub.subscribe(*needed)
                self._subscribed_to.update(needed)

    def _receive_message(self, message: dict[str, Any]) -> None:
        self.channel_layer.route(message["channel"], message["data"])

    async def unsubscribe(self, channel: str) -> None:
        await self._or_lose(super().unsubscribe(channel))

    async def _or_lose(self, command: Awaitable[None]) -> None:
        """Run a subscription command; if it fails, the subscription is lost (and the failure raised)."""
        try:
            await command
        except Exception as exc:
            await self._lose(exc)
            raise

    async def _do_receiving(self) -> None:
        """Read the subscription until it breaks or is replaced: wait for a ``SUBSCRIBE`` while nothing is
        subscribed, else for what Redis sends, pinging it after ``health_seconds`` of silence."""
        pubsub = self._pubsub
        pinged = False  # a PING is out and nothing was read since
        while pubsub is self._pubsub:
            if pubsub is None or not pubsub.subscribed:
                # Nothing to read: subscribe() sets the event once the channel is in pubsub.channels, with no
                # await between the two, and nothing awaits between the look above and the clear below.
                self._wake.clear()
                pinged = False  # a PONG still on its way is read with the next subscription's replies
                await self._wake.wait()
                continue
            try:
                # Not get_message(): it answers None alike for a timeout and for a reply that is no message.
                response = await pubsub.parse_response(block=False, timeout=self.health_seconds)
                self.reads += 1
                if pubsub.broken:
                    raise ChannelLayerLost("the connection to Redis was made again")
                if response is None:  # silent for health_seconds
                    if pinged:
                        raise ChannelLayerLost(f"Redis answered no PING in {self.health_seconds:g} s")
                    await pubsub.ping()
                    pinged = True
                    continue
                pinged = False
                handle = pubsub.handle_message  # redis-py leaves it unannotated
                message = await handle(response, ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as exc:
                await self._lose(exc)
                return
            if message is not None and message["type"] == "message":
                self._receive_message(message)

    async def _lose(self, exc: BaseException) -> None:
        """The subscription broke: forget it and fail every channel of the process (once per subscription)."""
        async with self._lock:
            pubsub, redis = self._pubsub, self._redis
            if pubsub is None:
                return  # already lost and not made again since
            self._pubsub = self._redis = None
            self._subscribed_to = set()
            if self._receive_task is not None and self._receive_task is not asyncio.current_task():
                self._receive_task.cancel()
            self._receive_task = None
            lost = self.channel_layer.fail_every_channel()
        log.warning("the channel layer lost Redis (%s: %s): %d channels failed", type(exc).__name__, exc, lost)
        with contextlib.suppress(Exception):  # the connection is gone already
            await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves PubSub.aclose unannotated
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.aclose(close_connection_pool=True)  # the pool is this client's alone
