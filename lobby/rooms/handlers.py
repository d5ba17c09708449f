"""What the rooms do when a layer below tells them something happened (registered in ``lobby.apps``): a
player renamed, banned, closed or given a new password, or a device's guest replaced by its account (each
inside the transaction of the change it hears of), and a game's post-game work done (after its commit: the
room shows the new ratings). Each locks rooms as :mod:`lobby.rooms.services` does.
"""

from __future__ import annotations

import contextlib
import logging

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from common.errors import Refused
from games.endings import GameFinished
from games.models import EndReason
from games.services import game_hand_over
from lobby import events, timers
from lobby.models import Connection, Room
from lobby.rooms.selectors import current_game, current_game_playing
from lobby.rooms.services import (
    BANNED_MESSAGE,
    close_locked,
    has_connection,
    lock_joins_of,
    room_lock,
    room_touch,
    seat_of,
)
from players.accounts import GuestReplaced
from players.language import language_of
from players.services import EndedBy, PlayerEnded, PlayerRenamed

log = logging.getLogger(__name__)


def room_game_settled(finished: GameFinished) -> None:
    """Registered with ``games.endings.GAME_FINISHED`` (once the game's post-game work committed: its
    rating): a room that shows ratings, whose current game this still is, is sent anew, with the ratings as
    they are now (until then it showed those the game was played for: ``selectors.seat_ratings``)."""
    with transaction.atomic():
        room = Room.objects.select_for_update(no_key=True).filter(pk=finished.room_id, closed_at=None).first()
        if room is None:
            return
        game = current_game(room)
        if game is None or str(game.pk) != finished.game_id or not (room.ranked or game.stakes):
            return
        room_touch(room, now=timezone.now(), recount=False, game=game)


def rooms_player_renamed(renamed: PlayerRenamed) -> None:
    """Registered with ``players.services.PLAYER_RENAMED``: the open rooms that seat the player change (a
    new version showing the new name), inside the rename's transaction."""
    player = renamed.player
    now = timezone.now()  # the players layer calls its hooks without an instant: this edge reads the clock
    for code in Room.objects.filter(seats__player=player, closed_at=None).values_list("code", flat=True):
        room_touch(room_lock(code), now=now)


def rooms_player_ended(ended: PlayerEnded) -> None:
    """Registered with ``players.services.PLAYER_ENDED``: every open websocket of the player, on every
    process, is closed once committed, its rooms', the lobby's (no more seeking), an arena's and its player
    socket: 4403 for a ban, 4409 (``player_changed``: the page reconnects as whoever its session is now)
    for a closed account or a new password."""
    if ended.reason is EndedBy.BANNED:
        with translation.override(language_of(ended.player)):  # the banned player reads it, not the moderator
            refused = Refused("banned", str(BANNED_MESSAGE))
    else:
        refused = Refused("player_changed", ended.message)
    events.player_sockets_end_on_commit(ended.player.pk, refused)


def rooms_guest_replaced(replaced: GuestReplaced) -> None:
    """Registered with ``players.accounts.GUEST_REPLACED``: a device's guest logged into an account.

    In each open room the guest sits in or hosts, the account takes its place: its seat (and its colour
    in the game being played) and the host's role. A room where the account already has the other seat
    is closed instead (its game abandoned): one person cannot hold both seats. The guest's open sockets
    are closed with 4409, so the page reconnects as the account's player.
    """
    guest, account, now = replaced.guest, replaced.account, replaced.now
    codes = set(Room.objects.filter(closed_at=None, seats__player=guest).values_list("code", flat=True))
    codes |= set(Room.objects.filter(closed_at=None, host=guest).values_list("code", flat=True))
    rooms = []
    for code in sorted(codes):  # one order for every such change: no deadlock between two of them
        with contextlib.suppress(Refused):  # closed since the first look: nothing to hand over
            rooms.append(room_lock(code))
    if rooms:  # every room first, then the account's row, as room_sit locks its room then the player's
        lock_joins_of(account)
    for room in rooms:
        code = room.code
        seat = seat_of(room, guest)
        if seat is not None and seat_of(room, account) is not None:
            close_locked(room, reason=EndReason.CLOSED, now=now)
            continue
        if seat is not None:
            seat.player = account
            seat.disconnected_at = None if has_connection(room, account) else (seat.disconnected_at or now)
            seat.save(update_fields=["player", "disconnected_at"])
            game = current_game_playing(room)
            if game is not None:
                game_hand_over(game, from_player_id=guest.pk, to_player_id=account.pk)
        if room.host_id == guest.pk:
            room.host = account
            room.save(update_fields=["host"])
        timers.reschedule(room, now=now)
        room_touch(room, now=now)
        log.info("room %s handed over from guest %s", code, guest.pk, extra={"room": code, "player": account.pk})
    channels = list(Connection.objects.filter(player=guest).values_list("channel_name", flat=True))
    events.sockets_refuse_on_commit(
        channels, Refused("player_changed", gettext("This device logged into an account: reconnecting as its player."))
    )
