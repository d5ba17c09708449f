"""A game's end: finishing it (a line, a full board, a resignation, a timeout, abandoned), what its result
is for the ratings, and the hooks the layers above hear of it by.

As in ``games.services``, the caller holds the lock that serialises the game's changes (its room's row) and
calls these inside its transaction. The end itself is what the players must see at once (the status, the
winner, the line, the reason), written with the move or the action that ended the game, together with its
marker ``Game.post_due``: the rest (the rating, the analysis's queue, the explorer, :data:`GAME_FINISHED`'s
handlers) is the post-game work, done after commit in the background, exactly once, by
``games.postgame`` (:data:`POST_GAME` is its hook inside that work's transaction).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from common.hooks import Hook, OnError, Runs
from games.engine import Outcome
from games.models import EndReason, Game, GameStatus
from live.events import Signal, on_commit
from ratings.services import GameResult


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game that ended (any way: a line, a full board, a resignation, abandoned), as the layers above
    hear of it through :data:`GAME_FINISHED`. ``winner_seat`` is None for a draw or an abandoned
    game; ``red_seat`` says which seat played Red."""

    game_id: str
    room_id: int
    status: str
    winner_seat: int | None
    reason: str
    ply: int
    red_player_id: str | None
    yellow_player_id: str | None
    red_seat: int
    days_per_move: int | None = None  # a correspondence game's
    tournament_id: int | None = None  # the arena that paired it, if one did


@dataclass(frozen=True, slots=True)
class GameSettling:
    """A finished game whose post-game work is being done (:data:`POST_GAME`): the ``game`` row, locked by
    that work's transaction, with its players (``select_related``), and ``finished`` as
    :data:`GAME_FINISHED` will tell of it."""

    game: Game
    finished: GameFinished


# Once the post-game work of a finished game (its rating and its analysis's queue, ``games.postgame``) has
# committed, shortly after the end itself; a handler that raises is logged and does not stop the others
# (the game is over whatever they do). The bot API, the arenas, the rooms and correspondence register theirs.
GAME_FINISHED: Hook[GameFinished] = Hook(
    "game finished", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN, defer=transaction.on_commit)

# Inside the transaction of a finished game's post-game work (``games.postgame``), which clears the game's
# marker: what a handler writes is made exactly once, whatever process does the work, whichever dies. An
# error rolls the work back (it is tried again later). The opening explorer registers its learning.
POST_GAME: Hook[GameSettling] = Hook("post-game work", runs=Runs.INSIDE_TRANSACTION, on_error=OnError.PROPAGATE)


@dataclass(frozen=True, slots=True)
class PostGameQueued(Signal):
    """A game ended (once committed): this process's post-game loop (``games.postgame.PostGameLoop``) does
    its post-game work at once rather than at its next look."""


def game_finished_of(game: Game) -> GameFinished:
    """What :data:`GAME_FINISHED` tells of ``game`` (finished)."""
    return GameFinished(
        game_id=str(game.pk), room_id=game.room_id, status=str(game.status), winner_seat=game.winner_seat,
        reason=str(game.reason), ply=game.ply, red_seat=game.red_seat,
        red_player_id=None if game.red_player_id is None else str(game.red_player_id),
        yellow_player_id=None if game.yellow_player_id is None else str(game.yellow_player_id),
        days_per_move=game.days_per_move, tournament_id=game.tournament_id,
    )


def game_is_ranked(*, ranked: bool, red_cpu: bool, yellow_cpu: bool) -> bool:
    """Whether a game started under these rules counts: the room's rule, and no CPU seat."""
    return ranked and not (red_cpu or yellow_cpu)


def game_resign_write(game: Game, *, seat: int, now: datetime) -> None:
    """``seat`` resigns ``game`` (the room's ``lobby.play.moves.game_resign`` checked who may); the other
    seat wins."""
    game_finish(game, status=GameStatus.RESIGNED, reason=EndReason.RESIGNATION, winner_seat=3 - seat, line=None,
                now=now)


# The fields the end changes (:func:`game_end`), written with the move that ended the game or by game_finish.
END_FIELDS = ["status", "reason", "winner_seat", "line", "finished_at", "draw_offer_seat", "takeback_offer_seat",
              "deadline", "warn_at", "due_at", "lease_until", "post_due"]


