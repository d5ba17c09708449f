"""What is stored of ratings: each player's current Glicko-2 rating, and every change a rated game made.

A player's rating row is created lazily, by the first rated game they finish; until then they are
rated at the defaults (1500 / RD 350 / volatility 0.06) everywhere it is shown.
"""

from __future__ import annotations

from django.db import models

from ratings import glicko2


class PlayerRating(models.Model):
    """A player's rating after their last rated game.

    ``rd`` is the RD as it stood right after ``last_rated_at``; readers grow it for the time since
    (:func:`ratings.glicko2.decay_rd`). ``established_until`` is the instant that grown RD reaches the
    provisional threshold again (None while it is provisional already), so the leaderboard can leave
    provisional players out with a plain indexed filter.
    """

    player = models.OneToOneField("players.Player", primary_key=True, on_delete=models.CASCADE, related_name="rating")
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    rd = models.FloatField(default=glicko2.DEFAULT_RD)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    last_rated_at = models.DateTimeField(null=True, blank=True)
    established_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["-rating"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.2f} / {self.rd:.2f}"

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class RatingChange(models.Model):
    """What one rated game did to one player's rating. One row per (game, player), never two.

    ``rd_before`` is the RD the game was rated with: the stored RD grown for the days the player had
    not played a rated game. ``score`` is 1 (win), 0.5 (draw) or 0 (loss, resignation included).
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="rating_changes")
    opponent = models.ForeignKey("players.Player", null=True, on_delete=models.SET_NULL, related_name="+")
    colour = models.CharField(max_length=6)
    score = models.FloatField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    change = models.FloatField()
    rd_before = models.FloatField()
    rd_after = models.FloatField()
    volatility_before = models.FloatField()
    volatility_after = models.FloatField()
    rated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="rating_change_once_per_game")]
        indexes = [models.Index(fields=["player", "rated_at"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}: {self.change:+.2f}"
