"""Each event loop's mail loop: a service of its runtime (``live.runtime.LOOP_SERVICES``).

It sends the outbox's due emails (:func:`mail.outbox.emails_send_due`: leased, so each email goes out once
whichever process sends it) on a thread of its own, so that a slow or unreachable SMTP server never holds up
the database lane of the websockets. It runs when there is work, not on a clock (``live.periodic.Waker``):
when an email is queued in this process (:class:`mail.outbox.EmailQueued`, once committed), when the next
pending email falls due as the data says (a retry's time, another process's lease running out:
:func:`mail.outbox.emails_next_due`), and at the latest every ``LOOK_SECONDS`` (an email queued by a process
that died before sending it, or by a command outside the server). Once an hour it frees the names of
accounts closed long enough ago (:func:`accounts.deletion.names_free`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from accounts.deletion import names_free
from live.events import Signal
from live.offload import offload_alone
from live.periodic import WakerService
from mail.outbox import EmailQueued, emails_next_due, emails_send_due

if TYPE_CHECKING:
    from live.runtime import Runtime

log = logging.getLogger(__name__)

LOOK_SECONDS = 30.0
FIRST_SECONDS = 1.0  # the first round after the loop starts
NAMES_EVERY_SECONDS = 3600.0
# One thread for the process's mail (live.offload.offload_alone): a slow SMTP server holds up nothing else.
THREAD = "mail"


def _send_due(*, now: datetime) -> tuple[int, datetime | None]:
    """Send what is due; how many were sent, and when the next pending email can be sent (one trip)."""
    return emails_send_due(now=now), emails_next_due()


class MailLoop(WakerService):
    """The outbox sender of one event loop (made by its runtime with the runtime)."""

    hears = (EmailQueued,)
    name = "mail"
    longest = LOOK_SECONDS
    first_after = FIRST_SECONDS

    def __init__(self, runtime: Runtime) -> None:
        super().__init__()
        self.runtime = runtime
        self.last_names: float | None = None
        self.sent = 0  # emails sent by this loop (tests)

    def covers(self, signal: Signal) -> bool:
        """A round planned by now already sends the email just queued (read from any thread)."""
        return self.waker.covers()

    async def step(self, *, now: datetime) -> datetime | None:
        """Send what is due; free held names once an hour; returns when there is work next."""
        sent, due = await offload_alone(_send_due, thread=THREAD)(now=now)
        self.sent += sent
        loop_now = asyncio.get_running_loop().time()
        if self.last_names is None or loop_now - self.last_names >= NAMES_EVERY_SECONDS:
            self.last_names = loop_now
            freed = await offload_alone(names_free, thread=THREAD)(now=now)
            if freed:
                log.info("freed the names of %d closed account(s)", freed)
        names_due = now + timedelta(seconds=NAMES_EVERY_SECONDS - (loop_now - self.last_names))
        return names_due if due is None else min(due, names_due)
