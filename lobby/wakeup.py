"""Wake this process's scheduler when a service makes something due now, instead of waiting a tick.

Services run in a worker thread; the scheduler waits on an asyncio event in the server's loop. The
wake-up crosses threads with ``call_soon_threadsafe`` and is sent on commit, so the scheduler never
sees a due game before its row is visible.
"""

from __future__ import annotations

import asyncio
import threading

from django.db import transaction

_lock = threading.Lock()
_waiters: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}


def register(loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
    with _lock:
        _waiters[loop] = event


def unregister(loop: asyncio.AbstractEventLoop) -> None:
    with _lock:
        _waiters.pop(loop, None)


def kick() -> None:
    """Wake every scheduler of this process (there is one per running event loop)."""
    with _lock:
        waiters = list(_waiters.items())
    for loop, event in waiters:
        if not loop.is_closed():
            loop.call_soon_threadsafe(event.set)


def kick_on_commit() -> None:
    transaction.on_commit(kick)
