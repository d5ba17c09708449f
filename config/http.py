"""HTTP requests on a fixed set of threads, each keeping its database connection.

Django serves an ASGI request's sync code (middleware, DRF views) in a thread of the request's own: a
new thread per request, and with it a new database connection, opened for the request and closed at
its end. On PostgreSQL that is a new server process per request (``docs/benchmarks.md``: most of what
setting a game up cost). Here every request's sync code runs on one of ``HTTP_THREADS`` long-lived
threads instead (asgiref's ``ThreadSensitiveContext`` with an executor of one thread), and each thread
keeps its PostgreSQL connection as the database threads of the websockets do (``CONN_MAX_AGE``, with
the health check of ``config.postgres`` before each request). One thread runs one request at a time, as Django's
own thread per request did, and holds it to its end. So a request waits for a kept thread (first come,
first served) at most ``WAIT_SECONDS``; past that it runs as Django would run it, on a thread of its own
whose connections are closed as it ends.

A bot's NDJSON stream lives for hours and waits on the channel layer almost all of that time, and the
analysis board's answer waits for its lane of the CPU workers (``games.cpu_pool``), so neither takes one
of those threads: :class:`StreamsApart` hands it to :class:`AsyncHandler`, Django's handler
with no middleware and no thread of the request's own (a stream authenticates by its bearer token and
answers GET only, so no session, CSRF or message middleware has anything to do). Its database work is
short calls in the database lanes (``live.offload``), whose few threads hold the process's few
connections: an open stream holds no thread and no database connection while it waits.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.exception import convert_exception_to_response
from django.db import connections
from django.http import FileResponse, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve, set_script_prefix, set_urlconf
from django.utils.log import log_response

from common.asgi import STREAM_MARK, App, Receive, Scope, Send

# How long a request waits for a kept thread before it takes one of its own (every kept thread may be
# held by a stream).
WAIT_SECONDS = 0.5

# The text every route of a view served apart holds (``common.asgi.STREAM_MARK`` marks it: a bot's stream, the
# analysis board, which waits for its lane of the CPU workers): a cheap filter before the path is resolved
# (resolving costs tens of microseconds, more than the rest of routing a request).
STREAM_PATH_HOLDS = ("stream", "/api/analysis")

_kept = threading.local()  # kept.thread: this thread is one of the kept HTTP threads


def _keep() -> None:
    _kept.thread = True


def close_request_connections(**kwargs: Any) -> None:  # Any: what a signal sends varies by signal
    """At the end of a request (``request_finished``): close its thread's database connections, unless
    the thread is one of the kept ones and the database PostgreSQL (its connection serves the next
    request; a SQLite file costs nothing to open again, and a kept SQLite connection could go on reading
    an old snapshot of the file if a statement of the request was left unfinished). A connection inside
    a transaction belongs to whoever opened it, not to the request (a test calling a view inside its own
    transaction, as Django's test client does): kept too."""
    kept = getattr(_kept, "thread", False)
    for connection in connections.all(initialized_only=True):
        if connection.in_atomic_block or (kept and connection.vendor == "postgresql"):
            continue
        connection.close()


class ThreadedHttp:
    """An ASGI app serving ``app``'s HTTP requests on ``threads`` threads of its own (per event loop)."""

    def __init__(self, app: App, threads: int) -> None:
        if threads < 1:
            raise ValueError(f"HTTP_THREADS must be at least 1, not {threads}")
        self.app = app
        self.threads = threads
        self._free: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Queue[ThreadPoolExecutor]] = (
            weakref.WeakKeyDictionary())

    def _pool(self) -> asyncio.Queue[ThreadPoolExecutor]:
        loop = asyncio.get_running_loop()
        free = self._free.get(loop)
        if free is None:
            free = asyncio.Queue()
            for n in range(self.threads):
                free.put_nowait(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"http-{n}", initializer=_keep))
            self._free[loop] = free
        return free

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        free = self._pool()
        try:
            async with asyncio.timeout(WAIT_SECONDS):
                executor = await free.get()  # cancelled, it takes nothing from the queue
        except TimeoutError:
            # Django's own way: a thread for this request alone, named apart (``common.threads``).
            own = ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-own")
            try:
                async with ThreadSensitiveContext(executor=own):
                    await self.app(scope, receive, send)
            finally:
                own.shutdown(wait=False)
            return
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            free.put_nowait(executor)


