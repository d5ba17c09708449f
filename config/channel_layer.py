"""The channel layer on Redis: channels-redis' pub/sub layer, made to fail loudly when Redis goes.

Why pub/sub: a group send is one ``PUBLISH``, which Redis fans out to the processes subscribed to the
group, and each process hands it to its own sockets; channels-redis' core layer instead writes one
sorted-set entry per socket of the group and has each process pop them again (about eleven Redis
commands for a move in a room of two, against one). ``docs/benchmarks.md`` has the figures.

Why not as it comes: when its connection to Redis drops, the pub/sub layer logs, reconnects and
subscribes again, and whatever was published meanwhile is lost without a word: every socket of the
process stays open and hears nothing of what it missed. The core layer's receive raises instead, and
the room socket closes with 4503 so that the page reconnects and resyncs from a fresh snapshot
(:mod:`lobby.realtime.room`). This layer keeps that contract:

- the subscription connection is never re-established behind our back: the first sign that it broke (a
  failed read or command, or a reconnection made by redis-py's retry) fails every channel of the
  process: each receive waiting, and the next receive of each channel, raises :class:`ChannelLayerLost`;
- the broken connection is thrown away; the next subscription opens a new one (while Redis is down, a
  socket opening gets a channel that is lost already: it is accepted and closed with 4503 like the rest);
- nothing is retried: a command that fails raises (a publish retried could be delivered twice);
- a subscription that goes silent is asked: after ``health_seconds`` (:data:`HEALTH_SECONDS`, a setting of
  the layer) with nothing read, the receiver sends a ``PING`` on it, and if nothing at all is read within
  as long again the connection is taken for dead and the subscription lost (a connection whose peer
  vanished without closing it, which no read would ever notice). A dead connection is so noticed within
  twice ``health_seconds``; one that Redis closes (a restart) at once, by the read that ends.

The receiver waits for work, never on a clock: while nothing is subscribed it waits for the next
``SUBSCRIBE`` (an event), and while something is it waits on the connection's socket, so that an idle
process wakes once every ``health_seconds`` at most (channels-redis polls ten times a second).

A channel that will not be received from again (the health check's) is dropped with
:meth:`PubSubLayer.discard_channel`; the layer otherwise frees a channel only when a receive on it is
cancelled, as Channels does when a consumer ends.

A socket's consumer (``live.socket.Socket``) takes its channel with
:meth:`PubSubLayer.new_channel_into` instead: the channel's messages go into the socket's own inbox,
beside its frames, undecoded, and the consumer reads both with one task (none of its own for the
channel, no receive to cancel); it drops the channel with :meth:`PubSubLayer.release_channel` when it
ends. A failed subscription reaches it the same way, as the failure in its inbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from config.inbox import Inbox

log = logging.getLogger(__name__)

# Messages whose decoding is kept for the other sockets of the process they reach (the latest ones).
RECENT_DECODED = 16

# Seconds of silence on the subscription after which the receiver pings it, and then waits as long again for
# anything at all before it takes the connection for dead (the layer's ``health_seconds`` setting).
HEALTH_SECONDS = 15.0


class ChannelLayerLost(ConnectionError):
    """The process's subscription to Redis broke: messages to this channel may have been lost."""

    def __init__(self, message: str = "the channel layer lost Redis: messages to this channel may be lost") -> None:
        super().__init__(message)


_LOST = object()  # queued to every channel of a process when its subscription breaks


class _PubSub(PubSub):
    """A subscription that marks itself broken when its connection is made again, instead of quietly
    subscribing again (the connection is registered after its first connect, so every call here is a
    reconnection)."""

    broken = False

    async def on_connect(self, connection: Connection) -> None:
        self.broken = True


