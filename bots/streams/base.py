"""What every NDJSON stream shares: the token, a stream slot, a channel of the channel layer to hear its
groups on, one JSON object a line, and an empty line every ``KEEP_ALIVE_SECONDS`` when nothing happens.

A stream's view is wrapped in :func:`stream_view`: GET only, and a refusal raised before the stream opens
(no token, a bad one, no slot, not the player's game) is answered here, its status by its code from the
one table (``common.errors.STATUS_OF_CODE``), as the REST API's handler answers it. The wrapper also
marks the view as a stream (``common.asgi.STREAM_MARK``), so the server runs it on the event loop alone:
while it waits on the channel layer a stream holds no HTTP thread and no database connection, and its
database work is short calls in the database lanes (``offload``), each giving the connection back.

A stream is an async generator of lines (``None``: nothing happened for a while). Its clean-up runs when it
ends, when the client goes (Django cancels the response, and the generator's ``finally`` runs) or when the
process stops. Every stream also hears its account's group: an ``AccountStreamsEnd`` for its token (revoked)
or for the account (banned) ends it (:class:`StreamEnded`), and so does a renewal of its slot that finds
the token no longer live.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from channels.layers import get_channel_layer
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone, translation
from django.utils.translation import gettext

from bots import limits, protocol
from bots.messages import AccountStreamsEnd
from common.asgi import STREAM_MARK
from common.errors import RateLimited, Refused, status_for
from common.layer import ChannelLayer
from live import messages
from live.offload import offload
from players.language import visitor_language
from players.models import AccessToken
from players.tokens import bearer_secret, token_authenticate

log = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS = 5.0
# Why every stream of an account ended, by ``players.services.EndedBy`` (the log line's words).
ENDED_BY = {"banned": "the account was banned", "closed": "the account was closed",
            "reset": "the account's password was reset", "password": "the account's password was changed"}

Lines = AsyncIterator[dict[str, Any] | None]
P = ParamSpec("P")


def stream_view(
    view: Callable[Concatenate[HttpRequest, P], Awaitable[HttpResponseBase]],
) -> Callable[Concatenate[HttpRequest, P], Coroutine[Any, Any, HttpResponseBase]]:  # an async def's type
    """``view`` answering GET only, and any :class:`Refused` it raises as :func:`refusal`, in the
    language its headers ask for (these streams are served without the middleware: ``config.http``)."""

    @wraps(view)
    async def answer(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        with translation.override(visitor_language(request, None)):
            try:
                if request.method != "GET":
                    raise Refused("method_not_allowed", gettext("GET this stream."))
                return await view(request, *args, **kwargs)
            except Refused as exc:
                return refusal(exc)

    setattr(answer, STREAM_MARK, True)
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
        raise Refused("no_token", gettext("Send a personal access token: Authorization: Bearer <token>."))
    # The request's lane: served by config.http.AsyncHandler, that is asgiref's one shared thread (its one
    # connection, closed as a stream's request finishes), not a thread of this request's own.
    return await offload(token_authenticate, lane="request")(secret, now=timezone.now())


class StreamEnded(Exception):
    """The stream's token was revoked, or its account banned: the stream ends."""


class Listener:
    """A channel of this process's channel layer, read by a task of its own into a queue (a receive is
    never cancelled halfway, which channels-redis does not take well), and the groups it joined (its
    account's first); what it hears comes out decoded (:mod:`live.messages`)."""

    def __init__(self, token: AccessToken) -> None:
        self.layer: ChannelLayer = get_channel_layer()
        self.token_id, self.player_id = token.pk, token.player_id
        self.channel = ""
        self.groups: list[str] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None

    async def start(self, *groups: str) -> Listener:
        """Listen to the account's group and ``groups``."""
        self.channel = await self.layer.new_channel()
        for group in (protocol.account_group(self.player_id), *groups):
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
            StreamEnded: the stream's token was revoked, or its account banned, closed or given a new password.
            Exception: the reader failed (the channel layer lost Redis): the stream ends.
        """
        if self.reader is not None and self.reader.done():
            self.reader.result()
        try:
            message = messages.decode(await asyncio.wait_for(self.queue.get(), timeout))
        except TimeoutError:
            return None
        if isinstance(message, AccountStreamsEnd) and message.token in (None, self.token_id):
            raise StreamEnded("the token was revoked" if message.token
                              else ENDED_BY.get(message.reason, message.reason))
        return message

    async def stop(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
        for group in self.groups:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(group, self.channel)


class Slot:
    """What an open stream holds: one of this process's streams and one of its account's slots of its kind
    (``bots.limits``), given back once by :meth:`release`."""

    def __init__(self, *, key: str, holder: str, token_id: int) -> None:
        self.key, self.holder, self.token_id = key, holder, token_id
        self._counted = True
        # A response dropped before its body ever ran (the client went at once) still gives its count back.
        self._uncount = weakref.finalize(self, limits.PROCESS_STREAMS.release)

    async def renew(self) -> None:
        """Hold the slot for another lease.

        Raises:
            Refused(bad_token): the token was revoked or its account banned meanwhile.
        """
        await offload(limits.stream_slot_renew)(self.key, self.holder, token_id=self.token_id)

    async def release(self) -> None:
        self._uncount()  # once: a finalizer runs at most once
        await offload(limits.stream_slot_release)(self.key, self.holder)


async def open_slot(kind: str, token: AccessToken) -> Slot:
    """A slot for a new stream of ``kind`` with ``token``.

    Raises:
        RateLimited(too_many_streams): this process holds as many streams as it may, or the account every
            slot of that kind.
    """
    holder = secrets.token_hex(8)
    limits.PROCESS_STREAMS.take()
    try:
        key = await offload(limits.stream_slot_take)(kind=kind, player_id=token.player_id, holder=holder)
    except BaseException:
        limits.PROCESS_STREAMS.release()
        raise
    return Slot(key=key, holder=holder, token_id=token.pk)


def ndjson(lines: Lines, *, slot: Slot, closing: Callable[[], Awaitable[None]]) -> StreamingHttpResponse:
    """The streaming response of ``lines``; ``closing`` runs once it ends, however it ends."""

    async def body() -> AsyncIterator[bytes]:
        loop = asyncio.get_running_loop()
        renewed = loop.time()
        try:
            yield b""  # daphne sends the status and headers with the first chunk: at once, not at the first line
            async for line in lines:
                if loop.time() - renewed >= limits.SLOT_RENEW_SECONDS:
                    renewed = loop.time()
                    await slot.renew()
                yield protocol.KEEP_ALIVE if line is None else protocol.encode(line)
        except (StreamEnded, Refused) as exc:
            log.info("a bot stream ended: %s", exc)
        except Exception as exc:  # the channel layer or the database failed: the client reconnects
            log.warning("a bot stream ended after a failure: %s: %s", type(exc).__name__, exc)
        finally:
            with contextlib.suppress(Exception):
                await closing()
            with contextlib.suppress(Exception):
                await slot.release()

    response = StreamingHttpResponse(body(), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    response["X-Content-Type-Options"] = "nosniff"  # no middleware runs for a stream (config.http)
    return response
