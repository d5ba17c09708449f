"""The base of the server's websocket consumers: Channels' ``AsyncWebsocketConsumer`` without the
thread hop it makes before every message.

Channels (4.2+) runs ``close_old_connections`` through ``sync_to_async`` before handing each message to
its handler (a frame from the client, an event from the channel layer), so that a handler touching the
database from the event loop's sync thread never meets a stale connection. Ours never do: every database
call of a consumer goes through :func:`live.offload.offload`, which closes stale connections around the
call in the thread that runs it. The hop only costs: one round trip to a worker thread per message,
three per move in a room of two (the drop, and the ``move`` event to each socket), one per ping.

A message from the channel layer reaches its handler decoded, a :mod:`live.messages` dataclass.

Every socket receives its frames and its channel's messages from one queue, with one task (the socket's
own, daphne's), when the channel layer can put its messages there (``config.channel_layer``'s on Redis, and
``config.local_layer``'s, the embedded default's in-memory one): Channels' consumer loop keeps a task and a
receiving coroutine for each of the two, a few KiB for every idle socket, and makes a task and an
``asyncio.wait`` for every message it receives. On another layer it runs as Channels runs it.

Every message a socket handles (a frame, an event; but the messages of the types in ``untranslated``,
which it sends on as their sender encoded them) is handled in the socket's ``language`` (until a subclass
chooses it, :meth:`Socket.default_language`'s), so that the texts it sends, a refusal's ``message`` among
them, are in its reader's language. The client's frames pass a token bucket and are parsed
(:meth:`Socket.command`, with :mod:`live.frames`), a frame refused being answered with an ``error`` frame.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from common import metrics
from common.asgi import Receive, Scope, Send
from common.layer import InboxLayer, Queue
from common.ratelimit import TokenBucket
from live import messages
from live.frames import BadFrame, error_frame

C = TypeVar("C")

# Every socket's frames from its client: a steady rate and a burst, far above what a page sends.
FRAMES_PER_SECOND = 20
FRAME_BURST = 40


class Socket(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped: its classes are Any
    """``AsyncWebsocketConsumer`` whose messages go straight to their handlers, with what every socket of
    the server does with its client's frames: a token bucket, parsing, refusals as ``error`` frames."""

    # The types of the messages this socket sends on as their sender encoded them for everyone (a move):
    # their handlers write no text, so they skip the language's activation.
    untranslated: frozenset[str] = frozenset()

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # Any: what Channels passes its consumers
        super().__init__(*args, **kwargs)
        self.bucket = TokenBucket(rate=FRAMES_PER_SECOND, burst=FRAME_BURST)
        self.language: str | None = None  # what its texts are written in (None: not chosen yet)
        self.activated: str | None = None  # the language active in this socket's task (dispatch)

    @classmethod
    def as_asgi(cls, **initkwargs: Any) -> Any:  # Any: what Channels passes; Django's path() takes it as a view
        """Channels' ``as_asgi``, handing on the consumer's coroutine (no coroutine of its own for the
        socket's life: ``config.websocket``)."""

        def app(scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
            consumer: Awaitable[None] = cls(**initkwargs)(scope, receive, send)
            return consumer

        functools.update_wrapper(app, cls, updated=())
        app.consumer_class = cls  # type: ignore[attr-defined]  # what Channels' as_asgi sets
        app.consumer_initkwargs = initkwargs  # type: ignore[attr-defined]
        app._asgi_single_callable = True  # type: ignore[attr-defined]  # an ASGI 3 application all the same
        return app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the socket: each frame and each message of its channel dispatched in the order they came,
        until a handler stops the consumer (the disconnect) or raises."""
        inbox: Queue | None = getattr(receive, "__self__", None)  # receive is a queue's get (daphne's)
        layer: InboxLayer = get_channel_layer(self.channel_layer_alias)
        if inbox is None or getattr(receive, "__name__", None) != "get" or not hasattr(layer, "new_channel_into"):
            await super().__call__(scope, receive, send)  # Channels' loop: a task for each source
            return
        self.scope, self.channel_layer, self.base_send = scope, layer, send
        # No Redis round trip once the process is subscribed (its first socket): the connect is handled at
        # once, and its accept never waits behind other sockets' subscriptions (a connect storm).
        self.channel_name = await layer.new_channel_into(inbox)
        try:
            while True:  # a frame is daphne's dict; a message of the channel, its bytes
                await self.dispatch(_message(await inbox.get(), layer))
        except StopConsumer:
            pass
        finally:
            layer.release_channel(self.channel_name)

    async def command(self, parse: Callable[[str | None, bytes | None], C], text: str | None,
                      data: bytes | None) -> C | None:
        """The client's frame parsed by ``parse``; None when it was refused (too many frames, not valid
        protocol), the client having been sent an ``error`` frame saying why."""
        if not self.bucket.allow():
            await self.refuse("rate_limited", gettext("Too many frames: slow down."))
            return None
        try:
            return parse(text, data)
        except BadFrame as exc:
            await self.refuse(exc.code, exc.message)
            return None

    async def refuse(self, code: str, message: str) -> None:
        """Send an ``error`` frame (and count it: ``fourinarow_frames_refused_total``)."""
        metrics.FRAMES_REFUSED.labels(code=code).inc()
        await self.send_frame(error_frame(code, message))

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """Send one frame as compact JSON."""
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    def default_language(self) -> str:
        """The socket's language until it chooses one (at its first message): the site's."""
        return str(settings.LANGUAGE_CODE)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to its handler: a channel-layer message decoded (``live.messages``), the
        websocket's own (``websocket.receive``, ...) as Channels gives it."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if message["type"] in self.untranslated:
            await handler(messages.decode(message))
            return
        if self.language is None:  # the first message (the connect): the handshake's headers alone
            self.language = self.default_language()
        if self.activated != self.language:
            # Active from here on in this socket's own task (each socket runs in a task of its own, whose
            # context is its own): activated when it changes, not around every message.
            translation.activate(self.language)
            self.activated = self.language
        await handler(messages.decode(message) if message["type"] in messages.KINDS else message)
        if message["type"] == "websocket.connect":
            forget_headers(self.scope)


def _message(item: object, layer: InboxLayer) -> dict[str, Any]:
    return item if isinstance(item, dict) else layer.deserialize(item)


def forget_headers(scope: Scope) -> None:
    """Empty the scope's headers list (the socket's own: ``config.websocket``) once its connect has been
    handled: what they said (the session key, the language asked for, the origin) has been read, and an
    open socket keeps none of it."""
    headers = scope.get("headers")
    if isinstance(headers, list):
        headers.clear()
