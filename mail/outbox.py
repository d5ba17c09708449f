"""The durable email outbox: queue an email in the transaction that decided it; any process sends it, once.

- :func:`email_queue` adds a row (inside the caller's transaction: a rolled-back change sends nothing).
- :func:`emails_claim` leases the due rows (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, then a
  lease on each row), so two processes never take one email; a process that dies mid-send leaves a lease
  that runs out, and another process sends it then.
- :func:`emails_send_due` claims a batch and sends each over one connection of Django's email backend
  (``EMAIL_*`` settings; the console backend without ``EMAIL_HOST``). A failure (the SMTP server down,
  a refusal) puts the email back with a delay that doubles from ``EMAIL_RETRY_SECONDS`` up to an hour;
  an email still unsent ``EMAIL_GIVE_UP_HOURS`` after it was queued is given up, with a log line.

Every process's mail loop (``accounts.loop``) calls :func:`emails_send_due` when an email is queued in that
process (:class:`EmailQueued`, once committed), when :func:`emails_next_due` says the next one falls due, and
at the latest every half minute.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce, Greatest

from live import events
from live.events import Signal
from mail.models import OutboundEmail

log = logging.getLogger(__name__)

# Longer than sending one batch can take (each SMTP call times out after EMAIL_TIMEOUT seconds).
LEASE = timedelta(minutes=2)
BATCH = 20
MAX_RETRY_DELAY = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class EmailQueued(Signal):
    """An email was queued (once committed): this process's mail loop (``accounts.loop``) sends it now."""


def email_queue(*, to: str, kind: str, subject: str, body: str, now: datetime,
                headers: Mapping[str, str] | None = None, ref: str = "") -> OutboundEmail:
    """Queue one email to ``to``, due at once; it is sent after the caller's transaction commits. ``ref``
    names what it is about (:func:`email_sent_since` finds it); the mail loop of this process hears of it
    then (:class:`EmailQueued`)."""
    email = OutboundEmail.objects.create(to=to, kind=kind, subject=subject[:200], body=body, ref=ref,
                                         headers=dict(headers or {}), created_at=now, due_at=now)
    events.on_commit(EmailQueued())
    return email


def email_sent_since(*, to: str, kind: str, ref: str, since: datetime) -> bool:
    """Whether an email of ``kind`` about ``ref`` was queued for ``to`` after ``since``."""
    return OutboundEmail.objects.filter(to=to, kind=kind, ref=ref, created_at__gt=since).exists()


def _pending() -> Q:
    return Q(sent_at__isnull=True, failed_at__isnull=True)


def emails_claim(*, now: datetime, limit: int = BATCH) -> list[OutboundEmail]:
    """Lease up to ``limit`` due emails to this caller (until ``now + LEASE``), oldest first.

    Rows another transaction holds are skipped, not waited for; a row leased by another live process is
    not due. The caller must then :func:`email_sent` or :func:`email_failed` each one.
    """
    with transaction.atomic():
        rows = list(
            OutboundEmail.objects.select_for_update(skip_locked=True)
            .filter(_pending(), due_at__lte=now)
            .filter(Q(leased_until__isnull=True) | Q(leased_until__lte=now))
            .order_by("due_at", "id")[:limit]
        )
        if rows:
            OutboundEmail.objects.filter(pk__in=[row.pk for row in rows]).update(leased_until=now + LEASE)
    return rows


def retry_delay(attempts: int) -> timedelta:
    """How long an email waits after its ``attempts``-th failure: ``EMAIL_RETRY_SECONDS`` doubled each time,
    at most an hour."""
    seconds = float(settings.EMAIL_RETRY_SECONDS) * 2 ** min(attempts - 1, 20)
    return min(timedelta(seconds=seconds), MAX_RETRY_DELAY)


def email_sent(email: OutboundEmail, *, now: datetime) -> None:
    OutboundEmail.objects.filter(pk=email.pk).update(sent_at=now, leased_until=None, attempts=email.attempts + 1)


def email_failed(email: OutboundEmail, error: str, *, now: datetime) -> None:
    """Put ``email`` back to be tried later, or give it up once it has waited ``EMAIL_GIVE_UP_HOURS``."""
    attempts = email.attempts + 1
    if now - email.created_at >= timedelta(hours=float(settings.EMAIL_GIVE_UP_HOURS)):
        OutboundEmail.objects.filter(pk=email.pk).update(failed_at=now, leased_until=None, attempts=attempts,
                                                         last_error=error[:300])
        log.error("gave up on %s email %s to %s after %d attempts: %s", email.kind, email.pk, email.to, attempts,
                  error)
        return
    OutboundEmail.objects.filter(pk=email.pk).update(due_at=now + retry_delay(attempts), leased_until=None,
                                                     attempts=attempts, last_error=error[:300])
    log.warning("could not send %s email %s (attempt %d), retrying: %s", email.kind, email.pk, attempts, error)


def _message(email: OutboundEmail) -> EmailMessage:
    return EmailMessage(subject=email.subject, body=email.body, from_email=settings.DEFAULT_FROM_EMAIL,
                        to=[email.to], headers={"X-Email-Kind": email.kind, **email.headers})


def emails_send_due(*, now: datetime) -> int:
    """Claim the due emails and send them over one connection; how many were sent.

    A connection that cannot be opened fails the whole batch (each is retried later); a refused email
    fails alone.
    """
    batch = emails_claim(now=now)
    if not batch:
        return 0
    sent = 0
    try:
        connection = get_connection(fail_silently=False)
        connection.open()
    except Exception as exc:
        for email in batch:
            email_failed(email, f"{type(exc).__name__}: {exc}", now=now)
        return 0
    try:
        for email in batch:
            try:
                connection.send_messages([_message(email)])
            except Exception as exc:
                email_failed(email, f"{type(exc).__name__}: {exc}", now=now)
                continue
            email_sent(email, now=now)
            sent += 1
    finally:
        try:
            connection.close()
        except Exception:  # the server went away after the batch: what was sent stays sent
            log.warning("could not close the mail connection", exc_info=True)
    return sent


def emails_next_due() -> datetime | None:
    """When the earliest pending email can be claimed: its due time, or the end of the lease another process
    holds on it if later (None: nothing is pending)."""
    claimable = Greatest("due_at", Coalesce("leased_until", "due_at"))
    return (OutboundEmail.objects.filter(_pending()).annotate(claimable=claimable).order_by("claimable")
            .values_list("claimable", flat=True).first())
