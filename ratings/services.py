"""Applying a finished game's result to both players' ratings, exactly once.

The result is applied inside the transaction that ends the game (``games.services`` calls
:func:`rating_on_game_finished` from its finish hooks while it holds the room's row lock), so a game's
end and its rating changes commit together or not at all. Two endings racing each other (a winning drop
against a resignation, a timeout against a drop) queue on that lock; the second finds the game over and
changes nothing. The unique (game, player) constraint on :class:`RatingChange` is the last line of defence.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from games.models import Game, GameStatus
from ratings import glicko2
from ratings.models import PlayerRating, RatingChange
from ratings.selectors import current_rating


def game_scores(game: Game) -> tuple[float, float] | None:
    """(red's score, yellow's score) of a finished game, or None while it is being played.

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
        game.ranked
        and not (game.red_cpu or game.yellow_cpu)
        and game.red_player_id is not None
        and game.yellow_player_id is not None
        and game.red_player_id != game.yellow_player_id
    )


def established_until(rating: glicko2.Rating, *, rated_at: datetime) -> datetime | None:
    """When a rating with this RD at ``rated_at`` turns provisional through inactivity (None: it is already)."""
    threshold = glicko2.PROVISIONAL_RD
    if rating.rd >= threshold:
        return None
    days = (threshold**2 - rating.rd**2) / glicko2.RD_GROWTH_PER_DAY_C**2
    return rated_at + timedelta(days=days)


def _locked_ratings(player_ids: list[object]) -> dict[object, PlayerRating]:
    """The rating rows of these players, created at the defaults if missing, locked in a fixed order.

    Locking in player-id order means two rooms finishing games between the same people cannot deadlock.
    """
    PlayerRating.objects.bulk_create([PlayerRating(player_id=pk) for pk in player_ids], ignore_conflicts=True)
    rows = PlayerRating.objects.select_for_update().filter(player_id__in=player_ids).order_by("player_id")
    return {row.player_id: row for row in rows}


def _record(row: PlayerRating, *, before: glicko2.Rating, after: glicko2.Rating, score: float,
            now: datetime) -> None:
    row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
    row.games += 1
    if score == 1.0:
        row.wins += 1
    elif score == 0.0:
        row.losses += 1
    else:
        row.draws += 1
    row.last_rated_at = now
    row.established_until = established_until(after, rated_at=now)
    row.save()


def rating_apply_result(*, game: Game, now: datetime) -> tuple[RatingChange, RatingChange] | None:
    """Rate the finished ``game`` for both players; returns (red's change, yellow's change).

    Returns None, changing nothing, when the game is not rated (see :func:`game_is_rated`), not
    finished, or already rated. Each player's RD first grows for the days since their last rated game,
    then both are rated from those pre-game ratings as one Glicko-2 rating period.

    Caller's duty: call this in the transaction that ends the game, holding the room's lock (the
    finish hook does). Raises ``IntegrityError`` if, against that duty, the game was rated already.
    """
    scores = game_scores(game)
    if scores is None or not game_is_rated(game):
        return None
    with transaction.atomic():
        if RatingChange.objects.filter(game=game).exists():
            return None
        red_id, yellow_id = game.red_player_id, game.yellow_player_id
        rows = _locked_ratings([red_id, yellow_id])
        red_row, yellow_row = rows[red_id], rows[yellow_id]
        red_before = current_rating(red_row, now=now)
        yellow_before = current_rating(yellow_row, now=now)
        red_after, yellow_after = glicko2.rate_game(red_before, yellow_before, scores[0])
        changes = []
        for row, colour, opponent, before, after, score in (
            (red_row, "red", yellow_id, red_before, red_after, scores[0]),
            (yellow_row, "yellow", red_id, yellow_before, yellow_after, scores[1]),
        ):
            _record(row, before=before, after=after, score=score, now=now)
            changes.append(
                RatingChange(
                    game=game, player_id=row.player_id, opponent_id=opponent, colour=colour, score=score,
                    rating_before=before.rating, rating_after=after.rating, change=after.rating - before.rating,
                    rd_before=before.rd, rd_after=after.rd,
                    volatility_before=before.volatility, volatility_after=after.volatility, rated_at=now,
                )
            )
        red_change, yellow_change = RatingChange.objects.bulk_create(changes)
        return red_change, yellow_change


def rating_on_game_finished(game: Game) -> None:
    """The finish hook ``games.services`` calls for every game that ends (registered in ``apps.py``)."""
    if game.finished_at is not None:
        rating_apply_result(game=game, now=game.finished_at)
