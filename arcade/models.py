"""What is stored of the arcade: a run (its position as the engine's ``RunState`` holds it, and what ranks),
and its record, a row per step.

A move is one statement on PostgreSQL (:mod:`arcade.writes`): the run's row updated, guarded by its
``steps``, and the step's row inserted, together. The record is rows rather than a JSON column of the run:
appending to a JSON value rewrites all of it, and a capped run's record holds 20,000 steps.
"""

from __future__ import annotations

import uuid

from django.db import models

from players.models import Player


class Run(models.Model):
    """A run of one mode by one player: open while ``closed_at`` is null (at most one a player and mode)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    mode = models.CharField(max_length=16)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # Played through a personal access token (a bot, or a script of an account's): ranked on the bots' board.
    bot = models.BooleanField(default=False)
    # The two opening tiles, [[cell, value], [cell, value]]: the record's start.
    opening = models.JSONField()
    move_cap = models.IntegerField()
    # The run now, as arcade.engine.RunState holds it (arcade.state reads and writes it).
    board = models.JSONField()
    score = models.IntegerField(default=0)
    moves = models.IntegerField(default=0)
    played = models.IntegerField(default=0)
    status = models.CharField(max_length=8, default="playing")
    continued = models.BooleanField(default=False)
    reached_target = models.BooleanField(default=False)
    # The undo slot: {"board", "score", "moves", "status", "continued"}, or null.
    slot = models.JSONField(null=True, blank=True)
    peak = models.IntegerField(default=0)
    peak_tile = models.IntegerField(default=0)
    # The record's steps applied (moves, undos, continues, ends): only grows. A client's "n" is checked against it.
    steps = models.IntegerField(default=0)
    # The player's best in the mode (other runs' checked peaks) when the run started: "best" = max(this, peak).
    best_before = models.IntegerField(default=0)
    started_at = models.DateTimeField()
    played_at = models.DateTimeField()  # the last step (or the start): 24 hours after it, the run is closed
    closed_at = models.DateTimeField(null=True, blank=True)
    # Set when the run closes: the replayed record's peak, what ranks; null while open, or when the replay
    # disagreed with what the server had computed (logged; the run is not ranked).
    ranked_score = models.IntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "mode"], condition=models.Q(closed_at__isnull=True),
                                    name="arcade_one_open_run"),
        ]
        indexes = [
            models.Index(fields=["mode", "bot", "-ranked_score"], name="arcade_run_board"),
            models.Index(fields=["player", "mode", "-ranked_score"], name="arcade_run_best"),
            models.Index(fields=["played_at"], condition=models.Q(closed_at__isnull=True), name="arcade_run_idle"),
        ]

    def __str__(self) -> str:
        return f"{self.mode} run {self.id} of {self.player_id}"


class Step(models.Model):
    """Step ``n`` of a run's record: a move with the tiles dealt after it, an undo, a continue or an end."""

    pk = models.CompositePrimaryKey("run_id", "n")
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="+")
    n = models.IntegerField()
    op = models.CharField(max_length=8)  # move, undo, continue or end
    dir = models.CharField(max_length=8, blank=True)
    spawned = models.JSONField(default=list, blank=True)  # [[cell, value], ...] in the order placed
    gained = models.IntegerField(default=0)  # what the move's merges scored (a retry's answer repeats it)

    def __str__(self) -> str:
        return f"step {self.n} of {self.run_id}: {self.op} {self.dir}".rstrip()
