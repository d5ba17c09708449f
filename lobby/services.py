"""Every state change of rooms and seats: one transaction each.

A service locks the room row, validates, writes, bumps the room's ``version`` and, on commit, has the
new snapshot sent to the room. Services take ``now``; only the edges read the clock.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from common.errors import Refused
from games.models import EndReason
from games.services import game_abandon, game_hand_over
from lobby import events, lobby_events, scheduling
from lobby.models import SEAT_NUMBERS, Connection, Room, Seat, new_room_code
from lobby.rules import HouseRules
from players.models import Player

log = logging.getLogger(__name__)

BANNED_MESSAGE = "This player is banned by a moderator: it cannot play or watch here."


# --- rooms ---------------------------------------------------------------------------------------
def lock_room(code: str) -> Room:
    """The open room with this code, its row locked until the transaction ends.

    Raises:
        Refused(no_room): no open room has this code.
    """
    try:
        return Room.objects.select_for_update().get(code=code, closed_at=None)
    except Room.DoesNotExist:
        raise Refused("no_room", f"There is no open room {code}.") from None


def room_code(room_id: object) -> str:
    """The code of the room with this id (open or closed)."""
    return str(Room.objects.values_list("code", flat=True).get(pk=room_id))


def room_touch(room: Room, *, now: datetime) -> None:
    """Record that ``room`` changed: bump its version, and send the snapshot once committed."""
    room.version += 1
    room.last_activity_at = now
    room.save(update_fields=["version", "last_activity_at"])
    events.room_changed_on_commit(room.code)


def room_create(*, host: Player, rules: Mapping[str, Any], now: datetime, guest: Player | None = None) -> Room:
    """A new room with ``host`` in seat 1 and the given house rules (defaults for the rest); ``guest``,
    when given (quick pairing), sits in seat 2 from the start.

    Raises:
        Refused: bad_rules (a rule out of range), banned (the host is banned).
    """
    if host.is_banned:
        raise Refused("banned", BANNED_MESSAGE)
    house = HouseRules().updated(rules)
    for _ in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=new_room_code(), host=host, created_at=now, last_activity_at=now,
                    open_since=now if house.open else None, **house.as_dict()
                )
                Seat.objects.bulk_create(
                    [Seat(room=room, number=n, player=host if n == 1 else guest) for n in SEAT_NUMBERS]
                )
                return room
        except IntegrityError:  # a code already in use: draw again
            continue
    raise RuntimeError("could not find a free room code")


def room_set_rules(*, code: str, player: Player, changes: Mapping[str, Any], now: datetime) -> None:
    """The host changes house rules between games.

    Raises:
        Refused: no_room, not_host, game_not_over, bad_rules.
    """
    with transaction.atomic():
        room = lock_room(code)
        if room.host_id != player.id:
            raise Refused("not_host", "Only the host can change the house rules.")
        if scheduling.current_game_playing(room) is not None:
            raise Refused("game_not_over", "House rules change between games, not during one.")
        before = HouseRules.of(room)
        house = before.updated(changes)
        for field, value in house.as_dict().items():
            setattr(room, field, value)
        if house.open and not before.open:
            room.open_since = now  # listed in the lobby as waiting since now
        room.save(update_fields=[*house.as_dict(), "open_since"])
        room_touch(room, now=now)


def _seat_of(room: Room, player: Player) -> Seat | None:
    return room.seats.filter(player=player).first()


def room_sit(*, code: str, player: Player, now: datetime) -> int:
    """Seat ``player`` in the lowest free seat; returns the seat number (theirs already, if seated).

    A seat is free when nobody sits there and the CPU is not playing it in a running game.

    Raises:
        Refused: no_room, seat_taken.
    """
    with transaction.atomic():
        room = lock_room(code)
        mine = _seat_of(room, player)
        if mine is not None:
            return mine.number
        playing = scheduling.current_game_playing(room)
        for seat in room.seats.select_for_update().order_by("number"):
            if seat.player_id is None and not (seat.cpu and playing is not None):
                seat.player = player
                seat.cpu = False
                seat.away = False
                seat.wants_again = False
                seat.timeouts_in_row = 0
                seat.disconnected_at = None if _is_connected(room, player, now) else now
                seat.save()
                room_touch(room, now=now)
                return seat.number
        raise Refused("seat_taken", "Both seats are taken.")


def room_stand(*, code: str, player: Player, now: datetime) -> None:
    """``player`` gives up their seat (not while their game is being played).

    Raises:
        Refused: no_room, no_seat, game_not_over.
    """
    with transaction.atomic():
        room = lock_room(code)
        seat = _seat_of(room, player)
        if seat is None:
            raise Refused("no_seat", "You have no seat in this room.")
        if scheduling.current_game_playing(room) is not None:
            raise Refused("game_not_over", "You cannot leave your seat during your game; resign first.")
        seat.player = None
        seat.wants_again = False
        seat.away = False
        seat.disconnected_at = None
        seat.timeouts_in_row = 0
        seat.save()
        room_touch(room, now=now)


def _close_locked(room: Room, *, reason: EndReason, now: datetime) -> None:
    """Close ``room`` (its row locked): its game being played ends as abandoned (unrated), its presence is
    forgotten, and once committed its open sockets get the last snapshot and are closed."""
    game = scheduling.current_game_playing(room)
    if game is not None:
        game_abandon(game, reason=reason, now=now)
    room.closed_at = now
    room.version += 1
    room.save(update_fields=["closed_at", "version"])
    Connection.objects.filter(room=room).delete()
    events.room_closed_on_commit(room.code)
    lobby_events.lists_changed_on_commit()  # a closed room leaves the lobby's lists
    log.info("room %s closed (%s)%s", room.code, reason.value,
             f", game {game.pk} abandoned" if game is not None else "", extra={"room": room.code})


def room_close(*, code: str, now: datetime, reason: EndReason = EndReason.CLOSED) -> bool:
    """Close the open room ``code`` on purpose (a moderator, say). Returns False if no open room has it."""
    with transaction.atomic():
        try:
            room = lock_room(code)
        except Refused:
            return False
        _close_locked(room, reason=reason, now=now)
    return True


def rooms_close_idle(*, now: datetime, idle: timedelta) -> list[str]:
    """Close every open room with no activity since ``now - idle``; returns their codes.

    A game left unfinished in one ends as abandoned (reason ``idle``), unrated.
    """
    cutoff = now - idle
    codes = list(Room.objects.filter(closed_at=None, last_activity_at__lt=cutoff).values_list("code", flat=True))
    closed = []
    for code in codes:
        with transaction.atomic():
            idle_rooms = Room.objects.select_for_update().filter(closed_at=None, last_activity_at__lt=cutoff)
            room = idle_rooms.filter(code=code).first()
            if room is None:  # something happened there since the first look
                continue
            _close_locked(room, reason=EndReason.IDLE, now=now)
            closed.append(code)
    return closed


# --- presence ------------------------------------------------------------------------------------
def _live_since(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.PING_TIMEOUT_SECONDS)


def _is_connected(room: Room, player: Player, now: datetime) -> bool:
    return Connection.objects.filter(room=room, player=player, last_seen_at__gte=_live_since(now)).exists()


def connection_open(*, code: str, channel_name: str, player: Player | None, now: datetime) -> None:
    """A websocket to the room opened. A seated player returning takes their seat back at once.

    Raises:
        Refused: no_room (no room has this code), room_closed, banned (the player is banned).
    """
    with transaction.atomic():
        try:
            room = lock_room(code)
        except Refused:
            if Room.objects.filter(code=code).exists():
                raise Refused("room_closed", f"Room {code} was closed.") from None
            raise
        # The player's row stays locked until commit, so a ban committing meanwhile is either seen here
        # or sees this connection (and closes it).
        if player is not None:
            banned_at = Player.objects.select_for_update().filter(pk=player.pk).values_list("banned_at", flat=True)
            if banned_at.first() is not None:
                log.info("refused a socket of a banned player")  # the socket's context names room and player
                raise Refused("banned", BANNED_MESSAGE)
        Connection.objects.update_or_create(
            channel_name=channel_name,
            defaults={"room": room, "player": player, "opened_at": now, "last_seen_at": now},
        )
        seat = _seat_of(room, player) if player is not None else None
        if seat is not None:
            seat.disconnected_at = None
            if seat.away:
                seat.away = False
                seat.timeouts_in_row = 0
                events.notice_on_commit(room.code, "back", seat.number)
            seat.save(update_fields=["disconnected_at", "away", "timeouts_in_row"])
        scheduling.reschedule(room, now=now)
        room_touch(room, now=now)


def connection_close(*, channel_name: str, now: datetime) -> None:
    """A websocket closed (or went silent). A seat whose player has no other connection is disconnected."""
    with transaction.atomic():
        conn = Connection.objects.select_related("room").filter(channel_name=channel_name).first()
        if conn is None:
            return
        room = lock_room(conn.room.code) if conn.room.closed_at is None else None
        conn.delete()
        if room is None:
            return
        if conn.player_id is not None and not Connection.objects.filter(
            room=room, player_id=conn.player_id, last_seen_at__gte=_live_since(now)
        ).exists():
            room.seats.filter(player_id=conn.player_id, disconnected_at=None).update(disconnected_at=now)
        scheduling.reschedule(room, now=now)
        room_touch(room, now=now)


def connection_seen(*, code: str, channel_name: str, player: Player | None, now: datetime) -> None:
    """A sign of life (a ping or any frame) on an open connection.

    A connection swept as silent (a stalled process, say) that speaks again is opened anew, so its
    seat is connected again rather than stuck disconnected behind a live socket.
    """
    if not Connection.objects.filter(channel_name=channel_name).update(last_seen_at=now):
        connection_open(code=code, channel_name=channel_name, player=player, now=now)


def connections_sweep(*, now: datetime) -> int:
    """Close connections silent for longer than the ping timeout (their process may have died)."""
    stale = list(
        Connection.objects.filter(last_seen_at__lt=_live_since(now)).values_list("channel_name", flat=True)[:200]
    )
    for channel_name in stale:
        connection_close(channel_name=channel_name, now=now)
    return len(stale)


# --- hooks from the layers below ---------------------------------------------------------------------
def rooms_player_renamed(player: Player) -> None:
    """Registered with the players' rename hooks: the open rooms that seat ``player`` are sent again."""
    for code in Room.objects.filter(seats__player=player, closed_at=None).values_list("code", flat=True):
        events.room_changed_on_commit(code)


