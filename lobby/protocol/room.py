"""The room socket's frames: inbound frames parsed into typed commands, outbound frames built here.

``docs/protocol.md`` documents every frame.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from common.iso import iso
from common.translation import gettext, ngettext
from live.frames import BadFrame, Ping, decode_frame
from lobby.protocol.rows import MessageRow

# The house rules a room's host may set (``rules`` frames, the snapshot's ``rules``).
RULE_FIELDS = ("turn_seconds", "days_per_move", "alternate_first", "ranked", "cpu_level", "spectator_chat", "open")
CPU_LEVELS = (1, 2, 3, 4, 5)
# A room's two chats, and the quick phrases, which travel as keys: each reader's page renders them in
# its own words.
PLAYERS = "players"
SPECTATORS = "spectators"
CHATS = (PLAYERS, SPECTATORS)
PHRASES = ("good_luck", "well_played", "good_game", "one_more", "thanks")


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
class Sync:
    """The client saw a gap in versions (or wants a fresh start): send it the whole room."""


@dataclass(frozen=True, slots=True)
class Say:
    """A chat message: exactly one of ``text`` and ``phrase`` is set."""

    chat: str
    text: str | None
    phrase: str | None


# What may be offered at the board, and what a seat may do with an offer (``docs/protocol.md``).
OFFER_KINDS = ("draw", "takeback")
OFFER_ACTIONS = ("offer", "accept", "decline")


@dataclass(frozen=True, slots=True)
class Offer:
    """A ``draw`` or ``takeback`` frame: ``kind`` is the frame's type, ``action`` what the seat does."""

    kind: str
    action: str


Command = Sit | Stand | SetRules | Start | Drop | Resign | Again | Ping | Sync | Say | Offer

_NO_FIELDS: dict[str, type[Sit | Stand | Start | Resign | Again | Ping | Sync]] = {
    "sit": Sit, "stand": Stand, "start": Start, "resign": Resign, "again": Again, "ping": Ping, "sync": Sync,
}
_TYPE_NAMES: dict[type[Command], str] = {
    **{command: name for name, command in _NO_FIELDS.items()}, Drop: "drop", SetRules: "rules", Say: "say",
}


def frame_type(command: Command) -> str:
    """The ``type`` of the frame ``command`` was parsed from (``rules`` for SetRules), for the logs."""
    return command.kind if isinstance(command, Offer) else _TYPE_NAMES[type(command)]


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
            raise BadFrame(gettext('A drop needs "peg", a peg name such as "b3".'))
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= 64:
            raise BadFrame(gettext('A drop needs "ply", the number of moves you saw (0 to 64).'))
        return Drop(peg=peg, ply=ply)
    if kind == "rules":
        changes = {key: value for key, value in frame.items() if key != "type"}
        unknown = sorted(set(changes) - set(RULE_FIELDS))
        if unknown:
            raise BadFrame(ngettext("Unknown house rule: %(rules)s.", "Unknown house rules: %(rules)s.", len(unknown))
                           % {"rules": ", ".join(unknown)})
        if not changes:
            raise BadFrame(gettext("A rules frame needs at least one rule to change."))
        return SetRules(changes=changes)
    if kind == "say":
        return _parse_say(frame)
    if kind in OFFER_KINDS:
        action = frame.get("action")
        if not isinstance(action, str) or action not in OFFER_ACTIONS:
            raise BadFrame(gettext('A %(type)s frame needs "action": "offer", "accept" or "decline".') % {"type": kind})
        return Offer(kind=kind, action=action)
    raise BadFrame(gettext('Unknown frame type "%(type)s".') % {"type": kind[:40]})


def _parse_say(frame: dict[str, Any]) -> Say:
    chat, text, phrase = frame.get("chat"), frame.get("text"), frame.get("phrase")
    if not isinstance(chat, str) or chat not in CHATS:
        raise BadFrame(gettext('A say needs "chat": "players" or "spectators".'))
    if (text is None) == (phrase is None):
        raise BadFrame(gettext('A say needs either "text" or "phrase".'))
    if text is not None and not isinstance(text, str):
        raise BadFrame(gettext('A say\'s "text" must be a string.'))
    if phrase is not None and (not isinstance(phrase, str) or phrase not in PHRASES):
        raise BadFrame(gettext("Unknown phrase; the phrases are %(phrases)s.") % {"phrases": ", ".join(PHRASES)})
    return Say(chat=chat, text=text, phrase=phrase)


