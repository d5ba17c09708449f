"""Reads of the room chat: the latest messages a connection may read, oldest first."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from lobby.models import ChatMessage
from lobby.protocol.room import message_json

HISTORY_SIZE = 50


def chat_history(*, code: str, reads: Collection[str], hidden: Collection[str] = (),
                 limit: int = HISTORY_SIZE) -> list[dict[str, Any]]:
    """The latest ``limit`` messages of room ``code`` in the chats ``reads``, oldest first, but for those
    of the players ``hidden`` (the reader blocked them)."""
    if not reads:
        return []
    rows = ChatMessage.objects.filter(room__code=code, chat__in=list(reads))
    if hidden:
        rows = rows.exclude(player_id__in=list(hidden))
    latest = rows.order_by("-id")[:limit]
    return [message_json(message) for message in reversed(latest)]
