"""A game's end: finishing it (a line, a full board, a resignation, a timeout, abandoned), what its result
is for the ratings, and :data:`GAME_FINISHED`, how the layers above hear of it once it committed.

As in ``games.services``, the caller holds the lock that serialises the game's changes (its room's row) and
calls these inside its transaction; the result goes down to the ratings as plain data, in the same
transaction, and the game joins its post-game analysis's queue (``games.analyses``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from common.hooks import Hook, OnError, Runs
from games.analyses import analysis_queue
from games.models import EndReason, Game, GameStatus
from ratings.services import GameResult, rating_apply_result


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


# Once the transaction that ended the game has committed; a handler that raises is logged and does not
# stop the others (the game is over whatever they do). The bot API and the arenas register theirs.
GAME_FINISHED: Hook[GameFinished] = Hook(
    "game finished", runs=Runs.AFTER_COMMIT, on_error=OnError.CONTAIN, defer=transaction.on_commit)


def _finished_on_commit(game: Game) -> None:
    finished = GameFinished(
        game_id=str(game.pk), room_id=game.room_id, status=str(game.status), winner_seat=game.winner_seat,
        reason=str(game.reason), ply=game.ply, red_seat=game.red_seat,
        red_player_id=None if game.red_player_id is None else str(game.red_player_id),
        yellow_player_id=None if game.yellow_player_id is None else str(game.yellow_player_id),
        days_per_move=game.days_per_move, tournament_id=game.tournament_id,
    )
    GAME_FINISHED.emit(finished)


def game_is_ranked(*, ranked: bool, red_cpu: bool, yellow_cpu: bool) -> bool:
    """Whether a game started under these rules counts: the room's rule, and no CPU seat."""
    return ranked and not (red_cpu or yellow_cpu)


def game_resign_write(game: Game, *, seat: int, now: datetime) -> None:
    """``seat`` resigns ``game`` (the room's ``lobby.play.moves.game_resign`` checked who may); the other
    seat wins."""
    game_finish(game, status=GameStatus.RESIGNED, reason=EndReason.RESIGNATION, winner_seat=3 - seat, line=None,
                now=now)


def game_finish(game: Game, *, status: GameStatus, reason: EndReason, winner_seat: int | None,
                line: list[dict[str, object]] | None, now: datetime) -> None:
    """End ``game`` and rate it. The caller holds the lock that serialises the game, so it ends once."""
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
    game.save()
    result = game_result(game)
    if result is not None:
        rating_apply_result(result=result, now=now)
    analysis_queue(game, now=now)
    _finished_on_commit(game)


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
