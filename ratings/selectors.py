"""Reads of ratings: a player's rating now, the leaderboard, and the rating part of a player's page.

Ratings shown are the ratings *now*: the stored RD grown for the days since the player's last rated game
(exactly what a game finishing now would be rated with), so an idle player turns provisional again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from common.iso import iso
from players.models import Player
from players.selectors import player_json
from ratings import glicko2
from ratings.models import PlayerRating, RatingChange

CHANGE_DECIMALS = 2


def idle_days(last_rated_at: datetime | None, *, now: datetime) -> float:
    """Days since the last rated game (0 for a player who never played one, or for a clock running late)."""
    if last_rated_at is None:
        return 0.0
    return max(0.0, (now - last_rated_at).total_seconds() / 86400.0)


def current_rating(row: PlayerRating | None, *, now: datetime) -> glicko2.Rating:
    """A player's rating at ``now``: defaults without a row, else the row with its RD grown for idle days."""
    if row is None:
        return glicko2.Rating()
    return glicko2.decay_rd(row.as_glicko(), days=idle_days(row.last_rated_at, now=now))


def rating_display(rating: glicko2.Rating) -> str:
    """The rating as people read it: a whole number, with a ``?`` while it is provisional (``1500?``)."""
    return f"{round(rating.rating)}{'?' if rating.is_provisional else ''}"


def rating_json(rating: glicko2.Rating) -> dict[str, Any]:
    return {
        "rating": round(rating.rating, CHANGE_DECIMALS),
        "rd": round(rating.rd, CHANGE_DECIMALS),
        "provisional": rating.is_provisional,
        "display": rating_display(rating),
    }


def ratings_of(player_ids: Iterable[UUID | None], *, now: datetime) -> dict[UUID, glicko2.Rating]:
    """The ratings at ``now`` of these players (defaults for those never rated), in one query."""
    ids = [pk for pk in player_ids if pk is not None]
    rows = {row.player_id: row for row in PlayerRating.objects.filter(player_id__in=ids)}
    return {pk: current_rating(rows.get(pk), now=now) for pk in ids}


# --- the leaderboard -----------------------------------------------------------------------------
def leaderboard(*, now: datetime, limit: int, offset: int, include_provisional: bool = False,
                bots: bool = True) -> dict[str, Any]:
    """One page of the leaderboard, best first: ``{"count", "limit", "offset", "results"}``.

    Only players with at least one rated game appear; provisional ones (RD now at or above 110) only
    when ``include_provisional``; bot accounts (marked ``"title": "BOT"``) unless ``bots`` is false.
    Ties are broken by the smaller RD, then the player id, so pages never
    overlap. ``rank`` counts from 1 within the listed players.
    """
    rows = PlayerRating.objects.filter(games__gt=0)
    if not bots:
        rows = rows.filter(player__bot_at__isnull=True)
    if not include_provisional:
        rows = rows.filter(established_until__gt=now)
    total = rows.count()
    page = rows.select_related("player").order_by("-rating", "rd", "player_id")[offset : offset + limit]
    results = []
    for rank, row in enumerate(page, start=offset + 1):
        rating = current_rating(row, now=now)
        results.append(
            {
                "rank": rank,
                "player": player_json(row.player),
                **rating_json(rating),
                "games": row.games,
            }
        )
    return {"count": total, "limit": limit, "offset": offset, "results": results}


# --- a player's page -----------------------------------------------------------------------------
def _history(player: Player) -> list[dict[str, Any]]:
    return [
        {
            "game": str(change.game_id),
            "at": iso(change.rated_at),
            "rating": round(change.rating_after, CHANGE_DECIMALS),
            "rd": round(change.rd_after, CHANGE_DECIMALS),
        }
        for change in RatingChange.objects.filter(player=player).order_by("rated_at", "id")
    ]


def changes_of(player_id: UUID, game_ids: Iterable[UUID]) -> dict[UUID, RatingChange]:
    """What each of these games did to the player's rating, by game id (unrated games are missing)."""
    return {change.game_id: change for change in RatingChange.objects.filter(player_id=player_id, game_id__in=game_ids)}


def player_rating_page(player: Player, *, now: datetime) -> dict[str, Any]:
    """The rating part of a player's page: rating now, record, and the history (one point per rated game,
    oldest first: the rating and RD right after it)."""
    row = PlayerRating.objects.filter(player=player).first()
    return {
        **rating_json(current_rating(row, now=now)),
        "games": row.games if row else 0,
        "wins": row.wins if row else 0,
        "draws": row.draws if row else 0,
        "losses": row.losses if row else 0,
        "last_rated_at": iso(row.last_rated_at) if row else None,
        "history": _history(player),
    }


def rated_games(player_id: UUID) -> int:
    """How many rated games the player has played."""
    return int(PlayerRating.objects.filter(player_id=player_id).values_list("games", flat=True).first() or 0)
