"""Reads of players."""

from __future__ import annotations

from typing import Any

from players.models import Player


def player_json(player: Player | None) -> dict[str, Any] | None:
    """A player as every frame and answer shows one: id and name (None stays None)."""
    return None if player is None else {"id": str(player.id), "name": player.name}
