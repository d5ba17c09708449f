"""Reads of players."""

from __future__ import annotations

from typing import Any

from players.models import Player


def player_json(player: Player | None) -> dict[str, Any] | None:
    """A player as every frame and answer shows one: id and name, and ``title`` for a titled player
    (``"BOT"``: a bot account) only (None stays None)."""
    if player is None:
        return None
    titled = {"title": player.title} if player.title is not None else {}
    return {"id": str(player.id), "name": player.name, **titled}
