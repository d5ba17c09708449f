"""What the account app keeps beside a player's account: its email address, and a closed account's date."""

from __future__ import annotations

from django.db import models


class AccountEmail(models.Model):
    """An account's email address. ``email`` is the confirmed one (what a password reset and the
    notifications go to), ``pending`` one waiting for its confirmation link. ``email_key`` is the
    confirmed address casefolded, unique: one account per confirmed address."""

    player = models.OneToOneField("players.Player", primary_key=True, on_delete=models.CASCADE,
                                  related_name="account_email")
    email = models.EmailField(blank=True)
    email_key = models.CharField(max_length=254, null=True, blank=True, unique=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    pending = models.EmailField(blank=True)
    pending_since = models.DateTimeField(null=True, blank=True)
    # The notification kinds emailed to the confirmed address, as {kind: true} (all off by default).
    notifications = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"{self.email or self.pending} of {self.player_id}"


class AccountDeletion(models.Model):
    """A closed account (``accounts.deletion``): its name is freed ``NAME_HELD_DAYS`` after ``deleted_at``
    (``name_freed_at`` set then)."""

    player = models.OneToOneField("players.Player", primary_key=True, on_delete=models.CASCADE,
                                  related_name="deletion")
    deleted_at = models.DateTimeField()
    name_freed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["name_freed_at", "deleted_at"], name="deletion_name_held")]

    def __str__(self) -> str:
        return f"account of {self.player_id} closed {self.deleted_at:%Y-%m-%d}"
