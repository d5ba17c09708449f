"""The email outbox against a real SMTP server: retried with backoff while it is down, each email sent once,
given up after a day with a log line."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest

from mail.models import OutboundEmail
from mail.outbox import LEASE, email_queue, emails_claim, emails_send_due

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)


def queue(n: int, now: datetime = T0) -> None:
    for i in range(n):
        email_queue(to=f"p{i}@example.com", kind="test", subject=f"email {i}", body="hello", now=now)


def test_emails_queued_while_the_server_is_down_arrive_once_when_it_is_back(smtp, settings):
    settings.EMAIL_RETRY_SECONDS = 10
    smtp.down()
    queue(3)
    assert emails_send_due(now=T0) == 0
    assert set(OutboundEmail.objects.values_list("attempts", "due_at")) == {(1, T0 + timedelta(seconds=10))}
    assert emails_send_due(now=T0 + timedelta(seconds=5)) == 0  # not due yet: not tried
    assert emails_send_due(now=T0 + timedelta(seconds=10)) == 0  # tried again, and the delay doubles
    assert set(OutboundEmail.objects.values_list("attempts", "due_at")) == {(2, T0 + timedelta(seconds=30))}
    assert "ConnectionRefusedError" in OutboundEmail.objects.first().last_error
    smtp.up()
    assert emails_send_due(now=T0 + timedelta(seconds=30)) == 3
    assert emails_send_due(now=T0 + timedelta(hours=2)) == 0
    assert sorted(m["Subject"] for m in smtp.received()) == ["email 0", "email 1", "email 2"]
    assert smtp.received()[0]["X-Email-Kind"] == "test"
    assert not OutboundEmail.objects.filter(sent_at__isnull=True).exists()


def test_a_refused_recipient_fails_alone_and_the_batch_goes_on(smtp):
    smtp.refused.add("p1@example.com")
    queue(3)
    assert emails_send_due(now=T0) == 2
    assert sorted(m["Subject"] for m in smtp.received()) == ["email 0", "email 2"]
    refused = OutboundEmail.objects.get(to="p1@example.com")
    assert refused.sent_at is None and refused.attempts == 1 and "SMTPRecipientsRefused" in refused.last_error


def test_an_email_not_sent_within_a_day_is_given_up_with_a_log_line(smtp, caplog):
    smtp.down()
    queue(1)
    assert emails_send_due(now=T0 + timedelta(hours=23)) == 0
    assert OutboundEmail.objects.get().failed_at is None
    with caplog.at_level(logging.ERROR, logger="mail.outbox"):
        assert emails_send_due(now=T0 + timedelta(hours=24)) == 0
    email = OutboundEmail.objects.get()
    assert email.failed_at == T0 + timedelta(hours=24) and email.attempts == 2
    assert any("gave up on test email" in r.getMessage() for r in caplog.records)
    smtp.up()
    assert emails_send_due(now=T0 + timedelta(days=3)) == 0 and smtp.received() == []


def test_a_leased_email_is_claimed_by_one_caller_until_its_lease_runs_out():
    queue(2)
    assert len(emails_claim(now=T0)) == 2
    assert emails_claim(now=T0 + LEASE - timedelta(seconds=1)) == []  # another process's, in flight
    assert len(emails_claim(now=T0 + LEASE)) == 2  # that process died: its lease ran out
