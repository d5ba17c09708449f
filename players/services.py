"""Every state change of a player that is not about an account: creating a guest, renaming, banning; and the
one hook by which every app hears that a player's sessions end.

Layers above hear of a rename through :data:`PLAYER_RENAMED` (the rooms register a handler at start-up
to re-send the rooms that show the player) and of a ban, a closed account or a password reset or changed
through :data:`PLAYER_ENDED` (every app ends what the player has open: sockets, streams, and for a ban or a
closing their seeks, challenges and arena entries), so this layer never imports them.
"""

from __future__ import annotations

import enum
import logging
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from common.errors import Refused
from common.hooks import Hook, OnError, Runs
from players.models import Player
from players.session import DEFAULT_GUEST_NAME

log = logging.getLogger(__name__)

NAME_MAX_LENGTH = 24



@dataclass(frozen=True, slots=True)
class PlayerRenamed:
    """A player whose name changed (``player`` holds the new name)."""

    player: Player


class EndedBy(enum.StrEnum):
    """Why a player's sessions end."""

    BANNED = "banned"  # by a moderator (``banned_at`` set)
    CLOSED = "closed"  # the account closed, for good (``closed_at`` set)
    RESET = "reset"  # the account's password reset by email
    PASSWORD = "password"  # the account's password changed by its owner


@dataclass(frozen=True, slots=True)
class PlayerEnded:
    """Every open socket and stream of ``player`` ends, on every process, once this commits (``message``: what
    its pages are told, in its language; empty for a ban, whose sentence the rooms have). For a ban or a
    closing (:attr:`withdraws`), nothing of the player waits for an opponent any more either: its seeks,
    challenges and arena entries are withdrawn."""

    player: Player
    reason: EndedBy
    at: datetime
    message: str = ""

    @property
    def withdraws(self) -> bool:
        return self.reason in (EndedBy.BANNED, EndedBy.CLOSED)


def player_group(player_id: object) -> str:
    """The channel-layer group of every open socket of one player's pages (room, lobby, arena, player and
    arcade sockets): its notifications, and the ``PlayerEnd`` that closes them all when :data:`PLAYER_ENDED`
    commits."""
    return f"player.{player_id}"


# Inside the rename's transaction: a handler that raises rolls the rename back.
PLAYER_RENAMED: Hook[PlayerRenamed] = Hook("player renamed", runs=Runs.INSIDE_TRANSACTION,
                                           on_error=OnError.PROPAGATE)
# Inside the transaction of the ban, the closing or the new password: a handler that raises rolls it back.
PLAYER_ENDED: Hook[PlayerEnded] = Hook("player ended", runs=Runs.INSIDE_TRANSACTION, on_error=OnError.PROPAGATE)


def clean_player_name(name: object) -> str:
    """A player name, trimmed, 1 to 24 printable characters.

    Raises:
        Refused(bad_name): not a string, empty, too long, or with control characters.
    """
    if not isinstance(name, str):
        raise Refused("bad_name", gettext("A name is a short piece of text."))
    cleaned = " ".join(name.split())
    if not cleaned:
        raise Refused("bad_name", gettext("A name needs at least one letter."))
    if len(cleaned) > NAME_MAX_LENGTH:
        raise Refused("bad_name", gettext("A name has at most %(most)s characters.") % {"most": NAME_MAX_LENGTH})
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise Refused("bad_name", gettext("A name cannot hold control characters."))
    return cleaned


def player_create(*, name: str | None, now: datetime) -> Player:
    """A new guest player named ``name``. A guest who chose no name (None, or ``DEFAULT_GUEST_NAME``, which
    the views that make a device's player on the way pass) is "Guest" and the first four hex digits of
    its id, in the active language ("Guest 4F2A"), so that two guests in a room are told apart."""
    player_id = uuid.uuid4()
    if name is None or name == DEFAULT_GUEST_NAME:
        name = gettext("Guest %(code)s") % {"code": player_id.hex[:4].upper()}
    return Player.objects.create(id=player_id, name=clean_player_name(name), created_at=now)


def player_rename(*, player: Player, name: str) -> Player:
    """Rename a player; :data:`PLAYER_RENAMED`'s handlers run in the same transaction."""
    cleaned = clean_player_name(name)
    if cleaned != player.name:
        with transaction.atomic():
            player.name = cleaned
            player.save(update_fields=["name"])
            PLAYER_RENAMED.emit(PlayerRenamed(player))
    return player


def player_ban(*, player: Player, now: datetime) -> bool:
    """Ban ``player``: :data:`PLAYER_ENDED`'s handlers run in the same transaction. Returns False if
    already banned."""
    with transaction.atomic():
        if not Player.objects.filter(pk=player.pk, banned_at__isnull=True).update(banned_at=now):
            return False
        player.banned_at = now
        PLAYER_ENDED.emit(PlayerEnded(player, EndedBy.BANNED, now))
    log.info("player %s (%s) banned", player.pk, player.name, extra={"player": player.pk})
    return True


def player_close(*, player: Player, now: datetime, message: str) -> None:
    """Mark ``player``'s account closed, for good, in the caller's transaction (``accounts.deletion``, which
    erases the rest), and end everything it has open: :data:`PLAYER_ENDED`'s handlers run in it."""
    Player.objects.filter(pk=player.pk).update(closed_at=now)
    player.closed_at = now
    PLAYER_ENDED.emit(PlayerEnded(player, EndedBy.CLOSED, now, message))


def player_sessions_end(*, player: Player, by: EndedBy, now: datetime, message: str) -> None:
    """The account's password was reset or changed (``by``), in the caller's transaction: every open socket and
    stream of it ends once committed (:data:`PLAYER_ENDED`), ``message`` telling its pages why."""
    PLAYER_ENDED.emit(PlayerEnded(player, by, now, message))


def player_unban(*, player: Player) -> bool:
    """Lift ``player``'s ban; returns False if they were not banned."""
    lifted = Player.objects.filter(pk=player.pk, banned_at__isnull=False).update(banned_at=None)
    player.banned_at = None
    if lifted:
        log.info("player %s (%s) unbanned", player.pk, player.name, extra={"player": player.pk})
    return bool(lifted)


def refuse_bots(player: Player) -> None:
    """For the ways into a game that are for people only (quick pairing, sitting in someone's room, making
    a room, arenas): a bot account plays challenges only.

    Raises:
        Refused(bot_account): ``player`` is a bot account.
    """
    if player.is_bot:
        raise Refused("bot_account",
                      gettext("Bot accounts play challenges only: not quick pairing, open rooms or arenas."))
