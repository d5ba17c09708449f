"""What correspondence play stores of its own: the open seeks (the games are ordinary rooms and games)."""

from __future__ import annotations

from django.db import models

from players.models import Player


class CorrespondenceSeek(models.Model):
    """``player`` looks for a correspondence game of ``days_per_move`` (ranked or not), with no page open.

    It waits until ``expires_at`` (7 days), until someone accepts it or a pairing wave pairs it with a
    compatible seek (then the row is deleted in the transaction that made the game), or until its player
    deletes it. ``rating`` is the player's rating when they sought, as quick pairing's seeks keep it.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="correspondence_seeks")
    days_per_move = models.PositiveSmallIntegerField()
    ranked = models.BooleanField()
    rating = models.FloatField()
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["expires_at"]), models.Index(fields=["player", "expires_at"])]

    def __str__(self) -> str:
        return f"correspondence seek {self.pk} ({self.days_per_move} d) by {self.player_id}"
