"""Every state change of a player that is not about an account: creating a guest, renaming, banning.

Layers above hear of a rename through :data:`PLAYER_RENAMED_HOOKS` (the rooms register one at start-up
to re-send the rooms that show the player) and of a ban through :data:`PLAYER_BANNED_HOOKS` (the rooms
close the player's websockets), so this layer never imports them.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable
from datetime import datetime

from django.db import transaction

from common.errors import Refused
from players.models import Player

log = logging.getLogger(__name__)

NAME_MAX_LENGTH = 24

# Called inside the rename's transaction with the renamed player.
PLAYER_RENAMED_HOOKS: list[Callable[[Player], None]] = []
# Called inside the ban's transaction with the banned player.
PLAYER_BANNED_HOOKS: list[Callable[[Player], None]] = []


def clean_player_name(name: object) -> str:
    """A player name, trimmed, 1 to 24 printable characters.

    Raises:
        Refused(bad_name): not a string, empty, too long, or with control characters.
    """
    if not isinstance(name, str):
        raise Refused("bad_name", "A name is a short piece of text.")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise Refused("bad_name", "A name needs at least one letter.")
    if len(cleaned) > NAME_MAX_LENGTH:
        raise Refused("bad_name", f"A name has at most {NAME_MAX_LENGTH} characters.")
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise Refused("bad_name", "A name cannot hold control characters.")
    return cleaned


def player_create(*, name: str, now: datetime) -> Player:
    """A new guest player."""
    return Player.objects.create(name=clean_player_name(name), created_at=now)


def player_rename(*, player: Player, name: str) -> Player:
    """Rename a player; the rename hooks run in the same transaction."""
    cleaned = clean_player_name(name)
    if cleaned != player.name:
        with transaction.atomic():
            player.name = cleaned
            player.save(update_fields=["name"])
            for hook in PLAYER_RENAMED_HOOKS:
                hook(player)
    return player


def player_ban(*, player: Player, now: datetime) -> bool:
    """Ban ``player``: the ban hooks run in the same transaction. Returns False if already banned."""
    with transaction.atomic():
        if not Player.objects.filter(pk=player.pk, banned_at__isnull=True).update(banned_at=now):
            return False
        player.banned_at = now
        for hook in PLAYER_BANNED_HOOKS:
            hook(player)
    log.info("player %s (%s) banned", player.pk, player.name, extra={"player": player.pk})
    return True


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
        raise Refused("bot_account", "Bot accounts play challenges only: not quick pairing, open rooms or arenas.")
