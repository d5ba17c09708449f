"""What every NDJSON stream shares: the token, a stream slot, a channel of the channel layer to hear its
groups on, one JSON object a line, and an empty line every ``KEEP_ALIVE_SECONDS`` when nothing happens.

A stream's view is wrapped in :func:`stream_view`: GET only, and a refusal raised before the stream opens
(no token, a bad one, no slot, not the player's game) is answered here, its status by its code from the
one table (``common.errors.STATUS_OF_CODE``), as the REST API's handler answers it.

A stream is an async generator of lines (``None``: nothing happened for a while). Its clean-up runs when it
ends, when the client goes (Django cancels the response, and the generator's ``finally`` runs) or when the
process stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from channels.layers import get_channel_layer
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone

from bots import limits, protocol
from common.errors import RateLimited, Refused, status_for
from common.layer import ChannelLayer
from lobby.protocol import messages
from lobby.realtime.offload import offload
from players.models import AccessToken
from players.tokens import bearer_secret, token_authenticate

log = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS = 5.0

Lines = AsyncIterator[dict[str, Any] | None]
P = ParamSpec("P")


def stream_view(
    view: Callable[Concatenate[HttpRequest, P], Awaitable[HttpResponseBase]],
) -> Callable[Concatenate[HttpRequest, P], Coroutine[Any, Any, HttpResponseBase]]:  # an async def's type
    """``view`` answering GET only, and any :class:`Refused` it raises as :func:`refusal`."""

    @wraps(view)
    async def answer(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        try:
            if request.method != "GET":
                raise Refused("method_not_allowed", "GET this stream.")
            return await view(request, *args, **kwargs)
        except Refused as exc:
            return refusal(exc)

    return answer


def refusal(exc: Refused) -> JsonResponse:
    """A refused stream: the API's one error body, its status by code."""
    response = JsonResponse({"code": exc.code, "message": exc.message}, status=status_for(exc.code))
    if exc.code == "bad_token":
        response["WWW-Authenticate"] = 'Bearer realm="api"'
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    return response


async def stream_token(request: HttpRequest) -> AccessToken:
    """The request's access token.

    Raises:
        Refused: no_token, bad_token, banned.
    """
    secret = bearer_secret(request.headers.get("Authorization"))
    if secret is None:
        raise Refused("no_token", "Send a personal access token: Authorization: Bearer <token>.")
    return await offload(token_authenticate, lane="request")(secret, now=timezone.now())


class Listener:
    """A channel of this process's channel layer, read by a task of its own into a queue (a receive is
    never cancelled halfway, which channels-redis does not take well), and the groups it joined; what it
    hears comes out decoded (:mod:`lobby.protocol.messages`)."""

    def __init__(self) -> None:
        self.layer: ChannelLayer = get_channel_layer()
        self.channel = ""
        self.groups: list[str] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None

    async def start(self, *groups: str) -> Listener:
        self.channel = await self.layer.new_channel()
        for group in groups:
            await self.layer.group_add(group, self.channel)
            self.groups.append(group)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        while True:
            self.queue.put_nowait(await self.layer.receive(self.channel))

    async def next(self, timeout: float) -> messages.Message | None:
        """The next message, or None after ``timeout`` seconds without one.

        Raises:
            Exception: the reader failed (the channel layer lost Redis): the stream ends.
        """
        if self.reader is not None and self.reader.done():
            self.reader.result()
        with contextlib.suppress(TimeoutError):
            return messages.decode(await asyncio.wait_for(self.queue.get(), timeout))
        return None

    async def stop(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
        for group in self.groups:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(group, self.channel)


def ndjson(lines: Lines, *, slot: str, holder: str, closing: Callable[[], Awaitable[None]]) -> StreamingHttpResponse:
    """The streaming response of ``lines``; ``closing`` runs once it ends, however it ends."""

    async def body() -> AsyncIterator[bytes]:
        loop = asyncio.get_running_loop()
        renewed = loop.time()
        try:
            async for line in lines:
                if loop.time() - renewed >= limits.SLOT_RENEW_SECONDS:
                    renewed = loop.time()
                    await offload(limits.stream_slot_renew)(slot, holder)
                yield protocol.KEEP_ALIVE if line is None else protocol.encode(line)
        except Exception as exc:  # the channel layer or the database failed: the client reconnects
            log.warning("a bot stream ended after a failure: %s: %s", type(exc).__name__, exc)
        finally:
            with contextlib.suppress(Exception):
                await closing()
            with contextlib.suppress(Exception):
                await offload(limits.stream_slot_release)(slot, holder)

    response = StreamingHttpResponse(body(), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


async def open_slot(kind: str, token: AccessToken) -> tuple[str, str]:
    """(slot key, holder) of a new stream of ``kind``.

    Raises:
        RateLimited: the token holds every slot of that kind.
    """
    holder = secrets.token_hex(8)
    return await offload(limits.stream_slot_take)(kind=kind, token_id=token.pk, holder=holder), holder
