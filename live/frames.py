"""What every websocket of the server shares: decoding a client's frame, its limit, ``ping`` and ``pong``,
the ``error`` frame, and the close code asking the page to come back later.

The frames of each socket (a room's, the lobby's, an arena's) are built and parsed in its app's wire
format (``lobby.protocol``, ``tournaments.protocol``) on top of these; ``docs/protocol.md`` documents
every frame.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from common.text import BAD_TEXT, text_refusal
from common.translation import gettext, gettext_noop

MAX_FRAME_BYTES = 4096

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
