"""Each event loop's mail loop: a service of its runtime (``live.runtime.LOOP_SERVICES``).

Every ``POLL_SECONDS`` it sends the outbox's due emails (:func:`mail.outbox.emails_send_due`: leased, so
each email goes out once whichever process sends it) on a thread of its own, so that a slow or unreachable
SMTP server never holds up the database lane of the websockets. Once an hour it frees the names of
accounts closed long enough ago (:func:`accounts.deletion.names_free`).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING

from channels.db import DatabaseSyncToAsync

from accounts.deletion import names_free
from live.periodic import run_every
from mail.outbox import emails_send_due

if TYPE_CHECKING:
    from live.runtime import Runtime

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
NAMES_EVERY_SECONDS = 3600.0
# One thread for the process's mail: it keeps its own database connection (closed when stale by the wrapper).
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")


class MailLoop:
    """The outbox sender of one event loop (made by its runtime with the runtime)."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.task: asyncio.Task[None] | None = None
        self.last_names: float | None = None

    def start(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = asyncio.get_running_loop().create_task(run_every(POLL_SECONDS, self.tick, name="mail tick"),
                                                           name="mail")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def tick(self, *, now: datetime) -> int:
        """Send what is due; free held names once an hour; returns the emails sent."""
        # channels is untyped: its wrapper is Any.
        sent: int = await DatabaseSyncToAsync(emails_send_due, thread_sensitive=False, executor=_executor)(now=now)
        loop_now = asyncio.get_running_loop().time()
        if self.last_names is None or loop_now - self.last_names >= NAMES_EVERY_SECONDS:
            self.last_names = loop_now
            freed: int = await DatabaseSyncToAsync(names_free, thread_sensitive=False, executor=_executor)(now=now)
            if freed:
                log.info("freed the names of %d closed account(s)", freed)
        return sent
