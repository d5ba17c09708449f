"""Applying a finished game's result to both players' ratings, exactly once.

The result arrives as plain data (:class:`GameResult`) in the transaction of the game's post-game work
(``games.postgame``, after the end committed): it holds the game's row locked and clears the game's marker
in the same transaction, so a game is rated once, whichever process does the work, whichever dies in the
middle. A game rated already changes nothing here, and the unique (game, player) constraint on
:class:`RatingChange` is the last line of defence.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction

from ratings import glicko2
from ratings.models import PlayerRating, RatingChange
from ratings.selectors import current_rating


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished rated game as the ratings see it: who played which colour and Red's score.

    The games layer builds it (only for games that count: ranked, two different people, no CPU seat).
    """

    game_id: UUID
    red_player_id: UUID
    yellow_player_id: UUID
    red_score: float  # 1 win, 0.5 draw, 0 loss (a resignation is a loss)


def established_until(rating: glicko2.Rating, *, rated_at: datetime) -> datetime | None:
    """When a rating with this RD at ``rated_at`` turns provisional through inactivity (None: it is already)."""
    threshold = glicko2.PROVISIONAL_RD
    if rating.rd >= threshold:
        return None
    days = (threshold**2 - rating.rd**2) / glicko2.RD_GROWTH_PER_DAY_C**2
    return rated_at + timedelta(days=days)


def _locked_ratings(player_ids: list[UUID]) -> dict[UUID, PlayerRating]:
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


def rating_apply_result(*, result: GameResult, now: datetime) -> tuple[RatingChange, RatingChange] | None:
    """Rate a finished game for both players; returns (red's change, yellow's change).

    Returns None, changing nothing, when the game was rated already. Each player's RD first grows for
    the days since their last rated game, then both are rated from those pre-game ratings as one
    Glicko-2 rating period.

    Caller's duty: call this holding the lock that serialises the game's rating (``games.postgame`` holds
    the game's row). Raises ``IntegrityError`` if, against that duty, the game was rated already by a
    concurrent transaction.
    """
    scores = (result.red_score, 1.0 - result.red_score)
    with transaction.atomic():
        if RatingChange.objects.filter(game_id=result.game_id).exists():
            return None
        red_id, yellow_id = result.red_player_id, result.yellow_player_id
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
                    game_id=result.game_id, player_id=row.player_id, opponent_id=opponent, colour=colour,
                    score=score, rating_before=before.rating, rating_after=after.rating,
                    change=after.rating - before.rating, rd_before=before.rd, rd_after=after.rd,
                    volatility_before=before.volatility, volatility_after=after.volatility, rated_at=now,
                )
            )
        red_change, yellow_change = RatingChange.objects.bulk_create(changes)
        return red_change, yellow_change
