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

from lobby import lobby_events
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
        log.exception("could not send %s to room %s", message.get("type"), code)


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
