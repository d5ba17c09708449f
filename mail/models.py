"""What is stored of outgoing email: the outbox, one row per email (``mail.outbox`` queues and sends)."""

from __future__ import annotations

from django.db import models


class OutboundEmail(models.Model):
    """One email to send, queued in the transaction that decided it and sent once by some process's mail
    loop. ``due_at`` is when it may be tried next (later after each failure); ``leased_until`` is set while
    one process is sending it, so no other does. ``sent_at`` or ``failed_at`` (given up) ends it."""

    to = models.EmailField()
    kind = models.CharField(max_length=32, help_text="What the email is for: confirm, reset, a notification kind.")
    # What it is about, for limits by subject (``game:<id>``: one your_turn email per game and 12 hours).
    ref = models.CharField(max_length=64, blank=True, default="")
    subject = models.CharField(max_length=200)
    body = models.TextField()
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    due_at = models.DateTimeField()
    leased_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The loop's one question: what is due and not done (a partial index stays small).
            models.Index(fields=["due_at"], name="email_pending",
                         condition=models.Q(sent_at__isnull=True, failed_at__isnull=True)),
            models.Index(fields=["to", "kind", "ref", "created_at"], name="email_about",
                         condition=~models.Q(ref="")),
        ]

    def __str__(self) -> str:
        return f"{self.kind} email {self.pk} to {self.to}"