# --- outbound ----------------------------------------------------------------------------------------
def room_frame(snapshot: dict[str, Any], *, player_id: str | None) -> dict[str, Any]:
    """The room snapshot for one connection: ``you`` says who they are and where they sit."""
    return {"type": "room", **snapshot, "you": _you(snapshot, player_id)}


def _you(snapshot: dict[str, Any], player_id: str | None) -> dict[str, Any]:
    seat = next(
        (s["seat"] for s in snapshot["seats"] if s["player"] is not None and s["player"]["id"] == player_id),
        None,
    )
    return {"player": player_id, "seat": seat}


def room_body_text(snapshot: dict[str, Any]) -> str:
    """The room frame without ``you``, as compact JSON: encoded once for every connection of a room
    (:func:`room_frame_text` adds each one's ``you``)."""
    return json.dumps({"type": "room", **snapshot}, separators=(",", ":"))


def room_frame_text(body: str, snapshot: dict[str, Any], *, player_id: str | None) -> str:
    """``room_frame(snapshot, player_id=...)`` as compact JSON, from ``body`` (``room_body_text(snapshot)``):
    only ``you`` is encoded here."""
    you = json.dumps(_you(snapshot, player_id), separators=(",", ":"))
    return f'{body[:-1]},"you":{you}}}'


# The fields of a ``move`` frame that a client copies into ``game`` (``peg`` is appended to its moves).
MOVE_GAME_FIELDS = ("ply", "to_move_seat", "deadline", "status", "winner_seat", "line", "reason", "threats",
                    "offers")


def move_frame(
    *, version: int, game_id: str, ply: int, peg: str, level: int, seat: int, cpu: bool,
    to_move_seat: int | None, deadline: str | None, status: str, winner_seat: int | None,
    line: list[dict[str, Any]] | None, reason: str | None, threats: dict[str, Any] | None,
    offers: list[dict[str, Any]],
) -> dict[str, Any]:
    """A move, sent instead of the whole room when nothing but the game changed.

    ``version`` is the room's version after the move and ``ply`` the moves played after it; the
    other fields are as in the room frame's ``game``. ``level`` (1..4) is where the bead landed, ``seat``
    who played it and ``cpu`` whether the CPU played it for that seat.
    """
    return {
        "type": "move", "version": version, "game": game_id, "ply": ply, "peg": peg, "level": level,
        "seat": seat, "cpu": cpu, "to_move_seat": to_move_seat, "deadline": deadline, "status": status,
        "winner_seat": winner_seat, "line": line, "reason": reason, "threats": threats, "offers": offers,
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


def spectators_frame_text(version: int, spectators: int) -> str:
    """A ``spectators`` frame as compact JSON: the room's spectator count at ``version``, nothing else changed."""
    return json.dumps({"type": "spectators", "version": version, "spectators": spectators}, separators=(",", ":"))


def apply_spectators(room: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any] | None:
    """What every client does with a ``spectators`` frame: the room frame it makes of its last one; None
    when ``frame`` does not follow ``room`` (a version gap: the client asks for the whole room)."""
    if frame["version"] != room["version"] + 1:
        return None
    return {**room, "version": frame["version"], "spectators": frame["spectators"]}


def notice_frame(code: str, seat: int) -> dict[str, Any]:
    return {"type": "notice", "code": code, "seat": seat}


def offer_frame(kind: str, seat: int, action: str) -> dict[str, Any]:
    """What a seat did with an offer (``action``: ``offer``, ``accept``, ``decline``); the standing offers
    themselves are in the room frame's ``game.offers``."""
    return {"type": "offer", "kind": kind, "seat": seat, "action": action}


def message_json(message: MessageRow) -> dict[str, Any]:
    """A chat message (a ``ChatMessage`` row) as frames carry it: ``id``, ``chat``, ``player`` (id and
    name then), ``text`` or ``phrase``, and ``at``."""
    said = {"phrase": message.phrase} if message.phrase else {"text": message.text}
    return {
        "id": message.pk,
        "chat": message.chat,
        "player": {"id": str(message.player_id), "name": message.author_name},
        **said,
        "at": iso(message.created_at),
    }


def chat_frame(message: dict[str, Any]) -> dict[str, Any]:
    """One chat message (a :func:`message_json`) as a frame."""
    return {"type": "chat", **message}


def chat_history_frame(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The messages a connection may read, oldest first, each as its ``chat`` frame."""
    return {"type": "chat_history", "messages": [chat_frame(message) for message in messages]}
