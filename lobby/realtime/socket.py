"""The base of the server's websocket consumers: Channels' ``AsyncWebsocketConsumer`` without the
thread hop it makes before every message.

Channels (4.2+) runs ``close_old_connections`` through ``sync_to_async`` before handing each message to
its handler (a frame from the client, an event from the channel layer), so that a handler touching the
database from the event loop's sync thread never meets a stale connection. Ours never do: every database
call of a consumer goes through :func:`lobby.realtime.offload.offload`, which closes stale connections around the
call in the thread that runs it. The hop only costs: one round trip to a worker thread per message,
three per move in a room of two (the drop, and the ``move`` event to each socket), one per ping.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class Consumer(AsyncWebsocketConsumer):
    """``AsyncWebsocketConsumer`` whose messages go straight to their handlers."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
