"""What the bot API stores: challenges. (Bot accounts and tokens are the players' own: ``players.models``.)"""

from __future__ import annotations

import secrets

from django.db import models

from players.models import Player

CHALLENGE_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CHALLENGE_ID_LENGTH = 8


def new_challenge_id() -> str:
    return "".join(secrets.choice(CHALLENGE_ID_ALPHABET) for _ in range(CHALLENGE_ID_LENGTH))


class ChallengeStatus(models.TextChoices):
    """Where a challenge stands; everything but CREATED is final."""

    CREATED = "created"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELED = "canceled"
    EXPIRED = "expired"  # not answered within CHALLENGE_TTL_SECONDS


class DeclineReason(models.TextChoices):
    GENERIC = "generic"
    LATER = "later"
    RATED = "rated"  # "I play rated games only"
    CASUAL = "casual"  # "I play casual games only"
    TIMER = "timer"  # "not with this turn timer"


class ColourChoice(models.TextChoices):
    """The colour the challenger asks for."""

    RANDOM = "random"
    RED = "red"
    YELLOW = "yellow"


class Challenge(models.Model):
    """One player invites another (a person or a bot) to a game with these rules. Accepting it makes a room
    with both seated and the game started (``room_code``, ``game_id``)."""

    id = models.CharField(primary_key=True, max_length=CHALLENGE_ID_LENGTH, default=new_challenge_id, editable=False)
    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_sent")
    dest = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_received")
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    # A correspondence game's days per move (None: a live game); never with ``turn_seconds``.
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    ranked = models.BooleanField()
    colour = models.CharField(max_length=6, choices=ColourChoice.choices)
    status = models.CharField(max_length=8, choices=ChallengeStatus.choices, default=ChallengeStatus.CREATED)
    decline_reason = models.CharField(max_length=7, choices=DeclineReason.choices, blank=True, default="")
    room_code = models.CharField(max_length=6, blank=True, default="")
    game_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["dest", "status"]),
            models.Index(fields=["challenger", "status"]),
            models.Index(fields=["status", "created_at"]),  # the live ones past their time (the sweep)
        ]

    def __str__(self) -> str:
        return f"challenge {self.pk} ({self.status})"
