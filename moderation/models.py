"""What moderation keeps: the reports players make, and every action staff took on a player."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Reason(models.TextChoices):
    ABUSE = "abuse"
    CHEATING = "cheating"
    SPAM = "spam"
    OTHER = "other"


class Report(models.Model):
    """The moderators' queue entry for a reported player: the first report of them (its ``reporter``), and
    every later one while the entry is open (not ``closed_at``), by anybody, added to it (``count``,
    ``text``) rather than making another. ``room`` is where it happened (the message's or the game's room),
    kept for the chat context once the message itself is gone."""

    reporter = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="reports_made")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="reports_about")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    text = models.TextField(blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    message = models.ForeignKey("lobby.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    room = models.ForeignKey("lobby.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    count = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["-created_at"], name="report_queue", condition=models.Q(closed_at__isnull=True)),
            models.Index(fields=["reporter", "player", "created_at"], name="report_by_reporter"),
        ]

    def __str__(self) -> str:
        return f"report {self.pk}: {self.reason} about {self.player_id}"


class ActionKind(models.TextChoices):
    DISMISS = "dismiss"
    WARN = "warn"
    MUTE = "mute"
    BAN = "ban"


class Action(models.Model):
    """What a staff member did about a player (and the report that led to it, if any), and when. A mute
    lasts ``until``; a warning is shown on the player's next page until ``acknowledged_at``."""

    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="moderation_actions")
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions")
    kind = models.CharField(max_length=10, choices=ActionKind.choices)
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()
    until = models.DateTimeField(null=True, blank=True)
    message = models.CharField(max_length=300, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["player", "kind", "until"], name="action_of_player")]

    def __str__(self) -> str:
        return f"{self.kind} of {self.player_id} at {self.created_at:%Y-%m-%d %H:%M}"
