"""The channel layer on Redis: one subscription a process, its sockets and groups routed in memory.

Why pub/sub: a group send is one ``PUBLISH``, which Redis fans out to the processes subscribed, and each
process hands it to its own sockets; channels-redis' core layer instead writes one sorted-set entry per
socket of the group and has each process pop them again (about eleven Redis commands for a move in a
room of two, against one). ``docs/benchmarks.md`` has the figures.

Why one subscription a process (as lila-ws routes its sockets): channels-redis' pub/sub layer
``SUBSCRIBE``s every socket's channel and every group a socket joins, and ``UNSUBSCRIBE``s them again
when it leaves, one at a time per process (a lock): a join and a leave cost Redis round trips, and in a
connect storm (every page of a restarted process reconnecting) the last handshakes waited past daphne's
5 s behind the others' ``SUBSCRIBE``s and were refused. Here each process subscribes once, on its first
channel, to two Redis channels of its own and for good:

- its process channel, ``PREFIX__process__PID``: a socket's channel is ``PREFIX{prefix}PID!N`` (a name
  Channels reads as process-local), and a send to it is one ``PUBLISH`` to the process channel of the
  ``PID`` the name carries, the channel's name in front of the body; the process puts the body in that
  channel's queue (a dict lookup) or drops it (the channel closed);
- the groups channel, ``PREFIX__groups__``, on every Redis host: a group send is one ``PUBLISH`` of the
  group's name in front of the body there, which every process hears; a process hands the body to its
  own sockets in the group, and skips the message, undecoded, when it has none. Membership is this
  process's dict: ``group_add`` and ``group_discard`` cost no Redis round trip, and neither do a
  socket's channel made (once the process is subscribed) and released.

The price: every process reads every group send, where per-group subscriptions had Redis send each
to the processes with members only (``docs/scaling.md`` works it out). A channel named without ``!``
(none of the project's) is subscribed to on its own, as channels-redis does.

Why not channels-redis' layer as it comes: when its connection to Redis drops, it logs, reconnects and
subscribes again, and whatever was published meanwhile is lost without a word: every socket of the
process stays open and hears nothing of what it missed. The core layer's receive raises instead, and
the room socket closes with 4503 so that the page reconnects and resyncs from a fresh snapshot
(:mod:`lobby.realtime.room`). This layer keeps that contract:

- the subscription connection is never re-established behind our back: the first sign that it broke (a
  failed read or command, or a reconnection made by redis-py's retry) fails every channel of the
  process: each receive waiting, and the next receive of each channel, raises :class:`ChannelLayerLost`,
  and the process's groups are forgotten;
- the broken connection is thrown away; the next channel made subscribes again on a new one (while
  Redis is down, a socket opening gets a channel that is lost already: it is accepted and closed with
  4503 like the rest);
- nothing is retried: a command that fails raises (a publish retried could be delivered twice);
- a subscription that goes silent is asked: after ``health_seconds`` (:data:`HEALTH_SECONDS`, a setting of
  the layer) with nothing read, the receiver sends a ``PING`` on it, and if nothing at all is read within
  as long again the connection is taken for dead and the subscription lost (a connection whose peer
  vanished without closing it, which no read would ever notice). A dead connection is so noticed within
  twice ``health_seconds``; one that Redis closes (a restart) at once, by the read that ends.

The receiver waits for work, never on a clock: until the process's first channel it waits for the
``SUBSCRIBE`` (an event), and then on the connection's socket, so that an idle process wakes once every
``health_seconds`` at most (channels-redis polls ten times a second).

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
import itertools
import logging
import uuid
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from channels_redis.utils import _wrap_close, decode_hosts

from config.inbox import Inbox
from config.subscription import HEALTH_SECONDS, LOST, ChannelLayerLost, Shard

log = logging.getLogger(__name__)

# Messages whose decoding is kept for the other sockets of the process they reach (the latest ones).
RECENT_DECODED = 16

class _LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]  # channels-redis is untyped: its classes are Any
    """The layer of one event loop (a process's): its channels and groups, routed from its subscription to
    its process channel and the groups channel (see the module's text), on :class:`Shard` connections."""

    # What this class uses of channels-redis' loop layer (set there), typed.
    prefix: str
    channels: dict[str, Inbox[object]]  # a channel's messages (bytes), or LOST
    groups: dict[str, set[str]]  # a group's name -> the channels of this process in it

    def __init__(self, hosts: Any = None, *, health_seconds: float = HEALTH_SECONDS,
                 **kwargs: Any) -> None:  # Any: channels-redis' settings, passed on
        super().__init__(hosts, **kwargs)
        self._shards = [Shard(host, self, health_seconds=health_seconds) for host in decode_hosts(hosts)]
        self.lost: set[str] = set()  # failed channels whose consumer has not received since
        self._unsubscribing: set[asyncio.Task[None]] = set()
        self.process = uuid.uuid4().hex
        self._numbers = itertools.count(1)
        self.process_channel = self._process_channel(self.process)
        self.groups_channel = f"{self.prefix}__groups__"
        self._process_key, self._groups_key = self.process_channel.encode(), self.groups_channel.encode()
        wanted: dict[int, list[str]] = {index: [self.groups_channel] for index in range(len(self._shards))}
        wanted[self._shards.index(self._get_shard(self.process_channel))].append(self.process_channel)
        self._wanted = [(self._shards[index], tuple(names)) for index, names in wanted.items()]

    def _process_channel(self, process: str) -> str:
        return f"{self.prefix}__process__{process}"

    def _subscribed(self) -> bool:
        """Whether the process is subscribed to its process channel and to the groups channel everywhere."""
        return all(shard._pubsub is not None and shard._subscribed_to.issuperset(names)
                   for shard, names in self._wanted)

    async def _made(self, inbox: Inbox[object], prefix: str) -> str | None:
        """A new channel of this process into ``inbox``; None if the process cannot be subscribed (the
        failure logged by :meth:`Shard._lose`, every channel of the process failed with it). No Redis
        round trip once the process is subscribed."""
        channel = f"{self.prefix}{prefix}{self.process}!{next(self._numbers)}"
        if not self._subscribed():
            with contextlib.suppress(Exception):
                for shard, names in self._wanted:
                    await shard.subscribe(*names)
            if not self._subscribed():  # failed (or lost again meanwhile, on another host)
                return None
        self.channels[channel] = inbox
        return channel

    def fail_every_channel(self) -> int:
        """Every channel's receive raises :class:`ChannelLayerLost` (the one waiting, else the next);
        the process's groups are forgotten. Returns how many channels there were."""
        for name, queue in self.channels.items():
            queue.put_nowait(LOST)
            self.lost.add(name)
        count = len(self.channels)
        self.channels = {}
        self.groups = {}
        return count

    def route(self, name: bytes, data: bytes) -> None:
        """Hand a message the subscription read to the channels of this process it is for: those in its
        group (none: skipped undecoded), the one it names, or the one subscribed to on its own."""
        channels = self.channels
        if name == self._groups_key:
            end = data.find(b"\n")
            members = self.groups.get(data[:end].decode())
            if not members:
                return
            body, gone = data[end + 1:], []
            for channel in members:
                inbox = channels.get(channel)
                if inbox is None:
                    gone.append(channel)  # released without leaving its groups
                else:
                    inbox.put_nowait(body)
            members.difference_update(gone)
            return
        if name == self._process_key:
            end = data.find(b"\n")
            inbox = channels.get(data[:end].decode())
            data = data[end + 1:]
        else:
            inbox = channels.get(name.decode())
        if inbox is not None:
            inbox.put_nowait(data)

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A channel of this process. While Redis is down it is made all the same, lost already: its
        first receive raises, as the core layer's would (a socket opening then is accepted, and closed
        with 4503 like every other socket of the process, rather than refused without an answer)."""
        made = await self._made(Inbox(), prefix)
        if made is not None:
            return made
        channel = f"{self.prefix}{prefix}{self.process}!{next(self._numbers)}"
        self.lost.add(channel)
        return channel

    async def new_channel_into(self, inbox: Inbox[object], prefix: str = "specific.") -> str:
        """A channel of this process whose messages (undecoded: :meth:`PubSubLayer.deserialize` them) go
        into ``inbox``, a socket's own, beside its frames; never received from with :meth:`receive`. While
        Redis is down it is lost already: ``inbox`` gets the loss at once (after the frames before it)."""
        made = await self._made(inbox, prefix)
        if made is not None:
            return made
        inbox.put_nowait(LOST)
        return f"{self.prefix}{prefix}{self.process}!{next(self._numbers)}"

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """One ``PUBLISH`` to the process channel of the process whose channel it is."""
        body = self.channel_layer.serialize(message)
        process = _process_of(channel)
        if process is None:  # a channel subscribed to on its own
            await self._get_shard(channel).publish(channel, body)
            return
        target = self._process_channel(process)
        await self._get_shard(target).publish(target, channel.encode() + b"\n" + body)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """One ``PUBLISH`` to the groups channel, heard by every process."""
        body = group.encode() + b"\n" + self.channel_layer.serialize(message)
        await self._get_shard(group).publish(self.groups_channel, body)

    async def group_add(self, group: str, channel: str) -> None:
        """``channel`` (of this process) hears ``group`` from now on: no Redis round trip. A channel failed
        or released joins nothing (its receive raises, or nobody reads it)."""
        if channel in self.channels:
            self.groups.setdefault(group, set()).add(channel)

    async def group_discard(self, group: str, channel: str) -> None:
        """``channel`` hears ``group`` no more: no Redis round trip."""
        members = self.groups.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self.groups[group]

    def release_channel(self, channel: str) -> None:
        """Drop ``channel`` (made by :meth:`new_channel_into`: its socket ended): no Redis round trip."""
        self.lost.discard(channel)
        if self.channels.pop(channel, None) is not None and _process_of(channel) is None:
            self._unsubscribe_apart(channel)

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message of ``channel``. A receive cancelled (its consumer ends) drops the channel; a
        channel subscribed to on its own is unsubscribed in a task of its own: channels-redis awaits it
        inside the cancelled receive, where a second cancellation (a starved process closing its sockets
        late, daphne giving up on an application) ends it with a ``CancelledError`` traceback in the log."""
        if channel in self.lost:
            self.lost.discard(channel)
            raise ChannelLayerLost
        queue = self.channels.get(channel)
        if queue is None:  # not made here (channels-redis subscribes to any name it is asked to receive)
            queue = self.channels[channel] = Inbox()
            if _process_of(channel) is None:
                await self._get_shard(channel).subscribe(channel)
            elif not self._subscribed():
                for shard, names in self._wanted:
                    await shard.subscribe(*names)
        try:
            message = await queue.get()
        except (asyncio.CancelledError, TimeoutError, GeneratorExit):
            if self.channels.get(channel) is queue:
                self.release_channel(channel)
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
        except Exception as exc:  # the subscription broke: Shard._or_lose failed every channel and said so
            log.info("a closed channel's unsubscribe failed (%s: %s)", type(exc).__name__, exc)

    async def discard_channel(self, channel: str) -> None:
        """Stop listening on ``channel`` (made by ``new_channel``) without a receive being cancelled."""
        self.lost.discard(channel)
        if self.channels.pop(channel, None) is not None and _process_of(channel) is None:
            await self._get_shard(channel).unsubscribe(channel)

    async def flush(self) -> None:
        self.lost = set()
        await super().flush()


def _process_of(channel: str) -> str | None:
    """The process (its id) of a channel made by :meth:`_LoopLayer.new_channel`; None for another name."""
    bang = channel.find("!")
    return channel[bang - 32:bang] if bang >= 32 else None


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
        if message is LOST:
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
