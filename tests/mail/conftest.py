"""The email outbox's tests' fixtures: a real SMTP server (``tests.mail.smtpkit``)."""

from __future__ import annotations

from tests.mail.smtpkit import smtp  # noqa: F401  (the fixture)
