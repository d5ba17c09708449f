"""What correspondence play reads: a player's games (their turn, or waiting) and the open seeks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from common.iso import iso
from correspondence.models import CorrespondenceSeek
from games.models import Game, GameStatus
from players.models import Player
from ratings.selectors import rating_json, ratings_of

# Games listed at most (a person plays a few at a time; a hundred is many).
MAX_GAMES = 200
SEEKS_PER_PAGE = 20


def _player_json(player: Player | None, rating: dict[str, Any] | None, *,
                 cpu_level: int | None = None) -> dict[str, Any]:
    if player is None:
        return {"id": None, "name": gettext("CPU level %(level)s") % {"level": cpu_level}, "rating": None,
                "bot": False, "cpu": True}
    return {"id": str(player.pk), "name": player.name, "rating": rating, "bot": player.is_bot, "cpu": False}


def my_games(player: Player, *, now: datetime) -> dict[str, list[dict[str, Any]]]:
    """The games ``player`` is playing: ``{"your_turn": [...], "waiting": [...]}``, live and correspondence
    alike; ``your_turn`` soonest deadline first (no deadline last), ``waiting`` newest move first."""
    games = list(Game.objects.filter(Q(red_player=player) | Q(yellow_player=player), status=GameStatus.PLAYING)
                 .select_related("room", "red_player", "yellow_player")
                 .order_by("-turn_started_at")[:MAX_GAMES])
    opponents = [game.yellow_player if game.red_player_id == player.pk else game.red_player for game in games]
    ratings = ratings_of([o.pk for o in opponents if o is not None], now=now)
    yours: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    for game, opponent in zip(games, opponents, strict=True):
        colour = "red" if game.red_player_id == player.pk else "yellow"
        if game.red_player_id == game.yellow_player_id:  # a player seated twice plays both colours
            colour = game.to_move_colour or colour
        moves = game.record.split()
        item = {
            "room": game.room.code, "game": str(game.pk),
            "opponent": _player_json(opponent, rating_json(ratings[opponent.pk]) if opponent is not None else None,
                                     cpu_level=game.cpu_level),
            "colour": colour, "days_per_move": game.days_per_move, "turn_seconds": game.turn_seconds,
            "deadline": iso(game.deadline), "ply": game.ply,
            "last_move": moves[-1] if moves else None, "moves": moves,
        }
        (yours if game.to_move_colour == colour else waiting).append(item)
    yours.sort(key=lambda item: (item["deadline"] is None, item["deadline"] or ""))
    return {"your_turn": yours, "waiting": waiting}


def seeks_json(seeks: list[CorrespondenceSeek], *, now: datetime) -> list[dict[str, Any]]:
    """The seeks as the API has them: ``rating`` the seeker's when they sought, ``display`` it as people read
    it, with the ``?`` of a rating still provisional (the seeker's rating at ``now``; one query)."""
    ratings = ratings_of([seek.player_id for seek in seeks], now=now)
    return [{"id": seek.pk, "player": {"id": str(seek.player_id), "name": seek.player.name},
             "days_per_move": seek.days_per_move, "ranked": seek.ranked, "rating": round(seek.rating),
             "display": f"{round(seek.rating)}{'?' if ratings[seek.player_id].is_provisional else ''}",
             "created_at": iso(seek.created_at)} for seek in seeks]


def seeks_open(*, now: datetime) -> QuerySet[CorrespondenceSeek]:
    """The seeks still waiting at ``now``, newest first."""
    return CorrespondenceSeek.objects.filter(expires_at__gt=now).select_related("player").order_by("-created_at", "-pk")


def seeks_waiting(*, now: datetime) -> int:
    """How many seeks wait at ``now`` (at most 2 counted: the wave needs two)."""
    return len(CorrespondenceSeek.objects.filter(expires_at__gt=now).values_list("pk", flat=True)[:2])


def warnings_next_at() -> datetime | None:
    """When the next player whose correspondence time runs out is to be told (None: nobody)."""
    return (Game.objects.filter(warn_at__isnull=False, status=GameStatus.PLAYING).order_by("warn_at")
            .values_list("warn_at", flat=True).first())


def seeks_page(*, now: datetime, page: int) -> tuple[list[dict[str, Any]], bool]:
    """One page of the open seeks, newest first, and whether another follows."""
    start = (page - 1) * SEEKS_PER_PAGE
    rows = list(seeks_open(now=now)[start:start + SEEKS_PER_PAGE + 1])
    return seeks_json(rows[:SEEKS_PER_PAGE], now=now), len(rows) > SEEKS_PER_PAGE
