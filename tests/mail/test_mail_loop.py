"""The mail loop (``accounts.loop``) runs when there is work, not every second: an email queued in the
process goes out at once, a retry when the data says it is due, and between the two the loop sleeps. When
the next pending email can go is its due time, or the end of a lease another process holds on it."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.utils import timezone

from accounts.loop import LOOK_SECONDS, MailLoop
from live import runtime
from mail.models import OutboundEmail
from mail.outbox import LEASE, email_failed, email_queue, emails_claim, emails_next_due

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
SOON = 10.0  # generous (the machine is shared), and well short of LOOK_SECONDS
assert SOON < LOOK_SECONDS


@pytest.mark.django_db
def test_the_next_email_is_due_at_its_time_or_when_another_process_s_lease_runs_out(settings):
    settings.EMAIL_RETRY_SECONDS = 10
    assert emails_next_due() is None
    email_queue(to="ann@example.com", kind="test", subject="s", body="b", now=T0)
    assert emails_next_due() == T0
    [claimed] = emails_claim(now=T0)
    assert emails_next_due() == T0 + LEASE  # in flight elsewhere: not before its lease runs out
    email_failed(claimed, "refused", now=T0 + timedelta(seconds=1))
    assert emails_next_due() == T0 + timedelta(seconds=11)  # put back, due after its retry delay


def _queue(subject: str) -> None:
    with transaction.atomic():
        email_queue(to="ann@example.com", kind="test", subject=subject, body="hello", now=timezone.now())


async def _received(smtp, count: int) -> float:
    """Seconds until ``smtp`` holds ``count`` emails (at most SOON)."""
    started = time.monotonic()
    while len(smtp.received()) < count:
        assert time.monotonic() - started < SOON, f"{len(smtp.received())} of {count} emails arrived"
        await asyncio.sleep(0.02)
    return time.monotonic() - started


async def _rounds(loop: MailLoop, count: int) -> None:
    """Once the loop has ended ``count`` rounds (at most SOON; its last may end after its email arrived)."""
    started = time.monotonic()
    while loop.waker.rounds < count:
        assert time.monotonic() - started < SOON, f"{loop.waker.rounds} of {count} rounds"
        await asyncio.sleep(0.02)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_an_email_queued_here_goes_at_once_a_retry_when_due_and_the_loop_sleeps_between(smtp, settings):
    settings.EMAIL_RETRY_SECONDS = 0.5
    loop = runtime.ensure_running().service(MailLoop)
    await _rounds(loop, 1)  # its first look, a second after the start
    await asyncio.sleep(0.5)
    assert loop.waker.rounds == 1  # nothing pending: asleep (LOOK_SECONDS at most), no round a second

    await sync_to_async(_queue)("now")  # committed in a thread, as a request's view does
    await _received(smtp, 1)  # woken by the commit, not at its next look half a minute later
    await _rounds(loop, 2)
    assert loop.waker.rounds == 2 and loop.sent == 1

    smtp.down()
    await sync_to_async(_queue)("later")
    while not await sync_to_async(OutboundEmail.objects.filter(attempts=1, sent_at__isnull=True).exists)():
        await asyncio.sleep(0.02)  # tried at once, refused, put back for 0.5 s
    smtp.up()
    await _received(smtp, 2)  # tried again when due, with no wake
    assert [m["Subject"] for m in smtp.received()] == ["now", "later"]
    await asyncio.sleep(0.5)
    assert loop.waker.rounds <= 6  # three rounds of work, and the rest asleep (a refused round may take two)