class OneHopHandler(ASGIHandler):
    """Django's ASGI handler serving a request in one hop to the request's thread.

    Every middleware of the project can run either way, so Django builds an async chain under ASGI, and
    each sync part of it (each middleware's ``process_request`` and ``process_response``, the view) is
    a hop of its own between the event loop and the request's thread: about fifteen per request. Built
    synchronously, the chain and the view run in one hop; an async view (the health check, a bot's
    stream) is run on the event loop from there, as Django runs one under WSGI.

    Django's handler also hops for its ``request_started`` signal before the chain and for the
    response's close (its ``request_finished`` signal) after it, and watches for the client's disconnect
    in a task of its own beside another for the view. Here the signal, the request's making, the chain
    and (for a response whose body is whole: every API answer) its close run in the one hop, as a WSGI
    server runs them, and the answer is sent from the event loop; a sync view is not stopped by a
    disconnect under Django's handler either. A streamed answer (a static file) is closed after it is
    sent, as Django closes it.
    """

    # Set by Django's load_middleware (its stubs leave it out).
    _middleware_chain: Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]]

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._sync_chain = cast("Callable[[HttpRequest], HttpResponseBase]", self._middleware_chain)
        if is_async:
            self._middleware_chain = sync_to_async(self._sync_chain, thread_sensitive=True)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await sync_to_async(self._serve, thread_sensitive=True)(scope, body_file)
            await self.send_response(response, send)
            if not isinstance(response, HttpResponse):  # streamed: closed once sent, as Django closes it
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _serve(self, scope: Scope, body_file: Any) -> HttpResponseBase:  # Any: Django's spooled body file
        """In the request's thread: the signal, the request, the chain and the view; the response closed
        here unless it streams (its body is in hand)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response: HttpResponseBase
        if request is None:
            assert error_response is not None
            response = error_response
        else:
            response = self._respond(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]  # as Django's handler sets it
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if isinstance(response, HttpResponse):  # its body whole (rendered by the chain): closed now
            response.close()
        return response


    def _respond(self, request: HttpRequest) -> HttpResponseBase:
        """Django's ``BaseHandler.get_response`` over the sync chain: the chain, the request closed with the
        response, and a 4xx or 5xx logged by ``django.request`` (one line)."""
        set_urlconf(settings.ROOT_URLCONF)
        response = self._sync_chain(request)
        response._resource_closers.append(request.close)  # type: ignore[attr-defined]  # Django's, not in its stubs
        if response.status_code >= 400:
            log_response("%s: %s", response.reason_phrase, request.path, request=request,
                         response=response)  # type: ignore[arg-type]  # any response, as Django passes it
        return response


def is_stream(scope: Scope) -> bool:
    """Whether ``scope`` is a GET of a view marked ``STREAM_MARK`` (a bot's NDJSON stream, the analysis board)."""
    path = scope.get("path", "")
    if scope.get("method") != "GET" or not any(hold in path for hold in STREAM_PATH_HOLDS):
        return False
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return bool(getattr(match.func, STREAM_MARK, False))


class StreamsApart:
    """HTTP: a stream (:func:`is_stream`) to ``streams``, everything else to ``rest``."""

    def __init__(self, *, streams: App, rest: App) -> None:
        self.streams, self.rest = streams, rest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await (self.streams if is_stream(scope) else self.rest)(scope, receive, send)


class AsyncHandler(ASGIHandler):
    """Django's ASGI handler for async views alone: no middleware, and no thread of the request's own.

    Django enters a ``ThreadSensitiveContext`` for every request, and the first sync call in it (its own
    ``request_started`` signal) starts a thread that lives as long as the request: for a stream, as long
    as the stream. Here the request's few sync calls (the signals, the response's close) run in asgiref's
    one shared thread instead, and the view on the event loop. A sync view would run there too, so only
    async views (the bots' streams) are served through it.
    """

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list[Any] = []  # Any: Django's middleware hooks, untyped
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        # Django's own async view runner (its stubs leave it out).
        self._middleware_chain = convert_exception_to_response(self._get_response_async)  # type: ignore[attr-defined]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP only, not {scope['type']}")
        await self.handle(scope, receive, send)
