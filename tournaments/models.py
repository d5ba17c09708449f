"""What is stored of arenas: the arena, each player's entry (running totals and state), each game."""

from __future__ import annotations

from django.db import models

from players.models import Player

MIN_MINUTES = 10
MAX_MINUTES = 180
TURN_SECONDS = (30, 60)
NAME_MAX_CHARS = 60


class ArenaStatus(models.TextChoices):
    CREATED = "created"
    STARTED = "started"
    FINISHED = "finished"


class Arena(models.Model):
    """An arena tournament: from ``starts_at`` to ``ends_at`` everyone free is paired again at once.

    ``status`` follows the clock: the arena loop of some process moves it on (``created`` -> ``started``
    at ``starts_at``; ``finished`` once ``ends_at`` passed and its last game ended). ``wave_at`` and
    ``wave_until`` let one process at a time run its pairing wave (as ``lobby.PairingWave`` does).
    ``version`` grows with every change the arena's page shows (standings, players, status).
    """

    name = models.CharField(max_length=NAME_MAX_CHARS)
    created_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    minutes = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    ranked = models.BooleanField(default=True)
    berserk = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=ArenaStatus.choices, default=ArenaStatus.CREATED)
    finished_at = models.DateTimeField(null=True, blank=True)
    wave_at = models.DateTimeField(null=True, blank=True)
    wave_until = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    # When its players were told it starts soon (an arena_starting notification each), once.
    starting_told_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.pk})"


class ArenaPlayer(models.Model):
    """A player's entry in an arena: their state and running totals (``tournaments.scoring.Tally``).

    ``game`` is the arena game they are playing now (None: free). ``away_losses``: games lost in a row
    with the CPU playing their last move (timeouts while away); two pause them.
    """

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField()
    rating = models.FloatField(help_text="The rating when last paired (for the opponents' performance).")
    paused = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    previous_opponent = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reds = models.PositiveIntegerField(default=0)
    yellows = models.PositiveIntegerField(default=0)
    away_losses = models.PositiveSmallIntegerField(default=0)
    score = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    perf_sum = models.IntegerField(default=0)
    perf_games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["arena", "player"], name="arena_player_once")]
        indexes = [models.Index(fields=["arena", "-score"])]


class ArenaGame(models.Model):
    """A game of an arena. ``points_*`` and ``scored_at`` are written once, when the game's end is scored."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="arena_games")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="+")
    red = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    yellow = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    red_rating = models.FloatField()
    yellow_rating = models.FloatField()
    red_berserk = models.BooleanField(default=False)
    yellow_berserk = models.BooleanField(default=False)
    paired_at = models.DateTimeField()
    scored_at = models.DateTimeField(null=True, blank=True)
    points_red = models.PositiveSmallIntegerField(default=0)
    points_yellow = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["arena", "scored_at"])]
