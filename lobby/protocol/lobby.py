"""The lobby websocket's protocol: its inbound frames parsed into commands, its outbound frames built here.

Frames are decoded as on the room socket (:func:`live.frames.decode_frame`: JSON objects with a
``type``, at most 4 KiB); errors use the room socket's ``error`` frame. ``docs/protocol.md`` documents
every frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from common.iso import iso
from common.params import one_of
from common.translation import gettext
from live.frames import BadFrame, Ping, decode_frame
from lobby.protocol.frames import TURN_SECONDS_CHOICES


@dataclass(frozen=True, slots=True)
class SeekRequest:
    """``{"type": "seek", "turn_seconds": null | 30 | 60, "ranked": true | false}``."""

    turn_seconds: int | None
    ranked: bool


@dataclass(frozen=True, slots=True)
class CancelSeek:
    """``{"type": "cancel"}``."""


LobbyCommand = SeekRequest | CancelSeek | Ping


def parse_lobby_frame(text: str | None, data: bytes | None = None) -> LobbyCommand:
    """Parse one client frame of the lobby socket.

    Raises:
        BadFrame: as :func:`live.frames.decode_frame`, an unknown type, or a seek whose
            ``turn_seconds`` or ``ranked`` is missing or out of range (``bad_frame``).
    """
    kind, frame = decode_frame(text, data)
    if kind == "ping":
        return Ping()
    if kind == "cancel":
        return CancelSeek()
    if kind == "seek":
        seconds = frame.get("turn_seconds", "missing")
        if not one_of(seconds, TURN_SECONDS_CHOICES):
            raise BadFrame(gettext('A seek needs "turn_seconds": null, 30 or 60.'))
        ranked = frame.get("ranked")
        if not isinstance(ranked, bool):
            raise BadFrame(gettext('A seek needs "ranked": true or false.'))
        return SeekRequest(turn_seconds=seconds, ranked=ranked)
    raise BadFrame(gettext('Unknown frame type "%(type)s".') % {"type": kind[:40]})


# --- outbound ----------------------------------------------------------------------------------------
def seeking_frame(*, since: datetime, low: int | None, high: int | None) -> dict[str, Any]:
    """The seek is waiting since ``since``, for an opponent rated from ``low`` to ``high`` (None: no bound)."""
    return {"type": "seeking", "since": iso(since), "range": [low, high]}


def paired_frame(code: str) -> dict[str, Any]:
    return {"type": "paired", "code": code}


def cancelled_frame(reason: str) -> dict[str, Any]:
    """The seek ended unpaired: ``cancel`` (asked), ``timeout`` (waited the maximum), ``replaced``
    (the player seeks in another tab), ``expired`` (the page went silent)."""
    return {"type": "cancelled", "reason": reason}


def open_rooms_frame(rooms: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "open_rooms", "rooms": rooms}


def live_games_frame(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "live_games", "games": games}
