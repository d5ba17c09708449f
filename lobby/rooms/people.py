"""The friends list: the accounts a player follows, who of them is online and who is playing now.

Online means a page of theirs is open on some server process: any page socket (room, lobby, arena, or the
player socket of a page with none of those), or a bot's game stream. Each process publishes the players
it holds a page socket of in the shared cache (Redis with ``REDIS_URL``): a key per player, set when
their first socket on that process opens, renewed every ``ONLINE_RENEW_SECONDS`` while one is open, and
deleted when the last one closes (``lobby.realtime.online``), so nothing is written per idle socket; a
key a dead process left lapses after ``ONLINE_LAPSE_SECONDS``. A bot's game stream is a connection as
presence records it (:class:`lobby.models.Connection` of a live process). Playing means a seat in a game
being played; the list gives its room to watch. Three queries for the whole list (the follows, the
connections, the games), one for the ratings and one read of the cache. So online reads both presences
(docs/architecture.md, "Two presences"): the cache keys of online presence, and the rows of room
presence for the bots' streams, which open no page socket.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Collection
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from redis.exceptions import RedisError

from games.models import Game, GameStatus
from lobby.models import Connection, ServerProcess
from lobby.rooms.connections import heartbeat_lapse
from players.models import Player
from players.social import following_of
from ratings.selectors import rating_json, ratings_of

log = logging.getLogger(__name__)

# A process renews the keys of the players it holds this often; a key not renewed lapses after the other.
ONLINE_RENEW_SECONDS = 10.0
ONLINE_LAPSE_SECONDS = 30


def online_key(player_id: uuid.UUID | str) -> str:
    return f"online:{player_id}"


def online_publish(*, here: Collection[str], gone: Collection[str]) -> None:
    """This process holds a page socket of the players ``here`` and no longer of those ``gone``. An
    unreachable cache is logged and skipped (the next renewal puts it right)."""
    try:
        if here:
            cache.set_many({online_key(player_id): 1 for player_id in here}, timeout=ONLINE_LAPSE_SECONDS)
        if gone:
            cache.delete_many([online_key(player_id) for player_id in gone])
    except RedisError as exc:
        log.warning("who is online not published: the cache is unreachable (%s)", exc)


def online_among(player_ids: Collection[uuid.UUID], *, now: datetime) -> set[uuid.UUID]:
    """Those of ``player_ids`` with a page socket open on some process, or a bot's game stream."""
    ids = list(player_ids)
    if not ids:
        return set()
    try:
        keys = cache.get_many([online_key(player_id) for player_id in ids])
    except RedisError as exc:
        log.warning("who is online not read: the cache is unreachable (%s)", exc)
        keys = {}
    online = {player_id for player_id in ids if online_key(player_id) in keys}
    live = ServerProcess.objects.filter(swept=False, beat_at__gte=now - heartbeat_lapse()).values("id")
    rows = Connection.objects.filter(player_id__in=[i for i in ids if i not in online], process__in=live)
    return online | set(rows.values_list("player_id", flat=True).distinct())


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