def game_end(game: Game, *, status: GameStatus, reason: EndReason, winner_seat: int | None,
             line: list[dict[str, object]] | None, now: datetime) -> None:
    """``game`` ended in memory, nothing written: its result, no offer or due time left, and its post-game
    work pending from ``now`` (``post_due``: the marker ``games.postgame`` clears once the work is done)."""
    game.status = status
    game.reason = reason
    game.winner_seat = winner_seat
    game.line = line
    game.finished_at = now
    game.draw_offer_seat = game.takeback_offer_seat = None
    game.deadline = None
    game.warn_at = None
    game.due_at = None
    game.lease_until = None
    game.post_due = now


def game_end_by_move(game: Game, outcome: Outcome, *, seat: int, now: datetime) -> None:
    """``game`` ended in memory by ``seat``'s move, whose position's ``outcome`` is a line (won) or a full
    board (drawn)."""
    if outcome.winner is None:
        game_end(game, status=GameStatus.DRAWN, reason=EndReason.FULL_BOARD, winner_seat=None, line=None, now=now)
    else:
        line = [{"peg": str(cell.peg), "level": cell.level} for cell in outcome.line or ()]
        game_end(game, status=GameStatus.WON, reason=EndReason.LINE, winner_seat=seat, line=line, now=now)


def post_game_on_commit() -> None:
    """Once committed (at once outside a transaction), this process's post-game loop looks for work."""
    on_commit(PostGameQueued())


def game_finish(game: Game, *, status: GameStatus, reason: EndReason, winner_seat: int | None,
                line: list[dict[str, object]] | None, now: datetime) -> None:
    """End ``game`` (:func:`game_end`) and write it, one UPDATE; its rating and the rest follow once
    committed (``games.postgame``). The caller holds the lock that serialises the game, so it ends once."""
    game_end(game, status=status, reason=reason, winner_seat=winner_seat, line=line, now=now)
    game.save()
    post_game_on_commit()


def game_time_out(game: Game, *, now: datetime) -> None:
    """The player to move in a correspondence game let their time pass (the caller checked the deadline):
    they lose on time (rated if the game is), or, if they never moved in this game, it is aborted
    (abandoned, unrated: nobody lost a game that never began for them)."""
    seat = game.to_move_seat
    if seat is None:
        return
    if game.ply < 2:  # Red at ply 0, or Yellow at ply 1: the late player has not moved yet
        game_finish(game, status=GameStatus.ABANDONED, reason=EndReason.ABORTED, winner_seat=None, line=None, now=now)
    else:
        game_finish(game, status=GameStatus.WON, reason=EndReason.TIMEOUT, winner_seat=3 - seat, line=None, now=now)


def game_abandon(game: Game, *, reason: EndReason, now: datetime) -> None:
    """End a game being played without a result (its room closed): no winner, never rated.

    ``reason``: ``idle`` (the room idled too long) or ``closed`` (closed on purpose). A finished game is
    left as it is.
    """
    if game.status != GameStatus.PLAYING:
        return
    game_finish(game, status=GameStatus.ABANDONED, reason=reason, winner_seat=None, line=None, now=now)


def game_scores(game: Game) -> tuple[float, float] | None:
    """(red's score, yellow's score) of a finished game; None while it is being played or if abandoned.

    A win scores 1, a loss 0 and a draw ½ each; a resignation is a loss for the one who resigned.
    """
    if game.status == GameStatus.DRAWN:
        return 0.5, 0.5
    if game.status in (GameStatus.WON, GameStatus.RESIGNED) and game.winner_seat is not None:
        red_won = game.winner_seat == game.red_seat
        return (1.0, 0.0) if red_won else (0.0, 1.0)
    return None


def game_is_rated(game: Game) -> bool:
    """Whether ``game`` changes ratings: a ranked game between two different people.

    ``Game.ranked`` was fixed when the game started (the room's rule, and no CPU seat then); a CPU
    standing in for an absent player later does not change it.
    """
    return (
        game_is_ranked(ranked=game.ranked, red_cpu=game.red_cpu, yellow_cpu=game.yellow_cpu)
        and game.red_player_id is not None
        and game.yellow_player_id is not None
        and game.red_player_id != game.yellow_player_id
    )


def game_result(game: Game) -> GameResult | None:
    """What the ratings need of a finished, rated game (None: not finished, or not rated)."""
    scores = game_scores(game)
    red, yellow = game.red_player_id, game.yellow_player_id
    if scores is None or red is None or yellow is None or not game_is_rated(game):
        return None
    return GameResult(game_id=game.pk, red_player_id=red, yellow_player_id=yellow, red_score=scores[0])
