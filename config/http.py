"""HTTP requests on a fixed set of threads, each keeping its database connection.

Django serves an ASGI request's sync code (middleware, DRF views) in a thread of the request's own: a
new thread per request, and with it a new database connection, opened for the request and closed at
its end. On PostgreSQL that is a new server process per request (``docs/benchmarks.md``: most of what
setting a game up cost). Here every request's sync code runs on one of ``HTTP_THREADS`` long-lived
threads instead (asgiref's ``ThreadSensitiveContext`` with an executor of one thread), and each thread
keeps its PostgreSQL connection as the database threads of the websockets do (``CONN_MAX_AGE``, with
the health check of ``config.postgres`` before each request). One thread runs one request at a time, as Django's
own thread per request did, and holds it to its end: a stream (a bot's event stream) holds its thread for
as long as it is open. So a request waits for a kept thread (first come, first served) at most
``WAIT_SECONDS``; past that it runs as Django would run it, on a thread of its own whose connections
are closed as it ends.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from common.asgi import App, Receive, Scope, Send

# How long a request waits for a kept thread before it takes one of its own (every kept thread may be
# held by a stream).
WAIT_SECONDS = 0.5

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
            await self.app(scope, receive, send)  # Django's own way: a thread for this request alone
            return
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            free.put_nowait(executor)


class OneHopHandler(ASGIHandler):
    """Django's ASGI handler with its middleware chain run synchronously, in one hop to the request's
    thread.

    Every middleware of the project can run either way, so Django builds an async chain under ASGI, and
    each sync part of it (each middleware's ``process_request`` and ``process_response``, the view) is
    a hop of its own between the event loop and the request's thread: about fifteen per request. Built
    synchronously, the chain and the view run in one hop; an async view (the health check, a bot's
    stream) is run on the event loop from there, as Django runs one under WSGI.
    """

    # Set by Django's load_middleware (its stubs leave it out).
    _middleware_chain: Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]]

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        if is_async:
            chain = cast("Callable[[HttpRequest], HttpResponseBase]", self._middleware_chain)  # built sync above
            self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

