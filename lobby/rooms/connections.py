"""Room presence: the connections to each room and the server processes that hold them, one transaction each.
It is the first of two presences (docs/architecture.md, "Two presences"): which sockets are in a room and
whether a seat's player is connected, as database rows that outlive a crashed process until a live one
sweeps them; the other, who is online for the friends list, is cache keys (``lobby.realtime.online``).

A connection is a row naming the server process that holds its socket; it is live while
that process renews its heartbeat (:class:`lobby.models.ServerProcess`). Pings cost no database write.
A seat's connected state is kept on its row, changed only when its player's first connection opens,
their last one closes, or a dead process's connections are swept. People joining or leaving as
spectators change no seat: the count the room shows is refreshed at most about once a second
(:func:`room_refresh_spectators`, called by the process's presence loop).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from common.errors import Refused
from common.rows import Rows
from lobby import events, timers
from lobby.models import Connection, Room, Seat, ServerProcess
from lobby.rooms.selectors import SPECTATOR_SNAPSHOTS, current_game, room_seats, snapshot_of
from lobby.rooms.services import BANNED_MESSAGE, room_broadcast, room_lock, spectators_recount
from players.models import Player

# How long a swept process's row is kept (so that a late write of its cannot leave a connection that
# no sweep would find), before it is forgotten.
log = logging.getLogger(__name__)

FORGET_SWEPT_AFTER = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Opened:
    """A connection opened: the room as the new connection must first see it, and whether the joiner
    is a spectator (then the count the room shows is stale until the next refresh)."""

    snapshot: dict[str, Any]
    spectator: bool


def connection_open(*, code: str, channel_name: str, player: Player | None, process: str, now: datetime) -> Opened:
    """A websocket to the room opened in server process ``process`` (or opens again there, after its
    process was swept). A seated player returning takes their seat back at once: connected again, no
    longer away (the room hears ``back``), and the room gets the new snapshot.

    A spectator (anyone without a seat here) changes nothing the room shows but its count, refreshed
    later: their socket is recorded without the room's lock, so a crowd joining never queues the
    players' moves (see :func:`_open_as_spectator`).

    Raises:
        Refused: no_room (no room has this code), room_closed, banned (the player is banned).
    """
    if player is None or not Seat.objects.filter(room__code=code, player=player).exists():
        opened = _open_as_spectator(code=code, channel_name=channel_name, player=player, process=process, now=now)
        if opened is not None:
            return opened
    return _open_seated(code=code, channel_name=channel_name, player=player, process=process, now=now)


def _open_as_spectator(*, code: str, channel_name: str, player: Player | None, process: str,
                       now: datetime) -> Opened | None:
    """Record a spectator's socket without the room's lock; None when ``player`` turns out to be seated.

    The player's row is locked first, as a change seating the player does after the room's (``room_sit``,
    ``rooms_guest_replaced``): that change and this join of the same player take turns, so either the
    change sees this connection or this join sees the seat. The
    snapshot's reads are not under the room's lock: the room row is read first, so what follows is as
    new as its version or newer, never older, and a move frame a client cannot apply to it (its ply is
    already there) makes that client ask for the room again. For the same reason, a snapshot of the same
    version read by another join of this process a moment ago is as good as a new one (and says who sits:
    a seat taken since came with a new version).
    """
    with transaction.atomic():
        if player is not None:
            _refuse_if_banned(player)
        room = _open_room(code)
        snapshot = SPECTATOR_SNAPSHOTS.get(room.code, room.version, now=now)
        if snapshot is None:
            seats = room_seats(room)
            seated = player is not None and any(seat.player_id == player.id for seat in seats)
        else:
            seated = player is not None and any(
                seat["player"] is not None and seat["player"]["id"] == str(player.id) for seat in snapshot["seats"])
        if seated:
            return None  # seated meanwhile: the locked path
        _record_connection(channel_name=channel_name, room=room, player=player, process=process, now=now)
        if snapshot is None:
            snapshot = snapshot_of(room, game=current_game(room), now=now, seats=seats)
            SPECTATOR_SNAPSHOTS.put(room.code, room.version, snapshot, now=now)
        return Opened(snapshot, spectator=True)


def _open_seated(*, code: str, channel_name: str, player: Player | None, process: str, now: datetime) -> Opened:
    with transaction.atomic():
        try:
            room = room_lock(code)
        except Refused:
            _open_room(code)  # says whether the room was closed or never existed
            raise
        if player is not None:
            _refuse_if_banned(player)
        _record_connection(channel_name=channel_name, room=room, player=player, process=process, now=now)
        seats = room_seats(room)
        seat = next((s for s in seats if player is not None and s.player_id == player.id), None)
        game = current_game(room)
        if seat is None or (seat.disconnected_at is None and not seat.away):
            return Opened(snapshot_of(room, game=game, now=now, seats=seats), spectator=seat is None)
        seat.disconnected_at = None
        if seat.away:
            seat.away = False
            seat.timeouts_in_row = 0
            events.notice_on_commit(room.code, "back", seat.number)
        seat.save(update_fields=["disconnected_at", "away", "timeouts_in_row"])
        timers.reschedule(room, now=now, game=game, seats=seats)
        room.version += 1
        room.last_activity_at = now
        room.save(update_fields=["version", "last_activity_at"])
        return Opened(room_broadcast(room, game=game, now=now, seats=seats), spectator=False)


def _open_room(code: str) -> Room:
    """The open room ``code``, read without a lock.

    Raises:
        Refused: no_room (no room has this code), room_closed.
    """
    rooms = _ROOMS
    found = rooms.execute(rooms.statement("by code", lambda: (
        f"SELECT {rooms.columns(rooms.quoted(rooms.table))} FROM {rooms.quoted(rooms.table)} "
        f"WHERE {rooms.quoted('code')} = %s")), [code])
    room = rooms.load(found[0]) if found else None
    if room is None:
        raise Refused("no_room", gettext("There is no open room %(code)s.") % {"code": code})
    if room.closed_at is not None:
        raise events.room_closed_refusal(code)
    return room


def _refuse_if_banned(player: Player) -> None:
    """Lock the player's row until commit, so a ban committing meanwhile is either seen here or sees this
    connection (and closes it).

    Raises:
        Refused(banned): the player is banned.
    """
    banned_at = Player.objects.select_for_update().filter(pk=player.pk).values_list("banned_at", flat=True)
    if banned_at.first() is not None:
        log.info("refused a socket of a banned player")  # the socket's context names room and player
        raise Refused("banned", str(BANNED_MESSAGE))


def _record_connection(*, channel_name: str, room: Room, player: Player | None, process: str, now: datetime) -> None:
    """Insert the connection row, or move it here (a socket opening again): one statement, written once (a
    join's; :mod:`common.rows`)."""
    rows = _CONNECTIONS
    rows.execute(rows.upsert_sql(_CONNECTION_COLUMNS, unique=["channel_name"], update=_CONNECTION_COLUMNS[1:]),
                 rows.values(_CONNECTION_COLUMNS, [channel_name, room.pk, None if player is None else player.pk,
                                                   process, now]))


_ROOMS = Rows(Room)
_CONNECTIONS = Rows(Connection)
_CONNECTION_COLUMNS = ["channel_name", "room_id", "player_id", "process", "opened_at"]


def connection_close(*, channel_name: str, now: datetime) -> bool:
    """A websocket closed. A seat whose player has no other connection to the room is disconnected
    (and the room gets the new snapshot). Returns whether a spectator left (the count is stale)."""
    code = Connection.objects.filter(channel_name=channel_name).values_list("room__code", flat=True).first()
    if code is None:
        return False
    return _close_connections(code, channel_name=channel_name, now=now)


def _close_connections(code: str, *, now: datetime, channel_name: str | None = None, process: str | None = None,
                       recount: bool = False) -> bool:
    """Close one connection (``channel_name``) or all of a process's (``process``) in the room ``code``.

    Seats left without a connection are disconnected, with one version bump and snapshot. With
    ``recount`` the spectator count is refreshed here too; otherwise returns whether it is stale.
    """
    with transaction.atomic():
        room = Room.objects.select_for_update(no_key=True).filter(code=code).first()
        if room is None:
            return False
        rows = Connection.objects.filter(room=room)
        rows = rows.filter(channel_name=channel_name) if channel_name is not None else rows.filter(process=process)
        gone = list(rows.values_list("player_id", flat=True))
        rows.delete()
        if not gone or room.closed_at is not None:
            return False
        seats = room_seats(room)
        seated = {seat.player_id for seat in seats if seat.player_id is not None}
        leaving = {player_id for player_id in gone if player_id in seated}
        spectator_left = len(leaving) < len(gone)
        if leaving:
            leaving -= set(
                Connection.objects.filter(room=room, player_id__in=leaving).values_list("player_id", flat=True)
            )
        dropped = [seat for seat in seats if seat.player_id in leaving and seat.disconnected_at is None]
        for seat in dropped:
            seat.disconnected_at = now
            seat.save(update_fields=["disconnected_at"])
        recounted = recount and spectator_left and spectators_recount(room)
        if dropped or recounted:
            game = current_game(room)
            if dropped:
                timers.reschedule(room, now=now, game=game, seats=seats)
            room.version += 1
            room.last_activity_at = now
            room.save(update_fields=["version", "last_activity_at", "spectators"])
            room_broadcast(room, game=game, now=now, seats=seats)
        return spectator_left and not recount


def room_refresh_spectators(*, code: str, now: datetime) -> bool:
    """Show the room's spectator count as it is now, if it changed: one version bump, and a ``spectators``
    frame to the room (not the whole room: nothing else changed, so nothing else is read).

    Called by a process's presence loop after people joined or left as spectators, at most about once
    a second per room; returns whether the count changed.
    """
    with transaction.atomic():
        room = Room.objects.select_for_update(no_key=True).filter(code=code, closed_at=None).first()
        if room is None or not spectators_recount(room):
            return False
        room.version += 1
        room.last_activity_at = now
        room.save(update_fields=["version", "last_activity_at", "spectators"])
        events.spectators_on_commit(room.code, room.version, room.spectators)  # (the lobby's lists show no count)
        return True


# --- server processes: heartbeats and the sweep of dead ones ------------------------------------------
def heartbeat_lapse() -> timedelta:
    """How long a process's heartbeat may be silent before its connections count as gone."""
    return timedelta(seconds=settings.PING_TIMEOUT_SECONDS)


def process_register(*, process: str, now: datetime) -> None:
    """A server process starts holding connections under the id ``process`` (its first heartbeat)."""
    ServerProcess.objects.update_or_create(id=process, defaults={"started_at": now, "beat_at": now, "swept": False})


def process_beat(*, process: str, now: datetime) -> bool:
    """Renew ``process``'s heartbeat. False: it was swept meanwhile (its connections are closed): it must
    register again under a new id and open its connections anew."""
    return bool(ServerProcess.objects.filter(id=process, swept=False).update(beat_at=now))


def processes_sweep(*, now: datetime, limit: int = 50) -> int:
    """Close the connections of processes whose heartbeat lapsed; returns how many rooms were swept.

    Any process may sweep: marking a process swept is one conditional UPDATE, and each room's
    connections are closed under that room's lock, conditioned on the process, so two sweepers (or a
    sweeper and the process coming back to life) never undo each other's work.
    """
    ServerProcess.objects.filter(swept=False, beat_at__lt=now - heartbeat_lapse()).update(swept=True)
    dead = ServerProcess.objects.filter(swept=True).values("id")
    rooms = list(Connection.objects.filter(process__in=dead).values_list("room__code", "process").distinct()[:limit])
    for code, process in rooms:
        _close_connections(code, process=process, now=now, recount=True)
    for process in ServerProcess.objects.filter(swept=True, beat_at__lt=now - FORGET_SWEPT_AFTER).values_list(
        "id", flat=True
    ):
        if not Connection.objects.filter(process=process).exists():
            ServerProcess.objects.filter(id=process, swept=True).delete()
    return len(rooms)
