"""What is stored of puzzles: the puzzles, where they came from, each player's puzzle rating, every rated
attempt, and the daily puzzle of each day.

Puzzle ratings are kept apart from game ratings (``ratings.PlayerRating``); the maths is the same
(:mod:`ratings.glicko2`).
"""

from __future__ import annotations

from django.db import models

from ratings import glicko2


class PuzzleOrigin(models.TextChoices):
    SELF_PLAY = "self_play", "CPU self-play"
    GAME = "game", "a game on this site"


class Puzzle(models.Model):
    """A position where the side to move wins by force in exactly ``plies`` plies (3, 5, 7 or 9) and no faster.

    ``key`` is the board's canonical key: a board and its symmetric images are one puzzle. ``rating`` is
    the puzzle's own Glicko-2 rating: a solve is the player's win against the puzzle.
    """

    id = models.CharField(primary_key=True, max_length=12)
    key = models.CharField(max_length=32, unique=True)
    record = models.CharField(max_length=200)
    plies = models.PositiveSmallIntegerField()
    origin = models.CharField(max_length=10, choices=PuzzleOrigin.choices)
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    attempts = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["plies", "rating"], name="puzzle_theme_rating"),
                   models.Index(fields=["rating"], name="puzzle_rating")]

    def __str__(self) -> str:
        return f"{self.id}: win in {self.plies}"

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class PuzzleSource(models.Model):
    """A game position a puzzle was made from: a proved missed win (one row per game and ply)."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="sources")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="puzzle_source_once")]


class PuzzleRating(models.Model):
    """A player's puzzle rating, created by their first rated attempt (defaults until then)."""

    player = models.OneToOneField("players.Player", primary_key=True, on_delete=models.CASCADE,
                                  related_name="puzzle_rating")
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    rd = models.FloatField(default=glicko2.DEFAULT_RD)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    solved = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    last_rated_at = models.DateTimeField(null=True, blank=True)

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class PuzzleAttempt(models.Model):
    """A player's first finished attempt at a puzzle: the one that is rated. Never two per player and puzzle."""

    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempt_rows")
    solved = models.BooleanField()
    moves = models.CharField(max_length=40)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    puzzle_rating_before = models.FloatField()
    puzzle_rating_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "puzzle"], name="puzzle_attempt_once")]


class PuzzleSeen(models.Model):
    """A puzzle whose solution ``player`` has been shown without a rated attempt of theirs: on a device before
    it had a player (``puzzles.device``), or as the guest their account replaced. Never rated for them."""

    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "puzzle"], name="puzzle_seen_once")]


class DailyPuzzle(models.Model):
    """The puzzle of one UTC day, the same for everyone; chosen by the first request of the day."""

    day = models.DateField(primary_key=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")
