"""The baseline for ``scripts/bench_server.py``: a bare Channels echo, no database.

Each websocket at ``/ws/echo/{pair}/`` joins the group of its pair (two sockets); every frame it sends
is group-sent back to both members as it is. That is the transport a move costs at the least: one frame
in, one group send through the channel layer (the same one the server is configured with), one frame out
to each member. Run as ``daphne scripts.echo_asgi:application``; ``GET /`` answers 200 for health checks.
"""

from __future__ import annotations

import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from common.asgi import Receive, Scope, Send  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped: its classes are Any
    group: str

    async def connect(self) -> None:
        self.group = f"echo.{self.scope['url_route']['kwargs']['pair']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.frame", "text": text_data})

    async def echo_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


async def health(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter(
    {"http": health, "websocket": URLRouter([path("ws/echo/<str:pair>/", EchoConsumer.as_asgi())])}
)