def rooms_player_banned(player: Player) -> None:
    """Registered with the players' ban hooks: every open websocket of ``player`` is closed (4403)."""
    channels = list(Connection.objects.filter(player=player).values_list("channel_name", flat=True))
    events.sockets_refuse_on_commit(channels, Refused("banned", BANNED_MESSAGE))


def rooms_guest_replaced(guest: Player, account: Player, now: datetime) -> None:
    """Registered with the accounts' guest hooks: a device's ``guest`` logged into ``account``.

    In each open room the guest sits in or hosts, the account takes its place: its seat (and its colour
    in the game being played) and the host's role. A room where the account already has the other seat
    is closed instead (its game abandoned): one person cannot hold both seats. The guest's open sockets
    are closed with 4409, so the page reconnects as the account's player.
    """
    codes = set(Room.objects.filter(closed_at=None, seats__player=guest).values_list("code", flat=True))
    codes |= set(Room.objects.filter(closed_at=None, host=guest).values_list("code", flat=True))
    for code in sorted(codes):  # one order for every such change: no deadlock between two of them
        try:
            room = lock_room(code)
        except Refused:  # closed since the first look: nothing to hand over
            continue
        seat = _seat_of(room, guest)
        if seat is not None and _seat_of(room, account) is not None:
            _close_locked(room, reason=EndReason.CLOSED, now=now)
            continue
        if seat is not None:
            seat.player = account
            seat.disconnected_at = None if _is_connected(room, account, now) else (seat.disconnected_at or now)
            seat.save(update_fields=["player", "disconnected_at"])
            game = scheduling.current_game_playing(room)
            if game is not None:
                game_hand_over(game, from_player_id=guest.pk, to_player_id=account.pk)
        if room.host_id == guest.pk:
            room.host = account
            room.save(update_fields=["host"])
        scheduling.reschedule(room, now=now)
        room_touch(room, now=now)
        log.info("room %s handed over from guest %s", code, guest.pk, extra={"room": code, "player": account.pk})
    channels = list(Connection.objects.filter(player=guest).values_list("channel_name", flat=True))
    events.sockets_refuse_on_commit(
        channels, Refused("player_changed", "This device logged into an account: reconnecting as its player.")
    )
