"""A listener on a room's group through the real channel layer, for synchronous tests.

The channel layer keeps what a process listens on per event loop (the Redis pub/sub layer subscribes a
process's loop, and hears only what is published after it subscribed). A synchronous test has no loop
of its own that outlives one ``async_to_sync`` call, so the listener is a small process of its own: an
event loop in a thread, subscribed before the test acts, collecting what reaches it.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from channels.layers import get_channel_layer

TIMEOUT = 10.0


class GroupListener:
    """Listens on ``group`` from its own event loop (a thread) until ``close``."""

    def __init__(self, group: str) -> None:
        self.group = group
        self.layer = get_channel_layer()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="group-listener", daemon=True)
        self.thread.start()
        self.channel: str = self._run(self._join())

    def _run(self, coro: Any, timeout: float = TIMEOUT) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout + 1)

    async def _join(self) -> str:
        channel: str = await self.layer.new_channel()
        await self.layer.group_add(self.group, channel)
        return channel

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message to the group; raises TimeoutError if none comes within ``timeout`` seconds."""
        message: dict[str, Any] = self._run(asyncio.wait_for(self.layer.receive(self.channel), timeout), timeout)
        return message

    def close(self) -> None:
        try:
            self._run(self.layer.group_discard(self.group, self.channel))
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(TIMEOUT)
            self.loop.close()
