"""The device is the player: a session (cookie) holds the id of the device's player."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from players.models import Player

SESSION_KEY = "player_id"


def session_player(session: Any) -> Player | None:
    """The player this session (device) belongs to, or None before one exists."""
    player_id = session.get(SESSION_KEY) if session is not None else None
    if not player_id:
        return None
    try:
        return Player.objects.filter(pk=player_id).first()
    except (ValueError, TypeError, ValidationError):  # a malformed id in an old session: no player
        return None


def session_attach(session: Any, player: Player) -> None:
    """Make ``player`` this device's player."""
    session[SESSION_KEY] = str(player.id)
