"""Reads for the lobby: the open rooms with a free seat, and the games being played now.

Both are built in a fixed number of queries, whatever the number of rooms, because every lobby socket
of a process is sent them after every change (see :mod:`lobby.realtime.feed`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db.models import Exists, OuterRef, Q

from common.iso import iso
from games.models import Game, GameStatus
from lobby.models import Room, Seat
from lobby.protocol.snapshot import player_json
from ratings.glicko2 import Rating
from ratings.selectors import rating_json, ratings_of

OPEN_ROOMS_SHOWN = 20
LIVE_GAMES_SHOWN = 6
# A game nobody touched for this long (both players gone, say) is not shown as live.
LIVE_IDLE = timedelta(minutes=10)


@dataclass(frozen=True, slots=True)
class LobbyLists:
    """What the lobby socket sends as ``open_rooms`` and ``live_games``."""

    open_rooms: list[dict[str, Any]]
    live_games: list[dict[str, Any]]


def lobby_lists(*, now: datetime) -> LobbyLists:
    return LobbyLists(open_rooms=open_rooms(now=now), live_games=live_games(now=now)["results"])


def open_rooms(*, now: datetime, limit: int = OPEN_ROOMS_SHOWN) -> list[dict[str, Any]]:
    """Rooms open to anyone that someone could join now, longest waiting first.

    A room is listed while it is open, not closed, its host sits in it with a live connection to it,
    and the other seat is free (nobody there, and the CPU is not playing it in a running game: the
    same test as taking a seat). Each: ``code``, ``host`` (id, name), the host's ``rating``,
    ``turn_seconds``, ``ranked`` and ``since`` (when the host opened it).
    """
    rooms = list(Room.objects.filter(closed_at=None, open=True).select_related("host").order_by("open_since", "id"))
    if not rooms:
        return []
    ids = [room.pk for room in rooms]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(room_id__in=ids):
        seats[seat.room_id].append(seat)
    playing = set(Game.objects.filter(room_id__in=ids, status=GameStatus.PLAYING).values_list("room_id", flat=True))
    listed = []
    for room in rooms:
        mine = seats[room.pk]
        # A seat's connected state is kept on its row (lobby.rooms.connections: presence by process heartbeat).
        host_here = any(seat.player_id == room.host_id and seat.is_connected for seat in mine)
        free = any(seat.player_id is None and not (seat.cpu and room.pk in playing) for seat in mine)
        if host_here and free:
            listed.append(room)
        if len(listed) >= limit:
            break
    ratings = ratings_of([room.host_id for room in listed], now=now)
    return [
        {
            "code": room.code,
            "host": player_json(room.host),
            "rating": rating_json(ratings[room.host_id]),
            "turn_seconds": room.turn_seconds,
            "ranked": room.ranked,
            "since": iso(room.open_since or room.created_at),
        }
        for room in listed
    ]


# A seat of the game's room whose player has connected since the game started: a seated person counts as
# disconnected from the room's creation until they connect (lobby.rooms.services.room_create), so a seat
# still disconnected since before the start has not been there during the game.
_joined = Seat.objects.filter(room_id=OuterRef("room_id"), player__isnull=False).filter(
    Q(disconnected_at__isnull=True) | Q(disconnected_at__gt=OuterRef("started_at")))


def live_games(*, now: datetime, limit: int = LIVE_GAMES_SHOWN, offset: int = 0) -> dict[str, Any]:
    """Games between two people being played now, best-rated first: ``{"count", "limit", "offset", "results"}``;
    not correspondence games.

    "Best-rated" is the higher sum of both players' ratings; ties go to the game started last. A game
    is live while it is being played in an open room that changed within ``LIVE_IDLE``, once one of its players
    has connected to it (a room socket or a bot's game stream) since it started: a game two scripts start
    and never play is not shown. Each result:
    ``code`` (the room, to watch), ``game`` (id), ``number``, ``ranked``, ``turn_seconds``,
    ``started_at``, ``ply``, ``moves`` (peg names, for a board preview), and ``red`` and ``yellow``,
    each ``{"player": {"id", "name"}, "rating": {...}}``.
    """
    games = list(
        Game.objects.filter(
            status=GameStatus.PLAYING,
            red_cpu=False,
            yellow_cpu=False,
            red_player__isnull=False,
            yellow_player__isnull=False,
            room__closed_at=None,
            room__last_activity_at__gte=now - LIVE_IDLE,
            days_per_move__isnull=True,  # a correspondence game is played over days, not live
        ).filter(Exists(_joined)).select_related("room", "red_player", "yellow_player")
    )
    ratings = ratings_of({pid for game in games for pid in (game.red_player_id, game.yellow_player_id)}, now=now)

    def rating(player_id: UUID | None) -> Rating:
        assert player_id is not None  # the query keeps the games between two people
        return ratings[player_id]

    def strength(game: Game) -> float:
        return rating(game.red_player_id).rating + rating(game.yellow_player_id).rating

    games.sort(key=lambda game: (-strength(game), -game.started_at.timestamp(), str(game.pk)))
    page = games[offset : offset + limit]
    results = [
        {
            "code": game.room.code,
            "game": str(game.pk),
            "number": game.number,
            "ranked": game.ranked,
            "turn_seconds": game.turn_seconds,
            "started_at": iso(game.started_at),
            "ply": game.ply,
            "moves": game.record.split(),  # the row carries its record
            "red": {"player": player_json(game.red_player), "rating": rating_json(rating(game.red_player_id))},
            "yellow": {
                "player": player_json(game.yellow_player),
                "rating": rating_json(rating(game.yellow_player_id)),
            },
        }
        for game in page
    ]
    return {"count": len(games), "limit": limit, "offset": offset, "results": results}