class _Shard(RedisSingleShardConnection):  # type: ignore[misc]  # channels-redis is untyped: its classes are Any
    """One Redis server's connections: a pool for publishing, one subscription for receiving."""

    # What this class uses of channels-redis' shard (set there), typed.
    host: dict[str, Any]  # the connection's keyword arguments, as the settings give them
    channel_layer: _LoopLayer
    _redis: aioredis.Redis | None
    _pubsub: _PubSub | None
    _subscribed_to: set[str]
    _receive_task: asyncio.Task[None] | None
    _lock: asyncio.Lock

    def __init__(self, host: dict[str, Any], channel_layer: _LoopLayer, *, health_seconds: float) -> None:
        super().__init__(host, channel_layer)
        self.health_seconds = health_seconds
        self._wake = asyncio.Event()  # set by a subscription: the receiver, waiting for one, reads at once
        self.reads = 0  # reads ended, with something or silent for health_seconds (tests, the benchmark)

    def _ensure_redis(self) -> None:
        if self._redis is None:
            pool = create_pool({**self.host, "retry": Retry(NoBackoff(), 0)})
            self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = _PubSub(pool)

    async def subscribe(self, channel: str) -> None:
        await self._or_lose(super().subscribe(channel))
        self._wake.set()

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


class _LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]  # channels-redis is untyped: its classes are Any
    """The layer of one event loop, on :class:`_Shard` connections."""

    # What this class uses of channels-redis' loop layer (set there), typed.
    prefix: str
    channels: dict[str, Inbox[object]]  # a channel's messages (bytes), or _LOST
    groups: dict[str, set[str]]

    def __init__(self, hosts: Any = None, *, health_seconds: float = HEALTH_SECONDS,
                 **kwargs: Any) -> None:  # Any: channels-redis' settings, passed on
        super().__init__(hosts, **kwargs)
        self._shards = [_Shard(host, self, health_seconds=health_seconds) for host in decode_hosts(hosts)]
        self.lost: set[str] = set()  # failed channels whose consumer has not received since
        self._unsubscribing: set[asyncio.Task[None]] = set()

    async def _subscribe_to_channel(self, channel: str, inbox: Inbox[object] | None = None) -> None:
        # channels-redis makes an asyncio.Queue: 3 KiB per socket
        self.channels[channel] = Inbox() if inbox is None else inbox
        await self._get_shard(channel).subscribe(channel)

    def fail_every_channel(self) -> int:
        """Every channel's receive raises :class:`ChannelLayerLost` (the one waiting, else the next);
        the process's groups are forgotten. Returns how many channels there were."""
        for name, queue in self.channels.items():
            queue.put_nowait(_LOST)
            self.lost.add(name)
        count = len(self.channels)
        self.channels = {}
        self.groups = {}
        return count

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A channel of this process. While Redis is down it is made all the same, lost already: its
        first receive raises, as the core layer's would (a socket opening then is accepted, and closed
        with 4503 like every other socket of the process, rather than refused without an answer)."""
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        try:
            await self._subscribe_to_channel(channel)
        except Exception:
            self.channels.pop(channel, None)
            self.lost.add(channel)
        return channel

    async def new_channel_into(self, inbox: Inbox[object], prefix: str = "specific.") -> str:
        """A channel of this process whose messages (undecoded: :meth:`PubSubLayer.deserialize` them) go
        into ``inbox``, a socket's own, beside its frames; never received from with :meth:`receive`. While
        Redis is down it is lost already: ``inbox`` gets the loss at once (after the frames before it)."""
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        try:
            await self._subscribe_to_channel(channel, inbox)
        except Exception:
            self.channels.pop(channel, None)
            inbox.put_nowait(_LOST)
        return channel

    def release_channel(self, channel: str) -> None:
        """Drop ``channel`` (made by :meth:`new_channel_into`: its socket ended), its ``UNSUBSCRIBE`` in a
        task of its own (see :meth:`receive`)."""
        self.lost.discard(channel)
        if self.channels.pop(channel, None) is not None:
            self._unsubscribe_apart(channel)

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message of ``channel``. A receive cancelled (its consumer ends) drops the channel and
        leaves its ``UNSUBSCRIBE`` to a task of its own: channels-redis awaits it inside the cancelled
        receive, where a second cancellation (a starved process closing its sockets late, daphne giving up
        on an application) ends it with a ``CancelledError`` traceback in the log for every socket."""
        if channel in self.lost:
            self.lost.discard(channel)
            raise ChannelLayerLost
        if channel not in self.channels:
            await self._subscribe_to_channel(channel)
        queue = self.channels[channel]
        try:
            message = await queue.get()
        except (asyncio.CancelledError, TimeoutError, GeneratorExit):
            if self.channels.get(channel) is queue:
                del self.channels[channel]
                self._unsubscribe_apart(channel)
            raise
        try:
            decoded: dict[str, Any] = self.channel_layer.deserialize(message)
        except ChannelLayerLost:  # it was waiting when the subscription broke
            self.lost.discard(channel)
            raise
        return decoded

    def _unsubscribe_apart(self, channel: str) -> None:
        """``UNSUBSCRIBE`` ``channel`` in a task of its own (kept until it ends: a task nobody holds may be
        collected before it runs)."""
        task = asyncio.get_running_loop().create_task(self._unsubscribe_quietly(channel))
        self._unsubscribing.add(task)
        task.add_done_callback(self._unsubscribing.discard)

    async def _unsubscribe_quietly(self, channel: str) -> None:
        try:
            await self._get_shard(channel).unsubscribe(channel)
        except asyncio.CancelledError:  # the loop is closing: its subscriptions go with it
            pass
        except Exception as exc:  # the subscription broke: _Shard._or_lose failed every channel and said so
            log.info("a closed channel's unsubscribe failed (%s: %s)", type(exc).__name__, exc)

    async def discard_channel(self, channel: str) -> None:
        """Stop listening on ``channel`` (made by ``new_channel``) without a receive being cancelled."""
        self.lost.discard(channel)
        if self.channels.pop(channel, None) is not None:
            await self._get_shard(channel).unsubscribe(channel)

    async def flush(self) -> None:
        self.lost = set()
        await super().flush()


