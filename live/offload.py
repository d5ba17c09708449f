"""The one way database work leaves the event loop: every call from async code goes through :func:`offload`.

Channels' ``database_sync_to_async`` runs every call of a process in one shared thread. That is right
for SQLite, where writers queue for one file lock anyway (more threads would only poll for it), but
on PostgreSQL it makes every move of the process wait for the commit of the one before, although
rooms lock only their own row. So the work goes into lanes, sized by settings here and nowhere else:

- ``db`` (the default): the websockets', the ticker's and the feeds' services. ``DB_THREADS`` threads
  (settings): 1 keeps Channels' single thread; more gives PostgreSQL that many concurrent
  transactions (each thread holds a connection from the pool, or its own persistent one).
- ``pairing``: the seek pool's short transactions, which must not queue behind other work (a seek
  kept waiting could expire, a leaving page could be paired). ``PAIRING_THREADS`` threads of their own
  on PostgreSQL; SQLite allows one writer at a time, so there it shares the ``db`` lane.
- ``request``: an async HTTP view's own work (the health check, a stream authenticating its token).
  Django's request cycle owns those connections and closes them when the request ends, so the call
  runs in the request's sync thread (``sync_to_async``, thread-sensitive) and closes nothing itself.

Calls in the ``db`` and ``pairing`` lanes close stale connections around them in the thread that runs
them (Channels' wrapper does): no request cycle does it for a socket or a loop.

A loop service whose work must queue behind nobody's, and never run beside itself (the mail's sending, a
finished game's post-game work), has a thread of its own: :func:`offload_alone` with the thread's name, one
thread per name and process, its database connection kept and closed when stale as the lanes' are;
:func:`alone_drained` waits for what that thread has in hand (a service stopping).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Literal, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import connection

P = ParamSpec("P")
R = TypeVar("R")
Lane = Literal["db", "pairing", "request"]

_lock = threading.Lock()
_executors: dict[Lane, ThreadPoolExecutor] = {}
_alone: dict[str, ThreadPoolExecutor] = {}


def _threads(lane: Lane) -> int:  # the pooled lanes
    return int(settings.DB_THREADS if lane == "db" else settings.PAIRING_THREADS)


def _executor(lane: Lane) -> ThreadPoolExecutor:
    with _lock:
        found = _executors.get(lane)
        if found is None:
            found = _executors[lane] = ThreadPoolExecutor(max_workers=_threads(lane), thread_name_prefix=lane)
        return found


def offload(fn: Callable[P, R], *, lane: Lane = "db") -> Callable[P, Awaitable[R]]:
    """``fn`` as a coroutine function run in a thread of ``lane`` (see the module docstring)."""
    if lane == "request":
        return sync_to_async(fn, thread_sensitive=True)
    if lane == "pairing" and connection.vendor != "postgresql":
        lane = "db"
    # channels is untyped: its wrappers are Any.
    if _threads(lane) <= 1 and lane == "db":
        return database_sync_to_async(fn)  # type: ignore[no-any-return]
    return DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_executor(lane))  # type: ignore[no-any-return]


def _alone_executor(thread: str) -> ThreadPoolExecutor:
    with _lock:
        found = _alone.get(thread)
        if found is None:
            found = _alone[thread] = ThreadPoolExecutor(max_workers=1, thread_name_prefix=thread)
        return found


def offload_alone(fn: Callable[P, R], *, thread: str) -> Callable[P, Awaitable[R]]:
    """``fn`` as a coroutine function run in the one thread named ``thread`` (see the module docstring)."""
    # channels is untyped: its wrapper is Any.
    return DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_alone_executor(thread))  # type: ignore[no-any-return]


async def alone_drained(thread: str) -> None:
    """Once the thread named ``thread`` has done what it was given before this call."""
    await asyncio.wrap_future(_alone_executor(thread).submit(lambda: None))
