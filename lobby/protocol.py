"""The websocket protocol: inbound frames parsed into typed commands, outbound frames built here.

No other module writes a frame's dict literal. ``docs/protocol.md`` documents every frame.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from lobby.chat import CHATS, PHRASES
from lobby.rules import RULE_FIELDS

MAX_FRAME_BYTES = 4096

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
class Sit:
    pass


@dataclass(frozen=True, slots=True)
class Stand:
    pass


@dataclass(frozen=True, slots=True)
class SetRules:
    changes: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Drop:
    peg: str
    ply: int


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class Again:
    pass


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Sync:
    """The client saw a gap in versions (or wants a fresh start): send it the whole room."""


@dataclass(frozen=True, slots=True)
class Say:
    """A chat message: exactly one of ``text`` and ``phrase`` is set."""

    chat: str
    text: str | None
    phrase: str | None


Command = Sit | Stand | SetRules | Start | Drop | Resign | Again | Ping | Sync | Say

_NO_FIELDS: dict[str, type[Command]] = {
    "sit": Sit, "stand": Stand, "start": Start, "resign": Resign, "again": Again, "ping": Ping, "sync": Sync,
}
_TYPE_NAMES: dict[type[Command], str] = {
    **{command: name for name, command in _NO_FIELDS.items()}, Drop: "drop", SetRules: "rules", Say: "say",
}
_TYPE_NAMES: dict[type[Command], str] = {
    **{command: name for name, command in _NO_FIELDS.items()}, Drop: "drop", SetRules: "rules", Say: "say",
}


def frame_type(command: Command) -> str:
    """The ``type`` of the frame ``command`` was parsed from (``rules`` for SetRules), for the logs."""
    return _TYPE_NAMES[type(command)]


def decode_frame(text: str | None, data: bytes | None = None) -> tuple[str, dict[str, Any]]:
    """The ``type`` and the object of one client frame, on any of the server's websockets.

    Raises:
        BadFrame: too large (``too_large``), binary, not JSON, not an object, or without a ``type``
            string (``bad_frame``).
    """
    if text is None:
        if data is not None and len(data) > MAX_FRAME_BYTES:
            raise BadFrame(f"Frames are at most {MAX_FRAME_BYTES} bytes.", code="too_large")
        raise BadFrame("Frames are JSON text, not binary.")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise BadFrame(f"Frames are at most {MAX_FRAME_BYTES} bytes.", code="too_large")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("A frame must be valid JSON.") from None
    if not isinstance(frame, dict):
        raise BadFrame("A frame must be a JSON object.")
    kind = frame.get("type")
    if not isinstance(kind, str):
        raise BadFrame('A frame needs a "type" string.')
    return kind, frame


def parse_frame(text: str | None, data: bytes | None = None) -> Command:
    """Parse one client frame of the room socket.

    Raises:
        BadFrame: too large (``too_large``), binary, not JSON, not an object, unknown type, or with
            missing or wrongly typed fields (``bad_frame``).
    """
    kind, frame = decode_frame(text, data)
    if kind in _NO_FIELDS:
        return _NO_FIELDS[kind]()
    if kind == "drop":
        peg, ply = frame.get("peg"), frame.get("ply")
        if not isinstance(peg, str):
            raise BadFrame('A drop needs "peg", a peg name such as "b3".')
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= 64:
            raise BadFrame('A drop needs "ply", the number of moves you saw (0 to 64).')
        return Drop(peg=peg, ply=ply)
    if kind == "rules":
        changes = {key: value for key, value in frame.items() if key != "type"}
        unknown = sorted(set(changes) - set(RULE_FIELDS))
        if unknown:
            raise BadFrame(f"Unknown house rule: {', '.join(unknown)}.")
        if not changes:
            raise BadFrame("A rules frame needs at least one rule to change.")
        return SetRules(changes=changes)
    if kind == "say":
        return _parse_say(frame)
    raise BadFrame(f'Unknown frame type "{kind[:40]}".')


def _parse_say(frame: dict[str, Any]) -> Say:
    chat, text, phrase = frame.get("chat"), frame.get("text"), frame.get("phrase")
    if not isinstance(chat, str) or chat not in CHATS:
        raise BadFrame('A say needs "chat": "players" or "spectators".')
    if (text is None) == (phrase is None):
        raise BadFrame('A say needs either "text" or "phrase".')
    if text is not None and not isinstance(text, str):
        raise BadFrame('A say\'s "text" must be a string.')
    if phrase is not None and (not isinstance(phrase, str) or phrase not in PHRASES):
        raise BadFrame(f"Unknown phrase; the phrases are {', '.join(PHRASES)}.")
    return Say(chat=chat, text=text, phrase=phrase)


# --- outbound ----------------------------------------------------------------------------------------
def room_frame(snapshot: dict[str, Any], *, player_id: str | None) -> dict[str, Any]:
    """The room snapshot for one connection: ``you`` says who they are and where they sit."""
    seat = next(
        (s["seat"] for s in snapshot["seats"] if s["player"] is not None and s["player"]["id"] == player_id),
        None,
    )
    return {"type": "room", **snapshot, "you": {"player": player_id, "seat": seat}}


SERVER_ERROR_MESSAGE = "The server could not handle that just now: please try again."
# The fields of a ``move`` frame that a client copies into ``game`` (``peg`` is appended to its moves).
MOVE_GAME_FIELDS = ("ply", "to_move_seat", "deadline", "status", "winner_seat", "line", "reason", "threats")


def move_frame(
    *, version: int, game_id: str, ply: int, peg: str, level: int, seat: int, cpu: bool,
    to_move_seat: int | None, deadline: str | None, status: str, winner_seat: int | None,
    line: list[dict[str, Any]] | None, reason: str | None, threats: dict[str, Any] | None,
) -> dict[str, Any]:
    """A move, sent instead of the whole room when nothing but the game changed.

    ``version`` is the room's version after the move and ``ply`` the moves played after it; the
    other fields are as in the room frame's ``game``. ``level`` (1..4) is where the bead landed, ``seat``
    who played it and ``cpu`` whether the CPU played it for that seat.
    """
    return {
        "type": "move", "version": version, "game": game_id, "ply": ply, "peg": peg, "level": level,
        "seat": seat, "cpu": cpu, "to_move_seat": to_move_seat, "deadline": deadline, "status": status,
        "winner_seat": winner_seat, "line": line, "reason": reason, "threats": threats,
    }


def apply_move(room: dict[str, Any], move: dict[str, Any]) -> dict[str, Any] | None:
    """What every client does with a ``move`` frame: the room frame it makes of its last one.

    Returns None when ``move`` does not follow ``room`` (a version gap, another game, a ply that does
    not follow): the client must then ask for the whole room (``{"type": "sync"}``).
    """
    game = room.get("game")
    if (
        move["version"] != room["version"] + 1
        or game is None
        or game["id"] != move["game"]
        or move["ply"] != len(game["moves"]) + 1
    ):
        return None
    new_game = {**game, "moves": [*game["moves"], move["peg"]]}
    new_game.update({field: move[field] for field in MOVE_GAME_FIELDS})
    return {**room, "version": move["version"], "game": new_game}


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def notice_frame(code: str, seat: int) -> dict[str, Any]:
    return {"type": "notice", "code": code, "seat": seat}


def pong_frame() -> dict[str, Any]:
    return {"type": "pong"}


def chat_frame(message: dict[str, Any]) -> dict[str, Any]:
    """One chat message (a :func:`lobby.chat.message_json`) as a frame."""
    return {"type": "chat", **message}


def chat_history_frame(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The messages a connection may read, oldest first, each as its ``chat`` frame."""
    return {"type": "chat_history", "messages": [chat_frame(message) for message in messages]}
