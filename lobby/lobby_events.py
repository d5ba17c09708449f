"""Events of the lobby, sent once the transaction that caused them has committed.

- To one lobby socket (by its channel name, in whatever process holds it): a seek was paired, or it
  ended without a pairing (replaced by another tab, waited too long, expired).
- To every lobby socket: "the lists changed" (open rooms, live games). Many room changes a second
  become one message: a change is handed to this process's :class:`lobby.lobby_feed.LobbyFeed`,
  which sends at most one every fraction of a second to the channel-layer group ``lobby``.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from lobby import lobby_feed

log = logging.getLogger(__name__)


def _send(channel_name: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.send)(channel_name, message)
    except Exception:  # the socket also learns it from its seek row on the next heartbeat
        log.exception("could not send %s to %s", message.get("type"), channel_name)


def seek_paired_on_commit(*, channel_name: str, seek_id: int, code: str) -> None:
    """Once committed, tell the seek's socket the code of the room it was paired into."""
    transaction.on_commit(lambda: _send(channel_name, {"type": "lobby.paired", "seek": seek_id, "code": code}))


def seek_ended_on_commit(*, channel_name: str, seek_id: int, reason: str) -> None:
    """Once committed, tell the seek's socket its seek ended unpaired (``replaced``, ``timeout``, ``expired``)."""
    transaction.on_commit(
        lambda: _send(channel_name, {"type": "lobby.ended", "seek": seek_id, "reason": reason})
    )


def lists_changed_on_commit() -> None:
    """Once committed, have every lobby socket (in every process) refresh its open rooms and live games."""
    transaction.on_commit(lists_changed)


def lists_changed() -> None:
    """Hand the change to this process's feeds (debounced); without one, tell the group at once."""
    if lobby_feed.notify_feeds():
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(lobby_feed.LOBBY_GROUP, lobby_feed.CHANGED_MESSAGE)
    except Exception:  # lists are whole on every send: the next change repairs a lost one
        log.exception("could not tell the lobby that its lists changed")