class PubSubLayer(RedisPubSubChannelLayer):  # type: ignore[misc]  # channels-redis is untyped: its classes are Any
    """channels-redis' pub/sub layer that fails every socket's receive when its subscription to Redis
    breaks (see the module's text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # Any: channels-redis' settings, passed on
        super().__init__(*args, **kwargs)
        self._recent: dict[int, tuple[object, dict[str, Any]]] = {}  # id(bytes) -> (bytes, decoded), the latest

    def _get_layer(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer  # type: ignore[no-any-return]  # channels-redis keeps its layers untyped

    def deserialize(self, message: object) -> dict[str, Any]:
        """The message decoded, once for all the sockets of the process it reached: a group send reaches
        each of them as the same bytes, and each is handed the same dict (handlers only read it)."""
        if message is _LOST:
            raise ChannelLayerLost
        recent = self._recent
        found = recent.get(id(message))
        if found is not None and found[0] is message:
            return found[1]
        decoded: dict[str, Any] = super().deserialize(message)
        if len(recent) >= RECENT_DECODED:
            del recent[next(iter(recent))]
        recent[id(message)] = (message, decoded)
        return decoded

    async def discard_channel(self, channel: str) -> None:
        await self._get_layer().discard_channel(channel)

    async def new_channel_into(self, inbox: Inbox[object], prefix: str = "specific.") -> str:
        """A channel whose messages go into a socket's own ``inbox`` (:meth:`_LoopLayer.new_channel_into`):
        one queue and one receiving task for the socket's frames and its channel's messages together."""
        return await self._get_layer().new_channel_into(inbox, prefix)

    def release_channel(self, channel: str) -> None:
        self._get_layer().release_channel(channel)
