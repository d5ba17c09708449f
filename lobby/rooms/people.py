"""The friends list: the accounts a player follows, who of them is online and who is playing now.

Online means a page of theirs is open on some server process: a room socket (or a bot's game stream) of a
live process, as presence records them (:class:`lobby.models.Connection`, whose process's heartbeat has
not lapsed). Playing means a seat in a game being played; the list gives its room to watch. Three
queries for the whole list (the follows, the connections, the games) and one for the ratings.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import datetime
from typing import Any

from django.db.models import Q

from games.models import Game, GameStatus
from lobby.models import Connection, ServerProcess
from lobby.rooms.connections import heartbeat_lapse
from players.models import Player
from players.social import following_of
from ratings.selectors import rating_json, ratings_of


def online_among(player_ids: Collection[uuid.UUID], *, now: datetime) -> set[uuid.UUID]:
    """Those of ``player_ids`` with a connection held by a live server process."""
    live = ServerProcess.objects.filter(swept=False, beat_at__gte=now - heartbeat_lapse()).values("id")
    rows = Connection.objects.filter(player_id__in=list(player_ids), process__in=live)
    return set(rows.values_list("player_id", flat=True).distinct())


def playing_among(player_ids: Collection[uuid.UUID]) -> dict[uuid.UUID, dict[str, str]]:
    """For each of ``player_ids`` seated in a game being played: ``{"room": code, "game": id}``."""
    ids = list(player_ids)
    games = Game.objects.filter(Q(red_player_id__in=ids) | Q(yellow_player_id__in=ids), status=GameStatus.PLAYING)
    playing: dict[uuid.UUID, dict[str, str]] = {}
    for game_id, code, red, yellow in games.values_list("pk", "room__code", "red_player_id", "yellow_player_id"):
        for player_id in (red, yellow):
            if player_id in ids:
                playing.setdefault(player_id, {"room": code, "game": str(game_id)})
    return playing


def friends_of(player: Player, *, now: datetime) -> list[dict[str, Any]]:
    """The accounts ``player`` follows, online ones first, then by name: ``[{"player": {"id", "name",
    "rating", "bot"}, "online", "playing": {"room", "game"} | null}]`` (at most 1,000: as many as one
    may follow)."""
    followed = following_of(player)
    ids = [friend.pk for friend in followed]
    online = online_among(ids, now=now)
    playing = playing_among(ids)
    ratings = ratings_of(ids, now=now)
    friends = [
        {
            "player": {"id": str(friend.pk), "name": friend.name, "rating": rating_json(ratings[friend.pk]),
                       "bot": friend.is_bot},
            "online": friend.pk in online,
            "playing": playing.get(friend.pk),
        }
        for friend in followed
    ]
    return sorted(friends, key=lambda friend: not friend["online"])
