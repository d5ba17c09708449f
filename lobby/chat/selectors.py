"""Reads of the room chat: the latest messages a connection may read, oldest first."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from common.rows import Rows
from lobby.models import ChatMessage, Room
from lobby.protocol.room import message_json

HISTORY_SIZE = 50


def chat_history(*, code: str, reads: Collection[str], hidden: Collection[str] = (),
                 limit: int = HISTORY_SIZE) -> list[dict[str, Any]]:
    """The latest ``limit`` messages of room ``code`` in the chats ``reads``, oldest first, but for those
    of the players ``hidden`` (the reader blocked them)."""
    if not reads:
        return []
    reads, hidden = sorted(reads), sorted(hidden)
    messages, rooms = _MESSAGES, _ROOMS

    def build() -> str:
        column = messages.quoted
        outside = f" AND m.{column('player_id')} NOT IN ({', '.join(['%s'] * len(hidden))})" if hidden else ""
        return (f"SELECT {messages.columns('m')} FROM {column(messages.table)} m WHERE m.{column('room_id')} = "
                f"(SELECT {column('id')} FROM {column(rooms.table)} WHERE {column('code')} = %s) "
                f"AND m.{column('chat')} IN ({', '.join(['%s'] * len(reads))}){outside} "
                f"ORDER BY m.{column('id')} DESC LIMIT %s")

    # Every join reads it: SQL written once per shape (common.rows), not a queryset compiled each time.
    sql = messages.statement(("history", len(reads), len(hidden)), build)
    latest = messages.execute(sql, [code, *reads, *messages.values(["player_id"] * len(hidden), hidden), limit])
    return [message_json(messages.load(row)) for row in reversed(latest)]


_MESSAGES = Rows(ChatMessage)
_ROOMS = Rows(Room)
