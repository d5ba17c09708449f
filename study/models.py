"""What the study tools store: the opening explorer's counts (docs/records.md, "The opening explorer").

A position is stored once for its 8 symmetric images (its canonical key, :func:`games.engine.canonical_form`),
and a move from it once for every move its own symmetries make equivalent (the smallest peg image): so a
game and its mirror images count in the same rows. Rows are per ``ranked`` (a ranked game or a casual
one), so the explorer can show either or both; bots' games are counted in the same rows and apart
(``bot_games``).
"""

from __future__ import annotations

from django.db import models

EXPLORER_PLIES = 16
"""The plies of each game the explorer learns (docs/records.md argues the depth)."""


class ExplorerLearned(models.Model):
    """A game the explorer has learned: inserted in the transaction that counts it, so it counts once."""

    game = models.OneToOneField("games.Game", primary_key=True, on_delete=models.CASCADE, related_name="+")
    learned_at = models.DateTimeField()


class ExplorerPosition(models.Model):
    """A position reached (up to symmetry) by ``games`` games of one kind (ranked or casual).

    ``recent`` holds the ids of the last few games that reached it, newest first, space-separated (kept
    short by the upsert that adds one: SQL ``substr``, so no read-modify-write).
    """

    key = models.CharField(max_length=40)
    ranked = models.BooleanField()
    games = models.PositiveIntegerField(default=0)
    recent = models.CharField(max_length=200, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "ranked"], name="explorer_position_unique")]


class ExplorerMove(models.Model):
    """A move from a position (both up to symmetry): how often it was played and how those games ended.

    ``rating_sum`` / ``rated`` give the average rating of the players of its games (both players of
    each game that had two people: ``rated`` counts the ratings summed).
    """

    key = models.CharField(max_length=40)
    ranked = models.BooleanField()
    peg = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField(default=0)
    red_wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    yellow_wins = models.PositiveIntegerField(default=0)
    bot_games = models.PositiveIntegerField(default=0)
    rating_sum = models.FloatField(default=0.0)
    rated = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "ranked", "peg"], name="explorer_move_unique")]
