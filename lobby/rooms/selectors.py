"""Reads of rooms: the room snapshot every client sees (its JSON: :mod:`lobby.protocol.snapshot`), a
room's seats and their ratings, its current game, the spectators, and a player's rooms.

A snapshot is built from the rows a service already holds under the room's lock where it can be
(:func:`snapshot_of`), so a change costs no second read of the room; a crowd joining a room at one
version shares one snapshot per process (:class:`RecentSnapshots`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from common.rows import Rows
from games.models import Game, GameStatus
from games.selectors import room_latest_game
from lobby import timers
from lobby.models import Connection, Room, Seat
from lobby.protocol.snapshot import room_json
from lobby.rooms.rules import HouseRules
from players.models import Player
from ratings import glicko2
from ratings.selectors import CHANGE_DECIMALS, rating_json, ratings_of


def room_snapshot(code: str, *, now: datetime | None = None, include_closed: bool = False) -> dict[str, Any] | None:
    """The room as everyone sees it, or None for an unknown room (and a closed one unless ``include_closed``:
    its last snapshot, sent to the sockets a closing room shuts).

    Read under the room's row lock, so that the version and what it describes belong together (every
    change of a room is written under that lock).
    """
    with transaction.atomic():
        rooms = Room.objects.select_for_update(no_key=True).filter(code=code)
        room = (rooms if include_closed else rooms.filter(closed_at=None)).first()
        if room is None:
            return None
        return snapshot_of(room, game=current_game(room), now=now or timezone.now())


def snapshot_of(room: Room, *, game: Game | None, now: datetime, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The snapshot of ``room`` built from the rows the caller holds.

    ``game``: the room's current game (None before the first); ``seats``: the room's seats with their
    players (read when not given). The caller holds the room's lock, so the rows are the ones the
    snapshot's version describes.
    """
    if seats is None:
        seats = room_seats(room)
    current = game
    ratings = seat_ratings(room=room, seats=seats, game=current, now=now)
    return room_json(room=room, rules=HouseRules.of(room).as_dict(), seats=seats, ratings=ratings, game=current)


class RecentSnapshots:
    """The last snapshots read in this process, by room code and version, each reused for ``reuse`` after
    it was read (``now`` is the caller's clock): every join of a spectator sends the room as it is, and a
    room's version changes with everything the room shows, so joins at one version can share one read.
    (The reuse is bounded because a snapshot also shows what depends on the time: ratings' deviations.)
    Used from every database thread at once: guarded by a lock. At most ``size`` rooms are kept."""

    def __init__(self, *, reuse: timedelta, size: int = 1024) -> None:
        self.reuse = reuse
        self.size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[int, datetime, dict[str, Any]]] = OrderedDict()

    def get(self, code: str, version: int, *, now: datetime) -> dict[str, Any] | None:
        """The snapshot of room ``code`` at ``version`` read within ``reuse`` of ``now``, if kept."""
        with self._lock:
            kept = self._kept.get(code)
        if kept is None or kept[0] != version or not kept[1] <= now < kept[1] + self.reuse:
            return None
        return kept[2]

    def put(self, code: str, version: int, snapshot: dict[str, Any], *, now: datetime) -> None:
        """Keep ``snapshot``, read at ``now``, as room ``code``'s at ``version`` (its callers never change it)."""
        with self._lock:
            self._kept[code] = (version, now, snapshot)
            self._kept.move_to_end(code)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


# What a join of a spectator sends (lobby.rooms.connections); one second of reuse is what the spectator
# count already lags by (it is refreshed at most once a second).
SPECTATOR_SNAPSHOTS = RecentSnapshots(reuse=timedelta(seconds=1))


def current_game(room: Room) -> Game | None:
    """The room's latest game (playing or over), None before its first."""
    return room_latest_game(room.pk)


def current_game_playing(room: Room) -> Game | None:
    """The room's game being played now, if any."""
    game = current_game(room)
    return game if game is not None and game.status == GameStatus.PLAYING else None


