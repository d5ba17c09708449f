"""Every state change of rooms and seats: one transaction each (presence: :mod:`lobby.rooms.connections`).

A service locks the room row, validates, writes, bumps the room's ``version``, builds the new
snapshot from what it holds and, on commit, has it sent to the room. Services take ``now``; only the
edges read the clock.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext, gettext_lazy

from common.errors import Refused
from common.rows import Rows
from games.endings import game_abandon
from games.models import EndReason, Game, GameStatus
from games.services import Guard
from lobby import events
from lobby.models import SEAT_NUMBERS, Connection, Room, Seat, new_room_code
from lobby.rooms.rules import HouseRules
from lobby.rooms.selectors import current_game, current_game_playing, room_seats, snapshot_of, spectator_count
from players.models import Player
from players.services import refuse_bots

log = logging.getLogger(__name__)

BANNED_MESSAGE = gettext_lazy("This player is banned by a moderator: it cannot play or watch here.")

_ROOMS = Rows(Room)
# How far behind a room's ``last_activity_at`` may be after a move (what reads it: the live games list,
# 10 minutes; a player's rooms in order; the idle close, 24 hours). Written at most this often by moves,
# the move's room update leaves every indexed column as it was, so PostgreSQL makes it a HOT update: no
# new index entries, no dead ones piling up in the indexes between vacuums (with one on every move, a
# room's code lookup slowed down over a minute of play, ``docs/benchmarks.md``).
ACTIVITY_GRANULARITY = timedelta(seconds=60)


# --- rooms ---------------------------------------------------------------------------------------
def room_lock(code: str, *, changed_at: datetime | None = None) -> Room:
    """The open room with this code, its row locked until the transaction ends: the one room lock.

    Without ``changed_at``: PostgreSQL's ``FOR NO KEY UPDATE``, as an ``UPDATE`` of the row takes: it
    excludes every other change of the room, but not the key-share lock that a new row referring to the
    room (a spectator's connection) takes, so a spectator joining never waits for a change of the room.

    With ``changed_at``, for a service that changes the room whenever it succeeds (a move): the lock and the
    version bump are one ``UPDATE ... RETURNING`` (PostgreSQL, SQLite 3.35+); a refusal raised afterwards
    rolls the transaction back, and the bump with it. The returned room carries the new version; its
    ``last_activity_at`` becomes ``changed_at`` if it was more than ``ACTIVITY_GRANULARITY`` older. (A
    change made from a room read without a lock bumps it the same way: :func:`room_change_guard`.)

    Raises:
        Refused(no_room): no open room has this code.
    """
    if changed_at is not None:
        return _room_lock_bumped(code, now=changed_at)
    try:
        return Room.objects.select_for_update(no_key=True).get(code=code, closed_at=None)
    except Room.DoesNotExist:
        raise _no_room(code) from None


def _no_room(code: str) -> Refused:
    return Refused("no_room", gettext("There is no open room %(code)s.") % {"code": code})


def _bump_sql(rooms: Rows[Room], key: str, where: str, returning: str) -> str:
    """The ``UPDATE`` that bumps a room's version and, at most every ``ACTIVITY_GRANULARITY``, its activity
    time (its parameters: the granularity's start, the time, then those of ``where``)."""
    version, activity = rooms.quoted("version"), rooms.quoted("last_activity_at")
    return rooms.statement(key, lambda: (
        f"UPDATE {rooms.quoted(rooms.table)} SET {version} = {version} + 1, {activity} = CASE WHEN {activity} < %s "
        f"THEN %s ELSE {activity} END WHERE {where} AND {rooms.quoted('closed_at')} IS NULL RETURNING {returning}"))


def _room_lock_bumped(code: str, *, now: datetime) -> Room:
    rooms = _ROOMS
    sql = _bump_sql(rooms, "lock for change", f"{rooms.quoted('code')} = %s", rooms.columns(rooms.quoted(rooms.table)))
    found = rooms.execute(sql, [rooms.prep("last_activity_at", now - ACTIVITY_GRANULARITY),
                                rooms.prep("last_activity_at", now), code])
    if not found:
        raise _no_room(code)
    return rooms.load(found[0])


def room_change_guard(room: Room, *, now: datetime) -> Guard:
    """What :func:`room_lock` with ``changed_at`` does, for a change made from ``room`` as this process holds
    it (read earlier, not locked): one ``UPDATE ... RETURNING`` that bumps the version only while it is
    still ``room.version`` and the room open, returning the new version and activity time (no row when
    the room changed since). A guard for :func:`games.services.game_move_write`: the change and the bump
    land in one statement, or neither does."""
    rooms = _ROOMS
    version = rooms.quoted("version")
    sql = _bump_sql(rooms, "change guard", f"{rooms.quoted('id')} = %s AND {version} = %s",
                    f"{version}, {rooms.quoted('last_activity_at')}")
    return Guard(sql, [*rooms.values(("last_activity_at", "last_activity_at"), (now - ACTIVITY_GRANULARITY, now)),
                       room.pk, room.version])


def room_guarded(room: Room, row: tuple[Any, ...]) -> None:
    """``room`` as the row of its :func:`room_change_guard` left it (its new version and activity time)."""
    room.version = row[0]
    room.last_activity_at = _ROOMS.load_field("last_activity_at", row[1])


def room_code(room_id: int) -> str:
    """The code of the room with this id (open or closed)."""
    return str(Room.objects.values_list("code", flat=True).get(pk=room_id))


_READ = object()  # room_touch's game when the caller holds none: it is read


def room_touch(room: Room, *, now: datetime, fields: tuple[str, ...] = (), recount: bool = True,
               extra: Mapping[str, Any] | None = None, game: Game | object | None = _READ,
               seats: list[Seat] | None = None) -> dict[str, Any]:
    """Record that ``room`` changed: bump its version (saving ``fields`` of the row with it), build the
    snapshot and have it sent once committed; returns the snapshot.

    The spectator count is recounted here too: a change (someone sitting down or standing up) may
    change who counts as a spectator. Call it last in the transaction, after every other write, with
    the room locked: the snapshot is read now, under the lock, so that it is exactly the state its
    version names. (``recount=False``: the caller has just recounted, or changed nobody's seat;
    ``extra``: keys the broadcast room frame carries beside the snapshot, such as ``taken_back``; ``game``
    and ``seats``: the room's current game and its seats with their players, when the caller holds them
    as they are now, else they are read.)
    """
    if recount:
        spectators_recount(room)
    room.version += 1
    room.last_activity_at = now
    room.save(update_fields=["version", "last_activity_at", "spectators", *(f for f in fields if f != "spectators")])
    current = current_game(room) if game is _READ else game
    assert current is None or isinstance(current, Game)
    return room_broadcast(room, game=current, now=now, extra=extra, seats=seats)


def room_broadcast(room: Room, *, game: Game | None, now: datetime, seats: list[Seat] | None = None,
                   extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Build the snapshot of ``room`` at its (already bumped) version from the rows the caller holds
    (with the ``extra`` keys of this one broadcast), and have it sent once committed; returns it."""
    snapshot = snapshot_of(room, game=game, now=now, seats=seats)
    if extra:
        snapshot = {**snapshot, **extra}
    events.snapshot_on_commit(room.code, snapshot)
    events.lists_changed_on_commit()  # the lobby's lists (open rooms, live games) are built from rooms
    return snapshot


def room_create_check(*, host: Player | None, rules: Mapping[str, object]) -> HouseRules:
    """The house rules a new room with ``rules`` would have, refused as :func:`room_create` would refuse
    it (``host`` None: a device that has no player yet), without writing anything.

    Raises:
        Refused: bad_rules (a rule out of range), banned (the host is banned).
    """
    if host is not None and host.is_banned:
        raise Refused("banned", str(BANNED_MESSAGE))
    return HouseRules().updated(rules)


def room_create(*, host: Player, rules: Mapping[str, object], now: datetime, guest: Player | None = None) -> Room:
    """A new room with ``host`` in seat 1 and the given house rules (defaults for the rest); ``guest``,
    when given (quick pairing), sits in seat 2 from the start.

    Raises:
        Refused: bad_rules (a rule out of range), banned (the host is banned).
    """
    return _room_insert(host=host, rules=rules, now=now, guest=guest)[0]


def room_create_shown(*, host: Player, rules: Mapping[str, object], now: datetime) -> dict[str, Any]:
    """:func:`room_create` (no guest), answered with the new room's snapshot, built from the rows just
    written (its first version, as any other read of it then would show it: nothing is read again).

    Raises:
        Refused: bad_rules (a rule out of range), banned (the host is banned).
    """
    room, seats = _room_insert(host=host, rules=rules, now=now, guest=None)
    return snapshot_of(room, game=None, now=now, seats=seats)


def _room_insert(*, host: Player, rules: Mapping[str, object], now: datetime,
                 guest: Player | None) -> tuple[Room, list[Seat]]:
    """The new room and its two seats, in seat order, with their players (see :func:`room_create`)."""
    house = room_create_check(host=host, rules=rules)
    for _ in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=new_room_code(), host=host, created_at=now, last_activity_at=now,
                    open_since=now if house.open else None, made_for_two=guest is not None, **house.as_dict()
                )
                # Nobody has connected yet: a seated person counts as disconnected until they do.
                seats = Seat.objects.bulk_create([
                    Seat(room=room, number=n, player=player, disconnected_at=None if player is None else now)
                    for n, player in zip(SEAT_NUMBERS, (host, guest), strict=True)
                ])
                return room, seats
        except IntegrityError:  # a code already in use: draw again
            continue
    raise RuntimeError("could not find a free room code")


def room_set_rules(*, code: str, player: Player, changes: Mapping[str, object], now: datetime) -> None:
    """The host changes house rules between games.

    Raises:
        Refused: no_room, not_host, game_not_over, bad_rules.
    """
    with transaction.atomic():
        room = room_lock(code)
        if room.host_id != player.id:
            raise Refused("not_host", gettext("Only the host can change the house rules."))
        if current_game_playing(room) is not None:
            raise Refused("game_not_over", gettext("House rules change between games, not during one."))
        before = HouseRules.of(room)
        house = before.updated(changes)
        for field, value in house.as_dict().items():
            setattr(room, field, value)
        if house.open and not before.open:
            room.open_since = now  # listed in the lobby as waiting since now
        room_touch(room, now=now, fields=(*house.as_dict(), "open_since"))


def seat_of(room: Room, player: Player) -> Seat | None:
    return room.seats.filter(player=player).first()


def room_sit(*, code: str, player: Player, now: datetime) -> int:
    """Seat ``player`` in the lowest free seat; returns the seat number (theirs already, if seated).

    A seat is free when nobody sits there and the CPU is not playing it in a running game. The room's
    seats (with their players) and its game are read once, under the room's lock (which every change of
    its seats takes first), and the snapshot is built from them.

    Raises:
        Refused: no_room, seat_taken, bot_account (bot accounts play challenges only).
    """
    with transaction.atomic():
        room = room_lock(code)
        seats = room_seats(room)
        mine = next((seat for seat in seats if seat.player_id == player.pk), None)
        if mine is not None:
            return mine.number
        refuse_bots(player)
        game = current_game(room)
        playing = game is not None and game.status == GameStatus.PLAYING
        lock_joins_of(player)
        for seat in seats:
            if seat.player_id is None and not (seat.cpu and playing):
                seat.player = player
                seat.cpu = False
                seat.away = False
                seat.wants_again = False
                seat.timeouts_in_row = 0
                seat.disconnected_at = None if has_connection(room, player) else now
                seat.save(update_fields=["player", "cpu", "away", "wants_again", "timeouts_in_row", "disconnected_at"])
                room_touch(room, now=now, game=game, seats=seats)
                return seat.number
        raise Refused("seat_taken", gettext("Both seats are taken."))


def lock_joins_of(player: Player) -> None:
    """Lock ``player``'s row until commit, after the rooms' locks, as a spectator's join locks it
    (``lobby.rooms.connections._open_as_spectator``): that join and a change seating ``player`` take
    turns, so the change's connection check sees a socket the player opens at this very moment, or the
    join sees the seat."""
    list(Player.objects.select_for_update().filter(pk=player.pk).values_list("pk", flat=True))


def room_stand(*, code: str, player: Player, now: datetime) -> None:
    """``player`` gives up their seat (not while their game is being played).

    Raises:
        Refused: no_room, no_seat, game_not_over.
    """
    with transaction.atomic():
        room = room_lock(code)
        seat = seat_of(room, player)
        if seat is None:
            raise Refused("no_seat", gettext("You have no seat in this room."))
        if current_game_playing(room) is not None:
            raise Refused("game_not_over", gettext("You cannot leave your seat during your game; resign first."))
        seat.player = None
        seat.wants_again = False
        seat.away = False
        seat.disconnected_at = None
        seat.timeouts_in_row = 0
        seat.save()
        room_touch(room, now=now)


def close_locked(room: Room, *, reason: EndReason, now: datetime) -> None:
    """Close ``room`` (its row locked): its game being played ends as abandoned (unrated), its presence is
    forgotten, and once committed its open sockets get the last snapshot and are closed."""
    game = current_game_playing(room)
    if game is not None:
        game_abandon(game, reason=reason, now=now)
    room.closed_at = now
    room.version += 1
    room.save(update_fields=["closed_at", "version"])
    Connection.objects.filter(room=room).delete()
    events.room_closed_on_commit(room.code, snapshot_of(room, game=current_game(room), now=now))
    events.lists_changed_on_commit()  # a closed room leaves the lobby's lists
    log.info("room %s closed (%s)%s", room.code, reason.value,
             f", game {game.pk} abandoned" if game is not None else "", extra={"room": room.code})


def room_close(*, code: str, now: datetime, reason: EndReason = EndReason.CLOSED) -> bool:
    """Close the open room ``code`` on purpose (a moderator, say). Returns False if no open room has it."""
    with transaction.atomic():
        try:
            room = room_lock(code)
        except Refused:
            return False
        close_locked(room, reason=reason, now=now)
    return True


def rooms_close_idle(*, now: datetime, idle: timedelta) -> list[str]:
    """Close every open room with no activity since ``now - idle``; returns their codes.

    A game left unfinished in one ends as abandoned (reason ``idle``), unrated. A room whose correspondence
    game is being played never idles: days between moves are how such a game is played.
    """
    cutoff = now - idle
    by_post = Game.objects.filter(room=OuterRef("pk"), status=GameStatus.PLAYING, days_per_move__isnull=False)
    idle_rooms = Room.objects.filter(closed_at=None, last_activity_at__lt=cutoff).exclude(Exists(by_post))
    codes = list(idle_rooms.values_list("code", flat=True))
    closed = []
    for code in codes:
        with transaction.atomic():
            idle_rooms = idle_rooms.select_for_update(of=("self",), no_key=True)
            room = idle_rooms.filter(code=code).first()
            if room is None:  # something happened there since the first look
                continue
            close_locked(room, reason=EndReason.IDLE, now=now)
            closed.append(code)
    return closed


# --- presence ------------------------------------------------------------------------------------
def has_connection(room: Room, player: Player) -> bool:
    """Whether ``player`` has a socket open in ``room``."""
    return Connection.objects.filter(room=room, player=player).exists()


def spectators_recount(room: Room) -> bool:
    """Count the room's spectators into ``room.spectators``; whether the count changed."""
    count = spectator_count(room)
    changed = count != room.spectators
    room.spectators = count
    return changed
