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
