"""Database work off the event loop: where the room websockets and the scheduler run their services.

Channels' ``database_sync_to_async`` runs every call of a process in one shared thread. That is right
for SQLite, where writers queue for one file lock anyway (more threads would only poll for it), but
on PostgreSQL it makes every move of the process wait for the commit of the one before, although
rooms lock only their own row. ``DB_THREADS`` (settings) sets how many threads share the work: 1 keeps
Channels' single thread; more gives PostgreSQL that many concurrent transactions (each thread holds a
connection from the pool, or its own persistent one).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def _threads() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="db")
        return _executor


def offload(fn: Callable[P, R]) -> Any:
    """``fn`` as a coroutine function run in a database thread (closing stale connections around it)."""
    if settings.DB_THREADS <= 1:
        return database_sync_to_async(fn)
    return DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_threads())