def players_in_play(player_ids: Collection[UUID], *, now: datetime) -> set[UUID]:
    """Those of ``player_ids`` who are in a game being played now: seated in its room, there (a live
    connection) or gone for less than the grace period, the CPU not standing in for them. A game left for
    longer is not theirs to play any more (the CPU plays it, or it waits for them); arenas pair them again.
    """
    playing = Game.objects.filter(room_id=OuterRef("room_id"), status=GameStatus.PLAYING)
    present = Q(disconnected_at__isnull=True) | Q(disconnected_at__gt=now - timers.grace_period())
    seats = Seat.objects.filter(player_id__in=list(player_ids), cpu=False, away=False, room__closed_at=None)
    return set(seats.filter(present).filter(Exists(playing)).values_list("player_id", flat=True))


_SEATS = Rows(Seat)
_PLAYERS = Rows(Player)


def room_seats(room: Room) -> list[Seat]:
    """The room's two seats with their players, in seat order (one query).

    On every move's path: SQL written once (:mod:`common.rows`), not a queryset compiled each time.
    """
    seats, players = _SEATS, _PLAYERS
    sql = seats.statement("with players", lambda: (
        f"SELECT {seats.columns('s')}, {players.columns('p')} FROM {seats.quoted(seats.table)} s "
        f"LEFT JOIN {players.quoted(players.table)} p ON p.{players.quoted('id')} = s.{seats.quoted('player_id')} "
        f"WHERE s.{seats.quoted('room_id')} = %s ORDER BY s.{seats.quoted('number')}"))
    rows = seats.execute(sql, [room.pk])
    found = []
    for row in rows:
        seat = seats.load(row)
        player = players.load(row, seats.width) if seat.player_id is not None else None
        Seat.player.field.set_cached_value(seat, player)  # as select_related("player") would
        Seat.room.field.set_cached_value(seat, room)
        found.append(seat)
    return found


def seat_ratings(*, room: Room, seats: list[Seat], game: Game | None, now: datetime) -> dict[int, dict[str, Any]]:
    """Each person's rating per seat number, with what a win, a draw and a loss would change it by.

    Shown while the room's games count: in a ranked room between games, and during a ranked game.
    During a game, and after it until its post-game work (its rating: ``games.postgame``) is done, they
    are the stakes fixed when it started (``Game.stakes``: no query); then they are read as they are ``now``.
    """
    if game is not None and (game.status == GameStatus.PLAYING or game.post_due is not None):
        return {int(number): entry for number, entry in game.stakes.items()}
    if not room.ranked:
        return {}
    return live_seat_ratings(seats, now=now)


def live_seat_ratings(seats: list[Seat], *, now: datetime,
                      ratings: Mapping[UUID, glicko2.Rating] | None = None) -> dict[int, dict[str, Any]]:
    """Each seated person's rating at ``now`` and what each result against the other seat would do.

    Seats without a person are left out (their ``rating`` is null). The changes are null while the
    other seat holds no person (no rated game can be played then). ``ratings``: the players' ratings at
    ``now`` if the caller read them already (for many rooms at once), else they are read.
    """
    people = {seat.number: seat.player_id for seat in seats if seat.player_id is not None}
    if not people:
        return {}
    if ratings is None:
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


def spectator_count(room: Room) -> int:
    """People watching: each unseated player once (however many tabs), each anonymous connection once."""
    seated = Seat.objects.filter(room=room, player__isnull=False).values("player_id")
    watchers = list(
        Connection.objects.filter(room=room).exclude(player_id__in=seated).values_list("player_id", flat=True)
    )
    return len({p for p in watchers if p is not None}) + sum(p is None for p in watchers)


def player_rooms(player: Player, *, limit: int = 5) -> list[dict[str, Any]]:
    """The open rooms where ``player`` has a seat, most recently active first ("continue your game")."""
    seats = (
        Seat.objects.filter(player=player, room__closed_at=None)
        .select_related("room")
        .order_by("-room__last_activity_at")[:limit]
    )
    rooms = []
    for seat in seats:
        game = current_game(seat.room)
        rooms.append(
            {
                "code": seat.room.code,
                "seat": seat.number,
                "playing": game is not None and game.status == GameStatus.PLAYING,
            }
        )
    return rooms
