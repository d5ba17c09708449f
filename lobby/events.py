"""Events to a room's group, sent once the transaction that caused them has committed.

Every consumer connected to the room (in any server process, through the channel layer) receives
them and forwards them to its client. The payloads are built by :mod:`lobby.protocol`.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from common import metrics
from common.errors import Refused
from lobby import lobby_events, protocol
from lobby.selectors import room_snapshot

log = logging.getLogger(__name__)


def room_group(code: str) -> str:
    return f"room.{code}"


def _group_send(code: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(room_group(code), message)
    except Exception:  # a failed broadcast must not undo a committed move; clients re-sync on reconnect
        metrics.CHANNEL_LAYER_SEND_FAILURES.inc()
        log.exception("could not send %s to room %s", message.get("type"), code, extra={"room": code})


def send_room_snapshot(code: str) -> None:
    """Send the room's current snapshot to everyone in it."""
    snapshot = room_snapshot(code)
    if snapshot is not None:
        _group_send(code, {"type": "room.snapshot", "snapshot": snapshot})


def room_changed_on_commit(code: str) -> None:
    """Once committed, send the room's snapshot as it is then (so it includes every change made).

    The lobby's lists (open rooms, live games) are built from rooms, so they are refreshed too.
    """
    transaction.on_commit(lambda: send_room_snapshot(code))
    lobby_events.lists_changed_on_commit()


def notice_on_commit(code: str, notice: str, seat: int) -> None:
    """Once committed, tell the room what happened to a seat (``timeout``, ``away``, ``back``)."""
    transaction.on_commit(
        lambda: _group_send(code, {"type": "room.notice", "code": notice, "seat": seat})
    )


def chat_on_commit(code: str, message: dict[str, Any], *, game_number: int | None) -> None:
    """Once committed, send a chat message to the room's group; each connection decides whether its
    reader may see it. ``game_number``: the game being played when it was written (None between games)."""
    transaction.on_commit(
        lambda: _group_send(code, {"type": "room.chat", "message": message, "game": game_number})
    )
# --- sockets the server will not keep ---------------------------------------------------------------
# A "room.refuse" event makes a consumer send what it carries (a last snapshot, an error frame), then
# close with its close code.
CLOSE_CODES = {
    "banned": protocol.CLOSE_BANNED,
    "room_closed": protocol.CLOSE_ROOM_CLOSED,
    "player_changed": protocol.CLOSE_PLAYER_CHANGED,
}


def refusal(code: str, refused: Refused) -> dict[str, Any]:
    """The ``room.refuse`` event for a socket to room ``code`` whose opening was refused.

    An unknown room closes with 4404 and nothing else; a closed room first sends its last snapshot.
    """
    close = CLOSE_CODES.get(refused.code)
    if close is None:
        return {"type": "room.refuse", "close": protocol.CLOSE_UNKNOWN_ROOM}
    snapshot = room_snapshot(code, include_closed=True) if refused.code == "room_closed" else None
    return {"type": "room.refuse", "snapshot": snapshot, "error": protocol.error_frame(refused.code, refused.message),
            "close": close}


def room_closed_on_commit(code: str) -> None:
    """Once committed, every socket in the closed room gets its last snapshot and is closed (4410)."""
    refused = Refused("room_closed", f"Room {code} was closed.")
    transaction.on_commit(lambda: _group_send(code, refusal(code, refused)))


def sockets_refuse_on_commit(channel_names: list[str], refused: Refused) -> None:
    """Once committed, these sockets get an error frame for ``refused`` and are closed with its code."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        event = {"type": "room.refuse", "error": protocol.error_frame(refused.code, refused.message),
                 "close": CLOSE_CODES[refused.code]}
        for channel_name in channel_names:
            try:
                async_to_sync(layer.send)(channel_name, event)
            except Exception:  # the socket may be gone already; the others must still hear
                metrics.CHANNEL_LAYER_SEND_FAILURES.inc()
                log.exception("could not send %s to %s", refused.code, channel_name)

    if channel_names:
        transaction.on_commit(send)
