"""What every websocket of the server shares: decoding a frame, its limits, the close codes, errors.

No module outside :mod:`lobby.protocol` writes a frame's dict literal. ``docs/protocol.md`` documents
every frame.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from common.text import BAD_TEXT, text_refusal
from common.translation import gettext, gettext_noop

MAX_FRAME_BYTES = 4096
# The turn timers a room or a seek may have (seconds per move; None: no timer).
TURN_SECONDS_CHOICES = (None, 30, 60)
# A correspondence game's days per move (None: a live game).
DAYS_PER_MOVE_CHOICES = (None, 1, 2, 3, 5, 7)

# Close codes of the room websocket. After these the page does not reconnect, except CLOSE_PLAYER_CHANGED
# and CLOSE_RETRY.
CLOSE_BANNED = 4403  # the device's player is banned (an error frame "banned" comes first)
CLOSE_UNKNOWN_ROOM = 4404  # no room has this code
CLOSE_PLAYER_CHANGED = 4409  # the device logged into an account: reconnect, as the account's player
CLOSE_ROOM_CLOSED = 4410  # the room is closed (its last snapshot and an error frame "room_closed" come first)
# The server could not keep the socket (its channel layer lost Redis, the database failed while opening
# it): the page reconnects with backoff, and the snapshot on connecting resyncs it. (Like HTTP 503. Not
# 1011: daphne's websocket library lets an application close only with 1000 or 3000-4999.)
CLOSE_RETRY = 4503


class BadFrame(Exception):
    """A frame that is not valid protocol; ``code`` is ``bad_frame`` or ``too_large``."""

    def __init__(self, message: str, *, code: str = "bad_frame") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Ping:
    pass


def decode_frame(text: str | None, data: bytes | None = None) -> tuple[str, dict[str, Any]]:
    """The ``type`` and the object of one client frame, on any of the server's websockets.

    Raises:
        BadFrame: too large (``too_large``), binary, not JSON, not an object, or without a ``type``
            string (``bad_frame``); a string or key holding a NUL or a lone surrogate (``bad_text``:
            ``common.text``, the same check as the REST API's bodies).
    """
    if text is None:
        if data is not None and len(data) > MAX_FRAME_BYTES:
            raise BadFrame(gettext("Frames are at most %(most)s bytes.") % {"most": MAX_FRAME_BYTES}, code="too_large")
        raise BadFrame(gettext("Frames are JSON text, not binary."))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise BadFrame(gettext("Frames are at most %(most)s bytes.") % {"most": MAX_FRAME_BYTES}, code="too_large")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame(gettext("A frame must be valid JSON.")) from None
    if not isinstance(frame, dict):
        raise BadFrame(gettext("A frame must be a JSON object."))
    refusal = text_refusal(frame)
    if refusal is not None:
        raise BadFrame(refusal.message, code=BAD_TEXT)
    kind = frame.get("type")
    if not isinstance(kind, str):
        raise BadFrame(gettext('A frame needs a "type" string.'))
    return kind, frame


def parse_ping_frame(text: str | None, data: bytes | None = None) -> Ping:
    """The one frame of a socket that only listens (the player socket): ``{"type": "ping"}``.

    Raises:
        BadFrame: not valid protocol, or any other type.
    """
    kind, _ = decode_frame(text, data)
    if kind != "ping":
        raise BadFrame(gettext("Unknown frame type %(type)r: this socket only hears ping.") % {"type": kind[:32]})
    return Ping()


SERVER_ERROR_MESSAGE = gettext_noop("The server could not handle that just now: please try again.")


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def pong_frame() -> dict[str, Any]:
    return {"type": "pong"}
