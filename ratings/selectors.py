"""Reads of ratings: a player's rating now, the room's seat ratings, the leaderboard and player pages.

Ratings shown are the ratings *now*: the stored RD grown for the days since the player's last rated game
(exactly what a game finishing now would be rated with), so an idle player turns provisional again.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Q

from games.models import Game, GameStatus
from games.selectors import iso
from lobby.models import Player, Room, Seat
from ratings import glicko2
from ratings.models import PlayerRating, RatingChange

CHANGE_DECIMALS = 2
RECENT_GAMES = 10


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


def ratings_of(player_ids: Iterable[object], *, now: datetime) -> dict[object, glicko2.Rating]:
    """The ratings at ``now`` of these players (defaults for those never rated), in one query."""
    ids = [pk for pk in player_ids if pk is not None]
    rows = {row.player_id: row for row in PlayerRating.objects.filter(player_id__in=ids)}
    return {pk: current_rating(rows.get(pk), now=now) for pk in ids}


# --- the room snapshot ---------------------------------------------------------------------------
def seat_ratings(*, room: Room, seats: list[Seat], game: Game | None, now: datetime) -> dict[int, dict[str, Any]]:
    """Each person's rating per seat number, with what a win, a draw and a loss would change it by.

    Shown while the room's games count: in a ranked room between games, and during a ranked game.
    Seats without a person are left out (their ``rating`` is null). The changes are null while the
    other seat holds no person (no rated game can be played then).
    """
    counts = game.ranked if (game is not None and game.status == GameStatus.PLAYING) else room.ranked
    people = {seat.number: seat.player_id for seat in seats if seat.player_id is not None}
    if not counts or not people:
        return {}
    ratings = ratings_of(people.values(), now=now)
    shown: dict[int, dict[str, Any]] = {}
    for number, player_id in people.items():
        mine = ratings[player_id]
        other_id = people.get(3 - number)
        entry = rating_json(mine)
        if other_id is None or other_id == player_id:
            entry.update(if_win=None, if_draw=None, if_loss=None)
        else:
            expected = glicko2.expected_changes(mine, ratings[other_id])
            entry.update(
                if_win=round(expected.win, CHANGE_DECIMALS),
                if_draw=round(expected.draw, CHANGE_DECIMALS),
                if_loss=round(expected.loss, CHANGE_DECIMALS),
            )
        shown[number] = entry
    return shown


# --- the leaderboard -----------------------------------------------------------------------------
def leaderboard(*, now: datetime, limit: int, offset: int, include_provisional: bool = False) -> dict[str, Any]:
    """One page of the leaderboard, best first: ``{"count", "limit", "offset", "results"}``.

    Only players with at least one rated game appear; provisional ones (RD now at or above 110) only
    when ``include_provisional``. Ties are broken by the smaller RD, then the player id, so pages never
    overlap. ``rank`` counts from 1 within the listed players.
    """
    rows = PlayerRating.objects.filter(games__gt=0)
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
                "player": {"id": str(row.player_id), "name": row.player.name},
                **rating_json(rating),
                "games": row.games,
            }
        )
    return {"count": total, "limit": limit, "offset": offset, "results": results}


# --- a player's page -----------------------------------------------------------------------------
def _result_word(score: float | None) -> str | None:
    return {1.0: "win", 0.5: "draw", 0.0: "loss"}.get(score) if score is not None else None


def _seat_score(game: Game, colour: str) -> float | None:
    if game.status == GameStatus.DRAWN:
        return 0.5
    if game.winner_seat is None:
        return None
    return 1.0 if game.colour_of_seat(game.winner_seat) == colour else 0.0


def _recent_games(player: Player, *, limit: int) -> list[dict[str, Any]]:
    games = list(
        Game.objects.filter(Q(red_player=player) | Q(yellow_player=player))
        .exclude(status=GameStatus.PLAYING)
        .select_related("red_player", "yellow_player")
        .order_by("-finished_at")[:limit]
    )
    changes = {
        change.game_id: change for change in RatingChange.objects.filter(player=player, game__in=[g.pk for g in games])
    }
    recent = []
    for game in games:
        colour = "red" if game.red_player_id == player.pk else "yellow"
        opponent = game.yellow_player if colour == "red" else game.red_player
        change = changes.get(game.pk)
        recent.append(
            {
                "id": str(game.id),
                "colour": colour,
                "opponent": None if opponent is None else {"id": str(opponent.id), "name": opponent.name},
                "opponent_cpu": game.yellow_cpu if colour == "red" else game.red_cpu,
                "result": _result_word(_seat_score(game, colour)),
                "rated": change is not None,
                "rating_before": None if change is None else round(change.rating_before, CHANGE_DECIMALS),
                "rating_after": None if change is None else round(change.rating_after, CHANGE_DECIMALS),
                "rating_change": None if change is None else round(change.change, CHANGE_DECIMALS),
                "finished_at": iso(game.finished_at),
            }
        )
    return recent


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


def player_profile(player_id: str, *, now: datetime, recent: int = RECENT_GAMES) -> dict[str, Any] | None:
    """A player's page: rating now, record, the ``recent`` last finished games and the rating history.

    The history has one point per rated game, oldest first (the rating and RD right after it).
    Returns None for an unknown or malformed id.
    """
    try:
        uuid.UUID(str(player_id))
    except ValueError:
        return None
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return None
    row = PlayerRating.objects.filter(player=player).first()
    return {
        "id": str(player.id),
        "name": player.name,
        "account": player.user_id is not None,
        **rating_json(current_rating(row, now=now)),
        "games": row.games if row else 0,
        "wins": row.wins if row else 0,
        "draws": row.draws if row else 0,
        "losses": row.losses if row else 0,
        "last_rated_at": iso(row.last_rated_at) if row else None,
        "recent_games": _recent_games(player, limit=recent),
        "history": _history(player),
    }
