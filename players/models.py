"""What is stored of people: a player is a device's guest, or an account once they register."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Player(models.Model):
    """A person: a device's guest player, turned into an account when they register."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=40)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField()
    # Set by a moderator: the player's websockets are closed and new ones refused until it is cleared.
    banned_at = models.DateTimeField(null=True, blank=True)
    # The account's username in the form two spellings of one name share (NFKC, casefolded): unique, so
    # "Ann", "ANN" and a fullwidth "Ann" are one account. Set by players.accounts; None for a guest.
    username_key = models.CharField(max_length=150, null=True, blank=True, unique=True, editable=False)

    class Meta:
        # The table kept the name it had when players lived in the lobby app (moved without copying rows).
        db_table = "lobby_player"

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None
