"""Every state change of a player that is not about an account: creating a guest, renaming.

Layers above hear of a rename through :data:`PLAYER_RENAMED_HOOKS` (the rooms register one at start-up
to re-send the rooms that show the player), so this layer never imports them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import datetime

from django.db import transaction

from common.errors import Refused
from players.models import Player

NAME_MAX_LENGTH = 24

# Called inside the rename's transaction with the renamed player.
PLAYER_RENAMED_HOOKS: list[Callable[[Player], None]] = []


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
