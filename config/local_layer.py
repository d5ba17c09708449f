"""The embedded default's channel layer (one process, no Redis): Channels' in-memory layer whose sockets
read their channel's messages from their own inbox, beside their frames, as on Redis
(``config.channel_layer``): one task a socket, and none made for a message.

Channels' consumer loop (``channels.utils.await_many_dispatch``) makes a task and an ``asyncio.wait`` for
every message a socket receives, and Channels' in-memory layer walks every channel with a queued message and
every group membership of the process (``_clean_expired``) on every receive and every group send: with a
few hundred sockets, most of a move's dispatch (``docs/benchmarks.md``, "Issue 48, a message's dispatch").
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import math
import time
from collections.abc import Callable
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from common.layer import Queue

# How often the layer sweeps its expired messages and group memberships (Channels: on every receive and
# group send, a walk of every channel and membership of the process).
SWEEP_SECONDS = 1.0


class LocalLayer(InMemoryChannelLayer):  # type: ignore[misc]  # channels is untyped: its classes are Any
    """Channels' in-memory layer (the embedded default's: one process), whose sockets' channels go into
    their own inboxes (:meth:`new_channel_into`), as ``config.channel_layer.PubSubLayer``'s do: a socket
    reads its frames and its channel's messages with one task, no task nor ``asyncio.wait`` a message
    (Channels' consumer loop). A group send copies its message once for all the sockets it reaches
    (handlers only read it), and the expired messages and memberships are swept (Channels' sweep, of
    every channel and membership) at most once every ``sweep_seconds`` rather than on every receive and
    group send. Channels received from with :meth:`receive` (a test's) are Channels' own queues, as before."""

    def __init__(self, *args: Any, sweep_seconds: float = SWEEP_SECONDS,
                 clock: Callable[[], float] = time.monotonic, **kwargs: Any) -> None:  # Any: Channels' settings
        super().__init__(*args, **kwargs)
        self.inboxes: dict[str, Queue] = {}
        self._numbers = itertools.count(1)
        self.sweep_seconds, self._clock = sweep_seconds, clock
        self._swept = -math.inf

    def _clean_expired(self) -> None:
        now = self._clock()
        if now - self._swept >= self.sweep_seconds:
            self._swept = now
            super()._clean_expired()

    async def new_channel_into(self, inbox: Queue, prefix: str = "specific.") -> str:
        """A channel whose messages go into ``inbox`` (a socket's own, beside its frames), as they were sent."""
        channel = f"{prefix}.inmemory!{next(self._numbers)}"
        self.inboxes[channel] = inbox
        return channel

    def release_channel(self, channel: str) -> None:
        """Drop ``channel`` (its socket ended) and its memberships."""
        if self.inboxes.pop(channel, None) is not None:
            self._remove_from_groups(channel)

    def deserialize(self, message: object) -> dict[str, Any]:
        """Nothing to decode: an inbox gets the sent dict (a copy)."""
        return message  # type: ignore[return-value]  # only ever a dict here

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        inbox = self.inboxes.get(channel)
        if inbox is None:
            await super().send(channel, message)
            return
        assert isinstance(message, dict), "message is not a dict"
        inbox.put_nowait(copy.deepcopy(message))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """``message`` to every channel of ``group``: one copy for the inboxes, one send each for the rest."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        members = self.groups.get(group)
        if not members:
            return
        shared: dict[str, Any] | None = None
        for channel in list(members):
            inbox = self.inboxes.get(channel)
            if inbox is None:
                with contextlib.suppress(ChannelFull):
                    await super().send(channel, message)
                continue
            if shared is None:
                shared = copy.deepcopy(message)
            inbox.put_nowait(shared)
