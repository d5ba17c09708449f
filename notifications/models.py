"""What the notifications store: one row per notification of one player (an account or a guest)."""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q

from players.models import Player

PlayerId = uuid.UUID | str  # a player's primary key, or its text

KIND_LENGTH = 24
KEY_LENGTH = 64
TEXT_LENGTH = 200
URL_LENGTH = 200


class Notification(models.Model):
    """``player`` is told ``text`` (what a person reads), with ``url`` to open and ``data`` for a client.

    ``key``, when not empty, names the event the notification is about (``arena_starting:42``): a player
    gets at most one notification per key, however many processes try (a unique constraint).
    ``read_at`` is None until the player marks it read.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=KIND_LENGTH)
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)
    text = models.CharField(max_length=TEXT_LENGTH)
    url = models.CharField(max_length=URL_LENGTH, blank=True, default="")
    data = models.JSONField(default=dict)
    key = models.CharField(max_length=KEY_LENGTH, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["player", "-id"], name="notification_newest"),
            models.Index(fields=["player"], condition=Q(read_at__isnull=True), name="notification_unread"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], condition=~Q(key=""), name="notification_once"),
        ]

    def __str__(self) -> str:
        return f"notification {self.pk} ({self.kind}) for {self.player_id}"
