"""What the project uses of a Channels channel layer, typed (Channels ships no types): a process's
channels, the groups they join, and sends to either."""

from __future__ import annotations

from typing import Any, Protocol

# A message's values are whatever its handler reads (JSON-like): Any.
Message = dict[str, Any]


class ChannelLayer(Protocol):
    async def new_channel(self, prefix: str = ...) -> str: ...

    async def receive(self, channel: str) -> Message: ...

    async def send(self, channel: str, message: Message) -> None: ...

    async def group_add(self, group: str, channel: str) -> None: ...

    async def group_discard(self, group: str, channel: str) -> None: ...

    async def group_send(self, group: str, message: Message) -> None: ...


class Queue(Protocol):
    """A socket's queue of what its consumer receives (daphne's frames; ``config.inbox.Inbox``)."""

    def put_nowait(self, item: Any) -> None: ...

    async def get(self) -> Any: ...


class InboxLayer(ChannelLayer, Protocol):
    """A channel layer that puts a channel's messages into its socket's own queue, beside the socket's
    frames, undecoded (``config.channel_layer.PubSubLayer``): one queue, one receiver for both."""

    async def new_channel_into(self, inbox: Queue, prefix: str = ...) -> str: ...

    def deserialize(self, message: object) -> dict[str, Any]: ...

    def release_channel(self, channel: str) -> None: ...
