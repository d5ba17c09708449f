"""What is stored of games: one row a game, one row a move."""

from __future__ import annotations

import uuid

from django.db import models


class GameStatus(models.TextChoices):
    """A game's status; everything but PLAYING is finished. ABANDONED: its room closed first (unrated)."""

    PLAYING = "playing"
    WON = "won"
    DRAWN = "drawn"
    RESIGNED = "resigned"
    ABANDONED = "abandoned"

    @property
    def is_finished(self) -> bool:
        return self is not GameStatus.PLAYING


class EndReason(models.TextChoices):
    LINE = "line"
    FULL_BOARD = "full_board"
    RESIGNATION = "resignation"
    # Drawn: both players agreed (a draw offer accepted).
    AGREEMENT = "agreement"
    # Abandoned games: the room was closed for idling, or by a moderator (or a log-in hand-over).
    IDLE = "idle"
    CLOSED = "closed"
    # A correspondence game: the player to move let their days per move pass (a loss on time), or let
    # them pass before their first move (the game is aborted: abandoned, unrated).
    TIMEOUT = "timeout"
    ABORTED = "aborted"


class Game(models.Model):
    """A game in a room. The Move rows are the durable record of each move; ``record`` (the pegs in
    order, space-separated) and ``ply`` mirror them on this row, written in the same transaction, so
    that a move reads one row rather than every move before it.

    ``stakes`` is what the room shows of the seats' ratings during this game, fixed when it starts
    (ratings do not change mid-game): per seat number, the rating and what a win, draw or loss would
    change it by. Empty for a game that does not count.

    ``due_at`` is when the next automatic action of this game falls due (a CPU move, a turn timer, the
    end of a grace period); any server process that sees it due applies it through the services.
    ``lease_until`` marks that one process is computing that action, so others leave it alone.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    room = models.ForeignKey("lobby.Room", on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.PLAYING)
    reason = models.CharField(max_length=12, choices=EndReason.choices, blank=True, default="")
    red_seat = models.PositiveSmallIntegerField()
    red_player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    yellow_player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    red_cpu = models.BooleanField(default=False)
    yellow_cpu = models.BooleanField(default=False)
    cpu_level = models.PositiveSmallIntegerField(default=3)
    ranked = models.BooleanField(default=False)
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    # A correspondence game: each move is due this many correspondence days after the opponent's
    # (``CORRESPONDENCE_DAY_SECONDS``); None: a live game (``turn_seconds`` or no timer). Never both.
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    # Correspondence: when the player to move is told their time is running out (a fifth of it left);
    # None once told, or in a live game.
    warn_at = models.DateTimeField(null=True, blank=True)
    # A colour that plays this game on half the turn timer (it chose so before its first move: berserk).
    red_halved = models.BooleanField(default=False)
    yellow_halved = models.BooleanField(default=False)
    # The arena the game was paired by (None: any other game). Declared by name: the arenas sit above.
    tournament = models.ForeignKey(
        "tournaments.Arena", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The offers standing in a game being played (lobby.play.offers): the seat that offers a draw, the
    # seat that asks to take its last move back (None: no offer); ``draw_offer_plies`` holds, by seat
    # number, the ply at which that seat last offered a draw (one offer per 10 plies), and by
    # ``takeback-{seat}`` the ply at which the seat's takeback request was last withdrawn or declined.
    draw_offer_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    takeback_offer_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    draw_offer_plies = models.JSONField(default=dict, blank=True)
    ply = models.PositiveSmallIntegerField(default=0)
    record = models.CharField(max_length=200, blank=True, default="")
    stakes = models.JSONField(default=dict, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    line = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField()
    turn_started_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    # A finished game whose post-game work (its rating, its analysis's queue, the explorer: games.postgame)
    # is still to be done: from this time (its end; later after a failed try). Written with the end, in its
    # transaction; cleared in the transaction that does the work. None: being played, or done.
    post_due = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="game_unique_number")]
        indexes = [models.Index(fields=["status", "due_at"]),
                   models.Index(fields=["warn_at"], condition=models.Q(warn_at__isnull=False), name="game_warn_at"),
                   models.Index(fields=["post_due"], condition=models.Q(post_due__isnull=False),
                                name="game_post_due")]

    def __str__(self) -> str:
        return f"{self.room_id} game {self.number}"

    def seat_of_colour(self, colour: str) -> int:
        return self.red_seat if colour == "red" else 3 - self.red_seat

    def colour_of_seat(self, seat: int) -> str:
        return "red" if seat == self.red_seat else "yellow"

    def turn_seconds_of(self, colour: str) -> int | None:
        """The turn timer of ``colour`` in this game (halved if it chose so; None: no timer)."""
        if self.turn_seconds is None:
            return None
        halved = self.red_halved if colour == "red" else self.yellow_halved
        return self.turn_seconds // 2 if halved else self.turn_seconds

    @property
    def to_move_colour(self) -> str | None:
        return None if self.status != GameStatus.PLAYING else ("red" if self.ply % 2 == 0 else "yellow")

    @property
    def to_move_seat(self) -> int | None:
        if self.status != GameStatus.PLAYING:
            return None
        return self.red_seat if self.ply % 2 == 0 else 3 - self.red_seat


class Move(models.Model):
    """One bead dropped. ``cpu`` says the CPU played it for ``seat`` (a CPU seat, timeout or stand-in)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveSmallIntegerField()
    peg = models.CharField(max_length=2)
    seat = models.PositiveSmallIntegerField()
    cpu = models.BooleanField(default=False)
    # Why the CPU played it: "seat" (a CPU seat), "timeout", "away" (stand-in); empty for a person.
    cpu_reason = models.CharField(max_length=8, blank=True, default="")
    played_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply")]
        ordering = ["ply"]


class AnalysisStatus(models.TextChoices):
    """Where a game's post-game analysis stands. FAILED: it raised ``ANALYSIS_MAX_ATTEMPTS`` times, or went
    over its CPU budget (``ANALYSIS_CPU_BUDGET_S``) once."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class GameAnalysis(models.Model):
    """A finished game's analysis (docs/analysis.md): queued when the game ends, computed once.

    ``version`` is the engine's ``ANALYSIS_VERSION`` the row is (to be) computed with; a row done with an
    older version is queued again when asked for. ``lease_until`` marks the process computing it (as
    ``Game.lease_until`` does for automatic moves), so each analysis is computed by one process at a time.
    """

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED)
    version = models.PositiveSmallIntegerField()
    result = models.JSONField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    queued_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "queued_at"])]

    def __str__(self) -> str:
        return f"analysis of {self.game_id} ({self.status})"
